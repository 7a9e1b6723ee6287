//! Profiles as a new user meets them: `play` alone, from an empty config dir and an empty
//! folder, learns the app on screen, stores it, and reuses it with no probing afterwards; two
//! apps keep two profiles; `profiles` lists, shows and removes them; `fit`: a profile carried to
//! another screen size, a moved keypad or grid, one capture and read at the start; `relearn`: a
//! damaged profile learned again, a re-learned input order saved.

mod fit;
mod learn;
mod relearn;
