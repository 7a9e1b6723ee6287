//! Where everything sits on the simulated screen, for one skin at one size: bars, grid lines,
//! cells, keys, banner and popup, in pixels. Both the renderer and the tap hit-test read it, so
//! what is drawn is exactly what can be touched. Private to `sim`.

use super::model::Key;
use super::skins::{KeypadShape, NavBar, Skin};
use crate::board::Cell;
use crate::geometry::{Point, Rect, Size};

/// A button that is drawn but does nothing in the simulated app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Inert {
    Undo,
    Redo,
    Hint,
}

/// The pixel layout of one skin at one screen size.
#[derive(Debug, Clone)]
pub(super) struct AppLayout {
    /// Pixels per dp (Android density-independent pixel).
    pub dp: f32,
    pub size: Size,
    pub status: Rect,
    pub appbar: Rect,
    /// Level, mistakes and timer over the grid (`None`: the timer is the app bar's subtitle).
    pub info: Option<Rect>,
    /// The whole grid, outer lines included.
    pub grid: Rect,
    /// Offset from the grid's left (or top) edge and width of each of the 10 grid lines.
    pub lines: [(u32, u32); 10],
    /// The area under the grid holding tools and keypad (covered by the end-of-game banner).
    pub controls: Rect,
    /// The tool row (erase, notes) when the skin has one.
    pub tools: Option<Rect>,
    /// Every tappable control except cells and the popup button.
    pub keys: Vec<(Key, Rect)>,
    /// Buttons drawn beside the keys that the simulated app ignores (undo, redo, hint).
    pub inert: Vec<(Inert, Rect)>,
    /// The coloured panel behind the controls, when the skin has one.
    pub panel: Option<Rect>,
    /// Where the timer sits inside the keypad (3x3 keypad's fourth column).
    pub keypad_timer: Option<Rect>,
    pub ad: Option<Rect>,
    pub nav: Rect,
    pub popup: Rect,
    pub popup_button: Rect,
    /// The interstitial ad: everything under the status bar, and its close button (top right).
    pub interstitial: Rect,
    pub interstitial_close: Rect,
    /// The completion card over the grid (`end-card` habit) and its "New game" button.
    pub end_card: Rect,
    pub end_card_button: Rect,
}

/// How long the message banner takes to slide in from above the screen.
pub(super) const BANNER_SLIDE: std::time::Duration = std::time::Duration::from_millis(250);

/// Pixels per dp for the usual densities of each width (xhdpi, 440 dpi, 560 dpi).
fn density(size: Size) -> f32 {
    match size.width {
        720 => 2.0,
        1080 => 2.75,
        1440 => 3.5,
        w => w as f32 / 392.0,
    }
}

fn rect_f(x: f32, y: f32, w: f32, h: f32) -> Rect {
    let (x0, y0) = (x.round().max(0.0) as u32, y.round().max(0.0) as u32);
    let (x1, y1) = ((x + w).round() as u32, (y + h).round() as u32);
    Rect::new(
        x0,
        y0,
        x1.saturating_sub(x0).max(1),
        y1.saturating_sub(y0).max(1),
    )
}

/// The completion card: the whole grid, its button low in the middle.
fn end_card(grid: Rect, dp: f32) -> (Rect, Rect) {
    let (w, h) = (grid.width as f32 * 0.6, 52.0 * dp);
    let button = rect_f(
        grid.x as f32 + (grid.width as f32 - w) / 2.0,
        grid.bottom() as f32 - h - 40.0 * dp,
        w,
        h,
    );
    (grid, button)
}

/// Where the keypad and tool buttons go, given the space under the grid: what the keypad shape
/// of the skin puts there.
#[derive(Clone, Copy)]
struct KeyArea {
    w: f32,
    dp: f32,
    compact: bool,
    margin: f32,
    gap: f32,
    controls_top: f32,
    tools_h: f32,
    key_h: f32,
    row_gap: f32,
    keypad_h: f32,
    controls_h: f32,
    side: u32,
    grid: Rect,
    bottom: f32,
}

/// The controls of the skin's keypad shape: digit and tool keys, inert buttons, the tool row and
/// the keypad's timer.
#[allow(clippy::type_complexity)]
fn place_keys(
    skin: &Skin,
    area: &KeyArea,
) -> (
    Vec<(Key, Rect)>,
    Vec<(Inert, Rect)>,
    Option<Rect>,
    Option<Rect>,
) {
    let KeyArea {
        w,
        dp,
        margin,
        gap,
        controls_top,
        tools_h,
        key_h,
        row_gap,
        keypad_h,
        side,
        grid,
        bottom,
        ..
    } = *area;
    let mut keys = Vec::new();
    let mut inert = Vec::new();
    let mut keypad_timer = None;
    let mut tools = None;
    let cf = |r: Rect| (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
    match skin.keypad {
        KeypadShape::Row9 => {
            let t = rect_f(margin, controls_top, w - 2.0 * margin, tools_h);
            tools = Some(t);
            let (tx, ty, tw, th) = cf(t);
            let slot = 84.0 * dp;
            keys.push((Key::Erase, rect_f(tx + tw / 3.0 - slot / 2.0, ty, slot, th)));
            keys.push((
                Key::Notes,
                rect_f(tx + tw * 2.0 / 3.0 - slot / 2.0, ty, slot, th),
            ));
            let ky = ty + th + gap;
            let kw = (w - 2.0 * margin) / 9.0;
            for d in 1..=9u8 {
                let x = margin + (d - 1) as f32 * kw;
                let r = rect_f(x + 1.5 * dp, ky, kw - 3.0 * dp, keypad_h);
                keys.push((Key::Digit(d), r));
            }
        }
        KeypadShape::Grid3x3 => {
            let kx = grid.x as f32;
            let pad_w = side as f32;
            let g = row_gap;
            let kw = (pad_w - 3.0 * g) / 4.0;
            let kh = key_h;
            for d in 1..=9u8 {
                let (r, c) = ((d - 1) / 3, (d - 1) % 3);
                let x = kx + c as f32 * (kw + g);
                let y = controls_top + r as f32 * (kh + g);
                keys.push((Key::Digit(d), rect_f(x, y, kw, kh)));
            }
            let x = kx + 3.0 * (kw + g);
            keys.push((Key::Notes, rect_f(x, controls_top, kw, kh)));
            keypad_timer = Some(rect_f(x, controls_top + kh + g, kw, kh));
            keys.push((Key::Erase, rect_f(x, controls_top + 2.0 * (kh + g), kw, kh)));
        }
        KeypadShape::Grid2x5 => {
            let t = rect_f(grid.x as f32, controls_top, side as f32, tools_h);
            tools = Some(t);
            keys.push((
                Key::Notes,
                rect_f(t.x as f32, t.y as f32, 64.0 * dp, tools_h),
            ));
            let g = 6.0 * dp;
            let kw = (side as f32 - 4.0 * g) / 5.0;
            let kh = key_h;
            let ky = controls_top + tools_h + gap;
            for i in 0..10u8 {
                let (r, c) = (i / 5, i % 5);
                let x = grid.x as f32 + c as f32 * (kw + g);
                let y = ky + r as f32 * (kh + row_gap);
                let key = if i == 9 {
                    Key::Erase
                } else {
                    Key::Digit(i + 1)
                };
                keys.push((key, rect_f(x, y, kw, kh)));
            }
        }
        KeypadShape::IconColumn => {
            // Four equal columns by three rows over the whole panel: digits in the first
            // three, then notes and erase in the fourth; its last slot stays empty.
            let (cw, rh) = (w / 4.0, (bottom - controls_top) / 3.0);
            let at = |r: u8, c: u8| rect_f(c as f32 * cw, controls_top + r as f32 * rh, cw, rh);
            for d in 1..=9u8 {
                keys.push((Key::Digit(d), at((d - 1) / 3, (d - 1) % 3)));
            }
            keys.push((Key::Notes, at(0, 3)));
            keys.push((Key::Erase, at(1, 3)));
        }
        KeypadShape::Counters => tools = Some(counter_keys(area, &mut keys, &mut inert)),
        KeypadShape::Panel => panel_keys(area, &mut keys, &mut inert),
    }
    (keys, inert, tools, keypad_timer)
}

/// Saku's keys: digits in two centred rows (1..5 over 6..9) and a row of tool buttons under
/// them; returns the tool row.
fn counter_keys(
    area: &KeyArea,
    keys: &mut Vec<(Key, Rect)>,
    inert: &mut Vec<(Inert, Rect)>,
) -> Rect {
    let KeyArea {
        w,
        dp,
        compact,
        tools_h,
        key_h,
        row_gap,
        controls_top,
        controls_h,
        ..
    } = *area;
    let k = |full: f32, short: f32| if compact { short } else { full } * dp;
    let kw = key_h;
    let g = row_gap;
    for d in 1..=9u8 {
        let (r, c, n) = if d <= 5 { (0, d - 1, 5) } else { (1, d - 6, 4) };
        let row_w = n as f32 * kw + (n - 1) as f32 * g;
        let x = (w - row_w) / 2.0 + c as f32 * (kw + g);
        let y = controls_top + r as f32 * (kw + g);
        keys.push((Key::Digit(d), rect_f(x, y, kw, kw)));
    }
    let (bw, bh) = (k(84.0, 72.0), tools_h);
    let g = k(10.0, 8.0);
    let row_w = 4.0 * bw + 3.0 * g;
    let ty = controls_top + controls_h - tools_h;
    let t = rect_f((w - row_w) / 2.0, ty, row_w, bh);
    let at = |i: usize| rect_f(t.x as f32 + i as f32 * (bw + g), ty, bw, bh);
    inert.push((Inert::Undo, at(0)));
    keys.push((Key::Erase, at(1)));
    keys.push((Key::Notes, at(2)));
    inert.push((Inert::Redo, at(3)));
    t
}

/// A coloured panel: the 3x3 block of keys right of centre and a tool column to its left.
fn panel_keys(area: &KeyArea, keys: &mut Vec<(Key, Rect)>, inert: &mut Vec<(Inert, Rect)>) {
    let KeyArea {
        w,
        dp,
        compact,
        key_h,
        controls_top,
        bottom,
        ..
    } = *area;
    let k = |full: f32, short: f32| if compact { short } else { full } * dp;
    // The 3x3 block sits right of centre, the tool column to its left; both are
    // centred vertically in the panel.
    let pad = k(24.0, 12.0);
    let ks = key_h.min((bottom - controls_top - 2.0 * pad) / 3.0);
    let block = 3.0 * ks;
    let tool_w = k(72.0, 64.0);
    let between = k(26.0, 20.0);
    let x0 = (w - block - tool_w - between) / 2.0;
    let bx = x0 + tool_w + between;
    let by = controls_top + (bottom - controls_top - block) / 2.0;
    for d in 1..=9u8 {
        let (r, c) = ((d - 1) / 3, (d - 1) % 3);
        let r = rect_f(bx + c as f32 * ks, by + r as f32 * ks, ks, ks);
        keys.push((Key::Digit(d), r));
    }
    let tg = k(8.0, 5.0);
    let th = (block - 3.0 * tg) / 4.0;
    let at = |i: usize| rect_f(x0, by + i as f32 * (th + tg), tool_w, th);
    inert.push((Inert::Undo, at(0)));
    keys.push((Key::Notes, at(1)));
    keys.push((Key::Erase, at(2)));
    inert.push((Inert::Hint, at(3)));
}

/// Where each of the ten grid lines starts and how wide it is, across a grid of `side` pixels.
fn grid_lines(skin: &Skin, side: u32, dp: f32) -> [(u32, u32); 10] {
    let width = |line_dp: f32, least: f32| {
        if line_dp > 0.0 {
            (line_dp * dp).round().max(least) as u32
        } else {
            0
        }
    };
    let thin = width(skin.thin_dp, 1.0);
    let thick = width(skin.thick_dp, 2.0);
    let mut lines = [(0u32, 0u32); 10];
    for (i, line) in lines.iter_mut().enumerate() {
        let lw = match i {
            0 | 9 if !skin.style.outer_border => 0,
            _ if i % 3 == 0 => thick,
            _ => thin,
        };
        let centre = i as f32 * side as f32 / 9.0;
        // With no line, cells meet at the first whole pixel past the boundary, so that
        // hit-testing by ninths of the grid agrees with the drawn cells.
        let start = if lw == 0 {
            centre.ceil()
        } else {
            (centre - lw as f32 / 2.0).round().max(0.0)
        } as u32;
        *line = (start.min(side - lw), lw);
    }
    lines
}

/// The popup fault's dialog and its button, and the interstitial ad and its close button.
fn dialogs(w: f32, h: f32, dp: f32, grid: Rect, status: Rect) -> (Rect, Rect, Rect, Rect) {
    let side = grid.width;
    let popup_w = w * 0.82;
    let popup_h = (side as f32 * 0.5).max(170.0 * dp);
    let popup = rect_f(
        (w - popup_w) / 2.0,
        grid.y as f32 + (side as f32 - popup_h) / 2.0,
        popup_w,
        popup_h,
    );
    let button_w = popup_w * 0.5;
    let button_h = 44.0 * dp;
    let popup_button = rect_f(
        (w - button_w) / 2.0,
        popup.bottom() as f32 - button_h - 16.0 * dp,
        button_w,
        button_h,
    );

    let interstitial = rect_f(0.0, status.bottom() as f32, w, h - status.bottom() as f32);
    let close = 40.0 * dp;
    let interstitial_close = rect_f(
        w - close - 12.0 * dp,
        interstitial.y as f32 + 12.0 * dp,
        close,
        close,
    );
    (popup, popup_button, interstitial, interstitial_close)
}

impl AppLayout {
    pub fn new(skin: &Skin, size: Size) -> AppLayout {
        let dp = density(size);
        let (w, h) = (size.width as f32, size.height as f32);
        // A 16:9 screen is short for a sudoku app: bars and keys shrink, as apps do there.
        let compact = h / w < 2.0;
        let k = |full: f32, short: f32| if compact { short } else { full } * dp;
        let status = rect_f(0.0, 0.0, w, 24.0 * dp);
        let appbar = rect_f(0.0, status.bottom() as f32, w, k(56.0, 48.0));
        let info = (!skin.style.edge_to_edge)
            .then(|| rect_f(0.0, appbar.bottom() as f32, w, k(34.0, 28.0)));

        let nav_h = match skin.nav {
            NavBar::Gesture => 20.0,
            NavBar::Buttons => 48.0,
        } * dp;
        let nav = rect_f(0.0, h - nav_h, w, nav_h);
        let ad = skin
            .ad_banner
            .then(|| rect_f(0.0, nav.y as f32 - 56.0 * dp, w, 56.0 * dp));
        let bottom = ad.map_or(nav.y, |a| a.y) as f32;

        let margin = k(8.0, 6.0);
        let gap = k(10.0, 6.0);
        // Key height, and the gap between key rows.
        let (key_h, row_gap) = match skin.keypad {
            KeypadShape::Row9 => (k(60.0, 52.0), 0.0),
            KeypadShape::Grid3x3 => (k(52.0, 44.0), 8.0 * dp),
            KeypadShape::Grid2x5 => (k(54.0, 46.0), 8.0 * dp),
            KeypadShape::IconColumn => (0.0, 0.0),
            KeypadShape::Counters => (k(56.0, 46.0), k(10.0, 8.0)),
            KeypadShape::Panel => (k(76.0, 48.0), 0.0),
        };
        // The gap between Saku's keypad and its tool row is wide, as on the real app.
        let (tools_h, keypad_h) = match skin.keypad {
            KeypadShape::Row9 => (k(68.0, 56.0), key_h),
            KeypadShape::Grid3x3 => (0.0, 3.0 * key_h + 2.0 * row_gap),
            KeypadShape::Grid2x5 => (k(52.0, 40.0), 2.0 * key_h + row_gap),
            KeypadShape::IconColumn => (0.0, 0.0),
            KeypadShape::Counters => (k(40.0, 34.0), 2.0 * key_h + row_gap + k(36.0, 14.0)),
            KeypadShape::Panel => (0.0, 3.0 * key_h + 2.0 * k(24.0, 12.0)),
        };
        let controls_h = tools_h + keypad_h + if tools_h > 0.0 { gap } else { 0.0 };
        let top = info.unwrap_or(appbar).bottom() as f32;
        let grid = if skin.style.edge_to_edge {
            Rect::new(0, top as u32, size.width, size.width)
        } else {
            let room = bottom - top - controls_h - 3.0 * gap;
            let side = (w - 2.0 * margin).min(room).floor();
            rect_f(((w - side) / 2.0).floor(), top + gap * 0.5, side, side)
        };
        let side = grid.width; // after rounding

        let lines = grid_lines(skin, side, dp);

        // Leftover height is split: a sixth between grid and controls, the rest under them.
        let slack = (bottom - grid.bottom() as f32 - controls_h - gap).max(0.0);
        let mut controls_top = grid.bottom() as f32 + gap + slack / 6.0;
        let mut controls = rect_f(margin, controls_top, w - 2.0 * margin, controls_h);
        let mut panel = None;
        if skin.style.panel.is_some() {
            // The panel fills the screen from under the grid to the bottom bar.
            let y = grid.bottom() as f32 + if skin.style.edge_to_edge { 0.0 } else { gap };
            controls_top = y;
            controls = rect_f(0.0, y, w, bottom - y);
            panel = Some(controls);
        }
        let (keys, inert, tools, keypad_timer) = place_keys(
            skin,
            &KeyArea {
                w,
                dp,
                compact,
                margin,
                gap,
                controls_top,
                tools_h,
                key_h,
                row_gap,
                keypad_h,
                controls_h,
                side,
                grid,
                bottom,
            },
        );

        let (popup, popup_button, interstitial, interstitial_close) =
            dialogs(w, h, dp, grid, status);
        let (end_card, end_card_button) = end_card(grid, dp);
        AppLayout {
            dp,
            size,
            status,
            appbar,
            info,
            grid,
            lines,
            controls,
            tools,
            keys,
            inert,
            panel,
            keypad_timer,
            ad,
            nav,
            popup,
            popup_button,
            interstitial,
            interstitial_close,
            end_card,
            end_card_button,
        }
    }

    /// The inside of `cell`, between its lines.
    pub fn cell_rect(&self, cell: Cell) -> Rect {
        let span = |i: usize| {
            let (s0, w0) = self.lines[i];
            let (s1, _) = self.lines[i + 1];
            (s0 + w0, s1 - (s0 + w0))
        };
        let (x, w) = span(cell.col());
        let (y, h) = span(cell.row());
        Rect::new(self.grid.x + x, self.grid.y + y, w, h)
    }

    /// The rectangle of `key`, if the skin has it.
    pub fn key_rect(&self, key: Key) -> Option<Rect> {
        if key == Key::PopupClose {
            return Some(self.popup_button);
        }
        if key == Key::AdClose {
            return Some(self.interstitial_close);
        }
        if key == Key::NewGame {
            return Some(self.end_card_button);
        }
        if key == Key::Resume {
            return Some(self.resume_button());
        }
        self.keys.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
    }

    /// The cell under `p`; a tap on a line goes to the cell whose ninth of the grid holds it.
    pub fn cell_at(&self, p: Point) -> Option<Cell> {
        if !self.grid.contains(p) {
            return None;
        }
        let col = ((p.x - self.grid.x) as u64 * 9 / self.grid.width as u64) as usize;
        let row = ((p.y - self.grid.y) as u64 * 9 / self.grid.height as u64) as usize;
        Cell::new(row.min(8), col.min(8))
    }

    /// The message banner (`banner` habit): a card over the status bar and the top of the
    /// app, 8 dp from the sides, as Android draws a heads-up notification with an app line and
    /// two text lines: 8-112 dp from the top (real ones reach 100-130 dp). It covers the first
    /// row of an edge-to-edge board (from 80 dp) and misses a grid under an info bar (~119 dp).
    pub fn banner(&self) -> Rect {
        let dp = self.dp;
        let w = self.size.width as f32;
        rect_f(8.0 * dp, 8.0 * dp, w - 16.0 * dp, 104.0 * dp)
    }

    /// Where the banner is `since` it came: it slides down from above the screen over its first
    /// [`BANNER_SLIDE`] (what shows of it; it takes taps where it will be once shown, as its
    /// window does). `None`: still off screen.
    pub fn banner_at(&self, since: std::time::Duration) -> Option<Rect> {
        let r = self.banner();
        let shown = (since.as_secs_f32() / BANNER_SLIDE.as_secs_f32()).clamp(0.0, 1.0);
        let up = ((1.0 - shown) * r.bottom() as f32).round() as u32;
        let bottom = r.bottom().checked_sub(up).filter(|&b| b > 0)?;
        let top = r.y.saturating_sub(up);
        Some(Rect::new(r.x, top, r.width, bottom - top))
    }

    /// The Paused card (`pause-card` habit): centred on the board, two thirds of its width.
    pub fn pause_card(&self) -> Rect {
        let g = self.grid;
        let (w, h) = (g.width as f32 * 0.66, g.height as f32 * 0.5);
        let x = g.x as f32 + (g.width as f32 - w) / 2.0;
        let y = g.y as f32 + (g.height as f32 - h) / 2.0;
        rect_f(x, y, w, h)
    }

    /// The round Resume button on the Paused card: its bounding square, under the title.
    pub fn resume_button(&self) -> Rect {
        let card = self.pause_card();
        let side = (card.height as f32 * 0.42).min(72.0 * self.dp);
        let x = card.x as f32 + (card.width as f32 - side) / 2.0;
        let y = card.y as f32 + card.height as f32 * 0.42;
        rect_f(x, y, side, side)
    }

    /// The key under `p`.
    pub fn key_at(&self, p: Point) -> Option<Key> {
        self.keys
            .iter()
            .find(|(_, r)| r.contains(p))
            .map(|(k, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SUPPORTED_SIZES;

    fn all_layouts() -> impl Iterator<Item = (String, AppLayout)> {
        Skin::names().iter().flat_map(|name| {
            SUPPORTED_SIZES.iter().map(move |&size| {
                let skin = Skin::named(name).unwrap();
                (format!("{name}@{size}"), AppLayout::new(&skin, size))
            })
        })
    }

    #[test]
    fn everything_fits_on_screen_without_overlapping_the_grid() {
        for (what, l) in all_layouts() {
            let size = l.size;
            for r in [l.status, l.appbar, l.grid, l.controls, l.nav, l.popup]
                .into_iter()
                .chain(l.info)
            {
                assert!(r.fits_in(size), "{what}: {r:?}");
            }
            assert_eq!(l.grid.width, l.grid.height, "{what}");
            // At 320x640 a skin with a panel keypad leaves 88% of the width (280 px).
            assert!(
                l.grid.width as f32 >= 0.875 * size.width as f32,
                "{what}: grid too small"
            );
            assert!(
                l.grid.y >= l.info.unwrap_or(l.appbar).bottom() && l.controls.y >= l.grid.bottom(),
                "{what}"
            );
            assert!(l.ad.is_none_or(|a| a.y >= l.controls.bottom()), "{what}");
            for (key, r) in &l.keys {
                assert!(r.fits_in(size) && r.y >= l.grid.bottom(), "{what}: {key:?}");
                assert!(
                    r.bottom() <= l.ad.map_or(l.nav.y, |a| a.y),
                    "{what}: {key:?}"
                );
            }
        }
    }

    #[test]
    fn every_skin_has_nine_digits_erase_and_notes_and_keys_do_not_overlap() {
        for (what, l) in all_layouts() {
            for key in (1..=9).map(Key::Digit).chain([Key::Erase, Key::Notes]) {
                let r = l
                    .key_rect(key)
                    .unwrap_or_else(|| panic!("{what}: no {key:?}"));
                assert_eq!(l.key_at(r.center()), Some(key), "{what}");
            }
            for (i, (_, a)) in l.keys.iter().enumerate() {
                for (_, b) in &l.keys[i + 1..] {
                    let apart = a.right() <= b.x
                        || b.right() <= a.x
                        || a.bottom() <= b.y
                        || b.bottom() <= a.y;
                    assert!(apart, "{what}: {a:?} overlaps {b:?}");
                }
            }
        }
    }

    #[test]
    fn cells_lie_between_lines_and_hit_testing_finds_them() {
        for (what, l) in all_layouts() {
            for cell in Cell::all() {
                let r = l.cell_rect(cell);
                assert!(r.width > 10 && r.height > 10, "{what}");
                assert_eq!(l.cell_at(r.center()), Some(cell), "{what}: {cell}");
                assert_eq!(
                    l.cell_at(Point::new(r.x, r.y)),
                    Some(cell),
                    "{what}: {cell}"
                );
                assert_eq!(
                    l.cell_at(Point::new(r.right() - 1, r.bottom() - 1)),
                    Some(cell)
                );
            }
            let (_, thin) = l.lines[1];
            let (_, thick) = l.lines[3];
            let tiles = Skin::named(what.split('@').next().unwrap_or_default())
                .is_some_and(|s| s.style.tile_dp > 0.0);
            assert!(
                thick > thin || thick == 0 || tiles,
                "{what}: box lines must be thicker, or no lines at all, or gaps between tiles"
            );
        }
    }
}
