//! A samurai puzzle's screen: the app's bars and keypad around five overlapping 9x9 grids in
//! the skin's look (lines, or tiles with gaps, or shading), with the givens in its font.

use super::paint::*;
use super::*;
use crate::board::Board;
use crate::puzzles::{GRIDS, SPAN, in_a_grid};

/// The whole frame of a samurai screen showing `givens` (21x21, 0 for none).
pub(crate) fn render_multigrid(
    skin: &Skin,
    l: &AppLayout,
    givens: &[[u8; SPAN]; SPAN],
) -> RgbaImage {
    let mut img = draw_frame_chrome(skin, l);
    let state = GameState::new(Board::empty());
    let mut f = Frame {
        img: &mut img,
        skin,
        l,
    };
    if let Some(p) = l.panel {
        fill_rect(f.img, p, skin.style.panel.unwrap_or(skin.colors.background));
    }
    f.multigrid(givens);
    f.controls(&state);
    f.draw_chrome_state(&state);
    img
}

impl Frame<'_> {
    /// The five grids in the square the app gives its one grid, 21 cells across.
    fn multigrid(&mut self, givens: &[[u8; SPAN]; SPAN]) {
        let (c, st) = (self.skin.colors, self.skin.style);
        let g = self.l.grid;
        let pitch = g.width as f32 / SPAN as f32;
        let at = |i: usize| (i as f32 * pitch).round() as u32;
        let cell = |r: usize, col: usize| {
            Rect::new(
                g.x + at(col),
                g.y + at(r),
                at(col + 1) - at(col),
                at(r + 1) - at(r),
            )
        };
        let px = |v: f32, least: f32| {
            if v > 0.0 {
                (v * self.l.dp).round().max(least)
            } else {
                0.0
            }
        };
        let (thin, thick) = (px(self.skin.thin_dp, 1.0), px(self.skin.thick_dp, 2.0));
        for r in 0..SPAN {
            for col in (0..SPAN).filter(|&col| in_a_grid(r, col)) {
                let odd_box = (r / 3 + col / 3) % 2;
                let fill = match (st.shades, c.alt_box_bg) {
                    (Some(s), _) => s[2 * odd_box + (r + col) % 2],
                    (None, Some(alt)) if odd_box == 1 => alt,
                    _ => c.grid_bg,
                };
                let rect = cell(r, col);
                if st.tile_dp > 0.0 {
                    // Tiles: the lines' widths are gaps, half on each side of a tile; corners
                    // as round, for their size, as on the app's 9x9 board.
                    let gap = thin / 2.0;
                    let radius = self.dp(st.tile_dp) * pitch * 9.0 / g.width as f32;
                    Shape::new()
                        .rounded(
                            rect.x as f32 + gap,
                            rect.y as f32 + gap,
                            rect.width as f32 - thin,
                            rect.height as f32 - thin,
                            radius,
                            false,
                        )
                        .fill(self.img, fill);
                } else {
                    fill_rect(self.img, rect, fill);
                }
            }
        }
        if st.tile_dp == 0.0 {
            // Each grid's lines over its own 9 cells; where grids overlap they coincide.
            for (width, box_lines) in [(thin, false), (thick, true)] {
                let color = if box_lines { c.thick_line } else { c.thin_line };
                for &(r0, c0) in &GRIDS {
                    for i in (0..=9).filter(|i| (i % 3 == 0) == box_lines) {
                        let (x, y) = (
                            g.x as f32 + at(c0 + i) as f32,
                            g.y as f32 + at(r0 + i) as f32,
                        );
                        let (x0, y0) = (g.x as f32 + at(c0) as f32, g.y as f32 + at(r0) as f32);
                        let span = at(c0 + 9) as f32 - at(c0) as f32;
                        let w = width.max(0.0);
                        fill_rect(
                            self.img,
                            rect_px(x - w / 2.0, y0 - w / 2.0, w, span + w),
                            color,
                        );
                        fill_rect(
                            self.img,
                            rect_px(x0 - w / 2.0, y - w / 2.0, span + w, w),
                            color,
                        );
                    }
                }
            }
        }
        let em = pitch * st.digit_em;
        for (r, row) in givens.iter().enumerate() {
            for (col, &d) in row.iter().enumerate().filter(|(_, d)| **d > 0) {
                let (cx, cy) = centre(cell(r, col));
                self.glyphs_centered(self.skin.given_face, em, &d.to_string(), cx, cy, c.given);
            }
        }
    }
}

/// The whole pixels covering (x, y, w, h).
fn rect_px(x: f32, y: f32, w: f32, h: f32) -> Rect {
    let (x0, y0) = (x.round().max(0.0) as u32, y.round().max(0.0) as u32);
    Rect::new(
        x0,
        y0,
        ((x + w).round() as u32).saturating_sub(x0),
        ((y + h).round() as u32).saturating_sub(y0),
    )
}
