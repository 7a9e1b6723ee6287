//! Tests of the habits of a game in progress and of an app that loses the front of the screen
//! (`selected-key`, `key-look`, `intro`, `wrong-pair`, `banner`, `pause-card`, `multi-answer`,
//! `jigsaw`, `tiles`), on rendered pixels where they are about the screen.

use super::tests::{
    MEDIUM, cell, dark_pixels, enter, phone, seeded_wrong, solution, tap_cell, tap_key, with_habits,
};
use super::*;
use image::{GenericImageView, Rgba};

/// Pixels of `r` whose colour is `color`, give or take 12 per channel.
fn pixels_of(img: &RgbaImage, r: Rect, color: Rgba<u8>) -> usize {
    let near = |a: u8, b: u8| a.abs_diff(b) <= 12;
    let mut n = 0;
    for y in r.y..r.bottom() {
        for x in r.x..r.right() {
            let px = img.get_pixel(x, y);
            n += usize::from((0..3).all(|i| near(px[i], color[i])));
        }
    }
    n
}

fn key_rect(p: &SudokuApp, d: u8) -> Rect {
    p.layout.key_rect(Key::Digit(d)).unwrap()
}

/// The empty cells of the board, in order.
fn empty_cells(p: &SudokuApp) -> Vec<Cell> {
    Cell::all()
        .filter(|&c| p.board().get(c).is_none())
        .collect()
}

#[test]
fn number_first_selected_key_is_drawn_selected_and_a_cell_tap_enters_its_digit() {
    let mut p = with_habits("numfirst", "selected-key=5");
    let plain = phone("numfirst", MEDIUM).render();
    let img = p.render();
    assert_eq!(p.selected_digit(), Some(5));
    let accent = p.skin.colors.key_active_bg;
    let (k5, k4) = (key_rect(&p, 5), key_rect(&p, 4));
    assert!(pixels_of(&img, k5, accent) > pixels_of(&plain, k5, accent) + 100);
    assert_eq!(pixels_of(&img, k4, accent), pixels_of(&plain, k4, accent));
    let c = empty_cells(&p)[0];
    tap_cell(&mut p, c);
    assert_eq!(p.entries().get(c), Some(5));
}

#[test]
fn cell_first_selected_key_is_marked_in_the_skins_look_and_follows_the_last_key() {
    // light rings its key, dark puts a disc behind the digit, numfirst-style filling elsewhere.
    for (skin, looks) in [("light", "ring"), ("dark", "disc"), ("thick", "filled")] {
        let mut p = with_habits(skin, "selected-key");
        let img = p.render();
        let d = p.state.marked_key.unwrap();
        assert_eq!(d, p.most_given_digit(), "{skin}");
        let plain = phone(skin, MEDIUM).render();
        let r = key_rect(&p, d);
        let changed = (r.y..r.bottom())
            .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y) != plain.get_pixel(x, y))
            .count();
        assert!(
            changed > 50,
            "{skin}: the {looks} key differs by {changed} px"
        );
        let edge = img.get_pixel(r.x + r.width / 2, r.y + 1);
        let middle = img.get_pixel(r.x + r.width / 2, r.y + r.height / 2 - r.height / 4);
        let accent = p.skin.colors.accent;
        match looks {
            "ring" => assert!(pixels_of(&img, r, accent) > 0 && edge.0[..3] == accent.0[..3]),
            "disc" => assert_eq!(middle.0[..3], accent.0[..3], "{skin}"),
            _ => assert_eq!(edge.0[..3], p.skin.colors.key_active_bg.0[..3], "{skin}"),
        }
        let other = if d == 1 { 2 } else { 1 };
        tap_key(&mut p, Key::Digit(other));
        assert_eq!(
            p.state.marked_key,
            Some(other),
            "{skin}: the last key is marked"
        );
    }
}

#[test]
fn key_look_switch_draws_a_number_first_key_outlined_instead_of_filled() {
    let mut filled = with_habits("numfirst", "selected-key=3");
    let mut outlined = with_habits("numfirst", "selected-key=3,key-look=outlined");
    let r = key_rect(&filled, 3);
    let bg = filled.skin.colors.key_active_bg;
    let (a, b) = (filled.render(), outlined.render());
    assert!(pixels_of(&a, r, bg) > 4 * pixels_of(&b, r, bg).max(1));
    let accent = outlined.skin.colors.accent;
    assert!(pixels_of(&b, r, accent) > 0);
}

#[test]
fn the_intro_cascade_shows_no_given_first_then_some_then_all() {
    let mut p = with_habits("light", "intro=1500");
    let givens: Vec<Cell> = Cell::all()
        .filter(|&c| p.givens().get(c).is_some())
        .collect();
    let inked = |p: &mut SudokuApp| {
        let img = p.render();
        givens
            .iter()
            .filter(|&&c| dark_pixels(&img, p, c) > 10)
            .count()
    };
    assert_eq!(inked(&mut p), 0, "the first frame shows an empty grid");
    assert!(p.animating());
    p.set_clock(Duration::from_millis(750));
    let half = inked(&mut p);
    assert!(
        half > 0 && half < givens.len(),
        "{half} of {}",
        givens.len()
    );
    p.set_clock(Duration::from_millis(1500));
    assert_eq!(inked(&mut p), givens.len());
    assert!(!p.animating());
}

#[test]
fn wrong_pair_puts_one_wrong_digit_twice_in_a_row_clashing_only_with_itself() {
    let (p, [a, b]) = seeded_wrong("wrong-pair");
    assert_eq!(a.row(), b.row());
    let d = p.entries().get(a).unwrap();
    assert_eq!(p.entries().get(b), Some(d));
    for c in [a, b] {
        let clashes: Vec<Cell> = puzzles::peers(c)
            .filter(|&q| p.board().get(q) == Some(d))
            .collect();
        assert_eq!(clashes, vec![if c == a { b } else { a }]);
    }
    assert_eq!(p.mistakes(), 0, "seeded entries are no new mistake");
}

/// Places the solution's digit in the first `n` empty cells by taps (cell-first).
fn place_right(p: &mut SudokuApp, n: usize) -> Vec<Cell> {
    let s = solution(p);
    let cells: Vec<Cell> = empty_cells(p).into_iter().take(n).collect();
    for &c in &cells {
        tap_cell(p, c);
        tap_key(p, Key::Digit(s.get(c).unwrap()));
    }
    cells
}

#[test]
fn the_banner_slides_over_the_top_opens_messages_when_tapped_and_back_returns() {
    let mut p = with_habits("edge", "banner=2");
    place_right(&mut p, 1);
    assert!(!p.banner_shown());
    place_right(&mut p, 1);
    assert!(p.banner_shown());
    let board = p.board();
    p.set_clock(Duration::from_millis(400));
    let img = p.render();
    let banner = p.layout.banner();
    assert!(banner.y < p.layout.status.bottom() && banner.bottom() > p.grid_rect().y);
    assert!(
        pixels_of(&img, banner, Rgba([0xF1, 0xF3, 0xF4, 255]))
            > (banner.width * banner.height) as usize / 2
    );
    p.tap(banner.center());
    assert!(p.away());
    assert_eq!(p.activity(), MESSAGING_ACTIVITY);
    let messages = p.render();
    assert!(pixels_of(&messages, p.grid_rect(), Rgba([255, 255, 255, 255])) > 1000);
    tap_cell(&mut p, cell(4, 4));
    assert_eq!(p.hits().last(), Some(&Hit::OtherApp));
    p.key_event(away::KEYCODE_BACK);
    assert!(!p.away() && !p.paused());
    assert_eq!(p.activity(), format!("{}/.MainActivity", p.skin.package()));
    assert_eq!(p.board(), board, "the game comes back unchanged");
}

#[test]
fn the_banner_goes_by_itself_after_three_seconds() {
    let mut p = with_habits("light", "banner=1");
    place_right(&mut p, 1);
    assert!(p.banner_shown());
    p.set_clock(Duration::from_millis(3_100));
    assert!(!p.banner_shown());
    assert!(!p.changes_with_time());
}

#[test]
fn coming_back_shows_a_paused_card_that_only_its_resume_button_ends() {
    let mut p = with_habits("light", "banner=1,pause-card");
    place_right(&mut p, 1);
    let board = p.board();
    let before = p.render();
    p.tap(p.layout.banner().center());
    p.key_event(away::KEYCODE_BACK);
    assert!(p.paused());
    let card = p.render();
    let button = p.layout.resume_button();
    let accent = p.skin.colors.accent;
    assert!(pixels_of(&card, button, accent) > (button.width * button.height) as usize / 3);
    let c = empty_cells(&p)[0];
    enter(&mut p, c, 1);
    assert_eq!(p.hits()[p.hits().len() - 2..], [Hit::Paused, Hit::Paused]);
    tap_key(&mut p, Key::Resume);
    assert!(!p.paused());
    assert_eq!(p.board(), board);
    let g = p.grid_rect();
    let after = p.render();
    let a = image::imageops::crop_imm(&after, g.x, g.y, g.width, g.height);
    let b = image::imageops::crop_imm(&before, g.x, g.y, g.width, g.height);
    assert!(a.pixels().eq(b.pixels()), "the board resumes as it was");
}

#[test]
fn closing_an_ad_shows_the_paused_card_too() {
    let mut p = with_habits("light", "ad-after=1,pause-card");
    place_right(&mut p, 1);
    assert!(p.ad_shown());
    tap_key(&mut p, Key::AdClose);
    assert!(p.paused());
}

#[test]
fn multi_answer_leaves_several_completions_and_judges_by_the_apps_own() {
    let plain = phone("light", MEDIUM);
    let mut p = with_habits("light", "multi-answer");
    let count = |b: Board| Cell::all().filter(|&c| b.get(c).is_some()).count();
    assert_eq!(count(p.givens()), count(plain.givens()) - 1);
    assert!(matches!(puzzles::analyse(&p.givens()), Ok(Answer::Several)));
    let own = solution(&p);
    assert_eq!(own, solution(&plain));
    // A digit no peer holds, yet not the app's: a mistake.
    let c = empty_cells(&p)[0];
    let board = p.board();
    let d = (1..=9)
        .find(|&d| Some(d) != own.get(c) && !puzzles::peers(c).any(|q| board.get(q) == Some(d)))
        .unwrap();
    enter(&mut p, c, d);
    assert_eq!(p.mistakes(), 1);
}

#[test]
fn a_jigsaw_board_draws_thick_lines_off_the_box_lines_and_thin_ones_on_them() {
    let mut p = with_habits("light", "jigsaw");
    let img = p.render();
    let (g, lines) = (p.grid_rect(), p.layout.lines);
    let thick = p.skin.colors.thick_line;
    let thin = p.skin.colors.thin_line;
    // Cell (3, 0) joined the top-left region: line 4 under it is thick, box line 3 above thin.
    let at = |c: Cell, i: usize| {
        let x = p.cell_center(c).x;
        *img.get_pixel(x, g.y + lines[i].0 + lines[i].1 / 2)
    };
    assert_eq!(at(cell(3, 0), 4).0[..3], thick.0[..3]);
    assert_eq!(at(cell(3, 0), 3).0[..3], thin.0[..3]);
    // Elsewhere the box lines stay thick.
    assert_eq!(at(cell(8, 4), 6).0[..3], thick.0[..3]);
}

#[test]
fn tiles_draw_rounded_tiles_with_wider_gaps_between_boxes_and_no_lines() {
    let mut p = with_habits("light", "tiles");
    let img = p.render();
    let bg = p.skin.colors.background;
    let y = p.cell_center(cell(0, 0)).y;
    let g = p.grid_rect();
    // Runs of background across the first row: the gaps between tiles.
    let mut gaps = Vec::new();
    let mut run = 0;
    for x in g.x..g.right() {
        if img.get_pixel(x, y).0[..3] == bg.0[..3] {
            run += 1;
        } else if run > 0 {
            gaps.push(run);
            run = 0;
        }
    }
    assert_eq!(gaps.len(), 8, "{gaps:?}");
    assert!(gaps[2] > 2 * gaps[0] && gaps[5] > 2 * gaps[3], "{gaps:?}");
    let tile = p.skin.colors.grid_bg;
    assert_ne!(tile, bg);
    let inside = p.cell_rect(cell(0, 0));
    let corner = img.get_pixel(inside.x, inside.y);
    assert_eq!(corner.0[..3], bg.0[..3], "tiles are rounded");
}
