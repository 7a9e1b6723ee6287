//! The screen before a run looks at it: wake a dark screen and say so, refuse a locked one in one
//! line ([`wake_screen`]), and tell a dark screenshot from a screen without a grid
//! ([`is_black`]), so a sleeping phone is never reported as "no grid".

use super::error::PhoneLocked;
use super::{Device, Key, ScreenState};
use anyhow::Result;
use image::RgbaImage;
use std::time::{Duration, Instant};

/// How long a woken screen may take to say it is on.
pub const WAKE_TIMEOUT: Duration = Duration::from_secs(2);
/// Between two looks while waiting for it.
const WAKE_POLL: Duration = Duration::from_millis(150);

/// Makes sure the screen can be played on: an Off screen is woken (`say`: "the screen was off:
/// woke it") and waited for up to [`WAKE_TIMEOUT`]; a Locked one is a [`PhoneLocked`] error
/// (exit 2). A screen that does not report On in time is left to the first screenshot (which
/// [`is_black`] reads), so a phone whose dumpsys lags is never blocked.
pub fn wake_screen(device: &mut dyn Device, say: &dyn Fn(&str)) -> Result<()> {
    wake_screen_within(device, say, WAKE_TIMEOUT)
}

/// [`wake_screen`] with its own wait.
pub fn wake_screen_within(
    device: &mut dyn Device,
    say: &dyn Fn(&str),
    timeout: Duration,
) -> Result<()> {
    let mut state = device.screen_state()?;
    if state == ScreenState::Off {
        device.press_key(Key::Wakeup)?;
        say("the screen was off: woke it");
        let deadline = Instant::now() + timeout;
        loop {
            state = device.screen_state()?;
            if state != ScreenState::Off || Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(WAKE_POLL);
        }
        if state == ScreenState::Off {
            log::info!(
                "the screen still reads as off {} ms after waking it",
                timeout.as_millis()
            );
        }
    }
    if state == ScreenState::Locked {
        return Err(PhoneLocked {
            serial: device.serial().unwrap_or_else(|| "on this device".into()),
        }
        .into());
    }
    Ok(())
}

/// Whether a screenshot is dark all over: no pixel of every other row has a channel above 16.
/// A dark-themed app still draws its digits and grid lines brighter than that (and every column
/// is looked at, so a one-pixel grid line is seen), so only a sleeping or blanked screen reads
/// as black.
pub fn is_black(img: &RgbaImage) -> bool {
    const MAX: u8 = 16;
    img.rows()
        .step_by(2)
        .all(|row| row.into_iter().all(|p| p.0[..3].iter().all(|&c| c <= MAX)))
}

/// A phone for tests whose screen states and apps in front come from scripts (the last of each
/// stays; no app: it cannot tell); it records the keys pressed.
#[cfg(test)]
pub(crate) struct Scripted {
    pub(crate) states: Vec<ScreenState>,
    pub(crate) apps: Vec<Option<&'static str>>,
    pub(crate) keys: Vec<Key>,
}

#[cfg(test)]
impl Scripted {
    /// A phone whose screen is on, serial R5CW30.
    pub(crate) fn on() -> Scripted {
        Scripted {
            states: vec![ScreenState::On],
            apps: Vec::new(),
            keys: Vec::new(),
        }
    }
}

#[cfg(test)]
impl Device for Scripted {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        Ok(RgbaImage::new(1, 1))
    }
    fn screen_size(&mut self) -> Result<crate::geometry::Size> {
        Ok(crate::geometry::Size::new(1, 1))
    }
    fn tap_all(&mut self, _taps: &[crate::geometry::Point]) -> Result<()> {
        Ok(())
    }
    fn screen_state(&mut self) -> Result<ScreenState> {
        Ok(if self.states.len() > 1 {
            self.states.remove(0)
        } else {
            self.states[0]
        })
    }
    fn press_key(&mut self, key: Key) -> Result<()> {
        self.keys.push(key);
        Ok(())
    }
    fn foreground_app(&mut self) -> Result<Option<String>> {
        let app = match self.apps.len() {
            0 => None,
            1 => self.apps[0],
            _ => self.apps.remove(0),
        };
        Ok(app.map(str::to_string))
    }
    fn serial(&self) -> Option<String> {
        Some("R5CW30".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;
    use std::cell::RefCell;

    fn run(states: &[ScreenState]) -> (Result<()>, Vec<Key>, Vec<String>) {
        let said = RefCell::new(Vec::new());
        let mut phone = Scripted {
            states: states.to_vec(),
            ..Scripted::on()
        };
        let result = wake_screen_within(
            &mut phone,
            &|s| said.borrow_mut().push(s.to_string()),
            Duration::from_millis(400),
        );
        (result, phone.keys, said.into_inner())
    }

    #[test]
    fn a_screen_that_is_on_is_left_alone_and_nothing_is_said() {
        let (result, keys, said) = run(&[ScreenState::On]);
        assert!(result.is_ok());
        assert!(keys.is_empty() && said.is_empty());
    }

    #[test]
    fn a_dark_screen_is_woken_once_and_said_so() {
        use ScreenState::*;
        let (result, keys, said) = run(&[Off, Off, On]);
        assert!(result.is_ok());
        assert_eq!(keys, [Key::Wakeup]);
        assert_eq!(said, ["the screen was off: woke it"]);
    }

    #[test]
    fn a_lock_screen_before_or_after_waking_is_one_typed_error() {
        use ScreenState::*;
        for states in [&[Locked][..], &[Off, Locked]] {
            let (result, _, _) = run(states);
            let err = result.unwrap_err();
            assert!(err.downcast_ref::<PhoneLocked>().is_some());
            assert_eq!(
                err.to_string(),
                "the phone R5CW30 is locked: unlock it and open the game, then run again"
            );
        }
    }

    #[test]
    fn a_screen_that_stays_dark_is_left_to_the_screenshot_after_the_wait() {
        let start = Instant::now();
        let (result, keys, _) = run(&[ScreenState::Off]);
        assert!(result.is_ok());
        assert_eq!(keys, [Key::Wakeup]);
        assert!(start.elapsed() >= Duration::from_millis(400));
    }

    #[test]
    fn only_a_screenshot_dark_all_over_is_black() {
        let black = RgbaImage::from_pixel(1080, 2340, Rgba([3, 3, 5, 255]));
        assert!(is_black(&black));
        // One vertical grid line of one pixel on an all-black dark theme is seen.
        let mut lined = black.clone();
        for y in 0..2340 {
            lined.put_pixel(517, y, Rgba([60, 60, 60, 255]));
        }
        assert!(!is_black(&lined));
        assert!(!is_black(&RgbaImage::from_pixel(
            4,
            4,
            Rgba([255, 255, 255, 255])
        )));
    }
}
