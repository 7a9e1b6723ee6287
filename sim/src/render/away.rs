//! What the app shows around leaving the front of the screen: the message banner that slides
//! over the top (a heads-up notification), the messaging app it opens, and the Paused card with
//! its round Resume button.

use super::paint::*;
use super::text::*;
use super::*;

impl Frame<'_> {
    /// The heads-up notification: a rounded card from the top of the screen (over the status
    /// bar) with an app icon, the app's name, a sender and a line of the message; it slides in
    /// over its first quarter second ([`crate::layout::AppLayout::banner_at`]).
    pub(super) fn message_banner(&mut self, state: &GameState) {
        let r = self.l.banner();
        let since = state.now.saturating_sub(state.banner_since);
        let Some(seen) = self.l.banner_at(since) else {
            return;
        };
        // The card keeps its height while it slides: its bottom is where the layout says.
        let (x, w, h) = (r.x as f32, r.width as f32, r.height as f32);
        let y = seen.bottom() as f32 - h;
        Shape::new()
            .rounded(x, y + self.dp(2.0), w, h, self.dp(20.0), false)
            .fill(self.img, rgba(0x000000, 60));
        Shape::new()
            .rounded(x, y, w, h, self.dp(20.0), false)
            .fill(self.img, rgba(0xF1F3F4, 255));
        let icon = (x + self.dp(30.0), y + h * 0.5);
        Shape::new()
            .circle(icon.0, icon.1, self.dp(16.0), false)
            .fill(self.img, rgba(0x1A73E8, 255));
        let left = x + self.dp(58.0);
        let lines = [
            (
                Face::RobotoRegular,
                12.0,
                "Messages \u{b7} now",
                0.24,
                0x5F6368,
            ),
            (Face::RobotoMedium, 15.0, "Alex", 0.50, 0x202124),
            (
                Face::RobotoRegular,
                14.0,
                "Are we still on for tonight?",
                0.76,
                0x5F6368,
            ),
        ];
        for (face, size, text, at, ink) in lines {
            self.text(
                face,
                size,
                text,
                (left, y + h * at),
                Align::Left,
                rgba(ink, 255),
            );
        }
    }

    /// The messaging app in front: a white screen, its title and a few conversations.
    pub(super) fn messaging_app(&mut self) {
        let (w, h) = (self.l.size.width, self.l.size.height);
        let top = self.l.status.bottom();
        fill_rect(self.img, Rect::new(0, top, w, h - top), rgba(0xFFFFFF, 255));
        let ink = rgba(0x202124, 255);
        let muted = rgba(0x5F6368, 255);
        let x = self.dp(20.0);
        let title_y = top as f32 + self.dp(40.0);
        self.text(
            Face::RobotoRegular,
            24.0,
            "Messages",
            (x, title_y),
            Align::Left,
            ink,
        );
        let people = [
            ("Alex", "Are we still on for tonight?"),
            ("Sam", "See you!"),
            ("Mum", "Call me"),
        ];
        for (i, (who, what)) in people.iter().enumerate() {
            let y = title_y + self.dp(60.0 + 76.0 * i as f32);
            Shape::new()
                .circle(x + self.dp(20.0), y + self.dp(8.0), self.dp(20.0), false)
                .fill(self.img, rgba(0x1A73E8, 255));
            let left = x + self.dp(56.0);
            self.text(Face::RobotoMedium, 16.0, who, (left, y), Align::Left, ink);
            let y2 = y + self.dp(22.0);
            self.text(
                Face::RobotoRegular,
                14.0,
                what,
                (left, y2),
                Align::Left,
                muted,
            );
        }
    }

    /// The Paused card over the board: a scrim, a card with "Paused" and one round Resume
    /// button with a play triangle.
    pub(super) fn pause_card(&mut self) {
        let (card_bg, ink, _) = self.card_colors();
        self.scrim();
        let r = self.l.pause_card();
        let (_, y, _, h) = self.card(r, 16.0, card_bg);
        let (cx, _) = centre(r);
        self.text(
            self.skin.title_face,
            24.0,
            "Paused",
            (cx, y + h * 0.22),
            Align::Center,
            ink,
        );
        let b = self.l.resume_button();
        let (bx, by) = centre(b);
        let rad = b.width as f32 / 2.0;
        Shape::new()
            .circle(bx, by, rad, false)
            .fill(self.img, self.skin.colors.accent);
        let t = rad * 0.45;
        Shape::new()
            .polygon(&[(bx - t * 0.6, by - t), (bx + t, by), (bx - t * 0.6, by + t)])
            .fill(self.img, rgba(0xFFFFFF, 255));
    }
}

/// The lock screen (keyguard) of a phone `size` big: a dark wallpaper, the big clock, the date
/// and "Swipe up to unlock", as Android's keyguard shows them.
pub(crate) fn keyguard(size: crate::geometry::Size) -> RgbaImage {
    let (w, h) = (size.width, size.height);
    let mut img = RgbaImage::new(w, h);
    for (_, y, px) in img.enumerate_pixels_mut() {
        let t = y as f32 / h.max(1) as f32;
        let mix = |a: f32, b: f32| (a + (b - a) * t) as u8;
        *px = Rgba([mix(24.0, 62.0), mix(38.0, 30.0), mix(78.0, 88.0), 255]);
    }
    let white = rgba(0xFFFFFF, 255);
    let lines = [
        (Face::RobotoLight, 0.2, "09:41", 0.22),
        (Face::RobotoRegular, 0.045, "Wed, 2 December", 0.32),
        (Face::RobotoRegular, 0.04, "Swipe up to unlock", 0.9),
    ];
    for (face, em, text, at) in lines {
        let scale = scale_for_em(face, em * w as f32);
        let centre = (w as f32 / 2.0, at * h as f32);
        draw_centred(&mut img, face, scale, text, centre, white);
    }
    img
}
