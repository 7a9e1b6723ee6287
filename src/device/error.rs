//! The typed errors the device layer returns for what a phone did, so callers decide on them
//! without reading messages: taps Android refused or dropped ([`TapsRefused`]), a lock screen
//! ([`PhoneLocked`]); an adb server that stopped is `adb::AdbServerGone`. Each says in one line what
//! happened and what to do; all map to exit code 2 (`crate::error::exit_code_for`).

/// Taps of one `tap_all` call that did not all land. The taps before `sent` did; the one at
/// `sent` did not; the rest were not sent (a few already queued on the phone may have run).
/// The caller looks at the screen and enters what is missing; [`TapsRefused::ends_run`] says
/// when that cannot help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct TapsRefused {
    pub serial: String,
    /// Taps of this call known to have landed, in order (a lower bound).
    pub sent: usize,
    /// Taps asked for in this call.
    pub total: usize,
    pub why: Refusal,
}

/// Why taps did not land.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Android refuses injected input for the shell user (a `SecurityException` naming
    /// INJECT_EVENTS): a phone setting. `advice` names it for the phone's maker; `first` is true
    /// when no tap on this phone was ever accepted in this run (nothing on the board changed).
    Permission { advice: String, first: bool },
    /// One event was not delivered (`injectInputEvent` returned false: the app was busy or a
    /// window changed under it); the phone takes input otherwise.
    Dropped(String),
}

impl TapsRefused {
    /// True when retrying cannot help: Android refused input before any tap landed in this run.
    pub fn ends_run(&self) -> bool {
        matches!(self.why, Refusal::Permission { first: true, .. })
    }

    fn message(&self) -> String {
        let serial = crate::error::one_line(&self.serial);
        match &self.why {
            Refusal::Permission {
                advice,
                first: true,
            } if self.sent == 0 => format!(
                "{serial} refuses injected taps (INJECT_EVENTS permission), nothing was tapped: {advice}"
            ),
            Refusal::Permission { advice, .. } => format!(
                "{serial} refused injected taps (INJECT_EVENTS permission) after {} of {} taps: {advice}",
                self.sent, self.total
            ),
            Refusal::Dropped(why) => format!(
                "{serial} did not take tap {} of {} ({}): look at the screen and enter what is missing",
                self.sent + 1,
                self.total,
                crate::error::one_line(why)
            ),
        }
    }
}

/// The lock screen is in front: only the user can unlock it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the phone {} is locked: unlock it and open the game, then run again", crate::error::one_line(.serial))]
pub struct PhoneLocked {
    pub serial: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(sent: usize, why: Refusal) -> TapsRefused {
        TapsRefused {
            serial: "abc123".into(),
            sent,
            total: 16,
            why,
        }
    }

    #[test]
    fn a_first_refusal_ends_the_run_and_says_nothing_was_tapped() {
        let e = refused(
            0,
            Refusal::Permission {
                advice: "turn X on, then run again".into(),
                first: true,
            },
        );
        assert!(e.ends_run());
        assert_eq!(
            e.to_string(),
            "abc123 refuses injected taps (INJECT_EVENTS permission), nothing was tapped: turn X on, then run again"
        );
    }

    #[test]
    fn a_later_refusal_or_a_dropped_event_is_a_lost_tap_for_the_caller() {
        let later = refused(
            3,
            Refusal::Permission {
                advice: "turn X on".into(),
                first: false,
            },
        );
        assert!(!later.ends_run());
        assert!(later.to_string().contains("after 3 of 16 taps"));
        let dropped = refused(
            5,
            Refusal::Dropped("injectInputEvent returned false".into()),
        );
        assert!(!dropped.ends_run());
        assert_eq!(
            dropped.to_string(),
            "abc123 did not take tap 6 of 16 (injectInputEvent returned false): look at the screen and enter what is missing"
        );
    }

    #[test]
    fn a_locked_phone_says_to_unlock_it() {
        let e = PhoneLocked {
            serial: "abc\n123".into(),
        };
        assert_eq!(
            e.to_string(),
            "the phone abc\\n123 is locked: unlock it and open the game, then run again"
        );
    }
}
