use super::*;

const L52: &str =
    "000009000629300840005000090953000000000604000000900732040006070390020104200400080";
pub(super) const MEDIUM: &str =
    "900400000008029400007800003170500040000098007850007600603901000000000009400200080";

pub(super) fn phone(skin: &str, puzzle: &str) -> SudokuApp {
    let board = puzzles::parse(puzzle).unwrap();
    SudokuApp::new(board, Skin::named(skin).unwrap(), Size::new(720, 1280)).unwrap()
}

pub(super) fn cell(r: usize, c: usize) -> Cell {
    Cell::new(r, c).unwrap()
}

pub(super) fn tap_cell(p: &mut SudokuApp, c: Cell) {
    let at = p.cell_center(c);
    p.tap(at);
}

pub(super) fn tap_key(p: &mut SudokuApp, k: Key) {
    let at = p.key_center(k);
    p.tap(at);
}

/// A tap on `c`, then on the key of digit `d`: a move as a cell-first app takes it.
pub(super) fn enter(p: &mut SudokuApp, c: Cell, d: u8) {
    tap_cell(p, c);
    tap_key(p, Key::Digit(d));
}

/// Enters the right digit in `c` (see [`enter`]) and returns it.
pub(super) fn enter_answer(p: &mut SudokuApp, c: Cell) -> u8 {
    let d = solution(p).get(c).unwrap();
    enter(p, c, d);
    d
}

pub(super) fn solution(p: &SudokuApp) -> Board {
    match p.answer {
        Answer::Unique(s) => s,
        Answer::Several => panic!("test puzzle must be unique"),
    }
}

#[test]
fn the_phone_can_move_to_the_device_thread() {
    fn assert_send<T: Send + 'static>() {}
    assert_send::<SudokuApp>();
    let boxed: Box<dyn Screen> = Box::new(phone("light", MEDIUM));
    assert_eq!(boxed.size(), Size::new(720, 1280));
}

#[test]
fn unsupported_sizes_and_bad_puzzles_are_refused() {
    let board = puzzles::parse(MEDIUM).unwrap();
    let err = SudokuApp::new(board, Skin::default(), Size::new(800, 600)).unwrap_err();
    assert!(err.to_string().contains("800x600"), "{err}");
    let mut bad = board;
    bad.set(cell(0, 1), Some(9));
    assert!(SudokuApp::new(bad, Skin::default(), Size::new(720, 1280)).is_err());
}

#[test]
fn cell_first_tap_cell_then_digit_writes_and_erase_clears() {
    let mut p = phone("light", MEDIUM);
    let (c, d) = (cell(0, 1), solution(&p).get(cell(0, 1)).unwrap());
    tap_cell(&mut p, c);
    assert_eq!(p.selected(), Some(c));
    tap_key(&mut p, Key::Digit(d));
    assert_eq!(p.board().get(c), Some(d));
    assert_eq!(p.entries().get(c), Some(d));
    tap_key(&mut p, Key::Erase);
    assert_eq!(p.board().get(c), None);
    assert_eq!(
        p.moves(),
        &[
            AppMove::Set { cell: c, digit: d },
            AppMove::Erase { cell: c }
        ]
    );
    assert_eq!(
        p.hits(),
        &[Hit::Cell(c), Hit::Key(Key::Digit(d)), Hit::Key(Key::Erase)]
    );
    assert_eq!(p.taps().len(), 3);
}

#[test]
fn givens_are_selected_but_never_changed() {
    let mut p = phone("light", MEDIUM);
    let given = cell(0, 0);
    enter(&mut p, given, 1);
    tap_key(&mut p, Key::Erase);
    assert_eq!(p.selected(), Some(given));
    assert_eq!(p.board().get(given), Some(9));
    assert!(p.moves().is_empty());
    let mut nf = phone("numfirst", MEDIUM);
    tap_key(&mut nf, Key::Digit(1));
    tap_cell(&mut nf, given);
    assert_eq!(nf.board().get(given), Some(9));
    assert!(nf.moves().is_empty());
}

#[test]
fn digit_without_a_selected_cell_and_taps_outside_controls_do_nothing() {
    let mut p = phone("light", MEDIUM);
    tap_key(&mut p, Key::Digit(5));
    p.tap(Point::new(5, 5));
    p.tap(Point::new(3, 1279));
    assert_eq!(p.board(), p.givens());
    assert_eq!(p.hits()[1..], [Hit::Nothing, Hit::Nothing]);
}

#[test]
fn number_first_digit_then_cells_writes_and_same_digit_clears() {
    let mut p = phone("numfirst", MEDIUM);
    let s = solution(&p);
    let (a, b) = (cell(0, 1), cell(0, 2));
    let d = s.get(a).unwrap();
    tap_key(&mut p, Key::Digit(d));
    assert_eq!(p.selected_digit(), Some(d));
    tap_cell(&mut p, a);
    assert_eq!(p.board().get(a), Some(d));
    tap_cell(&mut p, a);
    assert_eq!(p.board().get(a), None);
    let e = s.get(b).unwrap();
    tap_key(&mut p, Key::Digit(e));
    tap_cell(&mut p, b);
    tap_key(&mut p, Key::Erase);
    assert!(p.eraser_selected() && p.selected_digit().is_none());
    tap_cell(&mut p, b);
    assert_eq!(p.board(), p.givens());
    assert_eq!(
        p.moves(),
        &[
            AppMove::Set { cell: a, digit: d },
            AppMove::Erase { cell: a },
            AppMove::Set { cell: b, digit: e },
            AppMove::Erase { cell: b },
        ]
    );
}

#[test]
fn notes_mode_toggles_pencil_marks_in_both_input_orders() {
    let mut p = phone("light", MEDIUM);
    let c = cell(0, 1);
    tap_cell(&mut p, c);
    tap_key(&mut p, Key::Notes);
    tap_key(&mut p, Key::Digit(2));
    tap_key(&mut p, Key::Digit(5));
    tap_key(&mut p, Key::Digit(2));
    assert_eq!(p.notes(c), 1 << 5);
    assert!(p.board().get(c).is_none() && p.moves().is_empty());

    let mut nf = phone("numfirst", MEDIUM);
    tap_key(&mut nf, Key::Notes);
    tap_key(&mut nf, Key::Digit(3));
    tap_cell(&mut nf, c);
    assert_eq!(nf.notes(c), 1 << 3);
}

#[test]
fn an_app_switched_to_cell_first_in_its_settings_takes_the_cell_then_the_digit() {
    let mut p = phone("numfirst", MEDIUM);
    let s = solution(&p);
    let (a, b) = (cell(0, 1), cell(0, 2));
    tap_key(&mut p, Key::Digit(s.get(a).unwrap()));
    p.set_input_order(EntryOrder::CellFirst);
    assert_eq!(p.input_order(), EntryOrder::CellFirst);
    tap_cell(&mut p, a);
    assert!(
        p.board().get(a).is_none(),
        "the digit chosen before is put down"
    );
    tap_key(&mut p, Key::Digit(s.get(a).unwrap()));
    enter(&mut p, b, s.get(b).unwrap());
    assert_eq!(
        p.moves(),
        &[
            AppMove::Set {
                cell: a,
                digit: s.get(a).unwrap()
            },
            AppMove::Set {
                cell: b,
                digit: s.get(b).unwrap()
            },
        ]
    );
}

#[test]
fn placing_a_digit_clears_it_from_peer_notes() {
    let mut p = phone("light", MEDIUM);
    let s = solution(&p);
    let c = cell(0, 1);
    let d = s.get(c).unwrap();
    p.set_notes(cell(0, 2), (1 << d) | (1 << 4));
    p.set_notes(cell(8, 8), 1 << d);
    enter(&mut p, c, d);
    assert_eq!(p.notes(cell(0, 2)), (1 << d | 1 << 4) & !(1 << d));
    assert_eq!(p.notes(cell(8, 8)), 1 << d);
}

#[test]
fn without_a_limit_wrong_digits_are_placed_but_counted() {
    let mut p = phone("light", MEDIUM);
    let c = cell(0, 1);
    let wrong = (1..=9).find(|&d| Some(d) != solution(&p).get(c)).unwrap();
    enter(&mut p, c, wrong);
    assert_eq!(p.board().get(c), Some(wrong));
    assert_eq!(p.mistakes(), 1);
}

#[test]
fn the_ad_comes_after_n_digits_swallows_taps_and_only_its_close_button_ends_it() {
    let mut p = phone("light", MEDIUM);
    p.set_ad_after(Some(2));
    let sol = solution(&p);
    let empty: Vec<Cell> = Cell::all()
        .filter(|&c| p.board().get(c).is_none())
        .collect();
    for &c in &empty[..2] {
        enter(&mut p, c, sol.get(c).unwrap());
    }
    assert!(p.ad_shown());
    let before = p.render();
    enter(&mut p, empty[2], sol.get(empty[2]).unwrap());
    assert_eq!(p.hits()[p.hits().len() - 2..], [Hit::Ad, Hit::Ad]);
    assert_eq!(p.board().get(empty[2]), None);
    tap_key(&mut p, Key::AdClose);
    assert!(!p.ad_shown());
    assert_ne!(p.render(), before, "the board shows again");
    enter(&mut p, empty[2], sol.get(empty[2]).unwrap());
    assert!(!p.ad_shown(), "the ad comes once");
    assert_eq!(p.board().get(empty[2]), sol.get(empty[2]));
}

#[test]
fn mistake_limit_rejects_wrong_digits_and_ends_the_game() {
    let mut p = phone("light", MEDIUM);
    p.set_mistake_limit(Some(2));
    let s = solution(&p);
    let c = cell(0, 1);
    let wrong: Vec<u8> = (1..=9).filter(|&d| Some(d) != s.get(c)).collect();
    enter(&mut p, c, wrong[0]);
    assert_eq!(p.board().get(c), None);
    assert_eq!(p.mistakes(), 1);
    assert_eq!(
        p.moves(),
        &[AppMove::Rejected {
            cell: c,
            digit: wrong[0]
        }]
    );
    tap_key(&mut p, Key::Digit(wrong[1]));
    assert_eq!(p.mistakes(), 2);
    // Game over: the keypad is covered, even the right digit does nothing now.
    tap_key(&mut p, Key::Digit(s.get(c).unwrap()));
    assert_eq!(p.board().get(c), None);
    assert_eq!(*p.hits().last().unwrap(), Hit::Nothing);
}

#[test]
fn a_puzzle_with_several_solutions_judges_digits_by_the_rules() {
    let mut p = phone("light", L52);
    p.set_mistake_limit(Some(3));
    let c = cell(0, 0);
    enter(&mut p, c, 9); // r1c6 holds a 9
    assert_eq!(p.board().get(c), None);
    assert_eq!(p.mistakes(), 1);
    let ok = (1..=9)
        .find(|&d| !puzzles::peers(c).any(|q| p.board().get(q) == Some(d)))
        .unwrap();
    tap_key(&mut p, Key::Digit(ok));
    assert_eq!(p.board().get(c), Some(ok));
}

#[test]
fn popup_swallows_taps_until_its_button_is_tapped() {
    let mut p = phone("light", MEDIUM);
    p.set_popup(true);
    let c = cell(0, 1);
    enter(&mut p, c, 3);
    assert_eq!(p.selected(), None);
    assert_eq!(p.hits(), &[Hit::Popup, Hit::Popup]);
    tap_key(&mut p, Key::PopupClose);
    assert!(!p.popup_shown());
    tap_cell(&mut p, c);
    assert_eq!(p.selected(), Some(c));
}

pub(super) fn with_habits(skin: &str, items: &str) -> SudokuApp {
    let mut p = phone(skin, MEDIUM);
    let faults: crate::faults::Faults = items.parse().unwrap();
    faults.apply(&mut p).unwrap();
    p.set_clock(Duration::ZERO);
    p
}

/// A phone with `habit` on and the two wrong entries it seeds.
pub(super) fn seeded_wrong(habit: &str) -> (SudokuApp, [Cell; 2]) {
    let p = with_habits("light", habit);
    let wrong = p.wrong_entries();
    assert_eq!(wrong.len(), 2, "{habit} seeds two wrong entries");
    (p, [wrong[0], wrong[1]])
}

/// Fills every empty cell but the last with its solution; returns the last.
fn fill_all_but_the_last(p: &mut SudokuApp) -> Cell {
    let s = solution(p);
    let empty: Vec<Cell> = Cell::all()
        .filter(|&c| p.board().get(c).is_none())
        .collect();
    let (last, rest) = empty.split_last().unwrap();
    for &c in rest {
        p.set_entry(c, s.get(c));
    }
    *last
}

/// Fills every empty cell but the last with its solution, then types the last by taps.
fn solve_by_the_last_tap(p: &mut SudokuApp) -> Cell {
    let last = fill_all_but_the_last(p);
    enter_answer(p, last);
    last
}

/// Pixels of `cell`'s inside darker than mid-grey.
pub(super) fn dark_pixels(img: &RgbaImage, p: &SudokuApp, cell: Cell) -> usize {
    let r = p.layout.cell_rect(cell);
    let mut n = 0;
    for y in r.y..r.bottom() {
        for x in r.x..r.right() {
            let px = img.get_pixel(x, y);
            if (px[0] as u32 + px[1] as u32 + px[2] as u32) < 3 * 128 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_end_card_covers_the_solved_board_and_takes_every_tap() {
    let mut p = with_habits("light", "end-card");
    assert!(!p.end_card_shown());
    let given = cell(1, 2); // an 8 in MEDIUM, clear of the card's badge and text
    assert!(dark_pixels(&p.render(), &p, given) > 0);
    let last = solve_by_the_last_tap(&mut p);
    assert!(p.is_solved() && p.end_card_shown());
    assert_eq!(dark_pixels(&p.render(), &p, given), 0, "the card hides it");
    tap_cell(&mut p, last);
    tap_key(&mut p, Key::NewGame);
    assert_eq!(
        p.hits()[p.hits().len() - 2..],
        [Hit::EndCard, Hit::Key(Key::NewGame)]
    );
    assert!(p.end_card_shown(), "New game does nothing here");

    let mut plain = phone("light", MEDIUM);
    solve_by_the_last_tap(&mut plain);
    assert!(plain.is_solved() && !plain.end_card_shown());
    assert!(dark_pixels(&plain.render(), &plain, given) > 0);
}

#[test]
fn a_fading_digit_is_drawn_faint_until_its_time_is_up() {
    let mut p = with_habits("light", "fade=250");
    let c = cell(0, 1);
    let d = enter_answer(&mut p, c);
    assert!(p.animating());
    p.set_clock(Duration::from_millis(50));
    let early = dark_pixels(&p.render(), &p, c);
    p.set_clock(Duration::from_millis(249));
    assert!(p.animating());
    p.set_clock(Duration::from_millis(250));
    assert!(!p.animating());
    let done = p.render();
    let mut still = phone("light", MEDIUM);
    enter(&mut still, c, d);
    assert!(
        done == still.render(),
        "after the fade the frame is the plain one"
    );
    assert_eq!(early, 0, "a fifth of the way in, the ink is still pale");
    assert!(dark_pixels(&done, &p, c) > 50);
}

#[test]
fn a_frame_drawn_mid_animation_is_stale_even_once_the_animation_has_ended() {
    let mut p = with_habits("light", "fade=250");
    let c = cell(0, 1);
    enter_answer(&mut p, c);
    p.set_clock(Duration::from_millis(50));
    p.render();
    // The wall clock moved on past the fade before anyone looked again: the cached faint
    // frame must be drawn afresh (it once stayed on screen for good).
    p.set_clock(Duration::from_millis(1000));
    assert!(p.advance_clock(Duration::from_millis(1000)));
    p.render();
    assert!(!p.advance_clock(Duration::from_millis(1100)));
}

#[test]
fn a_popping_digit_grows_to_its_full_size() {
    let mut p = with_habits("light", "pop=200");
    let c = cell(0, 1);
    enter_answer(&mut p, c);
    let ink = |p: &mut SudokuApp, ms| {
        p.set_clock(Duration::from_millis(ms));
        let img = p.render();
        dark_pixels(&img, p, c)
    };
    let (small, half, full) = (ink(&mut p, 0), ink(&mut p, 100), ink(&mut p, 200));
    assert!(small < half && half < full, "{small} {half} {full}");
}

#[test]
fn lives_keep_wrong_digits_count_them_and_end_the_game() {
    let mut p = with_habits("light", "lives=2");
    assert_eq!(p.mistake_limit(), Some(2));
    let c = cell(0, 1);
    let wrong: Vec<u8> = (1..=9)
        .filter(|&d| Some(d) != solution(&p).get(c))
        .collect();
    enter(&mut p, c, wrong[0]);
    assert_eq!((p.board().get(c), p.mistakes()), (Some(wrong[0]), 1));
    assert_eq!(p.wrong_entries(), vec![c]);
    tap_key(&mut p, Key::Digit(wrong[1]));
    assert_eq!(p.mistakes(), 2);
    assert!(p.state.is_lost());
}

#[test]
fn a_flash_swallows_one_tap_or_goes_after_a_tenth_of_a_second() {
    let mut p = with_habits("light", "flash=1");
    let s = solution(&p);
    let (a, b) = (cell(0, 1), cell(0, 2));
    enter(&mut p, a, s.get(a).unwrap());
    assert!(p.flash_shown());
    tap_cell(&mut p, b);
    assert_eq!(*p.hits().last().unwrap(), Hit::Flash);
    assert!(!p.flash_shown() && p.selected() == Some(a));
    enter(&mut p, b, s.get(b).unwrap());
    assert!(p.flash_shown());
    p.set_clock(Duration::from_millis(100));
    assert!(!p.flash_shown());
}

#[test]
fn wrong_start_seeds_one_entry_clashing_with_a_given_and_one_with_nothing() {
    let (p, wrong) = seeded_wrong("wrong-start");
    assert_eq!(p.mistakes(), 0);
    let clashes = |c: Cell| {
        let d = p.board().get(c);
        puzzles::peers(c).any(|q| p.givens().get(q) == d)
    };
    assert!(clashes(wrong[0]) && !clashes(wrong[1]));
    assert_eq!(p.entries().cells().iter().filter(|&&d| d != 0).count(), 5);
}

#[test]
fn keep_notes_leaves_peer_notes_and_same_ink_hides_the_kind() {
    let mut p = with_habits("light", "keep-notes,same-ink");
    let c = cell(0, 1);
    let d = solution(&p).get(c).unwrap();
    p.set_notes(cell(0, 2), 1 << d);
    enter(&mut p, c, d);
    assert_eq!(p.notes(cell(0, 2)), 1 << d);
    assert!(p.kind_hidden(c));
    assert!(!phone("light", MEDIUM).kind_hidden(c));
}

#[test]
fn filling_the_board_correctly_solves_it_and_locks_the_keypad() {
    let mut p = phone("light", MEDIUM);
    let last = fill_all_but_the_last(&mut p);
    assert!(!p.is_solved());
    enter_answer(&mut p, last);
    assert!(p.is_solved());
    tap_key(&mut p, Key::Erase);
    assert!(p.is_solved());
}
