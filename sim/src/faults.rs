//! Faults to switch on in the simulated phone, parsed from `--faults popup,drop-after=5`:
//! a popup dialog over the grid, an interstitial ad after N digits, a mistake limit that rejects wrong digits, a
//! mistake counter that keeps them in red, and a game started with wrong player entries (the app's,
//! set through `SudokuApp`'s setters), and a dropped connection after N command lines (the device's:
//! `SimConfig::drop_after`).

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
    /// The mistake counter of most apps: wrong digits are kept, drawn in red and counted; the
    /// game is lost at this many.
    pub mistakes: Option<u32>,
    /// The game starts with two wrong player entries (one repeating a given, one breaking no
    /// rule yet), counted as mistakes made.
    pub wrong_entries: bool,
    /// A completion card covers the board once it is solved.
    pub end_card: bool,
}

const HELP: &str = "faults are popup, drop-after=N, mistake-limit=N, mistakes=N, wrong-entries, end-card, ad-after=N (comma-separated)";

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
                "mistake-limit" | "mistakes" => {
                    let n = number(value)?;
                    let n = u32::try_from(n)
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("fault '{item}': the limit must be 1 or more"))?;
                    if name == "mistakes" {
                        faults.mistakes = Some(n);
                    } else {
                        faults.mistake_limit = Some(n);
                    }
                }
                "wrong-entries" if value.is_none() => faults.wrong_entries = true,
                "end-card" if value.is_none() => faults.end_card = true,
                "ad-after" => {
                    faults.ad_after = Some(
                        u32::try_from(number(value)?)
                            .map_err(|_| format!("fault '{item}': the count is too large"))?,
                    )
                }
                _ => return Err(format!("unknown fault '{item}'; {HELP}")),
            }
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
                ..Faults::default()
            })
        );
        assert_eq!(
            "mistakes=3, wrong-entries, end-card".parse::<Faults>(),
            Ok(Faults {
                mistakes: Some(3),
                wrong_entries: true,
                end_card: true,
                ..Faults::default()
            })
        );
        assert!("mistakes=0".parse::<Faults>().is_err());
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
