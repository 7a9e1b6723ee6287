//! Does a profile fit the screen? A stored profile is checked on one screenshot before it is
//! used: the one calibrated reader must read the board with it (which holds the grid to where the
//! profile taps), its templates must be the digits on the board (a board the glyph bank reads
//! with another app's profile is still another app's profile), and the nine digit keys must be
//! where the profile taps them, since an app update can move the keypad alone. A profile made at another screen size of the same app is carried
//! over only when this screen's own grid and keys give every position it taps, checked by reading.

use crate::geometry::{Point, Size};
use crate::profile::Profile;
use crate::profile::calibration::{Calibration, Keypad};
use crate::sudoku::Cell;
use image::RgbaImage;
use sudoku_reader::stages::find_keys;
use sudoku_reader::stages::{grid_offset, grid_tolerance};
use sudoku_reader::{Grid, ReadError, Recognition, ScreenCells, Templates};

/// What one screenshot says about a profile.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// The profile reads this board where it taps; the read is kept for the caller.
    Fits(Box<Recognition>),
    /// The profile no longer matches the app (why, in a few words).
    Stale(String),
    /// Nothing reads this screen (an ad, a menu): not the profile's fault.
    Unreadable(String),
}

/// Checks `cal` on `screen`, a screenshot of its own size.
pub fn check(screen: &RgbaImage, profile: &Profile) -> Verdict {
    let (cal, templates) = (&profile.calibration, &profile.templates);
    let seen = profile.read(screen);
    match seen.result {
        Ok(rec) => match templates_differ(seen.screen.as_ref(), &rec, templates, cal)
            .or_else(|| keypad_moved(screen, &rec.grid, cal, templates))
        {
            Some(why) => Verdict::Stale(why),
            None => Verdict::Fits(Box::new(rec)),
        },
        Err(ReadError::Moved { by, expected: g }) => Verdict::Stale(format!(
            "the grid moved {by:.0} px from {}x{} at {},{}",
            g.width, g.height, g.x, g.y
        )),
        // A board the reader without calibration reads: the profile's templates or digit size
        // no longer see this app's digits.
        Err(e) => match sudoku_reader::read(screen, None).result {
            Ok(_) => Verdict::Stale(e.to_string()),
            Err(_) => Verdict::Unreadable(e.to_string()),
        },
    }
}

/// Why `templates` are not this app's digits, when they are not: a board read with the help of
/// the glyph bank can be right while the templates are another app's or an old theme's (another
/// app's profile has other keys, erase and input order too). Every digit of the read must be
/// its cell's best template, at the calibrated score, in the cells the read was made from
/// (`screen`, as the reader returned them; none seen is a difference).
pub fn templates_differ(
    screen: Option<&ScreenCells>,
    rec: &Recognition,
    templates: &Templates,
    cal: &Calibration,
) -> Option<String> {
    let Some(screen) = screen else {
        return Some("the reader returned no cells to compare its digit templates with".into());
    };
    let (mut digits, mut unlike) = (0, 0);
    for (cell, ink) in Cell::all().zip(&screen.cells) {
        let (Some(p), Some(d)) = (&ink.digit, rec.board.get(cell)) else {
            continue;
        };
        digits += 1;
        let [best, _] = templates.best_two(&p.pixels);
        if best.0 != d || (best.1 as f64) < cal.thresholds.min_score {
            unlike += 1;
        }
    }
    (unlike > 0).then(|| {
        format!("its digit templates do not match {unlike} of the {digits} digits on the board")
    })
}

/// Why the keys are not where `cal` taps them, when they are not: the largest distance from a
/// profile key to the same digit's key on the screen over a quarter of a cell (a key is about a
/// cell wide). `None` also when no keypad is seen (a dialog over it): nothing to compare.
pub fn keypad_moved(
    screen: &RgbaImage,
    grid: &Grid,
    cal: &Calibration,
    templates: &Templates,
) -> Option<String> {
    let keypad = cal.keypad.as_ref()?;
    let found = find_keys(screen, grid, templates)?;
    let by = keypad
        .digits
        .iter()
        .zip(&found)
        .map(|(a, b)| distance(*a, *b))
        .fold(0f32, f32::max);
    (by > grid.pitch() / 4.0).then(|| {
        let (a, b) = (keypad.digits[0], found[0]);
        format!(
            "the keypad moved {by:.0} px (key 1 from {},{} to {},{})",
            a.x, a.y, b.x, b.y
        )
    })
}

fn distance(a: Point, b: Point) -> f32 {
    (a.x as f32 - b.x as f32).hypot(a.y as f32 - b.y as f32)
}

/// `cal` (made on another screen size of the same app) fitted to `screen`: the grid as found
/// here, the digit keys as found here, the erase and notes buttons carried by the map that takes
/// the profile's keys to these (apps scale their controls with the keypad). Refused, saying
/// why, when the screen is rotated, the board or keys are not found, the keys are not laid out
/// as the profile's were, or the fitted profile does not read this board back. The read is
/// returned with it.
pub fn fit_to_screen(
    screen: &RgbaImage,
    profile: &Profile,
) -> Result<(Calibration, Recognition), String> {
    let (cal, templates) = (&profile.calibration, &profile.templates);
    let size = Size::new(screen.width(), screen.height());
    if (size.width > size.height) != (cal.screen.width > cal.screen.height) {
        return Err(format!(
            "the screen is rotated ({size}, the profile was made on {})",
            cal.screen
        ));
    }
    // No grid hint: a rectangle scaled from another size can sit a few pixels off, and the full
    // search has read every real screenshot exactly.
    let seen = profile.read_templates_only(screen);
    let rec = seen
        .result
        .map_err(|e| format!("its digits do not read here: {e}"))?;
    if let Some(why) = templates_differ(seen.screen.as_ref(), &rec, templates, cal) {
        return Err(why);
    }
    let old = cal.keypad.as_ref().ok_or("it has no keypad")?;
    let keys = find_keys(screen, &rec.grid, templates)
        .ok_or("the app's digit keys are not found on this screen")?;
    let map = KeyMap::fit(&old.digits, &keys)?;
    let worst = old
        .digits
        .iter()
        .zip(&keys)
        .map(|(a, b)| distance(map.apply(*a), *b))
        .fold(0f32, f32::max);
    if worst > rec.grid.pitch() / 4.0 {
        return Err(format!(
            "the keys are not laid out as the profile's ({worst:.0} px off its layout)"
        ));
    }
    let inside = |p: Point| -> Result<Point, String> {
        let q = map.apply(p);
        let ok = q.x < size.width && q.y < size.height;
        ok.then_some(q)
            .ok_or_else(|| format!("a button at {},{} falls off this screen", p.x, p.y))
    };
    let mut fitted = cal.clone();
    fitted.screen = size;
    fitted.grid = rec.grid.rect();
    fitted.keypad = Some(Keypad {
        digits: keys,
        erase: old.erase.map(inside).transpose()?,
        notes: old.notes.map(inside).transpose()?,
    });
    fitted.validate().map_err(|e| format!("{e:#}"))?;
    let again = Profile::new(fitted.clone(), templates.clone())
        .read(screen)
        .result
        .map_err(|e| format!("fitted, it does not read this board: {e}"))?;
    if again.board != rec.board
        || grid_offset(&again.grid, fitted.grid) > grid_tolerance(fitted.grid)
    {
        return Err("fitted, it reads another board than the reader without it".into());
    }
    Ok((fitted, again))
}

/// A scale and offset per axis, from one keypad's key centres to another's.
#[derive(Debug, Clone, Copy, PartialEq)]
struct KeyMap {
    x: (f32, f32),
    y: (f32, f32),
}

impl KeyMap {
    /// Least squares per axis. A keypad in one row (or column) says nothing of the other axis'
    /// scale: that axis takes the scale of the one it does say.
    fn fit(from: &[Point; 9], to: &[Point; 9]) -> Result<KeyMap, String> {
        let axis = |f: &dyn Fn(Point) -> f32| -> (Option<f32>, f32, f32) {
            let a: Vec<f32> = from.iter().map(|p| f(*p)).collect();
            let b: Vec<f32> = to.iter().map(|p| f(*p)).collect();
            let (ma, mb) = (a.iter().sum::<f32>() / 9.0, b.iter().sum::<f32>() / 9.0);
            let var: f32 = a.iter().map(|v| (v - ma).powi(2)).sum();
            let cov: f32 = a.iter().zip(&b).map(|(u, v)| (u - ma) * (v - mb)).sum();
            ((var > 9.0).then(|| cov / var), ma, mb)
        };
        let (sx, mxa, mxb) = axis(&|p| p.x as f32);
        let (sy, mya, myb) = axis(&|p| p.y as f32);
        let (sx, sy) = match (sx, sy) {
            (Some(x), Some(y)) => (x, y),
            (Some(x), None) => (x, x),
            (None, Some(y)) => (y, y),
            (None, None) => return Err("the profile's keys are all in one place".into()),
        };
        if !(0.2..=5.0).contains(&sx) || !(0.2..=5.0).contains(&sy) {
            return Err("the keys are not laid out as the profile's".into());
        }
        Ok(KeyMap {
            x: (sx, mxb - sx * mxa),
            y: (sy, myb - sy * mya),
        })
    }

    fn apply(&self, p: Point) -> Point {
        let f = |(s, o): (f32, f32), v: u32| (s * v as f32 + o).round().max(0.0) as u32;
        Point::new(f(self.x, p.x), f(self.y, p.y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(x0: u32, step: u32, y: u32) -> [Point; 9] {
        std::array::from_fn(|i| Point::new(x0 + step * i as u32, y))
    }

    #[test]
    fn a_keypad_in_one_row_maps_the_other_axis_by_the_same_scale() {
        let map = KeyMap::fit(&row(100, 80, 2000), &row(150, 120, 3100)).unwrap();
        assert_eq!(map.apply(Point::new(100, 2000)), Point::new(150, 3100));
        // A button 100 px below the first key lands 150 px below it at 1.5 times the size.
        assert_eq!(map.apply(Point::new(100, 2100)), Point::new(150, 3250));
    }

    #[test]
    fn a_three_by_three_keypad_maps_each_axis_on_its_own() {
        let grid = |x0: u32, dx: u32, y0: u32, dy: u32| -> [Point; 9] {
            std::array::from_fn(|i| Point::new(x0 + dx * (i % 3) as u32, y0 + dy * (i / 3) as u32))
        };
        let map = KeyMap::fit(&grid(100, 100, 1000, 80), &grid(200, 200, 1500, 120)).unwrap();
        assert_eq!(map.apply(Point::new(400, 1000)), Point::new(800, 1500));
        assert_eq!(map.apply(Point::new(100, 1240)), Point::new(200, 1860));
    }

    #[test]
    fn keys_all_in_one_place_give_no_map() {
        let one = [Point::new(5, 5); 9];
        assert!(KeyMap::fit(&one, &row(0, 10, 0)).is_err());
    }
}
