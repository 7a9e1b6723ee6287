//! The five input methods by name (`--input`), with what callers decide on per method: its
//! least wait between taps and whether its lines go to one long-lived session. A leaf, so the
//! pacing, the encodings and the injector's protocol can all name a method.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The five ways of tapping, without their parameters; `--input` names these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    Tap,
    Batch,
    Stream,
    Evdev,
    Inject,
}

impl InputKind {
    pub const ALL: [InputKind; 5] = [
        InputKind::Tap,
        InputKind::Batch,
        InputKind::Stream,
        InputKind::Evdev,
        InputKind::Inject,
    ];

    pub fn name(self) -> &'static str {
        match self {
            InputKind::Tap => "tap",
            InputKind::Batch => "batch",
            InputKind::Stream => "stream",
            InputKind::Evdev => "evdev",
            InputKind::Inject => "inject",
        }
    }

    /// The least wait between taps where no click can be overtaken (`pacing::tap_waits`): raw
    /// events keep 5 ms so each tap's frames reach the reader apart (a new contact, not a moved
    /// one); the other methods need none.
    pub fn least_gap_ms(self) -> u32 {
        match self {
            InputKind::Evdev => 5,
            _ => 0,
        }
    }

    /// True when the encoded lines go to one long-lived session rather than one command each.
    pub fn is_streamed(self) -> bool {
        matches!(
            self,
            InputKind::Stream | InputKind::Evdev | InputKind::Inject
        )
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InputKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!("unknown input method '{s}' (use inject, tap, batch, stream or evdev)")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_kinds_parse_from_their_names() {
        for k in InputKind::ALL {
            assert_eq!(k.name().parse::<InputKind>(), Ok(k));
        }
        assert!("adb".parse::<InputKind>().is_err());
    }
}
