//! The files the tests read: the repository's small puzzle sets (`tests/data/puzzles`), and
//! `../shared` beside the checkout with the real phone screenshots. Without `../shared` the
//! real-screen tests have no cases; they say so and pass on a developer's machine, and fail
//! under CI (env `CI` set, as `.ci/run` exports), as the injector's tests do when a tool is
//! missing: CI must run them.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The repository's puzzle sets (`tests/data/puzzles`): in every clone, so no test needs
/// `../shared` for a puzzle.
pub fn puzzles() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/puzzles")
}

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
        missing(sub, who);
    }
    found
}

/// Says that `shared/<sub>` is missing for `who`: a panic under CI, a line on stderr otherwise.
pub fn missing(sub: &str, who: &str) {
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

/// `shared/real-screens` (with its `MANIFEST.tsv`) for the tests named by `who`, as `require`.
pub fn real_screens(who: &str) -> Option<PathBuf> {
    require("real-screens/MANIFEST.tsv", who).and_then(|m| m.parent().map(Path::to_path_buf))
}

/// The rows of `shared/real-screens/MANIFEST.tsv` (its header skipped), each split at tabs:
/// file name, source repository, path in it, pixel size, app, 81 digits ('0' empty; fewer for a killer sudoku).
/// `None` when it is missing, as `require`.
pub fn manifest(who: &str) -> Option<Vec<Vec<String>>> {
    let path = real_screens(who)?.join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(
        text.lines()
            .skip(1)
            .map(|l| l.split('\t').map(str::to_owned).collect())
            .collect(),
    )
}

/// The screenshot `name` of `shared/real-screens`, decoded (once `manifest` or `require` found
/// the folder).
pub fn real_screen(name: &str) -> image::RgbaImage {
    let path = find("real-screens")
        .expect("shared/real-screens")
        .join(name);
    image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8()
}
