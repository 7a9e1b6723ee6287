//! Results on stdout without `println!`: `outln!`/`out!` write through a fallible `writeln!` and
//! return the I/O error with `?`, so a closed pipe (`devices --json | true`, `read | head -1`)
//! ends the command instead of panicking "failed printing to stdout". `main` then exits quietly
//! (see [`is_broken_pipe`]). Diagnostics go through `errln!`, which drops a line stderr cannot
//! take.

/// `println!` that returns `Err` (with `?`) when stdout is closed instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `print!` that returns `Err` (with `?`) when stdout is closed instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `eprintln!` that drops the line when stderr is closed (`2>&1 | head -1`) instead of panicking:
/// a diagnostic nobody can read is not worth a crash.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// True when the error is, or was caused by, a reader closing stdout: nothing is wrong, whoever
/// reads the output has seen enough.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn a_broken_pipe_is_recognised_under_context() {
        let err = Err::<(), _>(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            .context("printing the board")
            .unwrap_err();
        assert!(is_broken_pipe(&err));
        assert!(!is_broken_pipe(&anyhow::anyhow!("no device")));
    }
}
