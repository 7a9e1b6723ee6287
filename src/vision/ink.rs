//! Givens vs player entries (placeholder, being built).

use super::cells::CellInk;

#[derive(Debug, Clone, PartialEq)]
pub enum InkSplit {
    Indistinguishable,
}

impl InkSplit {
    pub fn of(_cells: &[CellInk]) -> InkSplit {
        InkSplit::Indistinguishable
    }
    pub fn summary(&self) -> String {
        "indistinguishable".into()
    }
}
