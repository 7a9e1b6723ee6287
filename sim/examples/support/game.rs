//! A game in progress, set up alike by the `sim_screens` example and the `sim_render` benchmark
//! (which include this file as a module): entries, pencil notes, a selected cell and notes mode,
//! so that every drawing path shows.

use sudoku_sim::{Cell, Key, Screen, SudokuApp};

/// Writes digits into the first `entries` empty cells and notes into the `notes` after them,
/// taps the empty cell number `selected`, then the notes key. Returns the empty cells as they
/// were, for callers that add more.
pub fn play_a_little(
    phone: &mut SudokuApp,
    entries: usize,
    notes: usize,
    selected: usize,
) -> Vec<Cell> {
    let empty: Vec<Cell> = Cell::all()
        .filter(|&c| phone.givens().get(c).is_none())
        .collect();
    for (i, &c) in empty.iter().take(entries).enumerate() {
        phone.set_entry(c, Some((i % 9 + 1) as u8));
    }
    for &c in empty.iter().skip(entries).take(notes) {
        phone.set_notes(c, 0b10_1010_1010);
    }
    let at = phone.cell_center(empty[selected]);
    phone.tap(at);
    let at = phone.key_center(Key::Notes);
    phone.tap(at);
    empty
}
