//! [`Strategy::Fast`]: a band-oriented propagating backtracker, reporting every fill.
//!
//! The position is 27 words of 27 bits, one per digit and band (three rows of nine cells): the
//! cells of that band where the digit may still go, a placed digit keeping its own cell. A band
//! word is updated with three table look-ups (JCZSolve's idea, tables built here at compile
//! time): which boxes each row can still use gives the row-to-box assignments that remain, which
//! clears box/line conflicts inside the band; a box left with one column clears that column in
//! the other two bands; a row left with one cell is a fill. Naked singles are counted bit-sliced
//! across the nine digits of a band. When nothing more follows, the search guesses in the cell
//! with two candidates that reaches the most peers (else the cell with fewest), copying the
//! position. The search is compiled twice, portably and with POPCNT/BMI/AVX2 (chosen at run time).
//!
//! Every fill, deduced or guessed, is reported as a `Set` the moment it is made, and the trail
//! of fills lets backtracking report the `Cancel`s newest first; with an observer that ignores
//! events (`()`), nothing is written per fill: the fills of each node are counted in one go
//! from the unsolved cells before and after, and the solution is read off the words.

use super::{Halt, Run, StopReason};
use crate::sudoku::{Board, SolveObserver};

/// The 27 cells of a band, bit `9 * row + column`; also the 27 words (bit `3 * digit + band`).
const BAND: u32 = (1 << 27) - 1;
const ROW: u32 = 0x1FF;

/// The search position.
#[derive(Clone, Copy)]
struct State {
    /// `cand[3 * d + b]`: the cells of band `b` where digit index `d` may still go. Five spare
    /// words make every index masked with `& 31` provably in bounds.
    cand: [u32; 32],
    /// The cells of each band not yet filled.
    unsolved: [u32; 3],
    /// Without events: `unsolved` as the fills were last counted, so that the fills since are
    /// counted in one go.
    counted: [u32; 3],
    /// Each word as its last update left it: a word that differs has changed since (comparing
    /// all 27 at once is cheaper than noting each change as it is made).
    prev: [u32; 32],
    /// Words updated since the column rules last looked at their digit: only those digits
    /// can give the rules anything new.
    touched: u32,
}

impl State {
    /// The puzzle's position with its givens placed; `None` if two givens clash.
    fn new(puzzle: &Board) -> Option<State> {
        let cells = puzzle.cells();
        // The givens of each band as a mask, built without a branch per cell: which cells
        // hold a given is unpredictable, and mispredictions dominated this set-up.
        let mut given = [0u32; 3];
        for (b, g) in given.iter_mut().enumerate() {
            for (p, &d) in cells[27 * b..27 * b + 27].iter().enumerate() {
                *g |= ((d != 0) as u32) << p;
            }
        }
        let mut placed = [0u32; 32];
        for (b, &g) in given.iter().enumerate() {
            let mut rest = g;
            while rest != 0 {
                let p = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let d = cells[27 * b + p % 27] as usize;
                placed[(3 * d + b - 3) & 31] |= 1 << p;
            }
        }
        let mut cand = [0u32; 32];
        for (k, c) in cand.iter_mut().take(27).enumerate() {
            *c = (BAND & !given[k % 3]) | placed[k];
        }
        for (k, &w) in placed.iter().take(27).enumerate() {
            let (k1, k2) = OTHER_BANDS[k];
            let mut rest = w;
            while rest != 0 {
                let p = rest.trailing_zeros() as usize % 27;
                rest &= rest - 1;
                cand[k] &= KEEP[p];
                cand[k1 as usize & 31] &= !COLUMN[p % 9];
                cand[k2 as usize & 31] &= !COLUMN[p % 9];
            }
        }
        // A given cleared by another given's peers means the two clash.
        let clash = placed
            .iter()
            .zip(&cand)
            .fold(0, |acc, (&p, &c)| acc | (p & !c));
        if clash != 0 {
            return None;
        }
        Some(State {
            cand,
            unsolved: [BAND & !given[0], BAND & !given[1], BAND & !given[2]],
            counted: [BAND & !given[0], BAND & !given[1], BAND & !given[2]],
            // Never a word's value: every word differs, so every word is updated first.
            prev: {
                let mut prev = [u32::MAX; 32];
                prev[27..].fill(0);
                prev
            },
            touched: 0,
        })
    }

    /// The board the words spell out once every cell is filled (each cell is in exactly one
    /// digit's word).
    fn board(&self) -> Board {
        let mut cells = [0u8; 81];
        for (k, &w) in self.cand.iter().take(27).enumerate() {
            let mut rest = w;
            while rest != 0 {
                cells[27 * (k % 3) + rest.trailing_zeros() as usize] = (k / 3) as u8 + 1;
                rest &= rest - 1;
            }
        }
        Board::from_cells(cells).expect("digits 1..=9")
    }

    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Puts digit index `d` into the unsolved cell `bit` of band `b`, which holds it as a
    /// candidate: clears the digit from the cell's row, box and column and, unless it was the
    /// cell's only candidate, the cell from the other digits.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32, only_candidate: bool) {
        let k = 3 * d + b;
        let p = bit.trailing_zeros() as usize;
        self.unsolved[b] &= !bit;
        let (k1, k2) = OTHER_BANDS[k & 31];
        self.cand[k1 as usize & 31] &= !COLUMN[p % 9];
        self.cand[k2 as usize & 31] &= !COLUMN[p % 9];
        if !only_candidate {
            for e in 0..9 {
                self.cand[3 * e + b] &= !bit;
            }
        }
        self.cand[k & 31] = (self.cand[k & 31] & KEEP[p]) | bit;
    }

    /// The words changed since their last update, bit `3 * d + b`.
    #[inline(always)]
    fn dirty(&self) -> u32 {
        let mut m = 0;
        for k in 0..32 {
            m |= ((self.cand[k] != self.prev[k]) as u32) << k;
        }
        m
    }

    /// The column rules, for every digit updated since they last ran: a column the digit can
    /// use in one band only must hold it there, so in that band its box keeps just that column;
    /// a column no band can use is a contradiction. `Ok(true)` when a word changed. Run when the
    /// band updates and naked singles have nothing left, since it looks at whole digits.
    #[inline(always)]
    fn columns(&mut self) -> Result<bool, Halt> {
        let cols = |w: u32| (w | w >> 9 | w >> 18) & ROW;
        let mut changed = false;
        let mut digits = self.touched;
        self.touched = 0;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize / 3;
            digits &= !(7 << (3 * d));
            let k = 3 * d % 27;
            let (w0, w1, w2) = (self.cand[k], self.cand[k + 1], self.cand[k + 2]);
            let (p0, p1, p2) = (cols(w0), cols(w1), cols(w2));
            if p0 | p1 | p2 != ROW {
                return Err(Halt::Dead);
            }
            let n0 = w0 & ONLY_COLUMN_KEEP[(p0 & !(p1 | p2)) as usize];
            let n1 = w1 & ONLY_COLUMN_KEEP[(p1 & !(p0 | p2)) as usize];
            let n2 = w2 & ONLY_COLUMN_KEEP[(p2 & !(p0 | p1)) as usize];
            self.cand[k] = n0;
            self.cand[k + 1] = n1;
            self.cand[k + 2] = n2;
            changed |= (n0 != w0) | (n1 != w1) | (n2 != w2);
        }
        Ok(changed)
    }

    /// How many unsolved peers of cell `bit` in band `b` have one of `digits` as a candidate.
    #[inline(always)]
    fn reach(&self, b: usize, bit: u32, digits: u16) -> u32 {
        let p = bit.trailing_zeros() as usize;
        let (d1, d2) = (
            digits.trailing_zeros() as usize,
            15 - digits.leading_zeros() as usize,
        );
        let mut n = 0;
        for bb in 0..3 {
            let peers = if bb == b { !KEEP[p] } else { COLUMN[p % 9] };
            let either = self.cand[3 * d1 + bb] | self.cand[3 * d2 + bb];
            n += (either & self.unsolved[bb] & peers).count_ones();
        }
        n
    }

    /// The digit to try first in cell `bit` of band `b`: of two, the one that rules out more
    /// candidates among the cell's peers, since its branch ends sooner either way (about 5%
    /// fewer steps on the hardest set); else the smallest.
    #[inline(always)]
    fn first_guess(&self, b: usize, bit: u32, digits: u16) -> usize {
        let low = digits.trailing_zeros() as usize;
        if digits.count_ones() != 2 {
            return low;
        }
        let high = 15 - digits.leading_zeros() as usize;
        if self.reach(b, bit, 1 << high) > self.reach(b, bit, 1 << low) {
            high
        } else {
            low
        }
    }

    /// The digits (bit `d` for digit index `d`) that may go in cell `bit` of band `b`.
    #[inline(always)]
    fn digits_at(&self, b: usize, bit: u32) -> u16 {
        let mut m = 0u16;
        for d in 0..9 {
            m |= ((self.cand[3 * d + b] & bit != 0) as u16) << d;
        }
        m
    }

    /// The cell to guess in, as (band, cell bit, candidate digits): of the cells with two
    /// candidates (`pairs`, per band, from the last count), the one whose digits are candidates
    /// in the most unsolved peers (either guess then removes the most; on the hardest sets this
    /// halves the search against taking the first), else the first cell with the fewest
    /// candidates.
    #[inline(always)]
    fn guess_cell(&self, pairs: [u32; 3]) -> (usize, u32, u16) {
        let mut best_pair = (0u32, 0usize, 0u32);
        for (b, &pairs) in pairs.iter().enumerate() {
            let mut pairs = pairs;
            while pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                pairs ^= bit;
                let digits = self.digits_at(b, bit);
                let reach = self.reach(b, bit, digits);
                if reach > best_pair.0 {
                    best_pair = (reach, b, bit);
                }
            }
        }
        if best_pair.0 > 0 {
            let (_, b, bit) = best_pair;
            return (b, bit, self.digits_at(b, bit));
        }
        let mut best = (u32::MAX, 0, 0, 0);
        for b in 0..3 {
            let mut rest = self.unsolved[b];
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest ^= bit;
                let digits = self.digits_at(b, bit);
                if digits.count_ones() < best.0 {
                    best = (digits.count_ones(), b, bit, digits);
                }
            }
        }
        (best.1, best.2, best.3)
    }
}

/// Cells filled on the current path, in order, so backtracking can cancel them newest first.
struct Trail {
    cells: [u8; 81],
    len: usize,
}

impl Trail {
    #[inline(always)]
    fn push(&mut self, cell: usize) {
        self.cells[self.len] = cell as u8;
        self.len += 1;
    }
}

impl<O: SolveObserver> Run<'_, O> {
    pub(super) fn fast(&mut self, puzzle: &Board) {
        let Some(mut state) = State::new(puzzle) else {
            return; // givens break a rule
        };
        let mut trail = Trail {
            cells: [0; 81],
            len: 0,
        };
        if self.fast_search(&mut state, &mut trail) == Err(Halt::Dead) {
            // Exhausted: take back what the top level filled, so replay ends on the puzzle.
            let _ = self.undo_to(&mut trail, 0);
        }
    }

    /// [`Run::fast_search_body`], compiled with POPCNT, BMI and AVX2 when this CPU has them (the
    /// default x86-64 target counts bits in software), else portably.
    fn fast_search(&mut self, st: &mut State, trail: &mut Trail) -> Result<(), Halt> {
        #[cfg(target_arch = "x86_64")]
        if x86_features() {
            // SAFETY: `fast_search_x86` only enables POPCNT, BMI1, BMI2, LZCNT and AVX2, which
            // this CPU was just found to have; it is otherwise the portable code.
            return unsafe { self.fast_search_x86(st, trail) };
        }
        self.fast_search_portable(st, trail)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fn fast_search_x86(&mut self, st: &mut State, trail: &mut Trail) -> Result<(), Halt> {
        self.fast_search_body::<true>(st, trail)
    }

    fn fast_search_portable(&mut self, st: &mut State, trail: &mut Trail) -> Result<(), Halt> {
        self.fast_search_body::<false>(st, trail)
    }

    /// Propagates, then guesses and recurses (into the same compiled flavour, `X86`). Fills
    /// made here stay on the trail when this returns `Dead`: the caller cancels everything
    /// after its own mark.
    #[inline(always)]
    fn fast_search_body<const X86: bool>(
        &mut self,
        st: &mut State,
        trail: &mut Trail,
    ) -> Result<(), Halt> {
        let propagated = self.propagate(st, trail);
        if O::IGNORES_EVENTS {
            self.count_fills(trail, st)?;
        }
        let pairs = propagated?;
        if st.solved() {
            return Err(if self.found_solution(st.board()) {
                Halt::Done
            } else {
                Halt::Dead
            });
        }
        let (b, bit, mut digits) = st.guess_cell(pairs);
        let cell = 27 * b + bit.trailing_zeros() as usize;
        let mut first = st.first_guess(b, bit, digits);
        loop {
            let d = if first < 9 {
                std::mem::replace(&mut first, 9)
            } else {
                digits.trailing_zeros() as usize
            };
            digits &= !(1 << d);
            if digits == 0 {
                // The last candidate left: no copy needed, the caller owns `st`.
                st.place(d, b, bit, false);
                if !O::IGNORES_EVENTS {
                    self.emit_set(cell, d as u8 + 1)?;
                    trail.push(cell);
                }
                return self.recurse::<X86>(st, trail);
            }
            self.guesses += 1;
            let mark = trail.len;
            let mut child = *st;
            child.place(d, b, bit, false);
            if !O::IGNORES_EVENTS {
                self.emit_set(cell, d as u8 + 1)?;
                trail.push(cell);
            }
            match self.recurse::<X86>(&mut child, trail) {
                Err(Halt::Dead) => {}
                other => return other,
            }
            self.undo_to(trail, mark)?;
            let k = 3 * d + b;
            st.cand[k & 31] &= !bit;
        }
    }

    #[inline(always)]
    fn recurse<const X86: bool>(&mut self, st: &mut State, trail: &mut Trail) -> Result<(), Halt> {
        #[cfg(target_arch = "x86_64")]
        if X86 {
            // SAFETY: `X86` is only true inside `fast_search_x86`, entered after finding POPCNT,
            // BMI1, BMI2, LZCNT and AVX2 on this CPU.
            return unsafe { self.fast_search_x86(st, trail) };
        }
        self.fast_search_portable(st, trail)
    }

    /// Without events: counts the cells filled since the last count as `Set`s, within the
    /// budget, and as fills on the trail (its length alone: the cells are not needed).
    #[inline(always)]
    fn count_fills(&mut self, trail: &mut Trail, st: &mut State) -> Result<(), Halt> {
        let (before, now) = (st.counted, st.unsolved);
        st.counted = now;
        let n = (before[0] & !now[0]).count_ones()
            + (before[1] & !now[1]).count_ones()
            + (before[2] & !now[2]).count_ones();
        self.sets += n as u64;
        trail.len += n as usize;
        if self.sets > self.max_steps {
            self.sets = self.max_steps;
            self.stop = Some(StopReason::StepBudget {
                max_steps: self.max_steps,
            });
            return Err(Halt::Done);
        }
        Ok(())
    }

    /// Cancels the fills recorded after `mark`, newest first.
    #[inline(always)]
    fn undo_to(&mut self, trail: &mut Trail, mark: usize) -> Result<(), Halt> {
        if O::IGNORES_EVENTS {
            self.cancels += (trail.len - mark) as u64;
            trail.len = mark;
            return Ok(());
        }
        while trail.len > mark {
            trail.len -= 1;
            self.emit_cancel(trail.cells[trail.len] as usize)?;
        }
        Ok(())
    }

    /// Updates changed band words until none is left, then fills naked singles, or failing
    /// that applies the column rules, and starts again, until nothing changes or the board is
    /// full. `Err(Dead)` on a contradiction.
    #[inline(always)]
    fn propagate(&mut self, st: &mut State, trail: &mut Trail) -> Result<[u32; 3], Halt> {
        loop {
            // In batches: which word comes next depends only on the batch, not on what the
            // update before it changed, so the processor can overlap consecutive updates.
            loop {
                let mut batch = st.dirty();
                if batch == 0 {
                    break;
                }
                st.touched |= batch;
                while batch != 0 {
                    let k = batch.trailing_zeros() as usize;
                    batch &= batch - 1;
                    self.update(st, trail, k)?;
                }
            }
            if st.solved() {
                return Ok([0; 3]);
            }
            let mut filled = false;
            let mut pairs = [0u32; 3];
            for (b, pairs) in pairs.iter_mut().enumerate() {
                let (mut ones, mut twos, mut threes) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let c = st.cand[3 * d + b];
                    threes |= twos & c;
                    twos |= ones & c;
                    ones |= c;
                }
                *pairs = twos & !threes;
                if ones != BAND {
                    return Err(Halt::Dead); // a cell with no candidate
                }
                let mut singles = ones & !twos & st.unsolved[b];
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles ^= bit;
                    // An earlier single of this batch may have taken this cell's last digit.
                    let d = (0..9)
                        .find(|&d| st.cand[3 * d + b] & bit != 0)
                        .ok_or(Halt::Dead)?;
                    st.place(d, b, bit, true);
                    if !O::IGNORES_EVENTS {
                        let cell = 27 * b + bit.trailing_zeros() as usize;
                        self.emit_set(cell, d as u8 + 1)?;
                        trail.push(cell);
                    }
                    filled = true;
                }
            }
            if !filled && !st.columns()? {
                // Nothing changed since the count above: its pairs are current.
                return Ok(pairs);
            }
        }
    }

    /// Brings word `k` (digit `k / 3`, band `k % 3`) in line with the rules inside its band,
    /// clears columns it fixes from the digit's other bands, and fills rows left with one cell.
    #[inline(always)]
    fn update(&mut self, st: &mut State, trail: &mut Trail, k: usize) -> Result<(), Halt> {
        let cols = |w: u32| (w | w >> 9 | w >> 18) & ROW;
        let k = k & 31;
        let w = st.cand[k];
        let boxes = ROW_BOXES[(w & ROW) as usize] as usize
            | (ROW_BOXES[(w >> 9 & ROW) as usize] as usize) << 3
            | (ROW_BOXES[(w >> 18 & ROW) as usize] as usize) << 6;
        let assigned = w & ASSIGNABLE[boxes & 511];
        if assigned == 0 {
            return Err(Halt::Dead);
        }
        let (k1, k2) = OTHER_BANDS[k];
        let (k1, k2) = (k1 as usize & 31, k2 as usize & 31);
        let keep = OTHER_BAND_KEEP[cols(assigned) as usize];
        let (w, w1, w2) = (assigned, st.cand[k1] & keep, st.cand[k2] & keep);
        st.cand[k1] = w1;
        st.cand[k2] = w2;
        let b = k % 3;
        let new = w & single_rows(w) & st.unsolved[b];
        if new != 0 {
            st.unsolved[b] &= !new;
            for e in 0..9 {
                st.cand[3 * e + b] &= !new;
            }
        }
        st.cand[k] = w;
        st.prev[k] = w;
        if O::IGNORES_EVENTS {
            return Ok(()); // counted when propagation ends
        }
        let d = k / 3;
        let mut rest = new;
        while rest != 0 {
            let cell = 27 * b + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.emit_set(cell, d as u8 + 1)?;
            trail.push(cell);
        }
        Ok(())
    }
}

/// Whether this CPU has what `fast_search_x86` is compiled for (the answers are cached by std).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn x86_features() -> bool {
    #[cfg(test)]
    if tests::PORTABLE_ONLY.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("avx2")
}

/// The rows of band word `w` with at most one cell, as a cell mask (an empty row adds no cell).
#[inline(always)]
fn single_rows(w: u32) -> u32 {
    let one = |r: u32| ((r & r.wrapping_sub(1)) == 0) as u32;
    let (r0, r1, r2) = (w & ROW, w >> 9 & ROW, w >> 18 & ROW);
    (one(r0) * ROW) | (one(r1) * ROW) << 9 | (one(r2) * ROW) << 18
}

/// A table of `$len` entries built at compile time, entry `$i` being `$entry` (const code has
/// no `for`); entries from `$filled` on keep `$zero`.
macro_rules! table {
    ($zero:expr; $len:expr, |$i:ident| $entry:expr) => {
        table!($zero; $len, $len, |$i| $entry)
    };
    ($zero:expr; $len:expr, $filled:expr, |$i:ident| $entry:expr) => {{
        let mut t = [$zero; $len];
        let mut $i = 0;
        while $i < $filled {
            t[$i] = $entry;
            $i += 1;
        }
        t
    }};
}

/// For each cell of a band: the band with the cell's row and box cleared, the cell kept.
const KEEP: [u32; 27] = table!(0; 27, |p| {
    let mut m = BAND;
    let mut q = 0;
    while q < 27 {
        if q != p && (q / 9 == p / 9 || q % 9 / 3 == p % 9 / 3) {
            m &= !(1 << q);
        }
        q += 1;
    }
    m
});

/// The three cells of column `c` in a band.
const COLUMN: [u32; 9] = table!(0; 9, |c| (1 | 1 << 9 | 1 << 18) << c);

/// For each word, the same digit's words in the two other bands.
const OTHER_BANDS: [(u8, u8); 32] = table!((0, 0); 32, 27, |k| {
    let base = k - k % 3;
    ((base + (k + 1) % 3) as u8, (base + (k + 2) % 3) as u8)
});

/// For the nine cells of a row: bit `x` set when box column `x` (cells `3x..3x+3`) has any.
const ROW_BOXES: [u8; 512] = table!(0; 512, |r| {
    (r & 7 != 0) as u8 | ((r >> 3 & 7 != 0) as u8) << 1 | ((r >> 6 & 7 != 0) as u8) << 2
});

/// For the boxes each row of a band can use (bit `3 * row + box`): the cells of the row/box
/// pairs that belong to some assignment of the three rows to three different boxes, which is
/// how a digit fills a band; 0 when there is none. Keeping only these applies every box/line
/// elimination inside the band.
const ASSIGNABLE: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    table!(0; 512, |s| {
        let mut m = 0u32;
        let mut i = 0;
        while i < 6 {
            let p = PERMS[i];
            if (s >> p[0]) & (s >> (3 + p[1])) & (s >> (6 + p[2])) & 1 == 1 {
                m |= 7 << (3 * p[0]) | 7 << (9 + 3 * p[1]) | 7 << (18 + 3 * p[2]);
            }
            i += 1;
        }
        m
    })
};

/// The columns of `cols` (bit `c` for column `c`) alone in their stack, as band cells.
const fn lone_columns(cols: usize) -> u32 {
    let mut m = 0;
    let mut x = 0;
    while x < 3 {
        let three = (cols >> (3 * x)) & 7;
        if three == 1 || three == 2 || three == 4 {
            m |= COLUMN[3 * x + three.trailing_zeros() as usize];
        }
        x += 1;
    }
    m
}

/// The stacks (three columns each) holding any of `cols`, as band cells.
const fn used_stacks(cols: usize) -> u32 {
    let mut m = 0;
    let mut c = 0;
    while c < 9 {
        if cols >> c & 1 == 1 {
            m |= COLUMN[c / 3 * 3] | COLUMN[c / 3 * 3 + 1] | COLUMN[c / 3 * 3 + 2];
        }
        c += 1;
    }
    m
}

/// For the columns a digit can still use in one band (after [`ASSIGNABLE`], so every box has
/// one): what the digit's other bands keep. A box left with one column puts the digit's cell of
/// this band in that column, so the other bands lose it.
const OTHER_BAND_KEEP: [u32; 512] = table!(0; 512, |cols| BAND & !lone_columns(cols));

/// For the columns a digit can use only in this band: what the band keeps. In a box with one
/// such column the digit's cell is in that column; with two or more, nowhere.
const ONLY_COLUMN_KEEP: [u32; 512] =
    table!(0; 512, |only| (BAND & !used_stacks(only)) | lone_columns(only));

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::{Outcome, SolveOptions, Strategy, solve, solve_with};
    use super::*;
    use crate::sudoku::{Recorder, SolveEvent};

    #[test]
    fn fast_solves_every_named_hard_puzzle_keeping_the_givens() {
        for (puzzle, label) in named_hard() {
            match solve(&puzzle) {
                Outcome::Solved { board, stats } => {
                    assert!(board.is_solution_of(&puzzle), "{label}");
                    assert!(stats.sets >= 81 - puzzle.filled_count() as u64);
                }
                other => panic!("{label}: {other:?}"),
            }
        }
    }

    #[test]
    fn fast_agrees_with_naive_on_kaggle_puzzles_and_proves_them_unique() {
        let kaggle = std::fs::read_to_string(puzzles_dir().join("kaggle_10k.txt")).unwrap();
        for line in crate::sudoku::puzzle_lines(&kaggle).take(200) {
            let puzzle = line.board.unwrap();
            let unique = SolveOptions {
                unique: true,
                ..SolveOptions::default()
            };
            let fast = solve_with(&puzzle, unique, &mut ());
            let naive = solve_with(&puzzle, Strategy::Naive, &mut ());
            assert!(matches!(fast, Outcome::Solved { .. }), "{fast:?}");
            assert_eq!(fast.solution(), naive.solution());
        }
    }

    /// Makes the search take its portable flavour; only the test below sets it (other tests
    /// running meanwhile only take the other, equivalent, flavour).
    pub(super) static PORTABLE_ONLY: std::sync::atomic::AtomicBool =
        std::sync::atomic::AtomicBool::new(false);

    #[test]
    fn the_portable_search_makes_exactly_the_moves_of_the_detected_one() {
        use std::sync::atomic::Ordering::Relaxed;
        let mut puzzles: Vec<Board> = named_hard().into_iter().map(|(b, _)| b).collect();
        puzzles.extend([L52, EASY, DEAD_END].map(board));
        for puzzle in puzzles {
            let options = SolveOptions {
                unique: true,
                ..SolveOptions::default()
            };
            let run = |portable: bool| {
                PORTABLE_ONLY.store(portable, Relaxed);
                let mut recorder = Recorder::new();
                let seen = solve_with(&puzzle, options, &mut recorder);
                let blind = solve_with(&puzzle, options, &mut ());
                PORTABLE_ONLY.store(false, Relaxed);
                let counts = |o: &Outcome| (o.stats().sets, o.stats().cancels, o.stats().guesses);
                (
                    recorder.events,
                    seen.kind(),
                    counts(&seen),
                    blind.solution().copied(),
                    counts(&blind),
                )
            };
            assert_eq!(run(true), run(false), "{puzzle:?}");
        }
    }

    #[test]
    fn without_an_observer_fast_counts_exactly_what_a_recorder_sees() {
        let mut cases: Vec<Board> = named_hard().into_iter().map(|(b, _)| b).collect();
        cases.extend([L52, DEAD_END, ANTI_BACKTRACKER].map(board));
        for puzzle in cases {
            for (unique, max_steps) in [(false, None), (true, None), (true, Some(100))] {
                let options = SolveOptions {
                    unique,
                    max_steps,
                    ..SolveOptions::default()
                };
                let mut recorder = Recorder::new();
                let seen = solve_with(&puzzle, options, &mut recorder);
                let blind = solve_with(&puzzle, options, &mut ());
                let sets = recorder
                    .events
                    .iter()
                    .filter(|e| matches!(e, SolveEvent::Set { .. }))
                    .count() as u64;
                let cancels = recorder.events.len() as u64 - sets;
                let (a, b) = (seen.stats(), blind.stats());
                assert_eq!((a.sets, a.cancels), (sets, cancels));
                assert_eq!((b.sets, b.guesses), (a.sets, a.guesses), "{puzzle:?}");
                assert_eq!(seen.kind(), blind.kind());
                assert_eq!(seen.solution(), blind.solution());
                if !matches!(seen, Outcome::Stopped { .. }) {
                    assert_eq!(b.cancels, a.cancels);
                }
            }
        }
    }

    /// Whether some assignment of rows to distinct boxes uses box `x` for row `r`, the plain way.
    fn assignable_by_trying(boxes: usize, r: usize, x: usize) -> bool {
        let usable = |r: usize, x: usize| boxes >> (3 * r + x) & 1 == 1;
        (0..3).any(|a| {
            (0..3).any(|b| {
                (0..3).any(|c| {
                    a != b && b != c && a != c && usable(0, a) && usable(1, b) && usable(2, c) && {
                        [a, b, c][r] == x
                    }
                })
            })
        })
    }

    #[test]
    fn the_band_tables_agree_with_the_rules_checked_one_by_one() {
        for (boxes, &mask) in ASSIGNABLE.iter().enumerate() {
            for p in 0..27 {
                let (r, x) = (p / 9, p % 9 / 3);
                let kept = mask >> p & 1 == 1;
                assert_eq!(kept, assignable_by_trying(boxes, r, x), "{boxes:o} {p}");
            }
        }
        for cols in 0..512u32 {
            for (c, &column) in COLUMN.iter().enumerate() {
                let stack = cols >> (c / 3 * 3) & 7;
                let alone = stack == 1 << (c % 3);
                assert_eq!(OTHER_BAND_KEEP[cols as usize] & column == 0, alone);
            }
        }
        for (p, &keep) in KEEP.iter().enumerate() {
            let peers = (0..27).filter(|&q| keep >> q & 1 == 0).count();
            assert_eq!(peers, 8 + 6, "a cell has 14 peers in its band");
            assert_eq!(keep >> p & 1, 1);
        }
        assert_eq!(single_rows(0o001_120_400), 0o777_000_777);
    }
}
