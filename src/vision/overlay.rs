//! Overlay drawing.
