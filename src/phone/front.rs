//! Which app is in front: the game's, as named when its board was read
//! ([`Phone::note_game_in_front`]), against the one in front now
//! ([`Phone::other_app_in_front`]). A workflow that taps asks before it looks at the screen:
//! another app there (a notification tapped, an app the user opened) is never tapped.

use super::Phone;
use crate::device::Device;
use anyhow::Result;

/// How far down a heads-up notification reaches: the status bar and a card of two text lines,
/// 100-130 dp on real phones. A tap above it may open the notification's app. Play looks over
/// only taps above it before a batch: a look costs a screenshot (about 115 ms of an android12
/// phone's time), and looking before every batch made runs 41-43% slower on boards that lie
/// lower.
const HEADS_UP_DP: u32 = 130;

/// A phone's width in dp (360-430 on most), to tell [`HEADS_UP_DP`] in pixels from the width.
const PHONE_WIDTH_DP: u32 = 400;

/// Whether a tap at height `y` on a screen `width` pixels wide lands where a heads-up
/// notification shows ([`HEADS_UP_DP`]).
pub fn under_heads_up(y: u32, width: u32) -> bool {
    y < width * HEADS_UP_DP / PHONE_WIDTH_DP
}

/// The game's app, as the phone named it before the first tap.
pub(super) struct Front {
    /// `None`: the device cannot tell (a file, a phone whose dumpsys names nothing); no guard.
    game: Option<String>,
}

impl Front {
    /// Asks `device` which app is in front now: the game, since the plan was just read from it.
    fn new(device: &mut dyn Device) -> Front {
        let game = device.foreground_app().unwrap_or_else(|e| {
            log::info!("cannot tell the app in front ({e:#}): not checking it between moves");
            None
        });
        Front { game }
    }

    /// The app in front when it is not the game; `None` when it is (or cannot be told).
    fn other(&self, device: &mut dyn Device) -> Result<Option<String>> {
        let Some(game) = &self.game else {
            return Ok(None);
        };
        // A phone that fails to say is left to the screenshot, which sees a phone gone.
        let now = device.foreground_app().unwrap_or_else(|e| {
            log::info!("cannot tell the app in front ({e:#}): going on");
            None
        });
        Ok(now.filter(|app| app != game))
    }
}

impl Phone<'_> {
    /// Notes the app in front now as the game's (its board was just read from the screen).
    pub fn note_game_in_front(&mut self) {
        self.front = Some(Front::new(self.device));
    }

    /// The app in front when it is not the game noted; `None` when it is, when the phone
    /// cannot tell, or before a game was noted.
    pub fn other_app_in_front(&mut self) -> Result<Option<String>> {
        match &self.front {
            Some(front) => front.other(self.device),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::screen::Scripted;

    fn apps(apps: &[Option<&'static str>]) -> Scripted {
        Scripted {
            apps: apps.to_vec(),
            ..Scripted::on()
        }
    }

    #[test]
    fn only_an_app_other_than_the_game_counts_as_in_front() {
        let mut phone = apps(&[
            Some("com.game"),
            Some("com.game"),
            Some("com.google.android.apps.messaging"),
            None,
        ]);
        let front = Front::new(&mut phone);
        assert_eq!(front.other(&mut phone).unwrap(), None);
        assert_eq!(
            front.other(&mut phone).unwrap().as_deref(),
            Some("com.google.android.apps.messaging")
        );
        assert_eq!(front.other(&mut phone).unwrap(), None, "cannot tell: go on");
    }

    #[test]
    fn a_device_that_cannot_name_the_game_is_never_guarded() {
        let mut phone = apps(&[None, Some("com.other")]);
        let front = Front::new(&mut phone);
        assert_eq!(front.other(&mut phone).unwrap(), None);
    }
}
