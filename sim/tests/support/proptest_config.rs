//! The settings of both crates' property tests: 256 cases per property in the quick run that
//! `cargo test` makes (`PROPTEST_CASES` to change it), and no failure files written.

use proptest::prelude::ProptestConfig;

/// Cases per property in the quick run.
const CASES: u32 = 256;

pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
