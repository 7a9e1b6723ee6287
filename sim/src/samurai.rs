//! A screen the agent must refuse: a samurai sudoku, five 9x9 grids overlapping at their corner
//! boxes (21 by 21 cells), drawn in a skin's colours and fonts above its keypad, as samurai apps
//! show it. Any one 9x9 region of it looks like a board, but none stands alone: lines run on past
//! it. Not playable: taps do nothing.

use crate::app::check_size;
use crate::geometry::{Point, Rect, Size};
use crate::layout::AppLayout;
use crate::render::render_multigrid;
use crate::{Screen, Skin};
use anyhow::Result;
use image::RgbaImage;

/// Cells across (and down) a samurai puzzle.
pub const SPAN: usize = 21;

/// Top-left cells (row, column) of the five 9x9 grids: four corners and the centre.
pub const GRIDS: [(usize, usize); 5] = [(0, 0), (0, 12), (12, 0), (12, 12), (6, 6)];

/// Whether cell (row, col) of the 21x21 square belongs to one of the five grids.
pub fn in_a_grid(row: usize, col: usize) -> bool {
    GRIDS
        .iter()
        .any(|&(r, c)| (r..r + 9).contains(&row) && (c..c + 9).contains(&col))
}

/// A samurai puzzle on a simulated phone.
pub struct SamuraiScreen {
    skin: Skin,
    layout: AppLayout,
    givens: [[u8; SPAN]; SPAN],
    frame: Option<RgbaImage>,
}

impl SamuraiScreen {
    /// A samurai puzzle chosen by `seed`, in `skin` at `size`. Fails on a size the simulated
    /// phone does not offer.
    pub fn new(skin: Skin, size: Size, seed: u64) -> Result<SamuraiScreen> {
        check_size(size)?;
        Ok(SamuraiScreen {
            layout: AppLayout::new(&skin, size),
            skin,
            givens: samurai_givens(seed),
            frame: None,
        })
    }

    /// The 21x21 square the five grids fill on screen.
    pub fn square(&self) -> Rect {
        self.layout.grid
    }

    /// The givens, row by row over the 21x21 square (0: empty or outside the five grids).
    pub fn givens(&self) -> &[[u8; SPAN]; SPAN] {
        &self.givens
    }
}

/// A valid samurai solution thinned to about a third of its cells, symmetric about the centre.
/// The solution is one pattern over the whole square, `(3 (r mod 3) + r div 3 + c) mod 9`,
/// which is a sudoku in any 9x9 window starting on a box boundary (the five grids start on
/// rows and columns 0, 6 and 12), with its digits relabelled by the seed.
fn samurai_givens(seed: u64) -> [[u8; SPAN]; SPAN] {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut labels: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        labels.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut givens = [[0u8; SPAN]; SPAN];
    for r in 0..SPAN {
        for c in 0..SPAN {
            let (mr, mc) = (SPAN - 1 - r, SPAN - 1 - c);
            if (r, c) > (mr, mc) || !in_a_grid(r, c) || next() % 100 >= 36 {
                continue;
            }
            for (r, c) in [(r, c), (mr, mc)] {
                givens[r][c] = labels[(3 * (r % 3) + r / 3 + c) % 9];
            }
        }
    }
    givens
}

impl Screen for SamuraiScreen {
    fn size(&self) -> Size {
        self.layout.size
    }

    fn render(&mut self) -> RgbaImage {
        self.frame
            .get_or_insert_with(|| render_multigrid(&self.skin, &self.layout, &self.givens))
            .clone()
    }

    fn tap(&mut self, _at: Point) {}

    fn activity(&self) -> String {
        format!("{}.samurai/.MainActivity", self.skin.package())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grid_of_the_samurai_givens_keeps_the_rules() {
        let g = samurai_givens(7);
        for &(r0, c0) in &GRIDS {
            for i in 0..9 {
                let row: Vec<u8> = (0..9).map(|j| g[r0 + i][c0 + j]).collect();
                let col: Vec<u8> = (0..9).map(|j| g[r0 + j][c0 + i]).collect();
                let bx: Vec<u8> = (0..9)
                    .map(|j| g[r0 + 3 * (i / 3) + j / 3][c0 + 3 * (i % 3) + j % 3])
                    .collect();
                for unit in [row, col, bx] {
                    let mut seen = [false; 10];
                    for d in unit.into_iter().filter(|&d| d > 0) {
                        assert!(!seen[d as usize], "grid at {r0},{c0}: {d} twice");
                        seen[d as usize] = true;
                    }
                }
            }
        }
        let filled = (0..SPAN * SPAN)
            .filter(|i| g[i / SPAN][i % SPAN] > 0)
            .count();
        let cells = (0..SPAN * SPAN)
            .filter(|i| in_a_grid(i / SPAN, i % SPAN))
            .count();
        assert_eq!(cells, 369);
        assert!((90..=170).contains(&filled), "{filled} givens");
        assert!(
            (0..SPAN * SPAN).all(|i| in_a_grid(i / SPAN, i % SPAN) || g[i / SPAN][i % SPAN] == 0)
        );
    }
}
