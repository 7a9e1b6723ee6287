//! The board: info row above it, the grid lines, cell highlights, digits and pencil notes.

use super::paint::*;
use super::text::*;
use super::*;
use crate::habits::AnimationStyle;

/// Red for wrong entries (`lives` habit), lighter on a dark grid.
fn wrong_ink(grid_bg: Rgba<u8>) -> Rgba<u8> {
    if luma(grid_bg) < 128.0 {
        rgba(0xFF6B6B, 255)
    } else {
        rgba(0xE53935, 255)
    }
}

/// `from` moved `share` (0..1) of the way to `to`.
fn mix(from: Rgba<u8>, to: Rgba<u8>, share: f32) -> Rgba<u8> {
    let t = share.clamp(0.0, 1.0);
    let ch = |i: usize| (from[i] as f32 + (to[i] as f32 - from[i] as f32) * t).round() as u8;
    Rgba([ch(0), ch(1), ch(2), 255])
}

impl Frame<'_> {
    pub(super) fn info_row(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let Some(i) = self.l.info else {
            // No info row: the timer is the app bar's subtitle, under the title.
            let a = self.l.appbar;
            let cy = a.y as f32 + a.height as f32 / 2.0 + self.dp(12.0);
            let (x, h) = (self.dp(56.0), self.dp(18.0));
            let clear = Rect::new(
                x as u32,
                (cy - h / 2.0) as u32,
                self.dp(90.0) as u32,
                h as u32,
            );
            fill_rect(self.img, clear, c.appbar_bg);
            let timer = timer_text(state);
            self.text(
                self.skin.ui_face,
                14.0,
                &timer,
                (x, cy),
                Align::Left,
                c.info_fg,
            );
            return;
        };
        let cy = i.y as f32 + i.height as f32 / 2.0;
        let face = self.skin.ui_face;
        self.text(
            face,
            14.0,
            self.skin.level,
            (self.dp(16.0), cy),
            Align::Left,
            c.info_fg,
        );
        let mistakes = match state.mistake_limit {
            Some(limit) => format!("{}: {}/{}", self.skin.mistakes_label, state.mistakes, limit),
            None => format!("{}: {}", self.skin.mistakes_label, state.mistakes),
        };
        let mid = i.width as f32 / 2.0;
        self.text(face, 14.0, &mistakes, (mid, cy), Align::Center, c.info_fg);
        if self.l.keypad_timer.is_none() {
            let timer = timer_text(state);
            let right = i.right() as f32 - self.dp(16.0);
            self.text(face, 14.0, &timer, (right, cy), Align::Right, c.info_fg);
        }
    }

    pub(super) fn grid_static(&mut self) {
        let c = self.skin.colors;
        let st = self.skin.style;
        let g = self.l.grid;
        if let Some(p) = self.l.panel {
            fill_rect(self.img, p, st.panel.unwrap_or(c.background));
        }
        if st.tile_dp > 0.0 {
            for cell in Cell::all() {
                self.fill_cell(cell, self.tile(cell));
            }
            return;
        }
        if st.corner_dp > 0.0 {
            self.rounded_grid();
            return;
        }
        fill_rect(self.img, g, c.grid_bg);
        if let Some(alt) = c.alt_box_bg {
            for cell in Cell::all().filter(|c| c.box_index() % 2 == 1) {
                fill_rect(self.img, self.l.cell_rect(cell), alt);
            }
        }
        for cell in Cell::all() {
            if let Some(shade) = self.shade(cell) {
                fill_rect(self.img, self.l.cell_rect(cell), shade);
            }
        }
        self.full_lines(|_| true);
    }

    /// The grid lines that `keep` keeps (by index, 0..=9), across the whole grid: thin lines
    /// first, box lines over them.
    fn full_lines(&mut self, keep: impl Fn(usize) -> bool) {
        let (c, g) = (self.skin.colors, self.l.grid);
        for thick in [false, true] {
            for (i, &(start, width)) in self.l.lines.iter().enumerate() {
                if (i % 3 == 0) != thick || !keep(i) {
                    continue;
                }
                let color = if thick { c.thick_line } else { c.thin_line };
                fill_rect(
                    self.img,
                    Rect::new(g.x + start, g.y, width, g.height),
                    color,
                );
                fill_rect(self.img, Rect::new(g.x, g.y + start, g.width, width), color);
            }
        }
    }

    /// The checkerboard tone of `cell` on a grid drawn by shading alone.
    fn shade(&self, cell: Cell) -> Option<Rgba<u8>> {
        let shades = self.skin.style.shades?;
        let odd_box = cell.box_index() % 2;
        Some(shades[2 * odd_box + (cell.row() + cell.col()) % 2])
    }

    /// The unhighlighted colour of `cell`'s tile: boxes alternate between two shades.
    fn tile(&self, cell: Cell) -> Rgba<u8> {
        let c = self.skin.colors;
        match c.alt_box_bg {
            Some(alt) if cell.box_index() % 2 == 1 => alt,
            _ => c.grid_bg,
        }
    }

    /// Corner radii (top left, top right, bottom right, bottom left) of `cell`'s background:
    /// every corner of a tile, or the one corner a cell shares with a rounded card.
    fn cell_radii(&self, cell: Cell) -> [f32; 4] {
        let st = self.skin.style;
        if st.tile_dp > 0.0 {
            return [self.dp(st.tile_dp); 4];
        }
        if st.corner_dp <= 0.0 {
            return [0.0; 4];
        }
        // The card's inner edge is inside its outer line, so is its corner's radius.
        let r = self.dp(st.corner_dp) - self.l.lines[0].1 as f32;
        let (top, bottom) = (cell.row() == 0, cell.row() == 8);
        let (left, right) = (cell.col() == 0, cell.col() == 8);
        [top && left, top && right, bottom && right, bottom && left]
            .map(|at| if at { r } else { 0.0 })
    }

    /// Paints `cell`'s background, following its rounded corners (a tile's, or the card's at
    /// the grid's corners) with the screen background outside them.
    pub(super) fn fill_cell(&mut self, cell: Cell, color: Rgba<u8>) {
        let r = self.l.cell_rect(cell);
        let radii = self.cell_radii(cell);
        if radii == [0.0; 4] {
            fill_rect(self.img, r, color);
            return;
        }
        // Repainted from what lies outside the corner up (the screen, or the card's outer
        // line), so a rounded edge drawn before leaves no fringe.
        let c = self.skin.colors;
        let outside = if self.skin.style.tile_dp == 0.0 && self.l.lines[0].1 > 0 {
            c.thick_line
        } else {
            c.background
        };
        fill_rect(self.img, r, outside);
        let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
        Shape::new()
            .rounded_each(x, y, w, h, radii, false)
            .fill(self.img, color);
    }

    /// A grid in a rounded card: the outer line (when the skin has one) follows the rounded
    /// corners, box lines run through, and thin lines run through too or, `segmented`, are
    /// broken where lines cross (Saku style).
    fn rounded_grid(&mut self) {
        let c = self.skin.colors;
        let g = self.l.grid;
        let (x, y, w, h) = (g.x as f32, g.y as f32, g.width as f32, g.height as f32);
        let rad = self.dp(self.skin.style.corner_dp);
        let (_, t) = self.l.lines[0];
        let t = t as f32;
        if t > 0.0 {
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .fill(self.img, c.thick_line);
        }
        Shape::new()
            .rounded(x + t, y + t, w - 2.0 * t, h - 2.0 * t, rad - t, false)
            .fill(self.img, c.grid_bg);
        let segmented = self.skin.style.segmented;
        self.full_lines(|i| i != 0 && i != 9 && !(segmented && i % 3 != 0));
        if !segmented {
            return;
        }
        // Thin lines: one stroke per cell side, a sixth of the cell short at each end.
        for cell in Cell::all() {
            let r = self.l.cell_rect(cell);
            let inset = r.width / 6;
            if cell.col() % 3 != 2 {
                let (start, width) = self.l.lines[cell.col() + 1];
                let seg = Rect::new(g.x + start, r.y + inset, width, r.height - 2 * inset);
                fill_rect(self.img, seg, c.thin_line);
            }
            if cell.row() % 3 != 2 {
                let (start, width) = self.l.lines[cell.row() + 1];
                let seg = Rect::new(r.x + inset, g.y + start, r.width - 2 * inset, width);
                fill_rect(self.img, seg, c.thin_line);
            }
        }
    }

    pub(super) fn cell_backgrounds(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let board = state.board();
        let focus_digit = state.focus_digit();
        let st = self.skin.style;
        for cell in Cell::all() {
            let color = if Some(cell) == state.selected {
                Some(c.selected)
            } else if focus_digit.is_some() && board.get(cell) == focus_digit && st.disc.is_none() {
                Some(c.same_digit)
            } else if st.peers
                && state.selected.is_some_and(|s| {
                    s.row() == cell.row()
                        || s.col() == cell.col()
                        || s.box_index() == cell.box_index()
                })
            {
                Some(c.peer)
            } else if state.givens.get(cell).is_some() && state.given_shown(cell) {
                st.given_cell
            } else {
                None
            };
            if let Some(color) = color {
                self.fill_cell(cell, color);
            }
        }
    }

    pub(super) fn cell_contents(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let st = self.skin.style;
        let focus_digit = state.focus_digit();
        for cell in Cell::all() {
            let r = self.l.cell_rect(cell);
            let (cx, cy) = (
                r.x as f32 + r.width as f32 / 2.0,
                r.y as f32 + r.height as f32 / 2.0,
            );
            let em = r.height as f32 * st.digit_em;
            // A given not yet in (level-start cascade) leaves its cell empty.
            let given = state.givens.get(cell).filter(|_| state.given_shown(cell));
            let digit = given
                .map(|d| (d, self.skin.given_face, c.given))
                .or_else(|| {
                    let d = state.entries.get(cell)?;
                    Some((d, self.skin.entry_face, c.entry))
                });
            if let Some((d, face, mut ink)) = digit {
                let focused = Some(d) == focus_digit;
                if given.is_none() && state.habits.lives.is_some() && state.wrong[cell.index()] {
                    ink = wrong_ink(c.grid_bg);
                }
                if let Some(disc) = st.disc {
                    // Givens sit in discs; the picked digit's cells get a dark disc.
                    let fill = match (focused, given.is_some()) {
                        (true, _) => Some(c.same_digit),
                        (false, true) => Some(disc),
                        (false, false) => None,
                    };
                    if let Some(fill) = fill {
                        let rad = r.width.min(r.height) as f32 * 0.42;
                        Shape::new().circle(cx, cy, rad, false).fill(self.img, fill);
                    }
                }
                // A recolouring highlight draws givens and entries in one ink: their kind is
                // no longer on the screen.
                let highlight_fg = st
                    .highlight_fg
                    .or(state.habits.same_ink.then_some(c.accent));
                if focused && let Some(fg) = highlight_fg {
                    ink = fg;
                }
                let mut em = em;
                match state.entry_animation(cell) {
                    Some((AnimationStyle::Fade, done)) => {
                        let under = *self.img.get_pixel(cx as u32, cy as u32);
                        ink = mix(under, ink, done);
                    }
                    Some((AnimationStyle::Pop, done)) => em *= 0.2 + 0.8 * done,
                    None => {}
                }
                self.glyphs_centered(face, em, &d.to_string(), cx, cy, ink);
            } else {
                let notes = state.notes[cell.index()];
                for d in 1..=9u8 {
                    if notes & (1 << d) == 0 {
                        continue;
                    }
                    let (nr, nc) = ((d - 1) / 3, (d - 1) % 3);
                    let nx = r.x as f32 + r.width as f32 * (1.0 + 2.0 * nc as f32) / 6.0;
                    let ny = r.y as f32 + r.height as f32 * (1.0 + 2.0 * nr as f32) / 6.0;
                    let em = r.height as f32 * st.note_em;
                    self.glyphs_centered(self.skin.ui_face, em, &d.to_string(), nx, ny, c.note);
                }
            }
        }
    }
}
