//! The plan being carried out and how far it got ([`Run`]): the calibration as last learned,
//! the moves sent and seen, the one cached frame of the last check ([`Frame`]), the refusals and
//! misses counted, and the check's screenshot of just the rows it needs.

use super::*;
use sudoku_reader::CellKind;

/// A screen as a check saw it, and when.
pub(super) struct Frame {
    pub(super) taken: Instant,
    /// Shared with a settle watching it ([`Settling`](sudoku_reader::stages::settling::Settling)), never copied.
    pub(super) image: Arc<image::RgbaImage>,
}

/// The plan being carried out, and how far it got.
pub(super) struct Run {
    /// The calibration, with the input order as last learned.
    pub(super) cal: Calibration,
    /// The board the plan starts from.
    pub(super) base: Board,
    /// Its empty cells that showed pencil notes (a player's, or left of ours).
    pub(super) base_notes: Vec<Cell>,
    /// The game's givens as the first read saw them. They never change during a game, while a
    /// later read may miss some (a same-number highlight recolours givens and entries alike):
    /// a replan takes its givens from here, or it may see several answers where there is one.
    pub(super) givens: Board,
    pub(super) moves: Vec<Move>,
    pub(super) plan: Plan,
    pub(super) done: usize,
    pub(super) taps_done: usize,
    /// Moves of the plan seen on the board by a check.
    pub(super) verified: usize,
    /// When each move done was sent.
    pub(super) sent_at: Vec<Instant>,
    /// A move of this run has landed as planned in the current input order.
    pub(super) order_checked: bool,
    /// Checks look at whole screens: the grid's rows alone once did not read where the whole
    /// screen did.
    pub(super) whole_checks: bool,
    /// Cells that took no digit once and were entered again (a second miss stops the run).
    pub(super) missed: Vec<Cell>,
    /// The last screen a check saw (the grid's rows at least), kept current: a check fetches
    /// only the rows of the cells its batch changed and lays them over this; a settle starts
    /// from it. The one copy of the last screen.
    pub(super) frame: Option<Frame>,
    /// Checks since the last that fetched all the grid's rows.
    pub(super) partial_checks: usize,
    /// The screen rows the last check's screenshot brought fresh.
    pub(super) fetched: std::ops::Range<u32>,
    /// The cell boundaries of the last check's frame that showed the board undimmed: what a
    /// scrim is seen against ([`cover::dimmed`]). None until a check reads the board, and after
    /// a cover.
    pub(super) clear: Option<Boundaries>,
    /// The number-first key guard: what is known of the keypad's looks, and which key tap
    /// awaits a look.
    pub(super) keys: KeyWatch,
    /// Refusals of taps in a row since the phone last took a call: the board the last check
    /// saw at each, and the moves sent by then.
    pub(super) refusals: Vec<(Board, usize)>,
    /// Taps of the moves since the last check were refused: cells that show nothing new are
    /// taps lost, entered again (not a miss, not a sign of the other input order).
    pub(super) refused: bool,
    /// The notes button was tapped once to switch notes mode off ([`Tapping::switch_notes_off`]).
    pub(super) notes_switched_off: bool,
    /// The empty cells the last read showed pencil notes in (none when it did not read).
    pub(super) noted: Vec<Cell>,
}

impl Run {
    /// A check's screenshot: the grid's rows only ([`check_rows`]), unless those once failed.
    /// Once the order is checked, most checks fetch only the rows of the cells their batch
    /// changed (a fraction of the bytes, which is most of a screenshot's cost) laid over the
    /// grid as last seen; every [`FULL_CHECK_EVERY`]th check, the checks before and after the
    /// last move and `full` ones fetch all the grid's rows, so a digit that strayed elsewhere is
    /// seen within a few checks, and all of them before the end.
    pub(super) fn check_shot(&mut self, device: &mut dyn Device, full: bool) -> Result<()> {
        if self.whole_checks {
            self.fetched = check_rows(&self.cal);
            let image = device.screenshot().context(CHECK_SHOT_FAILED)?;
            self.keys.note(&image, &self.cal);
            self.frame = Some(Frame {
                taken: Instant::now(),
                image: Arc::new(image),
            });
            return Ok(());
        }
        let all = check_rows(&self.cal);
        let partial = !full
            && self.order_checked
            && self.partial_checks + 1 < FULL_CHECK_EVERY
            && self.done + 1 < self.moves.len();
        let mut rows = match (&self.frame, partial) {
            (Some(_), true) => self.batch_rows().unwrap_or(all.clone()),
            _ => all.clone(),
        };
        if let (true, Some(keypad)) = (self.keys.wanted(&self.cal), &self.cal.keypad) {
            // One fetch from the batch's rows down (or up) to the keypad's.
            let keys = keys::keypad_rows(keypad);
            rows = rows.start.min(keys.start)..rows.end.max(keys.end);
        }
        let shot = device
            .screenshot_rows(rows.clone())
            .context(CHECK_SHOT_FAILED)?;
        let taken = Instant::now();
        self.keys.note(&shot, &self.cal);
        self.fetched = rows.clone();
        let covers_all = rows.start <= all.start && rows.end >= all.end;
        let image = match self.frame.take().map(|f| f.image) {
            Some(mut frame) if !covers_all && frame.dimensions() == shot.dimensions() => {
                // No settle holds it between checks: updated in place, not copied.
                let pixels = Arc::make_mut(&mut frame);
                let width = pixels.width();
                for y in rows {
                    for x in 0..width {
                        pixels.put_pixel(x, y, *shot.get_pixel(x, y));
                    }
                }
                self.partial_checks += 1;
                frame
            }
            _ => {
                self.partial_checks = 0;
                Arc::new(shot)
            }
        };
        self.frame = Some(Frame { taken, image });
        Ok(())
    }

    /// The last check's frame, taken out to be read while the run changes (put it back).
    pub(super) fn last_frame(&mut self) -> Frame {
        self.frame.take().expect("a check keeps its frame")
    }

    /// A check's screenshot's cell boundaries, and the brightness ratio when they look dimmed
    /// against the last clear check's ([`cover::dimmed`]).
    pub(super) fn boundaries(&self, shot: &image::RgbaImage) -> (Boundaries, Option<f32>) {
        let seen = Boundaries::of(shot, self.cal.grid);
        let dimmed = (self.clear.as_ref())
            .and_then(|clear| cover::dimmed(clear, &seen, self.fetched.clone()));
        (seen, dimmed)
    }

    /// Reads a check's screenshot; a dimmed one is no board (its taps would be swallowed),
    /// and one that reads undimmed becomes the frame the next is seen against.
    pub(super) fn read(
        &mut self,
        shot: &image::RgbaImage,
        profile: &Profile,
    ) -> Result<Recognition, sudoku_reader::ReadError> {
        let (seen, dimmed) = self.boundaries(shot);
        if let Some(ratio) = dimmed {
            return Err(sudoku_reader::ReadError::WrongScreen(format!(
                "the board dimmed to {:.0}% of its brightness: a dialog or an overlay over it?",
                ratio * 100.0
            )));
        }
        self.read_undimmed(shot, seen, profile)
    }

    /// Reads a check's screenshot whose boundaries (`seen`) showed no dimming; when it reads,
    /// they are what the next check is seen against.
    pub(super) fn read_undimmed(
        &mut self,
        shot: &image::RgbaImage,
        seen: Boundaries,
        profile: &Profile,
    ) -> Result<Recognition, sudoku_reader::ReadError> {
        let read = profile.read(shot).result;
        if read.is_ok() {
            self.clear = Some(seen);
        }
        self.noted = read
            .as_ref()
            .map(Recognition::noted_cells)
            .unwrap_or_default();
        read
    }

    /// The screen rows of the cells the moves since the last verified one changed, with the
    /// same margin as [`check_rows`].
    pub(super) fn batch_rows(&self) -> Option<std::ops::Range<u32>> {
        let rows = self.moves[self.verified..self.done]
            .iter()
            .map(|m| m.cell().row() as u32);
        let (top, bottom) = (rows.clone().min()?, rows.max()?);
        let g = self.cal.grid;
        let margin = g.height / 18;
        let all = check_rows(&self.cal);
        let start = (g.y + top * g.height / 9)
            .saturating_sub(margin)
            .max(all.start);
        let end = (g.y + (bottom + 1) * g.height / 9 + margin).min(all.end);
        Some(start..end)
    }

    /// Where the next checked batch ends, in moves and taps ([`batch_end`]).
    pub(super) fn watched_batch_end(&self) -> (usize, usize) {
        batch_end(
            &self.moves,
            &self.plan,
            (self.done, self.taps_done),
            self.keys.checks(&self.cal),
        )
    }

    /// After a check: the verdict on the key tap that ended the batch ([`KeyWatch::verdict`]),
    /// the keys' looks learned from the first move once a check saw it.
    pub(super) fn key_verdict(&mut self) -> Option<(usize, KeyLook)> {
        self.keys
            .verdict(self.moves.first(), self.verified >= 1, &self.cal)
    }

    /// Of `noted` (cells showing pencil notes), those where a move of ours was sent and which
    /// showed no notes before: our digits went in as notes.
    pub(super) fn ours_as_notes(&self, noted: &[Cell]) -> Vec<Cell> {
        let sent = &self.moves[..self.done];
        noted
            .iter()
            .copied()
            .filter(|c| !self.base_notes.contains(c) && sent.iter().any(|m| m.cell() == *c))
            .collect()
    }

    /// Every cell that differs from the plan shows nothing, or what it showed before the plan:
    /// no tap of ours landed there, nothing wrong did.
    pub(super) fn untouched(&self, seen: &Board, differ: &[Cell]) -> bool {
        differ
            .iter()
            .all(|&c| seen.get(c).is_none() || seen.get(c) == self.base.get(c))
    }

    /// Every cell that differs from the plan shows nothing where a digit was planned, and
    /// none of them missed before: taps were lost, no wrong digit landed.
    pub(super) fn lost_taps_only(&self, expected: &Board, seen: &Board, differ: &[Cell]) -> bool {
        differ.iter().all(|&c| {
            seen.get(c).is_none() && expected.get(c).is_some() && !self.missed.contains(&c)
        })
    }

    /// Moves verified when cells sent moments ago show nothing yet and nothing else is amiss
    /// ([`blank_while_drawn`]); `None` where the run must not go on unverified: the input order
    /// not proven yet, or only the last move left (after it the board may be gone).
    pub(super) fn still_drawn(
        &self,
        expected: &Board,
        seen: &Board,
        differ: &[Cell],
    ) -> Option<usize> {
        // A cell showing pencil notes is no digit still being drawn: our digit may have gone
        // in as a note (notes mode on), which the settled look tells.
        if !self.order_checked
            || self.done + 1 >= self.moves.len()
            || differ.iter().any(|c| self.noted.contains(c))
        {
            return None;
        }
        let recent: Vec<bool> = self.sent_at[self.verified..self.done]
            .iter()
            .map(|at| at.elapsed() < DRAWING)
            .collect();
        let first_blank = blank_while_drawn(
            &self.moves[self.verified..self.done],
            &recent,
            (expected, seen, differ),
            &self.missed,
        )?;
        Some(self.verified + first_blank)
    }

    /// The board is gone right after the last move, and every move before it was seen on the
    /// board: the app shows its end screen.
    pub(super) fn ended(&self) -> bool {
        self.done == self.moves.len() && self.verified + 1 >= self.moves.len()
    }

    /// A fresh plan from the board as it is now (after an interruption or a re-learned order).
    pub(super) fn replan(&mut self, now: Recognition, options: &PlayOptions) -> Result<()> {
        let mut timings = Timings::default();
        let mut now = now;
        keep_givens(&mut now.readings, &self.givens);
        let fresh = assess_read(now, &self.cal, options, &mut timings)?;
        self.base = fresh.recognition.board;
        self.base_notes = fresh.recognition.noted_cells();
        self.moves = fresh.moves;
        self.plan = fresh.plan;
        self.done = 0;
        self.taps_done = 0;
        self.verified = 0;
        self.sent_at.clear();
        self.frame = None;
        self.keys.replanned();
        self.refused = false;
        Ok(())
    }
}

/// Gives `readings` (81, in cell order) the game's `givens`: a cell showing its given digit is
/// a given, any other digit is the player's entry.
fn keep_givens(readings: &mut [sudoku_reader::Reading], givens: &Board) {
    for (cell, reading) in Cell::all().zip(readings.iter_mut()) {
        if reading.digit.is_none() {
            continue;
        }
        reading.kind = if givens.get(cell).is_some() && givens.get(cell) == reading.digit {
            CellKind::Given
        } else {
            CellKind::Entry
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replan_keeps_the_games_givens_whatever_kinds_a_later_read_gave() {
        let mut givens = Board::default();
        givens.set(Cell::all().next().unwrap(), Some(5));
        givens.set(Cell::all().nth(1).unwrap(), Some(3));
        let mut readings: Vec<sudoku_reader::Reading> = Cell::all()
            .map(|c| sudoku_reader::Reading {
                cell: c.to_string(),
                digit: None,
                kind: CellKind::Empty,
                score: 0.0,
                margin: 0.0,
                runner_up: None,
                notes: false,
            })
            .collect();
        // A highlighted given read as an entry, a given overwritten, an entry read as a given.
        for (i, digit, kind) in [
            (0, 5, CellKind::Entry),
            (1, 4, CellKind::Entry),
            (2, 7, CellKind::Given),
        ] {
            readings[i].digit = Some(digit);
            readings[i].kind = kind;
        }
        keep_givens(&mut readings, &givens);
        let kinds: Vec<CellKind> = readings.iter().take(4).map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                CellKind::Given,
                CellKind::Entry,
                CellKind::Entry,
                CellKind::Empty
            ]
        );
    }
}
