use super::*;

/// Glyphs 20 px tall centred at `centres`.
fn at(centres: &[(u32, u32)]) -> Vec<Glyph> {
    centres
        .iter()
        .map(|&(x, y)| Glyph {
            bbox: Rect::new(x - 7, y - 10, 14, 20),
            patch: Vec::new(),
            bright: false,
        })
        .collect()
}

#[test]
fn nine_keys_in_full_rows_lie_on_a_lattice_and_one_off_their_rows_and_columns_does_not() {
    let grid = |cols: u32| -> Vec<(u32, u32)> {
        (0..9)
            .map(|i| (100 + (i % cols) * 60, 100 + (i / cols) * 60))
            .collect()
    };
    for cols in [1, 2, 3, 5, 9] {
        let glyphs = at(&grid(cols));
        assert!(
            on_a_lattice(&glyphs.iter().collect::<Vec<_>>()),
            "{cols} columns"
        );
    }
    // A 5+4 keypad whose ninth glyph is a mark below and between two keys of its last row.
    let mut keys = grid(5);
    keys[8] = (130, 180);
    let glyphs = at(&keys);
    assert!(!on_a_lattice(&glyphs.iter().collect::<Vec<_>>()));
}

/// A white 1000x400 screen with nine 60 px keys in a row at y 200, each with a dark bar
/// (its "digit", of a height that varies by key), key `lit` (1-based) drawn as `look` does.
fn keypad_screen(lit: Option<(u8, &str)>) -> (RgbaImage, [Point; 9]) {
    let mut img = RgbaImage::from_pixel(1000, 400, image::Rgba([250, 250, 250, 255]));
    let keys: [Point; 9] = std::array::from_fn(|i| Point::new(100 + 100 * i as u32, 200));
    for (i, k) in keys.iter().enumerate() {
        let on = lit
            .filter(|(d, _)| usize::from(*d) == i + 1)
            .map(|(_, look)| look);
        for y in k.y - 48..k.y + 48 {
            for x in k.x - 48..k.x + 48 {
                let (dx, dy) = (x.abs_diff(k.x), y.abs_diff(k.y));
                let accent = match on {
                    Some("filled") => true,
                    Some("ring") => dx > 44 || dy > 44,
                    Some("disc") => dx * dx + dy * dy < 40 * 40,
                    _ => false,
                };
                let ink = dx < 5 && dy < 15 + 2 * i as u32;
                let c = match (ink, accent) {
                    (true, true) => [255, 255, 255],
                    (true, false) => [30, 30, 30],
                    (false, true) => [40, 110, 220],
                    (false, false) => [250, 250, 250],
                };
                img.put_pixel(x, y, image::Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }
    (img, keys)
}

#[test]
fn the_selected_key_is_the_one_whose_colours_stand_out_whatever_its_look() {
    for look in ["filled", "ring", "disc"] {
        for d in [1, 5, 9] {
            let (img, keys) = keypad_screen(Some((d, look)));
            assert_eq!(selected_key(&img, &keys), Some(d), "{look} {d}");
        }
    }
    let (img, keys) = keypad_screen(None);
    assert_eq!(selected_key(&img, &keys), None);
}

/// A patch of stripes distinct for each digit `d`: nine shapes that tell the keys apart.
fn shape(d: usize) -> Vec<u8> {
    (0..PATCH_W * PATCH_H)
        .map(|i| {
            if (i * (d + 3) / 7).is_multiple_of(2) {
                255
            } else {
                0
            }
        })
        .collect()
}

#[test]
fn a_keypad_with_one_key_missing_is_completed_in_the_gap_of_its_lattice() {
    // Nine distinct shapes; keys in a row 80 px apart, the fourth not found as a glyph.
    let refs: Vec<Option<Vec<u8>>> = (0..9).map(|d| Some(shape(d))).collect();
    let glyphs: Vec<Glyph> = (0..9)
        .filter(|&d| d != 3)
        .map(|d| Glyph {
            bbox: Rect::new(100 + 80 * d as u32, 500, 30, 50),
            patch: shape(d),
            bright: false,
        })
        .collect();
    let keys = find_keypad(&glyphs, &refs, true).expect("eight keys and a gap");
    assert_eq!(keys[3].centre(), Point::new(100 + 240 + 15, 525));
    assert_eq!(keys[3].patch, shape(3));
    assert_eq!(keys[4].centre(), glyphs[3].centre());
    // Seven keys are not a keypad.
    assert!(find_keypad(&glyphs[1..], &refs, true).is_none());
}

#[test]
fn a_keypad_whose_rows_lie_further_apart_than_four_digits_is_found_with_a_key_selected() {
    // 5+4 keys 90 px apart each way, 20 px tall (rows 4.5 heights apart, as with a count
    // under each key), the third drawn light (selected); an icon far above them.
    let refs: Vec<Option<Vec<u8>>> = (0..9).map(|d| Some(shape(d))).collect();
    let centre = |d: usize| {
        let (row, col) = (d / 5, d % 5);
        (
            100 + 90 * col as u32 + 45 * row as u32,
            600 + 90 * row as u32,
        )
    };
    let mut glyphs: Vec<Glyph> = (0..9)
        .map(|d| {
            let (x, y) = centre(d);
            Glyph {
                bbox: Rect::new(x - 7, y - 10, 14, 20),
                patch: shape(d),
                bright: d == 2,
            }
        })
        .collect();
    glyphs.push(Glyph {
        bbox: Rect::new(300, 20, 14, 20),
        patch: shape(7),
        bright: false,
    });
    let keys = find_keypad(&glyphs, &refs, true).expect("nine keys");
    for (d, k) in keys.iter().enumerate() {
        assert_eq!(k.centre(), glyphs[d].centre(), "key {}", d + 1);
    }
}

#[test]
fn keys_as_small_as_the_boards_digits_are_found_where_a_fifth_of_a_cell_would_miss_them() {
    use ab_glyph::{FontRef, PxScale};
    let font =
        FontRef::try_from_slice(include_bytes!("../../../assets/fonts/DejaVuSans.ttf")).unwrap();
    // An 80 px grid at the top; a row of keys 12 px tall (less than a fifth of a cell).
    let mut img = RgbaImage::from_pixel(800, 1000, image::Rgba([250, 250, 250, 255]));
    for d in 1..=9 {
        imageproc::drawing::draw_text_mut(
            &mut img,
            image::Rgba([30, 30, 30, 255]),
            40 + d * 70,
            850,
            PxScale::from(16.0),
            &font,
            &d.to_string(),
        );
    }
    let grid = Grid::from_rect(Rect::new(40, 40, 720, 720));
    let screen = Screen::new(&img);
    let found = |digit_px: f32| glyphs_outside_sampled(&screen, &grid, 1, digit_px).len();
    assert_eq!(found(f32::INFINITY), 0);
    assert_eq!(found(12.0), 9);
}
