//! Reading a screenshot: locate the 9x9 grid, cut and clean each cell, and classify its digit by
//! template matching against digits cut from the app's own screen.
