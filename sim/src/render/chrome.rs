//! The phone's chrome around the app: status bar and clock, app bar, navigation bar, ad banner.

use super::paint::*;
use super::text::*;
use super::*;

impl Frame<'_> {
    pub(super) fn status_bar_static(&mut self) {
        let c = self.skin.colors;
        let s = self.l.status;
        fill_rect(self.img, s, c.status_bg);
        let cy = s.y as f32 + s.height as f32 / 2.0;
        let right = s.right() as f32 - self.dp(12.0);
        // Battery: outline, level and nub.
        let (bw, bh) = (self.dp(22.0), self.dp(11.0));
        let bx = right - bw;
        let by = cy - bh / 2.0;
        let t = self.dp(1.4);
        Shape::new()
            .rounded(bx, by, bw - self.dp(2.0), bh, self.dp(2.0), false)
            .rounded(
                bx + t,
                by + t,
                bw - self.dp(2.0) - 2.0 * t,
                bh - 2.0 * t,
                self.dp(1.0),
                true,
            )
            .fill(self.img, c.status_fg);
        Shape::new()
            .rect(
                bx + 2.0 * t,
                by + 2.0 * t,
                (bw - self.dp(2.0) - 4.0 * t) * 0.8,
                bh - 4.0 * t,
            )
            .rect(
                bx + bw - self.dp(2.0),
                cy - self.dp(2.5),
                self.dp(1.8),
                self.dp(5.0),
            )
            .fill(self.img, c.status_fg);
        self.text(
            Face::RobotoMedium,
            12.0,
            "85%",
            (bx - self.dp(4.0), cy),
            Align::Right,
            c.status_fg,
        );
        // Cell signal: a right triangle.
        let sx = bx - self.dp(40.0);
        let sz = self.dp(13.0);
        Shape::new()
            .polygon(&[
                (sx + sz, cy - sz / 2.0),
                (sx + sz, cy + sz / 2.0),
                (sx, cy + sz / 2.0),
            ])
            .fill(self.img, c.status_fg);
        // Wifi: three bands and a dot, a quarter circle fanning upwards.
        let wx = sx - self.dp(12.0);
        let wy = cy + self.dp(6.5);
        let (a0, a1) = (-2.36, -0.785);
        let mut wifi = Shape::new().circle(wx, wy - self.dp(1.2), self.dp(1.6), false);
        for (r0, r1) in [(4.5, 7.0), (9.0, 11.5), (13.5, 16.0)] {
            wifi = wifi.arc_band(wx, wy, self.dp(r0), self.dp(r1), a0, a1);
        }
        wifi.fill(self.img, c.status_fg);
    }

    pub(super) fn status_clock(&mut self, elapsed_secs: u64) {
        let c = self.skin.colors;
        let s = self.l.status;
        let minutes = 9 * 60 + 41 + elapsed_secs / 60;
        let clock = format!("{}:{:02}", minutes / 60 % 24, minutes % 60);
        let cy = s.y as f32 + s.height as f32 / 2.0;
        self.text(
            Face::RobotoMedium,
            14.0,
            &clock,
            (self.dp(16.0), cy),
            Align::Left,
            c.status_fg,
        );
    }

    pub(super) fn app_bar(&mut self) {
        let c = self.skin.colors;
        let a = self.l.appbar;
        if !self.skin.wood {
            fill_rect(self.img, a, c.appbar_bg);
        }
        let cy = a.y as f32 + a.height as f32 / 2.0;
        // Back arrow.
        let (x0, x1) = (self.dp(18.0), self.dp(34.0));
        let w = self.dp(2.2);
        let head = self.dp(7.0);
        Shape::new()
            .stroke((x0, cy), (x1, cy), w)
            .stroke((x0 + w * 0.3, cy + w * 0.3), (x0 + head, cy - head), w)
            .stroke((x0 + w * 0.3, cy - w * 0.3), (x0 + head, cy + head), w)
            .fill(self.img, c.appbar_fg);
        let title = self.skin.app_title;
        // With no info row the timer is a subtitle, so the title moves up.
        let title_y = if self.l.info.is_none() {
            cy - self.dp(9.0)
        } else {
            cy
        };
        self.text(
            self.skin.title_face,
            20.0,
            title,
            (self.dp(56.0), title_y),
            Align::Left,
            c.appbar_fg,
        );
        // Pause and overflow menu on the right.
        let mx = a.right() as f32 - self.dp(20.0);
        let mut dots = Shape::new();
        for dy in [-6.0, 0.0, 6.0] {
            dots = dots.circle(mx, cy + self.dp(dy), self.dp(2.0), false);
        }
        dots.fill(self.img, c.appbar_fg);
        let px = mx - self.dp(44.0);
        Shape::new()
            .rounded(
                px - self.dp(6.0),
                cy - self.dp(8.0),
                self.dp(4.0),
                self.dp(16.0),
                self.dp(1.0),
                false,
            )
            .rounded(
                px + self.dp(2.0),
                cy - self.dp(8.0),
                self.dp(4.0),
                self.dp(16.0),
                self.dp(1.0),
                false,
            )
            .fill(self.img, c.appbar_fg);
        if c.appbar_bg == c.background && !self.skin.wood {
            // A hairline separates a flat app bar from the page.
            let line = Rect::new(0, a.bottom().saturating_sub(1), a.width, 1);
            fill_rect(self.img, line, rgba(0xE3E6EA, 255));
        }
    }

    pub(super) fn nav_bar(&mut self) {
        let n = self.l.nav;
        let (cx, cy) = centre(n);
        match self.skin.nav {
            NavBar::Gesture => {
                let pill = if luma(self.skin.colors.background) < 128.0 {
                    rgba(0xDADCE0, 255)
                } else {
                    rgba(0x202124, 255)
                };
                let (w, h) = (self.dp(108.0), self.dp(4.0));
                Shape::new()
                    .rounded(cx - w / 2.0, cy - h / 2.0, w, h, h / 2.0, false)
                    .fill(self.img, pill);
            }
            NavBar::Buttons => {
                fill_rect(self.img, n, rgba(0x000000, 255));
                let fg = rgba(0xF1F3F4, 255);
                let s = self.dp(1.0);
                let t = 1.8 * s;
                let gap = n.width as f32 / 4.0;
                // Back: hollow triangle.
                let bx = cx - gap;
                let outer = [
                    (bx - 8.0 * s, cy),
                    (bx + 7.0 * s, cy - 9.0 * s),
                    (bx + 7.0 * s, cy + 9.0 * s),
                ];
                let inner = [
                    (bx + 7.0 * s - t, cy + 9.0 * s - 2.1 * t),
                    (bx + 7.0 * s - t, cy - 9.0 * s + 2.1 * t),
                    (bx - 8.0 * s + 2.4 * t, cy),
                ];
                Shape::new()
                    .polygon(&outer)
                    .polygon(&inner)
                    .fill(self.img, fg);
                // Home: ring.
                Shape::new()
                    .circle(cx, cy, 9.0 * s, false)
                    .circle(cx, cy, 9.0 * s - t, true)
                    .fill(self.img, fg);
                // Recents: hollow square.
                let rx = cx + gap;
                Shape::new()
                    .rounded(
                        rx - 8.0 * s,
                        cy - 8.0 * s,
                        16.0 * s,
                        16.0 * s,
                        1.5 * s,
                        false,
                    )
                    .rounded(
                        rx - 8.0 * s + t,
                        cy - 8.0 * s + t,
                        16.0 * s - 2.0 * t,
                        16.0 * s - 2.0 * t,
                        0.5 * s,
                        true,
                    )
                    .fill(self.img, fg);
            }
        }
    }

    pub(super) fn ad_banner(&mut self, ad: Rect) {
        let s = self.dp(1.0);
        fill_rect(self.img, ad, rgba(0xF6F7F9, 255));
        fill_rect(
            self.img,
            Rect::new(ad.x, ad.y, ad.width, s.round() as u32),
            rgba(0xDADCE0, 255),
        );
        let (_, cy) = centre(ad);
        let x = ad.x as f32;
        // App icon.
        let icon = 40.0 * s;
        Shape::new()
            .rounded(x + 14.0 * s, cy - icon / 2.0, icon, icon, 9.0 * s, false)
            .fill(self.img, rgba(0x7E57C2, 255));
        self.glyphs_centered(
            Face::RobotoMedium,
            26.0 * s,
            "W",
            x + 14.0 * s + icon / 2.0,
            cy,
            rgba(0xFFFFFF, 255),
        );
        self.text(
            Face::RobotoMedium,
            15.0,
            "Word Garden: Crosswords",
            (x + 64.0 * s, cy - 9.0 * s),
            Align::Left,
            rgba(0x202124, 255),
        );
        self.text(
            Face::RobotoRegular,
            12.0,
            "4.6  FREE  Install now",
            (x + 64.0 * s, cy + 11.0 * s),
            Align::Left,
            rgba(0x5F6368, 255),
        );
        let (bw, bh) = (84.0 * s, 34.0 * s);
        let bx = ad.right() as f32 - bw - 12.0 * s;
        Shape::new()
            .rounded(bx, cy - bh / 2.0, bw, bh, 6.0 * s, false)
            .fill(self.img, rgba(0x01875F, 255));
        self.text(
            Face::RobotoMedium,
            14.0,
            "INSTALL",
            (bx + bw / 2.0, cy),
            Align::Center,
            rgba(0xFFFFFF, 255),
        );
        // The "Ad" tag in the corner.
        Shape::new()
            .rounded(
                x + 2.0 * s,
                ad.y as f32 + 2.0 * s,
                18.0 * s,
                11.0 * s,
                2.0 * s,
                false,
            )
            .fill(self.img, rgba(0xFBC02D, 255));
        self.text(
            Face::RobotoMedium,
            8.0,
            "Ad",
            (x + 11.0 * s, ad.y as f32 + 7.5 * s),
            Align::Center,
            rgba(0x202124, 255),
        );
    }
}
