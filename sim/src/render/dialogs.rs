//! What covers the app: the end-of-game banner, the popup fault, the interstitial ad fault, and
//! the completion card and the flash of an overlay (habits).

use super::paint::*;
use super::text::*;
use super::*;

impl Frame<'_> {
    /// A full-screen ad in the colours no skin uses, with a small close button top right.
    pub(super) fn interstitial(&mut self) {
        let r = self.l.interstitial;
        fill_rect(self.img, r, rgba(0x6A1B9A, 255));
        let (cx, cy) = centre(r);
        let white = rgba(0xFFFFFF, 255);
        self.text(
            Face::RobotoMedium,
            30.0,
            "Try Gem Blast!",
            (cx, cy - self.dp(24.0)),
            Align::Center,
            white,
        );
        self.text(
            self.skin.ui_face,
            15.0,
            "Advertisement",
            (cx, cy + self.dp(20.0)),
            Align::Center,
            rgba(0xE1BEE7, 255),
        );
        let b = self.l.interstitial_close;
        let (bx, by) = centre(b);
        Shape::new()
            .circle(bx, by, b.width as f32 / 2.0, false)
            .fill(self.img, rgba(0x000000, 255));
        self.text(
            Face::RobotoMedium,
            18.0,
            "X",
            (bx, by),
            Align::Center,
            white,
        );
    }

    pub(super) fn end_banner(&mut self, title: &str, detail: &str, bg: Rgba<u8>) {
        let c = self.skin.colors;
        let r = self.l.controls;
        self.card(r, 16.0, bg);
        let (cx, cy) = centre(r);
        self.text(
            self.skin.title_face,
            30.0,
            title,
            (cx, cy - self.dp(14.0)),
            Align::Center,
            c.banner_fg,
        );
        self.text(
            self.skin.ui_face,
            14.0,
            detail,
            (cx, cy + self.dp(22.0)),
            Align::Center,
            c.banner_fg,
        );
    }

    /// The card, text and muted text colours of a dialog on this skin.
    pub(super) fn card_colors(&self) -> (Rgba<u8>, Rgba<u8>, Rgba<u8>) {
        if luma(self.skin.colors.grid_bg) < 128.0 {
            (
                rgba(0x2A2C30, 255),
                rgba(0xE8EAED, 255),
                rgba(0xBDC1C6, 255),
            )
        } else {
            (
                rgba(0xFFFFFF, 255),
                rgba(0x202124, 255),
                rgba(0x5F6368, 255),
            )
        }
    }

    /// Fills `r` as a card with corners of `radius_dp` and returns its x, y, width and height in
    /// float pixels, where the card's contents are placed.
    pub(super) fn card(
        &mut self,
        r: Rect,
        radius_dp: f32,
        color: Rgba<u8>,
    ) -> (f32, f32, f32, f32) {
        let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
        Shape::new()
            .rounded(x, y, w, h, self.dp(radius_dp), false)
            .fill(self.img, color);
        (x, y, w, h)
    }

    /// A 45 % black scrim over everything, in integer maths on the raw buffer.
    pub(super) fn scrim(&mut self) {
        for px in self.img.chunks_exact_mut(4) {
            for v in &mut px[..3] {
                *v = (*v as u16 * 141 / 256) as u8;
            }
        }
    }

    /// The completion card over the board: "Excellent!", the time and mistakes, "New game".
    pub(super) fn end_card(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let (card, fg, muted) = self.card_colors();
        let (x, y, w, h) = self.card(self.l.end_card, 20.0, card);
        let cx = x + w / 2.0;
        Shape::new()
            .circle(cx, y + h * 0.25, self.dp(34.0), false)
            .fill(self.img, c.accent);
        self.text(
            self.skin.title_face,
            32.0,
            "Excellent!",
            (cx, y + h * 0.45),
            Align::Center,
            fg,
        );
        let detail = format!(
            "Time {}   {} {}",
            timer_text(state),
            self.skin.mistakes_label,
            state.mistakes
        );
        let ui = self.skin.ui_face;
        self.text(ui, 16.0, &detail, (cx, y + h * 0.56), Align::Center, muted);
        let b = self.l.end_card_button;
        let (bx, by, bw, bh) = (b.x as f32, b.y as f32, b.width as f32, b.height as f32);
        Shape::new()
            .rounded(bx, by, bw, bh, bh / 2.0, false)
            .fill(self.img, c.accent);
        self.text(
            Face::RobotoMedium,
            17.0,
            "New game",
            (bx + bw / 2.0, by + bh / 2.0),
            Align::Center,
            card,
        );
    }

    /// The flash of an overlay: a scrim and a card without buttons, gone 0.1 s later.
    pub(super) fn flash(&mut self) {
        self.scrim();
        let (card, fg, _) = self.card_colors();
        let (x, y, w, h) = self.card(self.l.popup, 20.0, card);
        self.text(
            self.skin.title_face,
            20.0,
            "Streak +1",
            (x + w / 2.0, y + h / 2.0),
            Align::Center,
            fg,
        );
    }

    pub(super) fn popup(&mut self) {
        let c = self.skin.colors;
        let dark = luma(c.grid_bg) < 128.0;
        self.scrim();
        let (card, fg, muted) = self.card_colors();
        let (x, y, w, _) = self.card(self.l.popup, 20.0, card);
        let cx = x + w / 2.0;
        let face = self.skin.title_face;
        self.text(
            face,
            20.0,
            "Daily Challenge",
            (cx, y + self.dp(36.0)),
            Align::Center,
            fg,
        );
        let b = self.l.popup_button;
        let mid = (y + self.dp(56.0) + b.y as f32) / 2.0;
        let ui = self.skin.ui_face;
        self.text(
            ui,
            14.0,
            "A new puzzle is waiting for you.",
            (cx, mid - self.dp(10.0)),
            Align::Center,
            muted,
        );
        self.text(
            ui,
            14.0,
            "Come back any time today!",
            (cx, mid + self.dp(10.0)),
            Align::Center,
            muted,
        );
        let (bx, by, bw, bh) = (b.x as f32, b.y as f32, b.width as f32, b.height as f32);
        Shape::new()
            .rounded(bx, by, bw, bh, bh / 2.0, false)
            .fill(self.img, c.accent);
        let label = if dark {
            rgba(0x121212, 255)
        } else {
            rgba(0xFFFFFF, 255)
        };
        self.text(
            Face::RobotoMedium,
            15.0,
            "LATER",
            (bx + bw / 2.0, by + bh / 2.0),
            Align::Center,
            label,
        );
    }
}
