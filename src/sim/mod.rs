//! The simulated phone: a sudoku app (game model and renderer) and a fake adbd that serves it on
//! 127.0.0.1, so tests and newcomers can drive the whole pipeline without a phone.
