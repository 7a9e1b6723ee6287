//! Whether a number-first app's keypad shows the key just tapped as selected: each key's patch
//! of pixels compared with how it looked unselected (and the key selected before with how it
//! looked then), and the guard's state through a run (the key due for a look, the looks a check
//! brought, the taps tried). A lost key tap is seen before any cell takes the old digit.

use crate::error::BoardProblem;
use crate::plan::{Move, Target};
use crate::profile::calibration::{Calibration, InputOrder, Keypad};
use anyhow::Result;
use image::RgbaImage;
use std::io::Write as _;

/// Keys watched: digits 1..=9, then erase.
const KEYS: usize = 10;

/// A channel changed by more than this between two frames counts as a changed pixel.
const PIXEL_CHANGE: i32 = 48;

/// A key's patch changed when more than this share of its pixels did. On the simulated skins
/// a selection changes 90-100% of a digit key and 9-100% of the erase tool (an icon that only
/// changes colour in a tool row), and nothing else changes 0%.
const PATCH_CHANGE: f32 = 0.05;

/// The pixels around one key's centre, row by row.
#[derive(Debug, Clone, PartialEq)]
struct Patch(Vec<[u8; 3]>);

/// Each key's patch in one frame (`None`: the key is not on the keypad).
type Looks = [Option<Patch>; KEYS];

/// The index of `target`'s key among [`Looks`] (`None` for a cell).
fn key_index(target: Target) -> Option<usize> {
    match target {
        Target::Digit(d) => Some(usize::from(d.clamp(1, 9)) - 1),
        Target::Erase => Some(KEYS - 1),
        Target::Cell(_) => None,
    }
}

/// Each key's centre (digits, then erase when the keypad has one).
fn centres(keypad: &Keypad) -> [Option<crate::geometry::Point>; KEYS] {
    std::array::from_fn(|i| {
        if i < 9 {
            Some(keypad.digits[i])
        } else {
            keypad.erase
        }
    })
}

/// Half the side of the square looked at around a key's centre: two fifths of the distance
/// between the nearest two digit keys, so that it stays inside the key's face.
fn half_side(keypad: &Keypad) -> u32 {
    let d = &keypad.digits;
    let nearest = d
        .iter()
        .flat_map(|a| {
            d.iter()
                .map(move |b| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)))
        })
        .filter(|&n| n > 0)
        .min()
        .unwrap_or(10);
    (nearest * 2 / 5).max(2)
}

/// The screen rows that hold every key's patch.
pub(super) fn keypad_rows(keypad: &Keypad) -> std::ops::Range<u32> {
    let half = half_side(keypad);
    let ys = centres(keypad).into_iter().flatten().map(|p| p.y);
    let top = ys.clone().min().unwrap_or(0);
    let bottom = ys.max().unwrap_or(0);
    top.saturating_sub(half)..bottom + half + 1
}

/// Each key's patch on `frame`.
fn looks(frame: &RgbaImage, keypad: &Keypad) -> Looks {
    let half = half_side(keypad);
    centres(keypad).map(|centre| {
        let c = centre?;
        let xs = c.x.saturating_sub(half)..(c.x + half).min(frame.width());
        let ys = c.y.saturating_sub(half)..(c.y + half).min(frame.height());
        let pixels = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .map(|(x, y)| {
                let p = frame.get_pixel(x, y).0;
                [p[0], p[1], p[2]]
            })
            .collect();
        Some(Patch(pixels))
    })
}

/// The two patches of one key differ: more than [`PATCH_CHANGE`] of the pixels changed.
fn differs(a: &Patch, b: &Patch) -> bool {
    if a.0.len() != b.0.len() || a.0.is_empty() {
        return true;
    }
    let changed = a
        .0
        .iter()
        .zip(&b.0)
        .filter(|(p, q)| (0..3).any(|i| (i32::from(p[i]) - i32::from(q[i])).abs() > PIXEL_CHANGE))
        .count();
    changed as f32 > PATCH_CHANGE * a.0.len() as f32
}

/// Whether the app shows the selected key at all, as learned in this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Display {
    /// No key tap has been judged yet.
    Unknown,
    /// A key was seen to change when tapped.
    Shown,
    /// A key tapped twice never changed: the app does not show it (no key checks from then on).
    NotShown,
}

/// What a check saw of the key tapped last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyLook {
    /// It looks selected (and the key selected before no longer does).
    Selected,
    /// It looks as it did unselected.
    NotSelected,
    /// Nothing to compare it with yet (taken as selected, and learned from).
    Unknown,
}

/// What is known about the keypad's looks in this run, and where the guard is: which key tap
/// awaits a look, the looks the last check brought, the taps of it tried.
#[derive(Debug, Clone)]
pub(super) struct KeyWatch {
    pub display: Display,
    /// Each key's patch as last seen unselected.
    unselected: Looks,
    /// The key last seen selected, and its patch then.
    selected: Option<(usize, Patch)>,
    /// The first check (whose screenshot teaches the keys' looks) was made.
    started: bool,
    /// The key whose tap ended the batch sent, judged after its check.
    due: Option<usize>,
    /// Times the key due was tapped again.
    tries: usize,
    /// The keys' looks on this check's screenshot, when it fetched the keypad's rows.
    noted: Option<Looks>,
}

impl KeyWatch {
    pub fn new() -> KeyWatch {
        KeyWatch {
            display: Display::Unknown,
            unselected: std::array::from_fn(|_| None),
            selected: None,
            started: false,
            due: None,
            tries: 0,
            noted: None,
        }
    }

    /// Key taps are checked on the keypad: a number-first app, unless it showed that it does
    /// not mark the selected key.
    pub fn checks(&self, cal: &Calibration) -> bool {
        cal.input_order == InputOrder::NumberFirst
            && cal.keypad.is_some()
            && self.display != Display::NotShown
    }

    /// This check's screenshot must hold the keypad: a key tap ended the batch, or (the first
    /// check) the keys' looks are still to be learned.
    pub fn wanted(&self, cal: &Calibration) -> bool {
        self.checks(cal) && (self.due.is_some() || !self.started)
    }

    /// A batch was sent ending with a tap on `last`: a key tap is due for a look at the check.
    pub fn sent(&mut self, last: Target, cal: &Calibration) {
        self.due = key_index(last).filter(|_| self.checks(cal));
    }

    /// `key`'s tap is looked at once more by the next check.
    pub fn look_again(&mut self, key: usize) {
        self.due = Some(key);
    }

    /// A fresh plan: no key tap awaits a look, and none was tried again.
    pub fn replanned(&mut self) {
        self.due = None;
        self.tries = 0;
    }

    /// Keeps the keys' looks on a check's screenshot, when the check wanted them ([`Self::wanted`]:
    /// it fetched the keypad's rows).
    pub fn note(&mut self, shot: &RgbaImage, cal: &Calibration) {
        if let (true, Some(keypad)) = (self.wanted(cal), &cal.keypad) {
            self.noted = Some(looks(shot, keypad));
        }
    }

    /// After a check: learns the keys' looks from the run's `first` move once a check saw it
    /// (`first_seen`: its key is the app's selected one once its cell shows its digit), and
    /// judges the key tap that ended the batch on this check's looks: the key, and how it looks.
    pub fn verdict(
        &mut self,
        first: Option<&Move>,
        first_seen: bool,
        cal: &Calibration,
    ) -> Option<(usize, KeyLook)> {
        let noted = self.noted.take();
        if !self.started {
            self.started = true;
            if let (Some(now), Some(first)) = (&noted, first)
                && first_seen
                && self.checks(cal)
            {
                let key = first.digit().map_or(Target::Erase, Target::Digit);
                if let Some(k) = key_index(key) {
                    self.learn(now, k);
                }
            }
        }
        let (key, now) = (self.due.take()?, noted?);
        Some((key, self.judge(&now, key)))
    }

    /// What follows the verdict on `target`, the key tap that ended the batch: `true` when it
    /// is to be tapped again, alone, before any cell of its digit (it does not look selected);
    /// after two more tries the run stops. An app whose key never changes when tapped twice
    /// shows no selection: said once, and keys are no longer checked.
    pub fn tap_again(&mut self, verdict: KeyLook, target: Target) -> Result<bool> {
        self.due = None;
        match (verdict, self.display) {
            (KeyLook::Selected | KeyLook::Unknown, _) => self.tries = 0,
            (KeyLook::NotSelected, Display::Shown) if self.tries < 2 => {
                self.tries += 1;
                let _ = writeln!(
                    std::io::stderr(),
                    "{target} does not look selected after its tap (a tap the app dropped?): tapping it again before any cell"
                );
                return Ok(true);
            }
            (KeyLook::NotSelected, Display::Shown) => {
                return Err(BoardProblem(format!(
                    "stopped: {target} does not look selected after {} taps, so no cell of it was tapped. Likely cause: the app ignores that key (a dialog over the keypad, or the keypad moved); fix it on the phone and re-run play",
                    self.tries + 1
                ))
                .into());
            }
            (KeyLook::NotSelected, _) if self.tries == 0 => {
                // A lost tap, or an app that shows no selected key: once more tells.
                self.tries = 1;
                return Ok(true);
            }
            (KeyLook::NotSelected, _) => {
                self.tries = 0;
                self.display = Display::NotShown;
                let _ = writeln!(
                    std::io::stderr(),
                    "no key looked selected after being tapped twice: the selected key cannot be told apart on this keypad, so a key tap the app drops cannot be seen and keys are not checked in this run"
                );
            }
        }
        Ok(false)
    }

    /// Judges `key` on `now` (a frame's looks after its tap), and learns from a key that looks
    /// selected (or cannot be told): the others are unselected then.
    fn judge(&mut self, now: &Looks, key: usize) -> KeyLook {
        let Some(patch) = &now[key] else {
            return KeyLook::Unknown;
        };
        let on = match (&self.unselected[key], &self.selected) {
            (Some(off), _) => Some(differs(patch, off)),
            (None, Some((k, on))) if *k == key => Some(!differs(patch, on)),
            _ => None,
        };
        // The key selected before changed back (its patch changed since it looked selected).
        let old_off = match (&self.selected, on) {
            (Some((k, was)), Some(true)) if *k != key => {
                now[*k].as_ref().is_none_or(|p| differs(p, was))
            }
            _ => true,
        };
        let verdict = match on {
            Some(true) if old_off => KeyLook::Selected,
            Some(_) => KeyLook::NotSelected,
            None => KeyLook::Unknown,
        };
        if verdict != KeyLook::NotSelected {
            self.learn(now, key);
        }
        if verdict == KeyLook::Selected && self.unselected[key].is_some() {
            self.display = Display::Shown;
        }
        verdict
    }

    /// `key` is the app's selected key on `now` (a move typed with it landed): every other
    /// key's patch is its unselected look.
    fn learn(&mut self, now: &Looks, key: usize) {
        for (k, patch) in now.iter().enumerate() {
            if k != key && patch.is_some() {
                self.unselected[k] = patch.clone();
            }
        }
        self.selected = now[key].clone().map(|p| (key, p));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Point;

    /// A 100x20 keypad of nine keys in a row, 10 px apart, and erase below none.
    fn keypad() -> Keypad {
        Keypad {
            digits: std::array::from_fn(|i| Point::new(5 + 10 * i as u32, 10)),
            erase: None,
            notes: None,
        }
    }

    /// A white frame with key `lit` (0-based) painted blue over its face.
    fn frame(lit: Option<usize>) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(100, 20, image::Rgba([255, 255, 255, 255]));
        if let Some(k) = lit {
            for y in 5..15 {
                for x in 10 * k as u32..10 * k as u32 + 10 {
                    img.put_pixel(x, y, image::Rgba([40, 120, 230, 255]));
                }
            }
        }
        img
    }

    #[test]
    fn a_key_that_changed_from_its_unselected_look_is_selected_and_one_that_did_not_is_not() {
        let k = keypad();
        assert_eq!(keypad_rows(&k), 6..15);
        let mut watch = KeyWatch::new();
        // The first move typed a 1: key 1 is selected.
        watch.learn(&looks(&frame(Some(0)), &k), 0);
        assert_eq!(watch.display, Display::Unknown);
        // Key 3 tapped and lit, key 1 back to white.
        assert_eq!(
            watch.judge(&looks(&frame(Some(2)), &k), 2),
            KeyLook::Selected
        );
        assert_eq!(watch.display, Display::Shown);
        // Key 5 tapped, its tap lost: key 3 still lit.
        assert_eq!(
            watch.judge(&looks(&frame(Some(2)), &k), 4),
            KeyLook::NotSelected
        );
        assert_eq!(
            watch.judge(&looks(&frame(Some(4)), &k), 4),
            KeyLook::Selected
        );
        // The same key tapped again (a fresh plan) stays selected.
        assert_eq!(
            watch.judge(&looks(&frame(Some(4)), &k), 4),
            KeyLook::Selected
        );
    }

    #[test]
    fn a_new_key_lit_while_the_old_one_stays_lit_is_not_taken_as_selected() {
        let k = keypad();
        let mut watch = KeyWatch::new();
        watch.learn(&looks(&frame(Some(0)), &k), 0);
        let mut both = frame(Some(0));
        for y in 5..15 {
            for x in 20..30 {
                both.put_pixel(x, y, image::Rgba([40, 120, 230, 255]));
            }
        }
        assert_eq!(watch.judge(&looks(&both, &k), 2), KeyLook::NotSelected);
    }

    #[test]
    fn an_app_that_shows_no_selection_never_looks_selected() {
        let k = keypad();
        let mut watch = KeyWatch::new();
        watch.learn(&looks(&frame(None), &k), 0);
        assert_eq!(
            watch.judge(&looks(&frame(None), &k), 2),
            KeyLook::NotSelected
        );
        assert_eq!(watch.display, Display::Unknown);
        // With nothing known of a key, it cannot be told.
        assert_eq!(
            KeyWatch::new().judge(&looks(&frame(None), &k), 2),
            KeyLook::Unknown
        );
    }

    /// The repository's calibration, made number-first with [`keypad`].
    fn number_first() -> Calibration {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut cal = Calibration::load(&manifest.join("calibration.toml")).unwrap();
        cal.input_order = InputOrder::NumberFirst;
        cal.keypad = Some(keypad());
        cal
    }

    /// A watch whose first check saw the first move, typed with key 1 on `first_look`.
    fn started(cal: &Calibration, first_look: &RgbaImage) -> KeyWatch {
        let mut watch = KeyWatch::new();
        assert!(watch.wanted(cal));
        watch.note(first_look, cal);
        let first = Move::Set {
            cell: crate::sudoku::Cell::new(0, 0).unwrap(),
            digit: 1,
        };
        assert_eq!(watch.verdict(Some(&first), true, cal), None);
        assert!(!watch.wanted(cal));
        watch
    }

    #[test]
    fn a_key_that_stays_unselected_is_tapped_twice_more_and_then_stops_the_run() {
        let cal = number_first();
        let mut watch = started(&cal, &frame(Some(0)));
        watch.sent(Target::Digit(3), &cal);
        watch.note(&frame(Some(2)), &cal);
        assert_eq!(
            watch.verdict(None, true, &cal),
            Some((2, KeyLook::Selected))
        );
        assert!(
            !watch
                .tap_again(KeyLook::Selected, Target::Digit(3))
                .unwrap()
        );
        // Key 5's taps are lost: key 3 stays lit.
        for _ in 0..2 {
            watch.sent(Target::Digit(5), &cal);
            assert!(watch.wanted(&cal));
            watch.note(&frame(Some(2)), &cal);
            let (key, verdict) = watch.verdict(None, true, &cal).unwrap();
            assert_eq!((key, verdict), (4, KeyLook::NotSelected));
            assert!(watch.tap_again(verdict, Target::Digit(5)).unwrap());
        }
        let err = watch
            .tap_again(KeyLook::NotSelected, Target::Digit(5))
            .unwrap_err()
            .to_string();
        assert!(err.contains("after 3 taps"), "{err}");
    }

    #[test]
    fn an_app_that_never_marks_a_key_tapped_twice_has_its_keys_no_longer_checked() {
        let cal = number_first();
        let mut watch = started(&cal, &frame(None));
        for again in [true, false] {
            watch.sent(Target::Digit(3), &cal);
            watch.note(&frame(None), &cal);
            let (_, verdict) = watch.verdict(None, true, &cal).unwrap();
            assert_eq!(verdict, KeyLook::NotSelected);
            assert_eq!(watch.tap_again(verdict, Target::Digit(3)).unwrap(), again);
        }
        assert_eq!(watch.display, Display::NotShown);
        assert!(!watch.checks(&cal));
        watch.sent(Target::Digit(3), &cal);
        assert!(!watch.wanted(&cal));
        // A cell-first app's keys are never checked.
        let cell_first = Calibration {
            input_order: InputOrder::CellFirst,
            ..cal
        };
        assert!(!KeyWatch::new().wanted(&cell_first));
    }

    #[test]
    fn a_few_changed_pixels_are_no_change() {
        let a = Patch(vec![[255, 255, 255]; 100]);
        let mut b = a.clone();
        for p in &mut b.0[..5] {
            *p = [0, 0, 0];
        }
        assert!(!differs(&a, &b));
        b.0[5] = [0, 0, 0];
        assert!(differs(&a, &b));
        assert_eq!(key_index(Target::Erase), Some(9));
        assert_eq!(key_index(Target::Digit(1)), Some(0));
    }
}
