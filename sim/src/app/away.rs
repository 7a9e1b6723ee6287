//! The app losing the front of the screen and coming back (`banner` and `pause-card` habits): a
//! message banner that slides over the top of the screen for a while and opens the messaging
//! app when tapped, the BACK key that returns to the game, and the Paused card the game shows
//! when it comes back from another app (the messaging app, or its own interstitial ad).

use super::SudokuApp;
use crate::geometry::Point;
use crate::model::{Hit, Key};
use std::time::Duration;

/// How long the message banner stays, as a heads-up notification does.
pub(super) const BANNER_FOR: Duration = Duration::from_secs(3);

/// The messaging app the banner opens, as `dumpsys` names its activity.
pub const MESSAGING_ACTIVITY: &str =
    "com.google.android.apps.messaging/.ui.ConversationListActivity";

/// Android's key code for BACK (`input keyevent KEYCODE_BACK` or `4`).
pub(super) const KEYCODE_BACK: u32 = 4;

impl SudokuApp {
    /// The messaging app is in front (the banner was tapped).
    pub fn away(&self) -> bool {
        self.state.away
    }

    /// The message banner shows now (`banner` habit).
    pub fn banner_shown(&mut self) -> bool {
        self.update_banner();
        self.state.banner
    }

    /// The message banner came already (it comes once): a test can tell a banner timed to come
    /// mid-play really did.
    pub fn banner_came(&self) -> bool {
        self.banner_came
    }

    /// Where the message banner shows on screen.
    pub fn banner_rect(&self) -> crate::geometry::Rect {
        self.layout.banner()
    }

    /// The Paused card covers the board (`pause-card` habit).
    pub fn paused(&self) -> bool {
        self.state.paused
    }

    /// Lets the banner go once its time is up.
    pub(super) fn update_banner(&mut self) {
        let now = self.clock.now();
        if self.banner_until.is_some_and(|until| now >= until) {
            self.banner_until = None;
        }
        self.state.banner = self.banner_until.is_some();
    }

    /// After a tap: the banner comes once, when the Nth digit has been placed.
    pub(super) fn maybe_show_banner(&mut self) {
        if let Some(n) = self.state.habits.banner_after
            && !self.banner_came
            && self.placed() >= n
        {
            self.banner_came = true;
            let now = self.clock.now();
            self.banner_until = Some(now + BANNER_FOR);
            self.state.banner_since = now;
            self.state.banner = true;
        }
    }

    /// A tap the banner, the other app or the Paused card takes before the game does.
    pub(super) fn tap_away(&mut self, at: Point) -> Option<Hit> {
        if self.state.away {
            return Some(Hit::OtherApp);
        }
        if self.banner_shown() && self.layout.banner().contains(at) {
            self.banner_until = None;
            self.state.banner = false;
            self.state.away = true;
            return Some(Hit::Banner);
        }
        if self.state.paused {
            if self.layout.resume_button().contains(at) {
                self.state.paused = false;
                return Some(Hit::Key(Key::Resume));
            }
            return Some(Hit::Paused);
        }
        None
    }

    /// The game comes back to the front (from the messaging app or its ad).
    pub(super) fn come_back(&mut self) {
        self.state.away = false;
        if self.state.habits.pause_card && !self.state.is_solved() {
            self.state.paused = true;
        }
    }

    /// A key event from `input keyevent`: BACK leaves the messaging app for the game.
    pub(super) fn key(&mut self, code: u32) {
        if code == KEYCODE_BACK && self.state.away {
            self.come_back();
        }
    }
}
