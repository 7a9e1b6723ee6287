//! `calibrate --probe`: finds the input order (cell-first or number-first), the erase button and
//! the notes toggle of an app by trying them on the phone (a notes mode left on is switched off
//! on the way: [`notes`]), and leaves the board as it was. It only ever taps one empty cell of
//! the grid and buttons seen outside it (digit keys and glyph/icon blobs near the keypad), looks
//! after every step, stops as soon as the screen is not the board it read, and checks at the end
//! that a fresh read equals the first one.

use crate::device::Device;
use crate::geometry::Point;
use crate::phone::Phone;
use crate::profile::Profile;
use crate::profile::calibration::{Calibration, InputOrder, Keypad};
use crate::sudoku::{Board, Cell};
use anyhow::{Result, anyhow, bail};
use image::RgbaImage;
use std::sync::atomic::AtomicBool;
use sudoku_reader::stages::components;
use sudoku_reader::stages::settling;
use sudoku_reader::stages::{Glyph, glyphs_outside, selected_key};
use sudoku_reader::{Grid, Recognition, Templates};

mod notes;
use notes::{Entered, entered_as, find_notes, switch_notes_off};

/// What the probe found, and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Probed {
    pub input_order: InputOrder,
    pub erase: Point,
    /// The notes (pencil) toggle, when a button turned out to switch notes on.
    pub notes: Option<Point>,
    /// The empty cell and the digit used for the trials.
    pub cell: Cell,
    pub digit: u8,
    pub taps: usize,
    pub screenshots: usize,
}

/// How far below the last row of digit keys buttons are looked for, in key spacings: first
/// just below the keypad (so never the navigation bar nor an ad under it); then, only when none
/// of those erases, a row of tool buttons set well apart below the keypad (Saku style).
pub const NEAR_REACH: f32 = 0.75;
pub const FAR_REACH: f32 = 3.0;

/// Buttons worth trying as erase or notes: glyphs outside the grid, in the band from the grid's
/// bottom to `reach` key spacings below the keypad's last row (so never the status or app bar),
/// not part of a digit key, not a thin separator line; one per button, in reading order.
pub fn button_candidates(glyphs: &[Glyph], grid: &Grid, keypad: &Keypad, reach: f32) -> Vec<Point> {
    let keys = &keypad.digits;
    let dist = |a: Point, b: Point| {
        let (dx, dy) = (a.x as f32 - b.x as f32, a.y as f32 - b.y as f32);
        (dx * dx + dy * dy).sqrt()
    };
    // Half the spacing of neighbouring digit keys: closer than that is part of a key.
    let spacing = (0..9)
        .flat_map(|i| (i + 1..9).map(move |j| (i, j)))
        .map(|(i, j)| dist(keys[i], keys[j]))
        .fold(f32::MAX, f32::min);
    let top = grid.rect().bottom() as f32;
    let bottom = keys.iter().map(|k| k.y).max().unwrap_or(0) as f32 + reach * spacing;
    // On a key: near its digit, or within its square of the keypad's lattice (a bit of a key's
    // own face, its corner or edge, is no button of its own).
    let on_key = |k: Point, c: Point| {
        let (dx, dy) = (k.x.abs_diff(c.x) as f32, k.y.abs_diff(c.y) as f32);
        dist(k, c) <= 0.55 * spacing || dx.max(dy) < 0.5 * spacing
    };
    let mut sorted: Vec<&Glyph> = glyphs
        .iter()
        .filter(|g| {
            let c = g.centre();
            (c.y as f32) > top
                && (c.y as f32) < bottom
                && g.bbox.width * 10 >= g.bbox.height * 3
                && keys.iter().all(|&k| !on_key(k, c))
        })
        .collect();
    // The biggest blob of a button stands for it.
    sorted.sort_by_key(|g| std::cmp::Reverse(g.bbox.width * g.bbox.height));
    let mut picked: Vec<Point> = Vec::new();
    let merge = 0.6 * grid.pitch();
    for g in sorted {
        if picked.iter().all(|&p| dist(p, g.centre()) > merge) {
            picked.push(g.centre());
        }
    }
    picked.sort_by_key(|p| (p.y, p.x));
    picked
}

/// Ink blobs under the grid that `glyphs_outside` leaves out because they are not shaped like a
/// digit: an icon glued to a badge (a pencil with an "OFF" pill), a wide trash can, an X. Up to
/// two cells wide and about one high, solid enough not to be a button outline, and not a letter
/// of a word (a run of three or more blobs of similar height side by side).
pub fn icon_blobs(img: &RgbaImage, grid: &Grid) -> Vec<Glyph> {
    let pitch = grid.pitch();
    let top = grid.rect().bottom() + 2;
    if top + 2 >= img.height() {
        return Vec::new();
    }
    // The band's brightness by the reader's one formula.
    let (width, height) = (img.width(), img.height() - top);
    let luma = image::GrayImage::from_raw(
        width,
        height,
        sudoku_reader::Screen::new(img).luma_region(0, top, width, height),
    )
    .expect("luma_region returns width * height bytes");
    let rad = ((pitch * 0.5) as u32).max(4);
    let mean = imageproc::filter::box_filter(&luma, rad, rad);
    // Each polarity on its own (dark ink on a light key, light ink on a dark one): together,
    // the halo around dark letters would join a word into one blob.
    let mut blobs: Vec<crate::geometry::Rect> = Vec::new();
    for dark in [true, false] {
        let (w, h) = (luma.width() as usize, luma.height() as usize);
        let mask: Vec<bool> = luma
            .pixels()
            .zip(mean.pixels())
            .map(|(l, m)| {
                let (l, m) = (l[0], m[0]);
                // Light ink only on a dark background: the bright halo the local mean leaves
                // around dark ink on a light key is no blob.
                let ink = match dark {
                    true if m >= 128 => m.saturating_sub(l),
                    false if m < 128 => l.saturating_sub(m),
                    _ => 0,
                };
                ink > 30
            })
            .collect();
        // The reader's 8-connected components (boxes and areas, in reading order).
        let (_, comps) = components(&mask, w, h);
        blobs.extend(
            comps
                .iter()
                .filter(|c| {
                    let (w, h) = (c.width() as f32, c.height() as f32);
                    h >= 0.2 * pitch
                        && h <= 1.3 * pitch
                        && w >= 0.2 * pitch
                        && w <= 2.0 * pitch
                        && c.area as f32 >= 0.12 * w * h
                })
                .map(|c| {
                    crate::geometry::Rect::new(
                        c.x0 as u32,
                        c.y0 as u32 + top,
                        c.width() as u32,
                        c.height() as u32,
                    )
                }),
        );
    }
    let beside = |a: &crate::geometry::Rect, b: &crate::geometry::Rect| {
        let (ha, hb) = (a.height as f32, b.height as f32);
        let gap = (b.x as f32 - a.right() as f32).max(a.x as f32 - b.right() as f32);
        let overlap = a.y.max(b.y) < a.bottom().min(b.bottom());
        a != b && hb >= 0.6 * ha && hb <= 1.6 * ha && overlap && gap < 0.6 * ha
    };
    // A run of three or more blobs side by side is a word or a number ("00:00"); two are an
    // icon with its badge as often as a short word.
    let neighbours = |a: &crate::geometry::Rect| blobs.iter().filter(|b| beside(a, b)).count();
    let in_word = |a: &crate::geometry::Rect| {
        neighbours(a) >= 2 || blobs.iter().any(|b| beside(a, b) && neighbours(b) >= 2)
    };
    blobs
        .iter()
        .filter(|a| !in_word(a))
        .map(|&bbox| Glyph {
            bbox,
            patch: Vec::new(),
            bright: false,
        })
        .collect()
}

/// The digit to probe `cell` with: its solution, from the board as it is when that solves, else
/// from the givens alone (the player's entries may be wrong), so that apps which count mistakes
/// never count one; only a puzzle with no unique solution falls back to a digit that breaks no
/// rule.
fn digit_for(board: &Board, givens: &Board, cell: Cell) -> Option<u8> {
    for b in [board, givens] {
        if let Some(d) = crate::sudoku::solve(b).solution().and_then(|s| s.get(cell)) {
            return Some(d);
        }
    }
    (1..=9u8).find(|&d| {
        Cell::all().all(|o| {
            let sees =
                o.row() == cell.row() || o.col() == cell.col() || o.box_index() == cell.box_index();
            o == cell || !sees || board.get(o) != Some(d)
        })
    })
}

/// Pixels that changed noticeably in a square of side `side` around `at`, as a fraction.
fn changed_around(a: &RgbaImage, b: &RgbaImage, at: Point, side: u32) -> f32 {
    let half = side / 2;
    let (x0, y0) = (at.x.saturating_sub(half), at.y.saturating_sub(half));
    let x1 = (at.x + half).min(a.width().min(b.width()));
    let y1 = (at.y + half).min(a.height().min(b.height()));
    let mut changed = 0u32;
    let mut total = 0u32;
    for y in y0..y1 {
        for x in x0..x1 {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            total += 1;
            if (0..3).any(|k| p[k].abs_diff(q[k]) > 40) {
                changed += 1;
            }
        }
    }
    changed as f32 / total.max(1) as f32
}

/// A probe on the phone: the first read, and a count of what was done.
struct Probe<'p, 'a> {
    phone: &'p mut Phone<'a>,
    first: Recognition,
    cell: Cell,
    /// The digit the probe enters (the cell's solution).
    digit: u8,
    /// The probe cell's digit at the last look (at first the one about to be tried), for the
    /// message when we stop.
    shown: Option<u8>,
    taps: usize,
    screenshots: usize,
    /// When the last taps went out.
    sent: std::time::Instant,
    /// The screen before the first tap, until that tap has taught the phone's frame lag.
    unlagged: Option<RgbaImage>,
}

impl Probe<'_, '_> {
    /// What the user must clean up when the probe stops now.
    fn leftover(&self) -> String {
        match self.shown {
            Some(d) => format!(" ({} may hold the probe's {d}: erase it if so)", self.cell),
            None => String::new(),
        }
    }

    fn tap(&mut self, points: &[Point]) -> Result<()> {
        self.taps += points.len();
        self.phone.tap_all(points)?;
        self.sent = std::time::Instant::now();
        if let Some(before) = self.unlagged.take() {
            // The first taps change what they touch: the time until a screenshot shows it is
            // the frame lag, which every later look waits past.
            self.screenshots += 1;
            self.phone.learn_lag(&before, points, self.sent)?;
        }
        Ok(())
    }

    /// A screenshot and its reading once the screen has settled; an error when the grid is gone
    /// or a cell other than the probe cell changed (the last tap did something we cannot undo).
    fn look(&mut self, after: &str) -> Result<(RgbaImage, Recognition)> {
        let (img, read) = self.settled()?;
        let rec = read.map_err(|e| {
            BoardGone {
                message: format!(
                    "after {after} the board can no longer be read ({e}); the probe stopped{}: go back to the puzzle in the app and check it, then re-run, or tell the controls with `sudoku-agent calibrate --input-order cell-first|number-first --erase X,Y`",
                    self.leftover()
                ),
                digit: self.digit,
            }
        })?;
        let moved: Vec<String> = self
            .first
            .board
            .diff(&rec.board)
            .into_iter()
            .filter(|&c| c != self.cell)
            .map(|c| c.to_string())
            .collect();
        if !moved.is_empty() {
            bail!(
                "after {after} the app changed {} (not the probe cell {}); the probe stopped{}: undo that in the app, then re-run, or tell the controls with `sudoku-agent calibrate --input-order cell-first|number-first --erase X,Y`",
                moved.join(", "),
                self.cell,
                self.leftover()
            );
        }
        self.shown = rec.board.get(self.cell);
        Ok((img, rec))
    }

    /// A screenshot once the probe cell has stopped changing past the phone's frame lag (see
    /// [`Phone::settle`]), and its read: apps animate a digit in (a fade, a pop)
    /// or out, and a frame caught halfway (a faint digit reads as none) must not decide the
    /// input order or the erase button. Pixels, not reads, are compared, since a slow fade reads
    /// "empty" twice in a row. The probe runs once per app, so every look pays a second
    /// screenshot.
    fn settled(&mut self) -> Result<(RgbaImage, Result<Recognition, sudoku_reader::ReadError>)> {
        let centre = self.phone.cell_centre(self.cell);
        let mut shots = 0;
        let img = self
            .phone
            .settle(self.sent, settling::STILL_SPAN, &[centre], |_| {
                shots += 1;
                false
            })?;
        self.screenshots += shots;
        let read = self.phone.read(&img).result;
        Ok((img, read))
    }
}

/// The board left the screen during the probe (an ad, a dialog, the app left): the probe
/// stopped without another tap.
#[derive(Debug)]
pub struct BoardGone {
    message: String,
    /// The digit the probe was entering: a number-first app may hold it selected still.
    digit: u8,
}

impl std::fmt::Display for BoardGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BoardGone {}

/// [`probe`], and when the board leaves the screen meanwhile (an ad, a dialog) waits up to
/// `wait` for it to come back (never tapping) and probes again from the board as it is then, up
/// to twice. The probe types only the cell's solution digit, so a probe cut short leaves no
/// mistake behind. The next probe picks an empty cell whose solution is the digit the last one
/// used, where there is one: a number-first app may still hold that digit, and the next probe's
/// first tap on a cell would enter it.
pub fn probe_waiting(
    device: &mut dyn Device,
    cal: &Calibration,
    templates: &Templates,
    wait: std::time::Duration,
) -> Result<Probed> {
    let profile = Profile::new(cal.clone(), templates.clone());
    let (stop, say) = (AtomicBool::new(false), say_on_stderr);
    let mut phone = Phone::new(device, &profile, &stop, &say);
    let mut covers = 0;
    let mut held = None;
    loop {
        match probe_holding(&mut phone, held) {
            Err(e) if covers < 2 && e.downcast_ref::<BoardGone>().is_some() => {
                covers += 1;
                held = e.downcast_ref::<BoardGone>().map(|g| g.digit);
                log::info!("probe interrupted: {e}");
                phone.say("the board left the screen while learning the app (an ad or a dialog?)");
                phone.wait_for_board(wait, "the command", None)?;
            }
            other => return other,
        }
    }
}

/// The probe's messages: on stderr, as the command that learns says its own.
fn say_on_stderr(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Finds input order, erase and notes on `device`, whose screen `cal` and `templates` read. The
/// steps, each its own function: the buttons worth trying, the input order, erase (and the
/// toggles met on the way), notes, and a last look that the board is as it was.
pub fn probe(device: &mut dyn Device, cal: &Calibration, templates: &Templates) -> Result<Probed> {
    let profile = Profile::new(cal.clone(), templates.clone());
    let stop = AtomicBool::new(false);
    probe_holding(
        &mut Phone::new(device, &profile, &stop, &say_on_stderr),
        None,
    )
}

/// [`probe`] on a cell whose solution is `held` where there is one (the digit a number-first
/// app may hold selected).
fn probe_holding(phone: &mut Phone, held: Option<u8>) -> Result<Probed> {
    let profile = phone.profile;
    let keypad = profile.calibration.keypad.as_ref().ok_or_else(|| {
        anyhow!("no keypad was found on this screen, so there is nothing to probe; tell the controls with `sudoku-agent calibrate --input-order cell-first|number-first --erase X,Y`")
    })?;
    let img = phone.capture()?.screen;
    let first = phone
        .read(&img)
        .result
        .map_err(|e| anyhow!("cannot read the board before probing: {e}"))?;
    let empty: Vec<Cell> = Cell::all()
        .filter(|&c| first.board.get(c).is_none() && !first.readings[c.index()].notes)
        .collect();
    let givens = first.givens();
    // A key the app shows selected (a game in progress) is held: in a number-first app the
    // first tap on a cell enters it.
    let shown = selected_key(&img, &keypad.digits);
    let held = held.or(shown);
    let solved_by = |d: u8| {
        empty
            .iter()
            .copied()
            .find(|&c| digit_for(&first.board, &givens, c) == Some(d))
    };
    let cell = held
        .and_then(solved_by)
        .or_else(|| empty.first().copied())
        .ok_or_else(|| anyhow!("the board has no empty cell without notes to probe with"))?;
    let digit = digit_for(&first.board, &givens, cell)
        .ok_or_else(|| anyhow!("no digit fits {cell} by the rules; check the board"))?;
    let held = match held {
        Some(d) if d != digit => {
            // No empty cell takes the held digit: select the probe's digit first, with a given
            // selected (a cell-first app then has nowhere to put it).
            let given = Cell::all().find(|&c| givens.get(c).is_some());
            let park = given.map(|c| first.grid.cell_rect(c).center());
            let key = keypad.digits[digit as usize - 1];
            phone.tap_all(&[park.into_iter().collect::<Vec<_>>(), vec![key]].concat())?;
            Some(digit)
        }
        other => other,
    };
    let trial = Trial {
        cell,
        digit,
        at: first.grid.cell_rect(cell).center(),
        key: keypad.digits[digit as usize - 1],
        held: held == Some(digit),
    };
    let (candidates, near) = candidate_buttons(&img, &first.grid, keypad);
    let side = first.grid.pitch() as u32;
    log::info!("probe: {digit} into {cell}; candidate buttons {candidates:?}");
    let mut s = Probe {
        phone,
        first,
        cell,
        digit,
        shown: Some(digit),
        taps: 0,
        screenshots: 1,
        sent: std::time::Instant::now(),
        unlagged: Some(img),
    };
    let (order, entered) = find_input_order(&mut s, trial)?;
    // A player may have left notes mode on: the digit went in as a pencil note. The button that
    // switches it off is found now, and stays off (play needs digits, not notes).
    let switched_off = match entered {
        Entered::Digit => None,
        Entered::Note => {
            let buttons = (&candidates[..], near);
            Some(switch_notes_off(&mut s, trial, order, buttons, side)?)
        }
    };
    let (erase, mut toggles, before) = find_erase(&mut s, trial, order, &candidates, side)?;
    // Buttons after erase: toggles show by their own look changing; a tap alone tells. Far
    // buttons only when erase itself was far.
    let at_erase = candidates.iter().position(|&c| Some(c) == erase);
    let tried = at_erase.map_or(candidates.len(), |i| i + 1);
    let last = match at_erase {
        Some(i) if i < near => near,
        _ => candidates.len(),
    };
    find_toggles(
        &mut s,
        &candidates[tried..last.max(tried)],
        before,
        side,
        &mut toggles,
    )?;
    let Some(erase) = erase else {
        bail!(
            "none of the {} buttons near the keypad cleared {cell}; the probe left {digit} there: erase it in the app and tell the controls with `sudoku-agent calibrate --input-order cell-first|number-first --erase X,Y`",
            candidates.len()
        );
    };
    let notes = find_notes(&mut s, trial, order, erase, &toggles)?.or(switched_off);
    check_as_before(&mut s)?;
    // The key the app showed selected is put back (a number-first probe ends on erase); a
    // cell-first app would put it into the probe cell.
    if let (Some(d), InputOrder::NumberFirst) = (shown, order) {
        s.tap(&[keypad.digits[usize::from(d) - 1]])?;
    }
    Ok(Probed {
        input_order: order,
        erase,
        notes,
        cell,
        digit,
        taps: s.taps,
        screenshots: s.screenshots,
    })
}

/// What the probe enters: `digit` into the empty `cell` (its centre `at`) with the key `key`.
#[derive(Debug, Clone, Copy)]
struct Trial {
    cell: Cell,
    digit: u8,
    at: Point,
    key: Point,
    /// The app may hold `digit` selected already (see [`probe_waiting`]).
    held: bool,
}

/// The taps that use `button` on the probe cell in the app's input order.
fn with_button(order: InputOrder, trial: Trial, button: Point) -> Vec<Point> {
    match order {
        InputOrder::CellFirst => vec![trial.at, button],
        InputOrder::NumberFirst => vec![button, trial.at],
    }
}

/// The buttons to try as erase or notes, and how many of them (the first ones) are near the
/// keypad; the rest are tried only if none of those erases.
fn candidate_buttons(img: &RgbaImage, grid: &Grid, keypad: &Keypad) -> (Vec<Point>, usize) {
    let mut glyphs = glyphs_outside(img, grid);
    let mut candidates = button_candidates(&glyphs, grid, keypad, NEAR_REACH);
    // Apps show erase and notes beside the digits; when fewer buttons look like glyphs, the
    // others are icons of other shapes (a pencil glued to its badge). Only then, since textured
    // backdrops (wood grain) give blobs too.
    let icons = icon_blobs(img, grid);
    let with_icons = candidates.len() < 2;
    if with_icons {
        glyphs.extend(icons.iter().cloned());
        candidates = button_candidates(&glyphs, grid, keypad, NEAR_REACH);
    }
    // Then, tried only if none of those erases: icons of any shape, and buttons set further
    // below the keypad.
    let near = candidates.len();
    if !with_icons {
        glyphs.extend(icons);
    }
    let far: Vec<Point> = button_candidates(&glyphs, grid, keypad, FAR_REACH)
        .into_iter()
        .filter(|p| !candidates.contains(p))
        .collect();
    candidates.extend(far);
    (candidates, near)
}

/// The probe cell's read after a tap that may have entered `digit`: looked at again, until
/// [`settling::LIMIT`] after the first look, while it does not show it. A digit that pops or
/// fades in can start its animation after the frames the first look compared were taken (a
/// busy phone, a slow app), and a look that settled on the empty cell must not decide the
/// input order. Pencil marks do not end the wait either: a digit halfway in can read as
/// notes.
fn look_for(s: &mut Probe, after: &str, cell: Cell, digit: u8) -> Result<Recognition> {
    Ok(look_for_frame(s, after, cell, digit)?.1)
}

/// [`look_for`], with the screenshot of the read.
fn look_for_frame(
    s: &mut Probe,
    after: &str,
    cell: Cell,
    digit: u8,
) -> Result<(RgbaImage, Recognition)> {
    let started = std::time::Instant::now();
    loop {
        let (img, r) = s.look(after)?;
        if r.board.get(cell) == Some(digit)
            || started.elapsed() >= settling::LIMIT + s.phone.lag_to_wait_out()
        {
            return Ok((img, r));
        }
        std::thread::sleep(settling::STEP);
    }
}

/// Input order: cell then digit; else digit then cell (the digit tap may already have picked
/// the digit, so first just the cell). Leaves the digit in the probe cell, or a pencil note of
/// it when notes mode is on (the taps that made it tell the order just as well).
fn find_input_order(s: &mut Probe, trial: Trial) -> Result<(InputOrder, Entered)> {
    let Trial {
        cell,
        digit,
        at,
        key,
        held,
    } = trial;
    if held {
        // A number-first app may still hold the digit (a probe before this one was cut short):
        // the cell alone then takes it, and tells the order without a key.
        s.tap(&[at])?;
        let r = look_for(s, "tapping the cell", cell, digit)?;
        if let Some(entered) = entered_as(&r, cell, digit) {
            return Ok((InputOrder::NumberFirst, entered));
        }
        s.tap(&[key])?;
    } else {
        s.tap(&[at, key])?;
    }
    let r = look_for(s, "tapping the cell and a digit", cell, digit)?;
    if let Some(entered) = entered_as(&r, cell, digit) {
        return Ok((InputOrder::CellFirst, entered));
    }
    s.tap(&[at])?;
    let r = look_for(s, "tapping the cell again", cell, digit)?;
    if let Some(entered) = entered_as(&r, cell, digit) {
        return Ok((InputOrder::NumberFirst, entered));
    }
    s.tap(&[key, at])?;
    let r = look_for(s, "tapping a digit and the cell", cell, digit)?;
    match entered_as(&r, cell, digit) {
        Some(entered) => Ok((InputOrder::NumberFirst, entered)),
        None => bail!(
            "neither cell-then-digit nor digit-then-cell put {digit} into {cell}; tell the controls with `sudoku-agent calibrate --input-order cell-first|number-first --erase X,Y`"
        ),
    }
}

/// Erase: the first of `candidates` that clears the cell. Buttons that only change their own
/// look are toggles (notes, perhaps): tapped again at once, and tried as notes later. Returns
/// erase (if found), the toggles, and the screen as last seen.
fn find_erase(
    s: &mut Probe,
    trial: Trial,
    order: InputOrder,
    candidates: &[Point],
    side: u32,
) -> Result<(Option<Point>, Vec<Point>, RgbaImage)> {
    let Trial {
        cell, digit, at, ..
    } = trial;
    let mut erase = None;
    let mut toggles = Vec::new();
    let (mut before, _) = s.look("entering the digit")?;
    for &button in candidates {
        let what = format!("tapping the button at {},{}", button.x, button.y);
        s.tap(&with_button(order, trial, button))?;
        let (img, r) = s.look(&what)?;
        match r.board.get(cell) {
            None if order == InputOrder::NumberFirst => {
                // A picked digit also clears a cell holding it: the eraser keeps it empty on a
                // second tap, a digit puts itself back.
                s.tap(&[at])?;
                let (img, r) = s.look(&what)?;
                match r.board.get(cell) {
                    None => {
                        erase = Some(button);
                        before = img;
                        break;
                    }
                    Some(d) if d == digit => before = img,
                    Some(d) => bail!("{what} and {cell} put {d} there; erase it in the app"),
                }
            }
            None => {
                erase = Some(button);
                before = img;
                break;
            }
            Some(d) if d == digit => {
                if changed_around(&before, &img, button, side) > 0.05 {
                    s.tap(&[button])?;
                    let (again, _) = s.look(&what)?;
                    if changed_around(&before, &again, button, side) > 0.05 {
                        bail!(
                            "{what} changed it and a second tap did not change it back; check the app, then re-run, or tell the controls with `sudoku-agent calibrate --input-order cell-first|number-first --erase X,Y`"
                        );
                    }
                    toggles.push(button);
                    before = again;
                } else {
                    before = img;
                }
            }
            Some(d) => bail!("{what} turned {digit} in {cell} into {d}; erase it in the app"),
        }
    }
    Ok((erase, toggles, before))
}

/// Taps each of `buttons` alone: one whose own look changes is a toggle (tapped again at once
/// to switch it back), added to `toggles`.
fn find_toggles(
    s: &mut Probe,
    buttons: &[Point],
    mut before: RgbaImage,
    side: u32,
    toggles: &mut Vec<Point>,
) -> Result<()> {
    for &button in buttons {
        let what = format!("tapping the button at {},{}", button.x, button.y);
        s.tap(&[button])?;
        let (img, _) = s.look(&what)?;
        if changed_around(&before, &img, button, side) > 0.05 {
            s.tap(&[button])?;
            let (again, _) = s.look(&what)?;
            if changed_around(&before, &again, button, side) > 0.05 {
                bail!("{what} changed it and a second tap did not change it back; check the app");
            }
            toggles.push(button);
            before = again;
        } else {
            before = img;
        }
    }
    Ok(())
}

/// The last look: every cell (digit and notes) as in the first read.
fn check_as_before(s: &mut Probe) -> Result<()> {
    let (_, last) = s.look("probing")?;
    let differ: Vec<String> = Cell::all()
        .filter(|&c| {
            last.board.get(c) != s.first.board.get(c)
                || last.readings[c.index()].notes != s.first.readings[c.index()].notes
        })
        .map(|c| c.to_string())
        .collect();
    if !differ.is_empty() {
        bail!(
            "after probing the board differs at {}; fix it in the app",
            differ.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Rect;

    fn glyph(x: u32, y: u32, w: u32, h: u32) -> Glyph {
        Glyph {
            bbox: Rect::new(x, y, w, h),
            patch: Vec::new(),
            bright: false,
        }
    }

    #[test]
    fn candidates_are_near_the_keypad_and_never_a_digit_key_a_bar_or_a_separator() {
        let grid = Grid::from_rect(Rect::new(0, 300, 900, 900));
        let keypad = Keypad {
            digits: std::array::from_fn(|d| Point::new(50 + 100 * d as u32, 1500)),
            erase: None,
            notes: None,
        };
        let glyphs = [
            glyph(300, 1350, 50, 50), // erase icon in the tool row
            glyph(310, 1360, 10, 10), // another blob of the same icon
            glyph(600, 1360, 40, 40), // notes icon
            glyph(130, 1470, 30, 60), // the "2" of a digit key
            glyph(95, 1470, 6, 60),   // separator between keys
            glyph(500, 2200, 50, 50), // navigation bar
            glyph(40, 20, 20, 30),    // status bar
        ];
        let c = button_candidates(&glyphs, &grid, &keypad, NEAR_REACH);
        assert_eq!(c, vec![Point::new(325, 1375), Point::new(620, 1380)]);
        // Further down: a tool row set apart from the keypad, still not the navigation bar.
        let mut apart = glyphs.to_vec();
        apart.push(glyph(400, 1700, 40, 40));
        let c = button_candidates(&apart, &grid, &keypad, FAR_REACH);
        assert_eq!(c.last(), Some(&Point::new(420, 1720)), "{c:?}");
        assert!(button_candidates(&apart, &grid, &keypad, NEAR_REACH).len() == 2);
    }

    #[test]
    fn icons_glued_to_a_badge_are_found_and_words_are_not() {
        let mut img = RgbaImage::from_pixel(1000, 1600, image::Rgba([245, 245, 245, 255]));
        let mut fill = |x0: u32, y0: u32, w: u32, h: u32, c: [u8; 3]| {
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    img.put_pixel(x, y, image::Rgba([c[0], c[1], c[2], 255]));
                }
            }
        };
        // Under a 900 px grid (pitch 100): a pencil with a wide badge touching it, and a
        // four-letter word.
        fill(300, 1320, 35, 35, [20, 20, 20]);
        fill(335, 1300, 70, 30, [90, 160, 60]);
        for i in 0..4 {
            fill(600 + 40 * i, 1300, 28, 50, [20, 20, 20]);
        }
        let grid = Grid::from_rect(Rect::new(0, 300, 900, 900));
        let found: Vec<Rect> = icon_blobs(&img, &grid).iter().map(|g| g.bbox).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains(Point::new(320, 1330)), "{found:?}");
    }

    #[test]
    fn a_button_that_changed_its_look_is_told_apart_from_one_that_did_not() {
        let a = RgbaImage::from_pixel(100, 100, image::Rgba([250, 250, 250, 255]));
        let mut b = a.clone();
        for y in 10..30 {
            for x in 10..30 {
                b.put_pixel(x, y, image::Rgba([30, 90, 220, 255]));
            }
        }
        assert_eq!(changed_around(&a, &a, Point::new(20, 20), 40), 0.0);
        assert!(changed_around(&a, &b, Point::new(20, 20), 40) > 0.2);
        assert_eq!(changed_around(&a, &b, Point::new(80, 80), 30), 0.0);
        // Near the edge the square is clipped, not read out of bounds.
        assert!(changed_around(&a, &b, Point::new(2, 2), 60) > 0.0);
    }

    #[test]
    fn the_probe_digit_is_the_solution_or_at_least_legal() {
        let board = Board::parse(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let cell = Cell::new(0, 2).unwrap();
        assert_eq!(digit_for(&board, &board, cell), Some(4));
        // A player's wrong entry (a 5 beside the given 5) makes the board unsolvable: the
        // givens alone still say what goes in the probe cell, not just any legal digit.
        let mut with_mistake = board;
        with_mistake.set(Cell::new(0, 3).unwrap(), Some(5));
        assert_eq!(digit_for(&with_mistake, &board, cell), Some(4));
        // Two solutions: any digit the rules allow.
        let open = Board::parse(&".".repeat(81)).unwrap();
        assert_eq!(
            digit_for(&open, &open, cell).map(|d| (1..=9).contains(&d)),
            Some(true)
        );
    }
}
