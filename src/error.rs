//! Errors that the stages return and the exit codes they map to. It sits below every stage, so
//! `play`, `visualize` and the command layer all import it and none imports another for it.

/// Marks an error as "the board could not be read or solved" (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BoardProblem(pub String);

/// `text` on one line: newlines, tabs and other control characters (from a serial, a phone's
/// answer, a file name) are shown escaped, `\n`, so an error message never splits or rewrites the
/// terminal line.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Exit code for an error that reached `main`: 1 when the board could not be read or solved
/// (marked with `BoardProblem` in the chain), 2 for usage, device and I/O errors.
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<BoardProblem>()) {
        1
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_so_a_message_stays_on_one_line() {
        assert_eq!(
            one_line("device a\nb not found\r\t\u{1b}[2J"),
            "device a\\nb not found\\r\\t\\u{1b}[2J"
        );
        assert_eq!(one_line("plain – unicode ok"), "plain – unicode ok");
    }
}
