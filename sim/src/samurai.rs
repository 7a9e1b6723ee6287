//! A screen the agent must refuse: a samurai sudoku, five 9x9 grids overlapping at their corner
//! boxes (21 by 21 cells), drawn in a skin's colours and fonts above its keypad, as samurai apps
//! show it. Any one 9x9 region of it looks like a board, but none stands alone: lines run on past
//! it. Not playable: taps do nothing. The puzzle's shape and givens are in `puzzles`.

use crate::app::check_size;
use crate::geometry::{Point, Rect, Size};
use crate::layout::AppLayout;
use crate::puzzles::{SPAN, samurai_givens};
use crate::render::render_multigrid;
use crate::{Screen, Skin};
use anyhow::Result;
use image::RgbaImage;

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
