//! A game paused behind a card (issue 34, item 4): many apps pause when another app comes in
//! front and show, over the board, a card with one round play button (Sudoku.com's "Resume").
//! [`play_button`] finds that button, and only it: a filled disc in a saturated colour with a
//! right-pointing triangle cut out, the one such shape over the board. [`Phone::resume`] taps
//! it once; nothing else on a cover is ever tapped (a close button, an ad's link).

use super::Phone;
use crate::geometry::{Point, Rect};
use anyhow::Result;
use image::RgbaImage;
use std::time::Duration;
use sudoku_reader::{ReadError, Recognition};

impl Phone<'_> {
    /// A cover over the board with one round play button: taps it once, waits `settle` and
    /// reads the screen. `None`: no such button, nothing tapped.
    pub fn resume(&mut self, settle: Duration) -> Result<Option<Result<Recognition, ReadError>>> {
        let grid = self.profile.calibration.grid;
        let shot = self.capture()?.screen;
        let Some(at) = play_button(&shot, grid, self.cell_side()) else {
            return Ok(None);
        };
        self.say("the game shows a paused card over the board: tapping its round play button once");
        self.tap_all(&[at])?;
        std::thread::sleep(settle);
        let shot = self.capture()?.screen;
        Ok(Some(self.read(&shot).result))
    }
}

/// The centre of the one round play button over `board` on `screen`, whose cells are about
/// `cell` pixels: a disc half a cell to three cells across, solid in a saturated colour around a
/// cut-out that is wider on its left than on its right (a play triangle, not a pause or a
/// cross). `None` when there is none, or more than one.
pub fn play_button(screen: &RgbaImage, board: Rect, cell: u32) -> Option<Point> {
    let x1 = (board.x + board.width).min(screen.width());
    let y1 = (board.y + board.height).min(screen.height());
    if board.x >= x1 || board.y >= y1 {
        return None;
    }
    let (w, h) = (x1 - board.x, y1 - board.y);
    let mask: Vec<bool> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| saturated(screen.get_pixel(board.x + x, board.y + y).0))
        .collect();
    let mut seen = vec![false; mask.len()];
    let mut found = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        let blob = component(&mask, &mut seen, start, w);
        if let Some(centre) = round_play(&blob, &mask, w, cell) {
            found.push(Point {
                x: board.x + centre.x,
                y: board.y + centre.y,
            });
        }
    }
    (found.len() == 1).then(|| found[0])
}

/// A colour, not a grey: what buttons are filled with (ink, paper and scrims are greys).
fn saturated(p: [u8; 4]) -> bool {
    let (max, min) = (p[..3].iter().max(), p[..3].iter().min());
    matches!((max, min), (Some(&hi), Some(&lo)) if hi - lo >= 60)
}

/// The pixels (as indices) of the 4-connected component of `mask` at `start`.
fn component(mask: &[bool], seen: &mut [bool], start: usize, w: u32) -> Vec<usize> {
    let w = w as usize;
    let mut blob = Vec::new();
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(i) = stack.pop() {
        blob.push(i);
        let (x, y) = (i % w, i / w);
        let mut push = |j: usize| {
            if mask[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        };
        if x > 0 {
            push(i - 1);
        }
        if x + 1 < w {
            push(i + 1);
        }
        if y > 0 {
            push(i - w);
        }
        if i + w < mask.len() {
            push(i + w);
        }
    }
    blob
}

/// The centre of `blob` when it is a round play button (see [`play_button`]).
fn round_play(blob: &[usize], mask: &[bool], w: u32, cell: u32) -> Option<Point> {
    let w = w as usize;
    let xs = blob.iter().map(|i| i % w);
    let ys = blob.iter().map(|i| i / w);
    let (x0, x1) = (xs.clone().min()?, xs.max()?);
    let (y0, y1) = (ys.clone().min()?, ys.max()?);
    let (bw, bh) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let side = cell as f32;
    if !(side * 0.5..=side * 3.0).contains(&bw) || (bw / bh - 1.0).abs() > 0.12 {
        return None;
    }
    let (cx, cy) = ((x0 + x1) as f32 / 2.0, (y0 + y1) as f32 / 2.0);
    let r = (bw + bh) / 4.0;
    let (mut ring, mut ring_on, mut hole_left, mut hole_right) = (0u32, 0u32, 0u32, 0u32);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            let d = (dx * dx + dy * dy).sqrt() / r;
            let on = mask[y * w + x];
            if d > 1.1 && on {
                // Solid out to the corners of its box: a square, not a disc.
                return None;
            }
            if (0.7..0.95).contains(&d) {
                ring += 1;
                ring_on += u32::from(on);
            } else if d < 0.6 && !on {
                if dx < 0.0 {
                    hole_left += 1;
                } else {
                    hole_right += 1;
                }
            }
        }
    }
    let inner = std::f32::consts::PI * (0.6 * r) * (0.6 * r);
    let hole = (hole_left + hole_right) as f32;
    let solid_rim = ring > 0 && ring_on as f32 >= 0.95 * ring as f32;
    let icon = hole >= 0.1 * inner && hole <= 0.8 * inner;
    let points_right = hole_left as f32 >= 1.25 * hole_right as f32;
    (solid_rim && icon && points_right).then(|| Point {
        x: cx.round() as u32,
        y: cy.round() as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const BLUE: Rgba<u8> = Rgba([25, 118, 210, 255]);
    const WHITE: Rgba<u8> = Rgba([255, 255, 255, 255]);

    /// A 400x400 grey card with a disc of radius 40 at (200, 220), and `icon` cut out of it.
    fn card(icon: impl Fn(f32, f32) -> bool) -> RgbaImage {
        RgbaImage::from_fn(400, 400, |x, y| {
            let (dx, dy) = (x as f32 - 200.0, y as f32 - 220.0);
            if (dx * dx + dy * dy).sqrt() > 40.0 {
                Rgba([240, 240, 240, 255])
            } else if icon(dx, dy) {
                WHITE
            } else {
                BLUE
            }
        })
    }

    /// The play triangle: from (-11, -18)..(-11, 18) to (18, 0).
    fn play(dx: f32, dy: f32) -> bool {
        (-11.0..=18.0).contains(&dx) && dy.abs() <= 18.0 * (18.0 - dx) / 29.0
    }

    #[test]
    fn one_round_play_button_is_found_at_its_centre() {
        let at = play_button(&card(play), Rect::new(0, 0, 400, 400), 44).unwrap();
        assert!(at.x.abs_diff(200) <= 1 && at.y.abs_diff(220) <= 1, "{at:?}");
    }

    #[test]
    fn a_pause_a_cross_a_square_or_two_play_buttons_are_not_tapped() {
        let board = Rect::new(0, 0, 400, 400);
        let pause = card(|dx, dy| dy.abs() < 16.0 && (4.0..12.0).contains(&dx.abs()));
        assert_eq!(play_button(&pause, board, 44), None);
        let cross = card(|dx, dy| dx.abs() < 18.0 && (dx.abs() - dy.abs()).abs() < 4.0);
        assert_eq!(play_button(&cross, board, 44), None);
        let square = RgbaImage::from_fn(400, 400, |x, y| {
            if (160..240).contains(&x) && (180..260).contains(&y) {
                BLUE
            } else {
                WHITE
            }
        });
        assert_eq!(play_button(&square, board, 44), None);
        let mut two = card(play);
        for y in 0..100 {
            for x in 0..100 {
                let p = *two.get_pixel(x + 150, y + 170);
                two.put_pixel(x + 10, y + 10, p);
            }
        }
        assert_eq!(play_button(&two, board, 44), None);
    }

    #[test]
    fn a_button_outside_the_board_is_not_looked_at() {
        assert_eq!(
            play_button(&card(play), Rect::new(0, 0, 400, 150), 44),
            None
        );
    }
}
