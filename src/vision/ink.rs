//! Givens vs player entries (placeholder, being built).

use super::cells::InkFeatures;

#[derive(Debug, Clone, PartialEq)]
pub enum InkSplit {
    Indistinguishable,
}

impl InkSplit {
    pub fn of(_f: &[Option<InkFeatures>]) -> InkSplit {
        InkSplit::Indistinguishable
    }
    pub fn summary(&self) -> String {
        "indistinguishable".into()
    }
}
