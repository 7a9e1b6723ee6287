//! `../shared` beside the checkout: the real phone screenshots that the reader's tests read.
//! Without it those tests have no cases; they say so and pass on a developer's machine, and fail
//! under CI (env `CI` set, as `.ci/run` exports): CI must run them. The agent's
//! `tests/support/shared.rs` includes this file, so both crates keep one rule.

use std::io::Write;
use std::path::PathBuf;

/// `shared/<sub>` beside the repository (or beside any folder above it, for worktrees), when it
/// is on this machine.
pub fn find(sub: &str) -> Option<PathBuf> {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared").join(sub))
        .find(|d| d.exists())
}

/// `shared/<sub>` for the tests named by `who`; `None` when it is missing, after saying so on
/// stderr. Under CI a missing folder fails the test instead.
pub fn require(sub: &str, who: &str) -> Option<PathBuf> {
    let found = find(sub);
    if found.is_none() {
        let message = format!(
            "../shared is missing beside the checkout (no shared/{sub} above {}): {who} have no cases",
            env!("CARGO_MANIFEST_DIR")
        );
        if std::env::var_os("CI").is_some() {
            panic!("{message} (CI must run them)");
        }
        // Straight to stderr: the test harness captures eprintln! of passing tests.
        let _ = writeln!(std::io::stderr(), "SKIPPED: {message}");
    }
    found
}
