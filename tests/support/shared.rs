//! The files the tests read: the repository's small puzzle sets (`tests/data/puzzles`), and
//! `../shared` beside the checkout with the real phone screenshots. Without `../shared` the
//! real-screen tests have no cases; they say so and pass on a developer's machine, and fail
//! under CI (env `CI` set, as `.ci/run` exports), as the injector's tests do when a tool is
//! missing: CI must run them.

use std::path::{Path, PathBuf};

/// The repository's puzzle sets (`tests/data/puzzles`): in every clone, so no test needs
/// `../shared` for a puzzle.
pub fn puzzles() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/puzzles")
}

// `find` and `require` (the CI rule for a missing `../shared`) are the reader's: one file serves
// both crates' tests.
#[path = "../../reader/tests/support/shared.rs"]
mod both;
pub use both::{find, require};

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
