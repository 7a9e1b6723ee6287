//! The controls under the board: tool row (erase, notes) and the keypad with its timer.

use super::paint::*;
use super::text::*;
use super::*;

impl Frame<'_> {
    pub(super) fn controls(&mut self, state: &GameState) {
        let keys = self.l.keys.clone();
        for (key, r) in keys {
            match key {
                Key::Digit(d) => self.digit_key(d, r, state.tool == Some(Tool::Digit(d))),
                Key::Erase => self.erase_key(r, state.tool == Some(Tool::Eraser)),
                Key::Notes => self.notes_key(r, state.notes_mode),
                Key::PopupClose | Key::AdClose => {}
            }
        }
    }

    pub(super) fn keypad_timer(&mut self, state: &GameState) {
        if let Some(t) = self.l.keypad_timer {
            let (cx, cy) = centre(t);
            let timer = timer_text(state);
            self.text(
                self.skin.ui_face,
                16.0,
                &timer,
                (cx, cy),
                Align::Center,
                self.skin.colors.tool_fg,
            );
        }
    }

    /// The button face of a keypad key; returns the text colour to use on it.
    pub(super) fn key_face(&mut self, r: Rect, active: bool) -> Rgba<u8> {
        let c = self.skin.colors;
        let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
        let rad = self.dp(self.skin.radius_dp);
        if active {
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .fill(self.img, c.key_active_bg);
            return c.key_active_fg;
        }
        if let Some(border) = c.key_border {
            let t = self.dp(1.0).max(1.0);
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .rounded(x + t, y + t, w - 2.0 * t, h - 2.0 * t, rad - t, true)
                .fill(self.img, border);
        }
        if let Some(bg) = c.key_bg {
            let t = if c.key_border.is_some() {
                self.dp(1.0).max(1.0)
            } else {
                0.0
            };
            Shape::new()
                .rounded(x + t, y + t, w - 2.0 * t, h - 2.0 * t, rad - t, false)
                .fill(self.img, bg);
        }
        c.key_fg
    }

    pub(super) fn digit_key(&mut self, d: u8, r: Rect, active: bool) {
        let fg = self.key_face(r, active);
        let em = match self.skin.keypad {
            KeypadShape::Row9 if self.skin.colors.key_bg.is_none() => self.dp(38.0),
            KeypadShape::Row9 => self.dp(26.0),
            KeypadShape::Grid3x3 => self.dp(30.0),
            KeypadShape::Grid2x5 => self.dp(32.0),
        };
        let (cx, cy) = centre(r);
        self.glyphs_centered(self.skin.key_face, em, &d.to_string(), cx, cy, fg);
    }

    /// A tool in the tool row (icon over label), or a keypad button with just an icon.
    pub(super) fn tool_layout(&mut self, r: Rect, active: bool) -> (f32, f32, Rgba<u8>, bool) {
        let in_row = self.l.tools.is_some_and(|t| t.contains(r.center()));
        let (cx, cy) = centre(r);
        if in_row {
            let fg = if active {
                self.skin.colors.accent
            } else {
                self.skin.colors.tool_fg
            };
            (cx, cy - self.dp(10.0), fg, true)
        } else {
            let fg = self.key_face(r, active);
            (cx, cy, fg, false)
        }
    }

    pub(super) fn erase_key(&mut self, r: Rect, active: bool) {
        let (cx, cy, fg, labelled) = self.tool_layout(r, active);
        let s = self.dp(1.0);
        if self.skin.keypad == KeypadShape::Grid3x3 {
            // A bin: lid, handle and body, its two slots cut in the key's own colour.
            Shape::new()
                .rounded(
                    cx - 8.0 * s,
                    cy - 9.0 * s,
                    16.0 * s,
                    2.5 * s,
                    0.8 * s,
                    false,
                )
                .rect(cx - 3.0 * s, cy - 11.0 * s, 6.0 * s, 2.5 * s)
                .rounded(
                    cx - 6.5 * s,
                    cy - 5.5 * s,
                    13.0 * s,
                    15.5 * s,
                    1.5 * s,
                    false,
                )
                .fill(self.img, fg);
            let c = self.skin.colors;
            let slot = match (active, c.key_bg) {
                (true, _) => c.key_active_bg,
                (false, Some(bg)) => bg,
                (false, None) => c.background,
            };
            Shape::new()
                .rect(cx - 3.5 * s, cy - 3.0 * s, 1.6 * s, 10.5 * s)
                .rect(cx + 1.9 * s, cy - 3.0 * s, 1.6 * s, 10.5 * s)
                .fill(self.img, slot);
        } else {
            // An eraser: a tilted hollow block with a filled tip.
            let (a, b) = (FRAC_1_SQRT_2, FRAC_1_SQRT_2);
            let p = |u: f32, v: f32| (cx + (u * a - v * b) * s, cy + (u * b + v * a) * s - 2.0 * s);
            let outline = [p(-10.0, -5.0), p(8.0, -5.0), p(8.0, 5.0), p(-10.0, 5.0)];
            let inner = [p(-8.2, 3.2), p(6.2, 3.2), p(6.2, -3.2), p(-8.2, -3.2)];
            Shape::new()
                .polygon(&outline)
                .polygon(&inner)
                .fill(self.img, fg);
            Shape::new()
                .polygon(&[p(-10.0, -5.0), p(-3.0, -5.0), p(-3.0, 5.0), p(-10.0, 5.0)])
                .fill(self.img, fg);
        }
        if labelled {
            let (lx, ly) = (cx, r.bottom() as f32 - self.dp(16.0));
            self.text(
                self.skin.ui_face,
                12.0,
                "Erase",
                (lx, ly),
                Align::Center,
                fg,
            );
        }
    }

    pub(super) fn notes_key(&mut self, r: Rect, on: bool) {
        let (cx, cy, fg, labelled) = self.tool_layout(r, false);
        let fg = if on && labelled {
            self.skin.colors.accent
        } else {
            fg
        };
        let s = self.dp(1.0);
        // A pencil pointing down-left.
        let (a, b) = (FRAC_1_SQRT_2, -FRAC_1_SQRT_2);
        let p = |u: f32, v: f32| (cx + (u * a - v * b) * s, cy + (u * b + v * a) * s);
        Shape::new()
            .polygon(&[p(-5.0, -2.6), p(7.0, -2.6), p(7.0, 2.6), p(-5.0, 2.6)])
            .polygon(&[p(8.0, -2.6), p(10.5, -2.6), p(10.5, 2.6), p(8.0, 2.6)])
            .polygon(&[p(-6.0, -2.6), p(-11.0, 0.0), p(-6.0, 2.6)])
            .fill(self.img, fg);
        let badge = if on { "ON" } else { "OFF" };
        if labelled {
            let (lx, ly) = (cx, r.bottom() as f32 - self.dp(16.0));
            self.text(
                self.skin.ui_face,
                12.0,
                "Notes",
                (lx, ly),
                Align::Center,
                fg,
            );
        }
        // The ON/OFF pill at the icon's top right, as Sudoku.com shows it.
        let c = self.skin.colors;
        let (bw, bh) = (self.dp(26.0), self.dp(14.0));
        let (bx, by) = (cx + self.dp(6.0), cy - self.dp(16.0));
        let (pill, text) = match (labelled, on) {
            (true, true) => (c.accent, c.background),
            (true, false) => (c.tool_fg, c.background),
            (false, true) => (c.key_fg, c.key_bg.unwrap_or(c.background)),
            (false, false) => (c.thin_line, c.key_fg),
        };
        Shape::new()
            .rounded(bx, by, bw, bh, bh / 2.0, false)
            .fill(self.img, pill);
        self.text(
            Face::RobotoMedium,
            8.0,
            badge,
            (bx + bw / 2.0, by + bh / 2.0),
            Align::Center,
            text,
        );
    }
}
