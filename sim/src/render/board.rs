//! The board: info row above it, the grid lines, cell highlights, digits and pencil notes.

use super::paint::*;
use super::text::*;
use super::*;

impl Frame<'_> {
    pub(super) fn info_row(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let i = self.l.info;
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
        let g = self.l.grid;
        fill_rect(self.img, g, c.grid_bg);
        if let Some(alt) = c.alt_box_bg {
            for cell in Cell::all().filter(|c| c.box_index() % 2 == 1) {
                fill_rect(self.img, self.l.cell_rect(cell), alt);
            }
        }
        for thick in [false, true] {
            for (i, &(start, width)) in self.l.lines.iter().enumerate() {
                if (i % 3 == 0) != thick {
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

    pub(super) fn cell_backgrounds(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let board = state.board();
        let focus_digit = match state.tool {
            Some(Tool::Digit(d)) => Some(d),
            _ => state.selected.and_then(|s| board.get(s)),
        };
        for cell in Cell::all() {
            let color = if Some(cell) == state.selected {
                Some(c.selected)
            } else if focus_digit.is_some() && board.get(cell) == focus_digit {
                Some(c.same_digit)
            } else if state.selected.is_some_and(|s| {
                s.row() == cell.row() || s.col() == cell.col() || s.box_index() == cell.box_index()
            }) {
                Some(c.peer)
            } else {
                None
            };
            if let Some(color) = color {
                fill_rect(self.img, self.l.cell_rect(cell), color);
            }
        }
    }

    pub(super) fn cell_contents(&mut self, state: &GameState) {
        let c = self.skin.colors;
        for cell in Cell::all() {
            let r = self.l.cell_rect(cell);
            let (cx, cy) = (
                r.x as f32 + r.width as f32 / 2.0,
                r.y as f32 + r.height as f32 / 2.0,
            );
            let em = r.height as f32 * 0.68;
            if let Some(d) = state.givens.get(cell) {
                self.glyphs_centered(self.skin.given_face, em, &d.to_string(), cx, cy, c.given);
            } else if let Some(d) = state.entries.get(cell) {
                self.glyphs_centered(self.skin.entry_face, em, &d.to_string(), cx, cy, c.entry);
            } else {
                let notes = state.notes[cell.index()];
                for d in 1..=9u8 {
                    if notes & (1 << d) == 0 {
                        continue;
                    }
                    let (nr, nc) = ((d - 1) / 3, (d - 1) % 3);
                    let nx = r.x as f32 + r.width as f32 * (1.0 + 2.0 * nc as f32) / 6.0;
                    let ny = r.y as f32 + r.height as f32 * (1.0 + 2.0 * nr as f32) / 6.0;
                    let em = r.height as f32 * 0.27;
                    self.glyphs_centered(self.skin.ui_face, em, &d.to_string(), nx, ny, c.note);
                }
            }
        }
    }
}
