//! How the command layer shows numbers and durations to people: indicatif's `HumanCount`
//! (`12,702`) and `HumanDuration` (`4 minutes`), in one place so every subcommand says them alike.

use indicatif::{HumanCount, HumanDuration};
use std::time::Duration;

/// A count with thousands separators: `12,702`.
pub fn count(n: impl TryInto<u64>) -> String {
    HumanCount(n.try_into().unwrap_or(u64::MAX)).to_string()
}

/// A duration at the scale people think in: `12 seconds`, `4 minutes`, `1 hour`.
pub fn duration(d: Duration) -> String {
    HumanDuration(d).to_string()
}

/// Rows as left-aligned columns two spaces apart (the first row is the header), one string per
/// line without trailing spaces.
pub fn columns<const N: usize>(table: &[[String; N]]) -> Vec<String> {
    let widths: Vec<usize> = (0..N)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    table
        .iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}
