//! What a command line for the phone's `sh` (mksh/toybox, POSIX quoting) may hold: every string
//! that comes from the phone or the user and is built into one goes through [`quote`], values
//! with a fixed shape are checked for it first ([`is_input_node`]), and no line is longer than
//! [`MAX_BATCH_CHARS`].

/// Longest `batch` command we send; old adbd refuses service strings over 4 KiB.
pub const MAX_BATCH_CHARS: usize = 3800;

/// `s` as one shell word: unchanged when it holds only characters the shell never interprets,
/// else in single quotes with each `'` written as `'\''`.
pub fn quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/_.,:=+-@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// True for an evdev node path, `/dev/input/eventN` and nothing else: the only kind of path the
/// touchscreen read from `getevent -lp` may be before it is written into `dd of=PATH`.
pub fn is_input_node(path: &str) -> bool {
    path.strip_prefix("/dev/input/event")
        .is_some_and(|n| !n.is_empty() && n.len() <= 4 && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_as_they_are() {
        assert_eq!(quote("/dev/input/event3"), "/dev/input/event3");
        assert_eq!(quote("obs=24"), "obs=24");
    }

    #[test]
    fn anything_the_shell_would_interpret_is_single_quoted() {
        assert_eq!(quote(""), "''");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("/x; reboot"), "'/x; reboot'");
        assert_eq!(quote("$(id)`id`*"), "'$(id)`id`*'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("a\nb"), "'a\nb'");
    }

    #[test]
    fn only_dev_input_event_n_is_an_input_node() {
        assert!(is_input_node("/dev/input/event0"));
        assert!(is_input_node("/dev/input/event12"));
        for bad in [
            "",
            "/dev/input/event",
            "/dev/input/event1 ",
            "/dev/input/event1;reboot",
            "/dev/input/../block/sda",
            "/dev/input/mouse0",
            "/sdcard/x",
            "/dev/input/event99999",
            "/dev/input/event-1",
        ] {
            assert!(!is_input_node(bad), "{bad:?}");
        }
    }
}
