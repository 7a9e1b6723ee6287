//! Faults to switch on in the simulated phone, parsed from `--faults popup,drop-after=5`:
//! a popup dialog over the grid, an interstitial ad after N digits, and a mistake limit that rejects wrong digits (both the app's,
//! set through `SudokuApp`'s setters), and a dropped connection after N command lines (the device's:
//! `SimConfig::drop_after`). The same list turns on the app's habits and the phone's (`habits`:
//! `lag=MS`, `screen-off`, `lock-screen`, `input-refused`, which the handset reads from the app
//! when it starts), and [`Faults::apply`] sets them all on a phone, so callers need no change
//! when a habit is added.

use crate::app::SudokuApp;
use crate::habits::{HABITS_HELP, Habits};
use std::str::FromStr;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// A popup dialog covers the grid until its close button is tapped.
    pub popup: bool,
    /// The device vanishes when command line N+1 arrives.
    pub drop_after: Option<u64>,
    /// Wrong digits are rejected and counted; the game is lost at this many.
    pub mistake_limit: Option<u32>,
    /// A full-screen interstitial ad after this many placed digits (closed only by its X).
    pub ad_after: Option<u32>,
    /// The habits of real apps switched on in the same list.
    pub habits: Habits,
}

const HELP: &str = "faults are popup, drop-after=N, mistake-limit=N, ad-after=N (comma-separated)";

impl Faults {
    /// Switches the app's faults and habits on `phone` (the dropped connection is the device's).
    /// Fails when the phone cannot take a habit (`wrong-start` on a puzzle without one solution).
    pub fn apply(&self, phone: &mut SudokuApp) -> Result<(), String> {
        phone.set_popup(self.popup);
        phone.set_mistake_limit(self.mistake_limit);
        phone.set_ad_after(self.ad_after);
        phone.set_habits(self.habits)
    }
}

impl FromStr for Faults {
    type Err = String;

    /// Parses a comma-separated list; an empty string is no faults.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut faults = Faults::default();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim())),
                None => (item, None),
            };
            let number = |v: Option<&str>| -> Result<u64, String> {
                v.and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| format!("fault '{item}' needs a number, like {name}=3"))
            };
            match name {
                "popup" if value.is_none() => faults.popup = true,
                "drop-after" => faults.drop_after = Some(number(value)?),
                "mistake-limit" => {
                    let n = number(value)?;
                    let n = u32::try_from(n)
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("fault '{item}': the limit must be 1 or more"))?;
                    faults.mistake_limit = Some(n);
                }
                "ad-after" => {
                    faults.ad_after = Some(
                        u32::try_from(number(value)?)
                            .map_err(|_| format!("fault '{item}': the count is too large"))?,
                    )
                }
                _ if faults.habits.set(item, name, value)? => {}
                _ => return Err(format!("unknown fault '{item}'; {HELP}; {HABITS_HELP}")),
            }
        }
        if faults.mistake_limit.is_some() && faults.habits.lives.is_some() {
            return Err(
                "mistake-limit (wrong digits refused) and lives (wrong digits kept) \
                 cannot both be on: pick one"
                    .to_string(),
            );
        }
        Ok(faults)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_lists_parse_and_bad_ones_explain_themselves() {
        assert_eq!("".parse::<Faults>(), Ok(Faults::default()));
        assert_eq!(
            "popup, drop-after=5,mistake-limit=3".parse::<Faults>(),
            Ok(Faults {
                popup: true,
                drop_after: Some(5),
                mistake_limit: Some(3),
                ad_after: None,
                habits: Habits::default(),
            })
        );
        let both = "popup,end-card,fade=250".parse::<Faults>().unwrap();
        assert!(both.popup && both.habits.end_card && both.habits.animation.is_some());
        assert!(
            "mistake-limit=3,lives=3"
                .parse::<Faults>()
                .unwrap_err()
                .contains("pick one")
        );
        assert!(
            "drop-after"
                .parse::<Faults>()
                .unwrap_err()
                .contains("needs a number")
        );
        assert!("mistake-limit=0".parse::<Faults>().is_err());
        assert!(
            "meteor"
                .parse::<Faults>()
                .unwrap_err()
                .contains("unknown fault 'meteor'")
        );
    }
}
