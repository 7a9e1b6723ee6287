use super::*;
use crate::DigitPatch;
use crate::geometry::Rect;

fn feat(ink: [u8; 3], disc: Option<[u8; 3]>, stroke: f32) -> InkFeatures {
    InkFeatures {
        ink,
        background: disc.unwrap_or([255; 3]),
        weight: 0.2,
        height: 0.5,
        stroke,
        disc,
        resolution: 40.0,
    }
}

/// A bare digit of `ink` on a cell of colour `cell`.
fn feat_on(ink: [u8; 3], cell: [u8; 3], stroke: f32) -> InkFeatures {
    InkFeatures {
        background: cell,
        ..feat(ink, None, stroke)
    }
}

/// 20 givens drawn `given` in cells 0, 4, 8.., then `entries` entries drawn `entry` in the
/// other cells (a late game: 17 to 25 givens, twice as many entries).
fn late_game(
    given: InkFeatures,
    entry: InkFeatures,
    entries: usize,
) -> Vec<(usize, usize, InkFeatures)> {
    let mut s = givens(9, given);
    s.extend(
        (0..81)
            .filter(|i| i % 4 != 0 || *i > 76)
            .take(entries)
            .map(|i| (i, i % 9, entry)),
    );
    s
}

/// 20 givens styled `given` in cells 0, 4, 8.., cell `4i` holding glyph `i % glyphs`.
fn givens(glyphs: usize, given: InkFeatures) -> Vec<(usize, usize, InkFeatures)> {
    (0..20).map(|i| (i * 4, i % glyphs, given)).collect()
}

/// A calibration's inks: givens `given`, entries `entry`, told apart at the usual distance.
fn calibrated_inks(given: [u8; 3], entry: Option<[u8; 3]>) -> StoredInks {
    StoredInks {
        given,
        entry,
        distance: 60.0,
    }
}

/// A digit patch whose shape is `glyph` (different glyphs do not correlate).
fn cell(glyph: usize) -> CellInk {
    let pixels = (0..crate::patch::PATCH_W * crate::patch::PATCH_H)
        .map(|i| {
            if (i * 7 + glyph * 13).is_multiple_of(glyph + 3) {
                255
            } else {
                0
            }
        })
        .collect();
    CellInk {
        digit: Some(DigitPatch {
            pixels,
            bbox: Rect::new(0, 0, 10, 20),
            ink: [0; 3],
        }),
        ..CellInk::default()
    }
}

fn screen(styles: &[(usize, usize, InkFeatures)]) -> (Vec<CellInk>, Vec<Option<InkFeatures>>) {
    let mut cells = vec![CellInk::default(); 81];
    let mut features = vec![None; 81];
    for &(i, glyph, f) in styles {
        cells[i] = cell(glyph);
        features[i] = Some(f);
    }
    (cells, features)
}

/// How the uncalibrated reader splits the digits of `styles` into givens and entries.
fn split_of(styles: &[(usize, usize, InkFeatures)]) -> InkSplit {
    let (cells, features) = screen(styles);
    InkSplit::of(&cells, &features)
}

#[test]
fn digits_drawn_alike_are_indistinguishable_not_guessed() {
    let black = feat([30; 3], None, 0.2);
    assert_eq!(split_of(&givens(9, black)), InkSplit::Indistinguishable);
}

#[test]
fn a_second_ink_colour_marks_entries_whatever_the_theme() {
    for (given, entry) in [([30; 3], [33, 150, 243]), ([158; 3], [232; 3])] {
        let mut s = givens(9, feat(given, None, 0.2));
        s.push((1, 3, feat(entry, None, 0.2)));
        s.push((2, 5, feat(entry, None, 0.2)));
        let split = split_of(&s);
        assert_eq!(split.kind(0), Some(DigitKind::Given));
        assert_eq!(split.kind(1), Some(DigitKind::Entry));
        assert_eq!(split.kind(2), Some(DigitKind::Entry));
        assert_eq!(split.kind(3), None);
    }
}

/// Saku's look: givens in `ink` on grey discs, two bare entries in `entries` (cells 1 and 2),
/// and three copies of one digit highlighted in white on teal discs (cells 5, 6, 7).
fn saku(ink: [u8; 3], entries: [[u8; 3]; 2]) -> Vec<(usize, usize, InkFeatures)> {
    let mut s = givens(7, feat(ink, Some([218, 228, 224]), 0.2));
    s.push((1, 2, feat(entries[0], None, 0.2)));
    s.push((2, 4, feat(entries[1], None, 0.2)));
    for i in [5, 6, 7] {
        s.push((i, 8, feat([238; 3], Some([0, 105, 96]), 0.2)));
    }
    s
}

#[test]
fn a_same_number_highlight_is_unknown_and_a_disc_alone_can_mark_givens() {
    // Entries: same ink, no disc.
    let s = saku([3; 3], [[3; 3], [3; 3]]);
    let split = split_of(&s);
    assert_eq!(split.kind(0), Some(DigitKind::Given));
    assert_eq!(split.kind(1), Some(DigitKind::Entry));
    assert_eq!(split.kind(5), Some(DigitKind::Unknown));
    assert!(
        split.summary().contains("highlighted 3"),
        "{}",
        split.summary()
    );
}

#[test]
fn a_highlight_that_keeps_the_ink_keeps_the_kind_without_calibration() {
    // Givens dark on grey discs, entries teal and bare; the picked 8 on teal discs, each
    // digit keeping its ink.
    let teal = [0, 137, 123];
    let hl_disc = Some([143, 211, 201]);
    let mut s = givens(7, feat([30; 3], Some([218, 228, 224]), 0.2));
    s.push((1, 2, feat(teal, None, 0.2)));
    s.push((2, 4, feat(teal, None, 0.2)));
    s.push((3, 7, feat([32; 3], hl_disc, 0.2)));
    s.push((5, 7, feat([32; 3], hl_disc, 0.2)));
    s.push((6, 7, feat(teal, hl_disc, 0.2)));
    s.push((7, 7, feat(teal, hl_disc, 0.2)));
    let split = split_of(&s);
    assert_eq!(split.kind(3), Some(DigitKind::Given));
    assert_eq!(split.kind(5), Some(DigitKind::Given));
    assert_eq!(split.kind(6), Some(DigitKind::Entry));
    assert_eq!(split.kind(7), Some(DigitKind::Entry));
    assert_eq!(split.kind(1), Some(DigitKind::Entry));
    // The picked digit shown once: a lone given on a highlight disc stays a given.
    let s: Vec<_> = s.into_iter().filter(|&(i, ..)| i != 5).collect();
    let split = split_of(&s);
    assert_eq!(split.kind(3), Some(DigitKind::Given));
    assert_eq!(split.kind(1), Some(DigitKind::Entry));
}

/// The digit each test cell shows (cells 0.. in reading order hold glyph `i % 9`).
fn digits_of(styles: &[(usize, usize, InkFeatures)]) -> Vec<Option<u8>> {
    let mut d = vec![None; 81];
    for &(i, glyph, _) in styles {
        d[i] = Some(glyph as u8 + 1);
    }
    d
}

/// The kinds a calibration with `inks` gives the digits of `styles`.
fn calibrated(styles: &[(usize, usize, InkFeatures)], inks: StoredInks) -> Vec<Option<DigitKind>> {
    let (cells, features) = screen(styles);
    calibrated_kinds(&digits_of(styles), &cells, &features, inks)
}

#[test]
fn a_theme_changed_since_calibration_does_not_turn_givens_into_entries() {
    let stored = calibrated_inks([30; 3], Some([33, 150, 243]));
    // Dark theme now: light grey givens, light blue entries; no digit in a stored colour.
    let mut s = givens(9, feat([225; 3], None, 0.2));
    s.push((1, 3, feat([130, 190, 255], None, 0.2)));
    s.push((2, 5, feat([130, 190, 255], None, 0.2)));
    let kinds = calibrated(&s, stored);
    assert_eq!(kinds[0], Some(DigitKind::Given));
    assert_eq!(kinds[4], Some(DigitKind::Given));
    assert_eq!(kinds[1], Some(DigitKind::Entry));
    assert_eq!(kinds[3], None);
}

#[test]
fn a_highlight_keeps_the_kind_of_its_ink_and_hides_it_when_it_recolours_the_digit() {
    // Calibrated with givens only: entries are whatever is far from the given colour.
    let stored = calibrated_inks([30; 3], None);
    let mut s = givens(7, feat([30; 3], None, 0.2));
    // Teal entries of several digits; the picked 8 sits on a disc: two entries keep the
    // teal ink, two givens are recoloured white on a dark disc.
    s.push((1, 2, feat([0, 137, 123], None, 0.2)));
    s.push((2, 4, feat([0, 137, 123], None, 0.2)));
    s.push((3, 7, feat([0, 137, 123], Some([143, 211, 201]), 0.2)));
    s.push((5, 7, feat([0, 137, 123], Some([143, 211, 201]), 0.2)));
    s.push((6, 7, feat([250; 3], Some([0, 105, 92]), 0.2)));
    s.push((7, 7, feat([250; 3], Some([0, 105, 92]), 0.2)));
    let kinds = calibrated(&s, stored);
    assert_eq!(kinds[0], Some(DigitKind::Given));
    assert_eq!(kinds[1], Some(DigitKind::Entry));
    assert_eq!(kinds[3], Some(DigitKind::Entry));
    assert_eq!(kinds[5], Some(DigitKind::Entry));
    assert_eq!(kinds[6], Some(DigitKind::Unknown));
    assert_eq!(kinds[7], Some(DigitKind::Unknown));
}

#[test]
fn a_lone_digit_in_the_selected_cells_reversed_colours_hides_its_kind_after_calibration() {
    // Dark theme calibrated with givens only: light givens on dark paper. The selected cell is
    // lit, its digit dark on it: a colour the calibration never saw, yet no entry.
    let stored = calibrated_inks([213, 221, 240], None);
    let mut s: Vec<_> = (0..20)
        .map(|i| {
            (
                i * 4 + 4,
                i % 9,
                feat_on([213, 221, 240], [28, 27, 31], 0.2),
            )
        })
        .collect();
    s.push((0, 0, feat_on([40, 20, 90], [208, 188, 255], 0.2)));
    // A lone entry in a new ink on the dark paper is still an entry.
    s.push((1, 5, feat_on([120, 170, 255], [28, 27, 31], 0.2)));
    let kinds = calibrated(&s, stored);
    assert_eq!(kinds[4], Some(DigitKind::Given));
    assert_eq!(kinds[0], Some(DigitKind::Unknown));
    assert_eq!(kinds[1], Some(DigitKind::Entry));
}

#[test]
fn entries_in_the_given_ink_told_apart_by_a_missing_disc_are_entries_after_calibration() {
    // Calibrated on a screen whose digits all share one ink (Saku): only a disc marks givens.
    let stored = calibrated_inks([30; 3], None);
    let s = saku([30; 3], [[32; 3], [28; 3]]);
    let kinds = calibrated(&s, stored);
    assert_eq!(kinds[0], Some(DigitKind::Given));
    assert_eq!(kinds[4], Some(DigitKind::Given));
    assert_eq!(kinds[1], Some(DigitKind::Entry));
    assert_eq!(kinds[2], Some(DigitKind::Entry));
    assert_eq!(kinds[5], Some(DigitKind::Unknown));
    // One bare digit alone says nothing: it may be a given a highlight restyled.
    let s: Vec<_> = s.into_iter().filter(|&(i, ..)| i != 2).collect();
    let kinds = calibrated(&s, stored);
    assert_eq!(kinds[1], Some(DigitKind::Given));
}

#[test]
fn bold_givens_and_regular_entries_of_one_colour_are_split_by_stroke() {
    let mut s: Vec<_> = (0..20)
        .map(|i| (i * 4, i % 9, feat([0; 3], None, 0.18 + 0.002 * i as f32)))
        .collect();
    for i in [1, 2, 3, 5] {
        s.push((i, i, feat([0; 3], None, 0.12)));
    }
    let split = split_of(&s);
    assert_eq!(split.kind(0), Some(DigitKind::Given));
    assert_eq!(split.kind(5), Some(DigitKind::Entry));
    // A spread of strokes without two bands stays one style.
    let s: Vec<_> = (0..30)
        .map(|i| (i * 2, i % 9, feat([0; 3], None, 0.19 + 0.0015 * i as f32)))
        .collect();
    assert_eq!(split_of(&s), InkSplit::Indistinguishable);
}

#[test]
fn neutral_givens_outnumbered_by_accent_entries_are_still_the_givens() {
    // Light theme: near-black givens, blue entries; dark theme: light grey and light blue.
    for (given, entry, cell) in [
        ([30; 3], [33, 150, 243], [255; 3]),
        ([225; 3], [130, 190, 255], [30; 3]),
    ] {
        let s = late_game(feat_on(given, cell, 0.12), feat_on(entry, cell, 0.12), 45);
        let split = split_of(&s);
        assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
        assert_eq!(split.kind(76), Some(DigitKind::Given));
        assert_eq!(split.kind(1), Some(DigitKind::Entry));
        assert!(
            split.summary().starts_with("givens 20, entries 45"),
            "{}",
            split.summary()
        );
    }
}

#[test]
fn a_disc_a_tinted_cell_or_a_bolder_stroke_marks_outnumbered_givens() {
    let ink = [20; 3];
    for (given, entry) in [
        (
            feat(ink, Some([218, 228, 224]), 0.12),
            feat(ink, None, 0.12),
        ),
        // Two neutral inks: the tint decides (a tint alone, in one ink, is no style apart).
        (
            feat_on([90; 3], [208, 252, 248], 0.12),
            feat_on(ink, [255; 3], 0.12),
        ),
        (feat(ink, None, 0.19), feat(ink, None, 0.12)),
    ] {
        let split = split_of(&late_game(given, entry, 45));
        assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
        assert_eq!(split.kind(1), Some(DigitKind::Entry), "{given:?}");
    }
}

#[test]
fn two_styles_that_could_both_be_the_givens_with_no_cue_or_clashing_cues_are_unknown() {
    // Two accent inks alike in all else; then Open Sudoku's look: slate givens on tinted
    // cells, black entries on white ones (the tint says one thing, the inks the other).
    let cases = [
        (
            feat_on([33, 150, 243], [20; 3], 0.12),
            feat_on([230, 120, 30], [20; 3], 0.12),
        ),
        (
            feat_on([65, 109, 133], [208, 252, 248], 0.12),
            feat_on([0; 3], [255; 3], 0.12),
        ),
    ];
    for (given, entry) in cases {
        assert_eq!(
            split_of(&late_game(given, entry, 45)),
            InkSplit::Indistinguishable
        );
        // With too few entries to be the givens, the sizes alone decide.
        let split = split_of(&late_game(given, entry, 10));
        assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
        assert_eq!(split.kind(1), Some(DigitKind::Entry), "{given:?}");
    }
}

#[test]
fn tints_shared_by_both_kinds_do_not_outvote_the_inks() {
    // Every other box shaded and the selected cell's peers tinted: more entries than givens
    // happen to stand on them, which says nothing of their kind.
    let (white, shade) = ([255; 3], [234, 241, 251]);
    let mut s = late_game(
        feat_on([17; 3], white, 0.12),
        feat_on([30, 99, 196], white, 0.12),
        45,
    );
    for (n, style) in s.iter_mut().enumerate() {
        let shaded = if style.0 % 4 == 0 {
            n % 3 == 0
        } else {
            n % 3 != 0
        };
        if shaded {
            style.2.background = shade;
        }
    }
    let split = split_of(&s);
    assert_eq!(split.kind(0), Some(DigitKind::Given));
    assert_eq!(split.kind(1), Some(DigitKind::Entry));
}

#[test]
fn entries_in_the_given_ink_outnumbering_givens_on_discs_are_entries_after_calibration() {
    let stored = calibrated_inks([30; 3], None);
    let s = late_game(
        feat([30; 3], Some([218, 228, 224]), 0.12),
        feat([30; 3], None, 0.12),
        45,
    );
    let kinds = calibrated(&s, stored);
    assert_eq!(kinds[0], Some(DigitKind::Given));
    assert_eq!(kinds[76], Some(DigitKind::Given));
    assert_eq!(kinds[1], Some(DigitKind::Entry));
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == Some(DigitKind::Entry))
            .count(),
        45
    );
}

/// 81 cells: 30 givens in black on grey cells (digits 1-9 in turn), then `entries` entries
/// in black on white cells, the rest empty.
fn board_with_entries(entries: usize) -> (Vec<Option<u8>>, Vec<Option<InkFeatures>>) {
    let mut digits = vec![None; 81];
    let mut features = vec![None; 81];
    for i in 0..30 + entries {
        digits[i] = Some((i % 9) as u8 + 1);
        let cell = if i < 30 { [200; 3] } else { [250; 3] };
        features[i] = Some(feat_on([0; 3], cell, 0.12));
    }
    (digits, features)
}

#[test]
fn of_two_clashing_digits_in_one_alarm_colour_the_one_on_the_rarer_tint_is_the_entry() {
    let (mut digits, mut features) = board_with_entries(4);
    let red = [240, 60, 50];
    // Cell 2 (a given, grey cell) and cell 31 (an entry, white cell), both drawn red.
    digits[31] = digits[2];
    features[2] = Some(feat_on(red, [200; 3], 0.12));
    features[31] = Some(feat_on(red, [250; 3], 0.12));
    assert_eq!(mistaken_entry(2, 31, &digits, &features), Some(31));
    assert_eq!(mistaken_entry(31, 2, &digits, &features), Some(31));
    // An entry in its own ink on a given's tint: the ink alone says which.
    features[31] = Some(feat_on(red, [200; 3], 0.12));
    features[2] = Some(feat_on([0; 3], [200; 3], 0.12));
    assert_eq!(mistaken_entry(2, 31, &digits, &features), Some(31));
}

#[test]
fn clashing_digits_drawn_alike_or_in_a_same_number_highlight_name_no_entry() {
    let (mut digits, mut features) = board_with_entries(0);
    // Two givens drawn alike (a misread, say): nothing says which is wrong.
    digits[1] = digits[0];
    assert_eq!(mistaken_entry(0, 1, &digits, &features), None);
    // A same-number highlight (every 1 on a blue disc) may hide a given: no verdict.
    let blue = [120, 160, 250];
    for i in (0..30).filter(|i| digits[*i] == Some(1)) {
        features[i] = Some(feat_on([0; 3], blue, 0.12));
    }
    let other = (0..30).find(|i| digits[*i] == Some(2)).unwrap();
    digits[other] = Some(1);
    assert_eq!(mistaken_entry(0, other, &digits, &features), None);
}

#[test]
fn of_two_neutral_inks_on_one_paper_the_faint_one_is_the_entries_even_when_they_lead() {
    // Black givens and grey entries on white; white givens and grey entries on a dark theme.
    for (given, entry, paper) in [([6; 3], [130; 3], [253; 3]), ([235; 3], [150; 3], [20; 3])] {
        let s = late_game(feat_on(given, paper, 0.12), feat_on(entry, paper, 0.12), 45);
        let split = split_of(&s);
        assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
        assert_eq!(split.kind(1), Some(DigitKind::Entry), "{given:?}");
    }
}

#[test]
fn a_disc_in_the_colour_of_the_other_digits_cells_is_no_mark() {
    // Tiles: every digit white on a black tile; in some cells the cut reached the grey gap
    // around the tile, so the black under the digit differs from the cell's corners there.
    let black = [1; 3];
    let mut s = givens(9, feat_on([247; 3], black, 0.2));
    for i in [1, 2, 3, 5, 6] {
        s.push((i, i % 9, feat([246; 3], Some(black), 0.2)));
    }
    assert_eq!(split_of(&s), InkSplit::Indistinguishable);
}

#[test]
fn a_lone_digit_drawn_the_other_way_round_is_the_selection_and_hides_its_kind() {
    // Dark theme: light givens on a dark paper, light-blue entries; the selected given drawn
    // dark on a light tint. An entry drawn like the others stays an entry.
    let paper = [63, 71, 87];
    let mut s = late_game(
        feat_on([216, 224, 243], paper, 0.12),
        feat_on([130, 190, 255], paper, 0.12),
        5,
    );
    s.push((7, 8, feat_on([59, 41, 67], [213, 189, 222], 0.12)));
    let split = split_of(&s);
    assert_eq!(split.kind(0), Some(DigitKind::Given));
    assert_eq!(split.kind(1), Some(DigitKind::Entry));
    assert_eq!(split.kind(7), Some(DigitKind::Unknown));
}

/// A full board's worth of digits in one ink (every cell but those in `empty`), on `tint(i)`.
fn one_ink(tint: impl Fn(usize) -> [u8; 3], empty: &[usize]) -> Vec<(usize, usize, InkFeatures)> {
    (0..81)
        .filter(|i| i % 2 == 0 && !empty.contains(i))
        .map(|i| (i, i % 7, feat_on([5; 3], tint(i), 0.12)))
        .collect()
}

#[test]
fn entries_on_white_cells_among_givens_on_grey_ones_in_one_ink_are_entries() {
    // Open Sudoku's original look: givens on grey cells, the player's few entries on white.
    let entries = [0, 40, 70];
    let s = one_ink(
        |i| {
            if entries.contains(&i) {
                [247; 3]
            } else {
                [199; 3]
            }
        },
        &[],
    );
    let split = split_of(&s);
    for i in entries {
        assert_eq!(split.kind(i), Some(DigitKind::Entry), "{}", split.summary());
    }
    assert_eq!(split.kind(2), Some(DigitKind::Given));
}

#[test]
fn a_selected_cells_row_and_column_or_shaded_boxes_tint_no_kind() {
    // The selected r5c5 tints its row and column; then every other box shaded.
    let selection = |i: usize| -> [u8; 3] {
        if i / 9 == 4 || i % 9 == 4 {
            [220, 230, 250]
        } else {
            [255; 3]
        }
    };
    let boxes = |i: usize| -> [u8; 3] {
        if ((i / 27) + (i % 9) / 3).is_multiple_of(2) {
            [200; 3]
        } else {
            [255; 3]
        }
    };
    // Row 5 and column 5 hold one digit each, in r5c1 and r1c5: scattered as entries are, but
    // the selection explains their tint.
    let lines: Vec<usize> = (0..81)
        .filter(|&i| (i / 9 == 4 || i % 9 == 4) && i != 36 && i != 4)
        .collect();
    for (tint, empty) in [
        (&selection as &dyn Fn(usize) -> [u8; 3], &lines[..]),
        (&boxes, &[]),
    ] {
        assert_eq!(split_of(&one_ink(tint, empty)), InkSplit::Indistinguishable);
    }
}

#[test]
fn a_black_digit_read_a_little_grey_through_jpeg_blur_is_drawn_like_the_others() {
    let mut s = givens(9, feat_on([2; 3], [236; 3], 0.15));
    s.push((1, 1, feat_on([33; 3], [236; 3], 0.15)));
    assert_eq!(split_of(&s), InkSplit::Indistinguishable);
}

#[test]
fn a_lone_digit_on_the_empty_cells_paper_among_givens_on_tinted_cells_is_an_entry() {
    // GNOME Sudoku's dark theme: givens on darker cells, the player's digit in the same white
    // on the lighter grey of the empty cells.
    let (white, tinted, paper) = ([250; 3], [40; 3], [62; 3]);
    let givens = |skip: usize| -> Vec<_> {
        (0..20)
            .map(|i| i * 4)
            .filter(|&i| i != skip)
            .map(|i| (i, i % 9, feat_on(white, tinted, 0.2)))
            .collect()
    };
    let mut s = givens(usize::MAX);
    s.push((1, 3, feat_on(white, paper, 0.2)));
    let (cells, features) = screen(&s);
    let split = InkSplit::on_paper(&cells, &features, Some(paper));
    assert_eq!(split.kind(1), Some(DigitKind::Entry));
    assert_eq!(split.kind(0), Some(DigitKind::Given));
    // Without the paper's colour one cell of another tint proves nothing.
    assert_eq!(InkSplit::of(&cells, &features), InkSplit::Indistinguishable);
    // Nor does a lone digit on the paper in a box with no tinted digit: boxes shaded in turn.
    let mut s = givens(60);
    s.push((80, 3, feat_on(white, paper, 0.2)));
    let (cells, features) = screen(&s);
    assert_eq!(
        InkSplit::on_paper(&cells, &features, Some(paper)),
        InkSplit::Indistinguishable
    );
}

#[test]
fn two_entries_of_one_digit_drawn_alike_beside_givens_of_it_in_another_ink_are_both_entries() {
    // 20 givens in dark ink, digit 6 (glyph 5) among them; two blue 6s clashing in one row.
    let mut s: Vec<_> = (0..20)
        .map(|i| (i * 4, i % 9, feat([30; 3], None, 0.2)))
        .collect();
    s.push((1, 5, feat([40, 80, 200], None, 0.2)));
    s.push((2, 5, feat([40, 80, 200], None, 0.2)));
    let (_, mut features) = screen(&s);
    let mut digits = vec![None; 81];
    for &(i, g, _) in &s {
        digits[i] = Some(g as u8 + 1);
    }
    assert!(mistaken_pair(1, 2, &digits, &features));
    // Every 6 in the blue ink, givens' too: a same-number highlight, which tells nothing.
    for i in (0..81).filter(|&i| digits[i] == Some(6)) {
        features[i].as_mut().unwrap().ink = [40, 80, 200];
    }
    assert!(!mistaken_pair(1, 2, &digits, &features));
}
