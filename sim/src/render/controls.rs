//! The controls under the board: tool row (erase, notes) and the keypad with its timer.

use super::paint::*;
use super::text::*;
use super::*;

impl Frame<'_> {
    pub(super) fn controls(&mut self, state: &GameState) {
        for (what, r) in self.l.inert.clone() {
            self.inert_button(what, r);
        }
        let keys = self.l.keys.clone();
        for (key, r) in keys {
            match key {
                Key::Digit(d) => {
                    let active = state.tool == Some(Tool::Digit(d)) || state.marked_key == Some(d);
                    self.digit_key(d, r, active)
                }
                Key::Erase => self.erase_key(r, state.tool == Some(Tool::Eraser)),
                Key::Notes => self.notes_key(r, state.notes_mode),
                Key::PopupClose | Key::AdClose | Key::NewGame | Key::Resume => {}
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

    /// Marks a selected key drawn unselected as the skin's look has it (outlined: a ring in the
    /// accent; disc: a disc in the accent behind the digit); returns the digit's colour.
    fn key_mark(&mut self, r: Rect, fg: Rgba<u8>) -> Rgba<u8> {
        let accent = self.skin.colors.accent;
        let (cx, cy) = centre(r);
        match self.skin.style.key_look {
            KeyLook::Outlined | KeyLook::Filled => {
                let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
                let rad = self.dp(self.skin.radius_dp);
                let t = self.dp(2.0).max(2.0);
                Shape::new()
                    .rounded(x, y, w, h, rad, false)
                    .rounded(
                        x + t,
                        y + t,
                        w - 2.0 * t,
                        h - 2.0 * t,
                        (rad - t).max(0.0),
                        true,
                    )
                    .fill(self.img, accent);
                fg
            }
            KeyLook::Disc => {
                let rad = r.width.min(r.height) as f32 * 0.42;
                Shape::new()
                    .circle(cx, cy, rad, false)
                    .fill(self.img, accent);
                if luma(accent) > 140.0 {
                    rgba(0x101010, 255)
                } else {
                    rgba(0xFFFFFF, 255)
                }
            }
        }
    }

    pub(super) fn digit_key(&mut self, d: u8, r: Rect, active: bool) {
        // Filled is how keys were always drawn selected; the other looks mark a plain face.
        let filled = self.skin.style.key_look == KeyLook::Filled;
        let fg = if self.skin.keypad == KeypadShape::Panel {
            // Square keys touching each other, told apart by a checkerboard of two whites.
            let light = if (d - 1).is_multiple_of(2) {
                rgba(0xFFFFFF, 255)
            } else {
                rgba(0xF6F6F6, 255)
            };
            fill_rect(self.img, r, light);
            let fg = self.skin.colors.key_fg;
            if active { self.key_mark(r, fg) } else { fg }
        } else if active && !filled {
            let fg = self.key_face(r, false);
            self.key_mark(r, fg)
        } else {
            self.key_face(r, active)
        };
        let em = match self.skin.keypad {
            KeypadShape::Row9 if self.skin.colors.key_bg.is_none() => self.dp(38.0),
            KeypadShape::Row9 => self.dp(26.0),
            KeypadShape::Grid3x3 => self.dp(30.0),
            KeypadShape::Grid2x5 => self.dp(32.0),
            KeypadShape::IconColumn => self.dp(26.0),
            KeypadShape::Counters => self.dp(20.0),
            KeypadShape::Panel => (r.height as f32 * 0.6).min(self.dp(44.0)),
        };
        let (cx, mut cy) = centre(r);
        if self.skin.keypad == KeypadShape::Counters {
            cy -= r.height as f32 * 0.13;
        }
        self.glyphs_centered(self.skin.key_face, em, &d.to_string(), cx, cy, fg);
    }

    /// The small count of cells still missing each digit, under the digit on its key.
    pub(super) fn key_counters(&mut self, state: &GameState) {
        if self.skin.keypad != KeypadShape::Counters {
            return;
        }
        let board = state.board();
        for (key, r) in self.l.keys.clone() {
            let Key::Digit(d) = key else { continue };
            let placed = Cell::all().filter(|&c| board.get(c) == Some(d)).count();
            let left = 9usize.saturating_sub(placed);
            let fg = if state.tool == Some(Tool::Digit(d)) {
                rgba(0xB2DFDB, 255)
            } else {
                self.skin.style.counter_fg
            };
            let (cx, cy) = centre(r);
            let y = cy + r.height as f32 * 0.22;
            self.text(
                self.skin.ui_face,
                12.0,
                &left.to_string(),
                (cx, y),
                Align::Center,
                fg,
            );
        }
    }

    /// The face of a tool button (Saku's outlined row, Good Sudoku's white column); returns the
    /// icon colour.
    fn tool_button(&mut self, r: Rect, active: bool) -> Rgba<u8> {
        let c = self.skin.colors;
        let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
        let rad = self.dp(self.skin.radius_dp);
        if self.skin.keypad == KeypadShape::Panel {
            let bg = if active {
                rgba(0xD6EAF8, 255)
            } else {
                rgba(0xFFFFFF, 255)
            };
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .fill(self.img, bg);
            return if active { c.accent } else { c.tool_fg };
        }
        if active {
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .fill(self.img, c.key_active_bg);
            return c.key_active_fg;
        }
        let t = self.dp(1.0).max(1.0);
        Shape::new()
            .rounded(x, y, w, h, rad, false)
            .rounded(x + t, y + t, w - 2.0 * t, h - 2.0 * t, rad - t, true)
            .fill(self.img, c.key_border.unwrap_or(c.tool_fg));
        c.tool_fg
    }

    /// Undo, redo and hint: drawn like the other tools, ignored by the app.
    fn inert_button(&mut self, what: Inert, r: Rect) {
        let fg = self.tool_button(r, false);
        let (cx, cy) = centre(r);
        let s = self.dp(1.0);
        let label = match what {
            Inert::Undo => "Undo",
            Inert::Hint => "Hint",
            Inert::Redo => "",
        };
        if self.skin.keypad == KeypadShape::Panel {
            self.text(Face::DejaVuBold, 17.0, label, (cx, cy), Align::Center, fg);
            return;
        }
        // A hooked arrow, pointing left for undo and right for redo.
        let m = if what == Inert::Redo { -1.0 } else { 1.0 };
        let w = 1.8 * s;
        let (top, low) = (cy - 4.0 * s, cy + 5.0 * s);
        Shape::new()
            .stroke((cx + m * 8.0 * s, top), (cx - m * 8.0 * s, top), w)
            .stroke(
                (cx + m * 8.0 * s, top - w / 2.0),
                (cx + m * 8.0 * s, low),
                w,
            )
            .stroke(
                (cx + m * 8.0 * s + m * w / 2.0, low),
                (cx - m * 2.0 * s, low),
                w,
            )
            .stroke(
                (cx - m * 8.0 * s, top),
                (cx - m * 3.5 * s, top - 4.5 * s),
                w,
            )
            .stroke(
                (cx - m * 8.0 * s, top),
                (cx - m * 3.5 * s, top + 4.5 * s),
                w,
            )
            .fill(self.img, fg);
    }

    /// A tool in the tool row (icon over label), or a keypad button with just an icon.
    pub(super) fn tool_layout(&mut self, r: Rect, active: bool) -> (f32, f32, Rgba<u8>, bool) {
        let in_row = self.l.tools.is_some_and(|t| t.contains(r.center()));
        let (cx, cy) = centre(r);
        match self.skin.keypad {
            KeypadShape::Counters | KeypadShape::Panel => {
                return (cx, cy, self.tool_button(r, active), false);
            }
            KeypadShape::IconColumn => {
                // Bare icons; a pale disc behind one that is switched on.
                let c = self.skin.colors;
                if active {
                    Shape::new()
                        .circle(cx, cy, self.dp(24.0), false)
                        .fill(self.img, c.key_active_bg);
                    return (cx, cy, c.accent, false);
                }
                return (cx, cy, c.tool_fg, false);
            }
            _ => {}
        }
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

    /// The word under a tool row's icon, centred on `cx` near the bottom of its button `r`.
    fn tool_label(&mut self, r: Rect, cx: f32, label: &str, fg: Rgba<u8>) {
        let ly = r.bottom() as f32 - self.dp(16.0);
        self.text(self.skin.ui_face, 12.0, label, (cx, ly), Align::Center, fg);
    }

    pub(super) fn erase_key(&mut self, r: Rect, active: bool) {
        let (cx, cy, fg, labelled) = self.tool_layout(r, active);
        let s = self.dp(1.0);
        if self.skin.keypad == KeypadShape::IconColumn {
            // A dark X.
            let (a, w) = (8.0 * s, 2.2 * s);
            Shape::new()
                .stroke((cx - a, cy - a), (cx + a, cy + a), w)
                .stroke((cx - a, cy + a), (cx + a, cy - a), w)
                .fill(self.img, self.skin.colors.key_fg);
        } else if self.skin.keypad == KeypadShape::Panel {
            // A red slash.
            let a = 10.0 * s;
            Shape::new()
                .stroke((cx - a, cy + a), (cx + a, cy - a), 2.6 * s)
                .fill(self.img, rgba(0xD0393B, 255));
        } else if self.skin.keypad == KeypadShape::Grid3x3 {
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
            self.tool_label(r, cx, "Erase", fg);
        }
    }

    pub(super) fn notes_key(&mut self, r: Rect, on: bool) {
        let badged = self.skin.style.notes_badge;
        let (cx, cy, fg, labelled) = self.tool_layout(r, on && !badged);
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
        if labelled {
            self.tool_label(r, cx, "Notes", fg);
        }
        if !badged {
            return;
        }
        // The ON/OFF pill at the icon's top right, as Sudoku.com shows it.
        let badge = if on { "ON" } else { "OFF" };
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
