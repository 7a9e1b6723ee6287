//! Draws the simulated app the way a phone shows it: status bar, app bar, info row, grid with
//! highlights, givens, entries and pencil notes, tool row and keypad, ad banner, navigation bar,
//! the end-of-game banner and the popup fault. Text is real TrueType (embedded Roboto, DejaVu Sans
//! and Liberation Serif) rasterised anti-aliased by `imageproc`; shapes are anti-aliased by the
//! same coverage rasteriser `ab_glyph` uses. The parts that never change are drawn once per phone.

use super::layout::Layout;
use super::phone::{GameState, Key, Tool};
use super::skins::{Face, KeypadShape, NavBar, Skin};
use crate::board::Cell;
use crate::geometry::Rect;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use ab_glyph_rasterizer::{Rasterizer, point};
use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_text_mut;
use std::f32::consts::FRAC_1_SQRT_2;
use std::sync::LazyLock;

/// Draws frames for one phone, keeping the unchanging background.
#[derive(Debug, Default)]
pub(super) struct Renderer {
    /// Bars, empty grid, ad and navigation: never change.
    background: Option<RgbaImage>,
    /// The background plus tools and keypad, for the control state in the key.
    with_controls: Option<(ControlsKey, RgbaImage)>,
}

/// What the tools and keypad look like depends only on this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ControlsKey {
    notes_mode: bool,
    tool: Option<Tool>,
    /// The end-of-game banner replaces the controls.
    ended: bool,
}

impl Renderer {
    pub fn new(_skin: &Skin, _layout: &Layout) -> Renderer {
        // Built on first use, so state-only tests never pay for it.
        Renderer::default()
    }

    pub fn render(&mut self, skin: &Skin, layout: &Layout, state: &GameState) -> RgbaImage {
        let key = ControlsKey {
            notes_mode: state.notes_mode,
            tool: state.tool,
            ended: state.is_solved() || state.is_lost(),
        };
        if self.with_controls.as_ref().is_none_or(|(k, _)| *k != key) {
            let background = self
                .background
                .get_or_insert_with(|| draw_background(skin, layout));
            let mut img = background.clone();
            if !key.ended {
                Frame {
                    img: &mut img,
                    skin,
                    l: layout,
                }
                .controls(state);
            }
            self.with_controls = Some((key, img));
        }
        let (_, cached) = self.with_controls.as_ref().expect("just filled");
        let mut img = cached.clone();
        Frame {
            img: &mut img,
            skin,
            l: layout,
        }
        .draw_state(state);
        img
    }
}

// ---------------------------------------------------------------------------------------------
// Fonts

static FONTS: LazyLock<[FontRef<'static>; 7]> = LazyLock::new(|| {
    let load = |bytes: &'static [u8]| {
        FontRef::try_from_slice(bytes).expect("embedded fonts are valid TrueType")
    };
    [
        load(include_bytes!("../../assets/fonts/Roboto-Regular.ttf")),
        load(include_bytes!("../../assets/fonts/Roboto-Medium.ttf")),
        load(include_bytes!("../../assets/fonts/Roboto-Light.ttf")),
        load(include_bytes!("../../assets/fonts/DejaVuSans.ttf")),
        load(include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf")),
        load(include_bytes!(
            "../../assets/fonts/LiberationSerif-Regular.ttf"
        )),
        load(include_bytes!(
            "../../assets/fonts/LiberationSerif-Bold.ttf"
        )),
    ]
});

fn font(face: Face) -> &'static FontRef<'static> {
    let i = match face {
        Face::RobotoRegular => 0,
        Face::RobotoMedium => 1,
        Face::RobotoLight => 2,
        Face::DejaVu => 3,
        Face::DejaVuBold => 4,
        Face::SerifRegular => 5,
        Face::SerifBold => 6,
    };
    &FONTS[i]
}

/// The `PxScale` that gives an em of `em_px` pixels, as Android's text size does.
fn scale_for_em(face: Face, em_px: f32) -> PxScale {
    let f = font(face);
    let units = f.units_per_em().unwrap_or(2048.0);
    PxScale::from(em_px * f.height_unscaled() / units)
}

/// Ink bounds (min x, min y, max x, max y) of `text` drawn at origin (0, 0) by `draw_text_mut`.
fn ink_bounds(face: Face, scale: PxScale, text: &str) -> Option<(f32, f32, f32, f32)> {
    let f = font(face);
    let sf = f.as_scaled(scale);
    let mut x = 0.0;
    let mut prev = None;
    let mut out: Option<(f32, f32, f32, f32)> = None;
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        let glyph = id.with_scale_and_position(scale, ab_glyph::point(x, sf.ascent()));
        x += sf.h_advance(id);
        if let Some(g) = f.outline_glyph(glyph) {
            if let Some(p) = prev {
                x += sf.kern(id, p);
            }
            prev = Some(id);
            let b = g.px_bounds();
            let (x0, y0) = (b.min.x.round(), b.min.y.round());
            let (x1, y1) = (x0 + b.width(), y0 + b.height());
            out = Some(match out {
                None => (x0, y0, x1, y1),
                Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
            });
        }
    }
    out
}

/// How text is anchored horizontally at the given x.
#[derive(Clone, Copy)]
enum Align {
    Left,
    Center,
    Right,
}

// ---------------------------------------------------------------------------------------------
// Shapes

/// A closed outline made of lines and cubic curves, filled with non-zero coverage. Sub-paths
/// drawn in the opposite direction cut holes.
#[derive(Default)]
struct Shape {
    lines: Vec<[(f32, f32); 2]>,
    cubics: Vec<[(f32, f32); 4]>,
}

/// Bezier handle length for a quarter circle.
const KAPPA: f32 = 0.552_284_8;

impl Shape {
    fn new() -> Shape {
        Shape::default()
    }

    fn polygon(mut self, pts: &[(f32, f32)]) -> Shape {
        for (i, &a) in pts.iter().enumerate() {
            self.lines.push([a, pts[(i + 1) % pts.len()]]);
        }
        self
    }

    fn rect(self, x: f32, y: f32, w: f32, h: f32) -> Shape {
        self.polygon(&[(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    }

    /// A rectangle with rounded corners; `reverse` draws it counter-clockwise (a hole).
    fn rounded(mut self, x: f32, y: f32, w: f32, h: f32, r: f32, reverse: bool) -> Shape {
        let r = r.min(w / 2.0).min(h / 2.0);
        let k = r * KAPPA;
        let (x1, y1) = (x + w, y + h);
        let mut lines = vec![
            [(x + r, y), (x1 - r, y)],
            [(x1, y + r), (x1, y1 - r)],
            [(x1 - r, y1), (x + r, y1)],
            [(x, y1 - r), (x, y + r)],
        ];
        let mut cubics = vec![
            [(x1 - r, y), (x1 - r + k, y), (x1, y + r - k), (x1, y + r)],
            [
                (x1, y1 - r),
                (x1, y1 - r + k),
                (x1 - r + k, y1),
                (x1 - r, y1),
            ],
            [(x + r, y1), (x + r - k, y1), (x, y1 - r + k), (x, y1 - r)],
            [(x, y + r), (x, y + r - k), (x + r - k, y), (x + r, y)],
        ];
        if reverse {
            lines.iter_mut().for_each(|l| l.reverse());
            cubics.iter_mut().for_each(|c| c.reverse());
        }
        self.lines.extend(lines);
        self.cubics.extend(cubics);
        self
    }

    fn circle(self, cx: f32, cy: f32, r: f32, reverse: bool) -> Shape {
        self.rounded(cx - r, cy - r, 2.0 * r, 2.0 * r, r, reverse)
    }

    /// A straight stroke of width `w` from `a` to `b`.
    fn stroke(self, a: (f32, f32), b: (f32, f32), w: f32) -> Shape {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (nx, ny) = (-dy / len * w / 2.0, dx / len * w / 2.0);
        self.polygon(&[
            (a.0 + nx, a.1 + ny),
            (b.0 + nx, b.1 + ny),
            (b.0 - nx, b.1 - ny),
            (a.0 - nx, a.1 - ny),
        ])
    }

    /// A ring sector (annulus piece) around (cx, cy) between angles `a0`..`a1` (radians,
    /// 0 = right, y down), for wifi arcs.
    fn arc_band(self, cx: f32, cy: f32, r0: f32, r1: f32, a0: f32, a1: f32) -> Shape {
        let n = 16;
        let mut pts = Vec::with_capacity(2 * n + 2);
        for i in 0..=n {
            let a = a0 + (a1 - a0) * i as f32 / n as f32;
            pts.push((cx + r1 * a.cos(), cy + r1 * a.sin()));
        }
        for i in (0..=n).rev() {
            let a = a0 + (a1 - a0) * i as f32 / n as f32;
            pts.push((cx + r0 * a.cos(), cy + r0 * a.sin()));
        }
        self.polygon(&pts)
    }

    fn fill(&self, img: &mut RgbaImage, color: Rgba<u8>) {
        let all = self
            .lines
            .iter()
            .flatten()
            .chain(self.cubics.iter().flatten());
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in all {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        let bx = x0.floor().max(0.0);
        let by = y0.floor().max(0.0);
        let ex = x1.ceil().min(img.width() as f32);
        let ey = y1.ceil().min(img.height() as f32);
        if ex <= bx || ey <= by {
            return;
        }
        let mut r = Rasterizer::new((ex - bx) as usize, (ey - by) as usize);
        let p = |(x, y): (f32, f32)| point(x - bx, y - by);
        for [a, b] in &self.lines {
            r.draw_line(p(*a), p(*b));
        }
        for [a, b, c, d] in &self.cubics {
            r.draw_cubic(p(*a), p(*b), p(*c), p(*d));
        }
        let (ox, oy) = (bx as u32, by as u32);
        r.for_each_pixel_2d(|x, y, cover| {
            let cover = cover.min(1.0);
            if cover > 0.0 {
                blend(img.get_pixel_mut(ox + x, oy + y), color, cover);
            }
        });
    }
}

/// Paints `color` over `px` with coverage `a` (times the colour's own alpha).
fn blend(px: &mut Rgba<u8>, color: Rgba<u8>, a: f32) {
    let a = a * color[3] as f32 / 255.0;
    if a >= 1.0 {
        *px = color;
        return;
    }
    for i in 0..3 {
        px[i] = (px[i] as f32 * (1.0 - a) + color[i] as f32 * a + 0.5) as u8;
    }
    px[3] = 255;
}

fn fill_rect(img: &mut RgbaImage, r: Rect, color: Rgba<u8>) {
    // Whole-row copies: these fills cover most of the screen, and slice copies stay fast even
    // in unoptimised test builds.
    let width = img.width();
    let x0 = r.x.min(width) as usize;
    let x1 = r.right().min(width) as usize;
    let y1 = r.bottom().min(img.height());
    if x1 <= x0 || r.y >= y1 {
        return;
    }
    let row = color.0.repeat(x1 - x0);
    let stride = width as usize * 4;
    let buf: &mut [u8] = img;
    for y in r.y as usize..y1 as usize {
        buf[y * stride + x0 * 4..y * stride + x1 * 4].copy_from_slice(&row);
    }
}

fn rgba(hex: u32, alpha: u8) -> Rgba<u8> {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, alpha])
}

// ---------------------------------------------------------------------------------------------
// Drawing

/// One frame being drawn: the image plus what it is drawn for.
struct Frame<'a> {
    img: &'a mut RgbaImage,
    skin: &'a Skin,
    l: &'a Layout,
}

fn draw_background(skin: &Skin, l: &Layout) -> RgbaImage {
    let c = &skin.colors;
    let (w, h) = (l.size.width, l.size.height);
    let pixels = if skin.wood {
        wood_row(w, c.background).repeat(h as usize)
    } else {
        c.background.0.repeat(w as usize * h as usize)
    };
    let mut img = RgbaImage::from_raw(w, h, pixels).expect("buffer matches the size");
    let mut f = Frame {
        img: &mut img,
        skin,
        l,
    };
    f.status_bar_static();
    f.app_bar();
    f.grid_static();
    f.nav_bar();
    if let Some(ad) = l.ad {
        f.ad_banner(ad);
    }
    img
}

impl Frame<'_> {
    fn dp(&self, v: f32) -> f32 {
        v * self.l.dp
    }

    /// Draws `text` with an em of `sp` dp, anchored at `x` and vertically centred (by the ink of
    /// a digit, so labels share a baseline) on `cy`.
    fn text(
        &mut self,
        face: Face,
        sp: f32,
        text: &str,
        (x, cy): (f32, f32),
        align: Align,
        color: Rgba<u8>,
    ) {
        let scale = scale_for_em(face, self.dp(sp));
        let Some((x0, _, x1, _)) = ink_bounds(face, scale, text) else {
            return;
        };
        let (_, y0, _, y1) = ink_bounds(face, scale, "0").unwrap_or((0.0, 0.0, 0.0, 0.0));
        let left = match align {
            Align::Left => x - x0,
            Align::Center => x - (x0 + x1) / 2.0,
            Align::Right => x - x1,
        };
        let top = cy - (y0 + y1) / 2.0;
        draw_text_mut(
            self.img,
            color,
            left.round() as i32,
            top.round() as i32,
            scale,
            font(face),
            text,
        );
    }

    /// Draws `text` centred on its own ink at (cx, cy), with an em of `em_px` pixels.
    fn glyphs_centered(
        &mut self,
        face: Face,
        em_px: f32,
        text: &str,
        cx: f32,
        cy: f32,
        color: Rgba<u8>,
    ) {
        let scale = scale_for_em(face, em_px);
        let Some((x0, y0, x1, y1)) = ink_bounds(face, scale, text) else {
            return;
        };
        let left = cx - (x0 + x1) / 2.0;
        let top = cy - (y0 + y1) / 2.0;
        draw_text_mut(
            self.img,
            color,
            left.round() as i32,
            top.round() as i32,
            scale,
            font(face),
            text,
        );
    }

    fn status_bar_static(&mut self) {
        let c = self.skin.colors;
        let s = self.l.status;
        fill_rect(self.img, s, c.status_bg);
        let cy = s.y as f32 + s.height as f32 / 2.0;
        let right = s.right() as f32 - self.dp(12.0);
        // Battery: outline, level and nub.
        let (bw, bh) = (self.dp(22.0), self.dp(11.0));
        let bx = right - bw;
        let by = cy - bh / 2.0;
        let t = self.dp(1.4);
        Shape::new()
            .rounded(bx, by, bw - self.dp(2.0), bh, self.dp(2.0), false)
            .rounded(
                bx + t,
                by + t,
                bw - self.dp(2.0) - 2.0 * t,
                bh - 2.0 * t,
                self.dp(1.0),
                true,
            )
            .fill(self.img, c.status_fg);
        Shape::new()
            .rect(
                bx + 2.0 * t,
                by + 2.0 * t,
                (bw - self.dp(2.0) - 4.0 * t) * 0.8,
                bh - 4.0 * t,
            )
            .rect(
                bx + bw - self.dp(2.0),
                cy - self.dp(2.5),
                self.dp(1.8),
                self.dp(5.0),
            )
            .fill(self.img, c.status_fg);
        self.text(
            Face::RobotoMedium,
            12.0,
            "85%",
            (bx - self.dp(4.0), cy),
            Align::Right,
            c.status_fg,
        );
        // Cell signal: a right triangle.
        let sx = bx - self.dp(40.0);
        let sz = self.dp(13.0);
        Shape::new()
            .polygon(&[
                (sx + sz, cy - sz / 2.0),
                (sx + sz, cy + sz / 2.0),
                (sx, cy + sz / 2.0),
            ])
            .fill(self.img, c.status_fg);
        // Wifi: three bands and a dot, a quarter circle fanning upwards.
        let wx = sx - self.dp(12.0);
        let wy = cy + self.dp(6.5);
        let (a0, a1) = (-2.36, -0.785);
        let mut wifi = Shape::new().circle(wx, wy - self.dp(1.2), self.dp(1.6), false);
        for (r0, r1) in [(4.5, 7.0), (9.0, 11.5), (13.5, 16.0)] {
            wifi = wifi.arc_band(wx, wy, self.dp(r0), self.dp(r1), a0, a1);
        }
        wifi.fill(self.img, c.status_fg);
    }

    fn status_clock(&mut self, elapsed_secs: u64) {
        let c = self.skin.colors;
        let s = self.l.status;
        let minutes = 9 * 60 + 41 + elapsed_secs / 60;
        let clock = format!("{}:{:02}", minutes / 60 % 24, minutes % 60);
        let cy = s.y as f32 + s.height as f32 / 2.0;
        self.text(
            Face::RobotoMedium,
            14.0,
            &clock,
            (self.dp(16.0), cy),
            Align::Left,
            c.status_fg,
        );
    }

    fn app_bar(&mut self) {
        let c = self.skin.colors;
        let a = self.l.appbar;
        if !self.skin.wood {
            fill_rect(self.img, a, c.appbar_bg);
        }
        let cy = a.y as f32 + a.height as f32 / 2.0;
        // Back arrow.
        let (x0, x1) = (self.dp(18.0), self.dp(34.0));
        let w = self.dp(2.2);
        let head = self.dp(7.0);
        Shape::new()
            .stroke((x0, cy), (x1, cy), w)
            .stroke((x0 + w * 0.3, cy + w * 0.3), (x0 + head, cy - head), w)
            .stroke((x0 + w * 0.3, cy - w * 0.3), (x0 + head, cy + head), w)
            .fill(self.img, c.appbar_fg);
        let title = self.skin.app_title;
        self.text(
            self.skin.title_face,
            20.0,
            title,
            (self.dp(56.0), cy),
            Align::Left,
            c.appbar_fg,
        );
        // Pause and overflow menu on the right.
        let mx = a.right() as f32 - self.dp(20.0);
        let mut dots = Shape::new();
        for dy in [-6.0, 0.0, 6.0] {
            dots = dots.circle(mx, cy + self.dp(dy), self.dp(2.0), false);
        }
        dots.fill(self.img, c.appbar_fg);
        let px = mx - self.dp(44.0);
        Shape::new()
            .rounded(
                px - self.dp(6.0),
                cy - self.dp(8.0),
                self.dp(4.0),
                self.dp(16.0),
                self.dp(1.0),
                false,
            )
            .rounded(
                px + self.dp(2.0),
                cy - self.dp(8.0),
                self.dp(4.0),
                self.dp(16.0),
                self.dp(1.0),
                false,
            )
            .fill(self.img, c.appbar_fg);
        if c.appbar_bg == c.background && !self.skin.wood {
            // A hairline separates a flat app bar from the page.
            let line = Rect::new(0, a.bottom().saturating_sub(1), a.width, 1);
            fill_rect(self.img, line, rgba(0xE3E6EA, 255));
        }
    }

    fn info_row(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let i = self.l.info;
        let cy = i.y as f32 + i.height as f32 / 2.0;
        let face = self.skin.ui_face;
        self.text(
            face,
            14.0,
            self.skin.level,
            (self.dp(16.0), cy),
            Align::Left,
            c.info_fg,
        );
        let mistakes = match state.mistake_limit {
            Some(limit) => format!("{}: {}/{}", self.skin.mistakes_label, state.mistakes, limit),
            None => format!("{}: {}", self.skin.mistakes_label, state.mistakes),
        };
        let mid = i.width as f32 / 2.0;
        self.text(face, 14.0, &mistakes, (mid, cy), Align::Center, c.info_fg);
        if self.l.keypad_timer.is_none() {
            let timer = timer_text(state);
            let right = i.right() as f32 - self.dp(16.0);
            self.text(face, 14.0, &timer, (right, cy), Align::Right, c.info_fg);
        }
    }

    fn grid_static(&mut self) {
        let c = self.skin.colors;
        let g = self.l.grid;
        fill_rect(self.img, g, c.grid_bg);
        if let Some(alt) = c.alt_box_bg {
            for cell in Cell::all().filter(|c| c.box_index() % 2 == 1) {
                fill_rect(self.img, self.l.cell_rect(cell), alt);
            }
        }
        for thick in [false, true] {
            for (i, &(start, width)) in self.l.lines.iter().enumerate() {
                if (i % 3 == 0) != thick {
                    continue;
                }
                let color = if thick { c.thick_line } else { c.thin_line };
                fill_rect(
                    self.img,
                    Rect::new(g.x + start, g.y, width, g.height),
                    color,
                );
                fill_rect(self.img, Rect::new(g.x, g.y + start, g.width, width), color);
            }
        }
    }

    fn cell_backgrounds(&mut self, state: &GameState) {
        let c = self.skin.colors;
        let board = state.board();
        let focus_digit = match state.tool {
            Some(Tool::Digit(d)) => Some(d),
            _ => state.selected.and_then(|s| board.get(s)),
        };
        for cell in Cell::all() {
            let color = if Some(cell) == state.selected {
                Some(c.selected)
            } else if focus_digit.is_some() && board.get(cell) == focus_digit {
                Some(c.same_digit)
            } else if state.selected.is_some_and(|s| {
                s.row() == cell.row() || s.col() == cell.col() || s.box_index() == cell.box_index()
            }) {
                Some(c.peer)
            } else {
                None
            };
            if let Some(color) = color {
                fill_rect(self.img, self.l.cell_rect(cell), color);
            }
        }
    }

    fn cell_contents(&mut self, state: &GameState) {
        let c = self.skin.colors;
        for cell in Cell::all() {
            let r = self.l.cell_rect(cell);
            let (cx, cy) = (
                r.x as f32 + r.width as f32 / 2.0,
                r.y as f32 + r.height as f32 / 2.0,
            );
            let em = r.height as f32 * 0.68;
            if let Some(d) = state.givens.get(cell) {
                self.glyphs_centered(self.skin.given_face, em, &d.to_string(), cx, cy, c.given);
            } else if let Some(d) = state.entries.get(cell) {
                self.glyphs_centered(self.skin.entry_face, em, &d.to_string(), cx, cy, c.entry);
            } else {
                let notes = state.notes[cell.index()];
                for d in 1..=9u8 {
                    if notes & (1 << d) == 0 {
                        continue;
                    }
                    let (nr, nc) = ((d - 1) / 3, (d - 1) % 3);
                    let nx = r.x as f32 + r.width as f32 * (1.0 + 2.0 * nc as f32) / 6.0;
                    let ny = r.y as f32 + r.height as f32 * (1.0 + 2.0 * nr as f32) / 6.0;
                    let em = r.height as f32 * 0.27;
                    self.glyphs_centered(self.skin.ui_face, em, &d.to_string(), nx, ny, c.note);
                }
            }
        }
    }

    fn controls(&mut self, state: &GameState) {
        let keys = self.l.keys.clone();
        for (key, r) in keys {
            match key {
                Key::Digit(d) => self.digit_key(d, r, state.tool == Some(Tool::Digit(d))),
                Key::Erase => self.erase_key(r, state.tool == Some(Tool::Eraser)),
                Key::Notes => self.notes_key(r, state.notes_mode),
                Key::PopupClose => {}
            }
        }
    }

    fn keypad_timer(&mut self, state: &GameState) {
        if let Some(t) = self.l.keypad_timer {
            let (cx, cy) = centre(t);
            let timer = timer_text(state);
            self.text(
                self.skin.ui_face,
                16.0,
                &timer,
                (cx, cy),
                Align::Center,
                self.skin.colors.tool_fg,
            );
        }
    }

    /// The button face of a keypad key; returns the text colour to use on it.
    fn key_face(&mut self, r: Rect, active: bool) -> Rgba<u8> {
        let c = self.skin.colors;
        let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
        let rad = self.dp(self.skin.radius_dp);
        if active {
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .fill(self.img, c.key_active_bg);
            return c.key_active_fg;
        }
        if let Some(border) = c.key_border {
            let t = self.dp(1.0).max(1.0);
            Shape::new()
                .rounded(x, y, w, h, rad, false)
                .rounded(x + t, y + t, w - 2.0 * t, h - 2.0 * t, rad - t, true)
                .fill(self.img, border);
        }
        if let Some(bg) = c.key_bg {
            let t = if c.key_border.is_some() {
                self.dp(1.0).max(1.0)
            } else {
                0.0
            };
            Shape::new()
                .rounded(x + t, y + t, w - 2.0 * t, h - 2.0 * t, rad - t, false)
                .fill(self.img, bg);
        }
        c.key_fg
    }

    fn digit_key(&mut self, d: u8, r: Rect, active: bool) {
        let fg = self.key_face(r, active);
        let em = match self.skin.keypad {
            KeypadShape::Row9 if self.skin.colors.key_bg.is_none() => self.dp(38.0),
            KeypadShape::Row9 => self.dp(26.0),
            KeypadShape::Grid3x3 => self.dp(30.0),
            KeypadShape::Grid2x5 => self.dp(32.0),
        };
        let (cx, cy) = centre(r);
        self.glyphs_centered(self.skin.key_face, em, &d.to_string(), cx, cy, fg);
    }

    /// A tool in the tool row (icon over label), or a keypad button with just an icon.
    fn tool_layout(&mut self, r: Rect, active: bool) -> (f32, f32, Rgba<u8>, bool) {
        let in_row = self.l.tools.is_some_and(|t| t.contains(r.center()));
        let (cx, cy) = centre(r);
        if in_row {
            let fg = if active {
                self.skin.colors.accent
            } else {
                self.skin.colors.tool_fg
            };
            (cx, cy - self.dp(10.0), fg, true)
        } else {
            let fg = self.key_face(r, active);
            (cx, cy, fg, false)
        }
    }

    fn erase_key(&mut self, r: Rect, active: bool) {
        let (cx, cy, fg, labelled) = self.tool_layout(r, active);
        let s = self.dp(1.0);
        if self.skin.keypad == KeypadShape::Grid3x3 {
            // A bin: lid, handle and body, its two slots cut in the key's own colour.
            Shape::new()
                .rounded(
                    cx - 8.0 * s,
                    cy - 9.0 * s,
                    16.0 * s,
                    2.5 * s,
                    0.8 * s,
                    false,
                )
                .rect(cx - 3.0 * s, cy - 11.0 * s, 6.0 * s, 2.5 * s)
                .rounded(
                    cx - 6.5 * s,
                    cy - 5.5 * s,
                    13.0 * s,
                    15.5 * s,
                    1.5 * s,
                    false,
                )
                .fill(self.img, fg);
            let c = self.skin.colors;
            let slot = match (active, c.key_bg) {
                (true, _) => c.key_active_bg,
                (false, Some(bg)) => bg,
                (false, None) => c.background,
            };
            Shape::new()
                .rect(cx - 3.5 * s, cy - 3.0 * s, 1.6 * s, 10.5 * s)
                .rect(cx + 1.9 * s, cy - 3.0 * s, 1.6 * s, 10.5 * s)
                .fill(self.img, slot);
        } else {
            // An eraser: a tilted hollow block with a filled tip.
            let (a, b) = (FRAC_1_SQRT_2, FRAC_1_SQRT_2);
            let p = |u: f32, v: f32| (cx + (u * a - v * b) * s, cy + (u * b + v * a) * s - 2.0 * s);
            let outline = [p(-10.0, -5.0), p(8.0, -5.0), p(8.0, 5.0), p(-10.0, 5.0)];
            let inner = [p(-8.2, 3.2), p(6.2, 3.2), p(6.2, -3.2), p(-8.2, -3.2)];
            Shape::new()
                .polygon(&outline)
                .polygon(&inner)
                .fill(self.img, fg);
            Shape::new()
                .polygon(&[p(-10.0, -5.0), p(-3.0, -5.0), p(-3.0, 5.0), p(-10.0, 5.0)])
                .fill(self.img, fg);
        }
        if labelled {
            let (lx, ly) = (cx, r.bottom() as f32 - self.dp(16.0));
            self.text(
                self.skin.ui_face,
                12.0,
                "Erase",
                (lx, ly),
                Align::Center,
                fg,
            );
        }
    }

    fn notes_key(&mut self, r: Rect, on: bool) {
        let (cx, cy, fg, labelled) = self.tool_layout(r, false);
        let fg = if on && labelled {
            self.skin.colors.accent
        } else {
            fg
        };
        let s = self.dp(1.0);
        // A pencil pointing down-left.
        let (a, b) = (FRAC_1_SQRT_2, -FRAC_1_SQRT_2);
        let p = |u: f32, v: f32| (cx + (u * a - v * b) * s, cy + (u * b + v * a) * s);
        Shape::new()
            .polygon(&[p(-5.0, -2.6), p(7.0, -2.6), p(7.0, 2.6), p(-5.0, 2.6)])
            .polygon(&[p(8.0, -2.6), p(10.5, -2.6), p(10.5, 2.6), p(8.0, 2.6)])
            .polygon(&[p(-6.0, -2.6), p(-11.0, 0.0), p(-6.0, 2.6)])
            .fill(self.img, fg);
        let badge = if on { "ON" } else { "OFF" };
        if labelled {
            let (lx, ly) = (cx, r.bottom() as f32 - self.dp(16.0));
            self.text(
                self.skin.ui_face,
                12.0,
                "Notes",
                (lx, ly),
                Align::Center,
                fg,
            );
        }
        // The ON/OFF pill at the icon's top right, as Sudoku.com shows it.
        let c = self.skin.colors;
        let (bw, bh) = (self.dp(26.0), self.dp(14.0));
        let (bx, by) = (cx + self.dp(6.0), cy - self.dp(16.0));
        let (pill, text) = match (labelled, on) {
            (true, true) => (c.accent, c.background),
            (true, false) => (c.tool_fg, c.background),
            (false, true) => (c.key_fg, c.key_bg.unwrap_or(c.background)),
            (false, false) => (c.thin_line, c.key_fg),
        };
        Shape::new()
            .rounded(bx, by, bw, bh, bh / 2.0, false)
            .fill(self.img, pill);
        self.text(
            Face::RobotoMedium,
            8.0,
            badge,
            (bx + bw / 2.0, by + bh / 2.0),
            Align::Center,
            text,
        );
    }

    fn nav_bar(&mut self) {
        let n = self.l.nav;
        let (cx, cy) = centre(n);
        match self.skin.nav {
            NavBar::Gesture => {
                let pill = if luma(self.skin.colors.background) < 128.0 {
                    rgba(0xDADCE0, 255)
                } else {
                    rgba(0x202124, 255)
                };
                let (w, h) = (self.dp(108.0), self.dp(4.0));
                Shape::new()
                    .rounded(cx - w / 2.0, cy - h / 2.0, w, h, h / 2.0, false)
                    .fill(self.img, pill);
            }
            NavBar::Buttons => {
                fill_rect(self.img, n, rgba(0x000000, 255));
                let fg = rgba(0xF1F3F4, 255);
                let s = self.dp(1.0);
                let t = 1.8 * s;
                let gap = n.width as f32 / 4.0;
                // Back: hollow triangle.
                let bx = cx - gap;
                let outer = [
                    (bx - 8.0 * s, cy),
                    (bx + 7.0 * s, cy - 9.0 * s),
                    (bx + 7.0 * s, cy + 9.0 * s),
                ];
                let inner = [
                    (bx + 7.0 * s - t, cy + 9.0 * s - 2.1 * t),
                    (bx + 7.0 * s - t, cy - 9.0 * s + 2.1 * t),
                    (bx - 8.0 * s + 2.4 * t, cy),
                ];
                Shape::new()
                    .polygon(&outer)
                    .polygon(&inner)
                    .fill(self.img, fg);
                // Home: ring.
                Shape::new()
                    .circle(cx, cy, 9.0 * s, false)
                    .circle(cx, cy, 9.0 * s - t, true)
                    .fill(self.img, fg);
                // Recents: hollow square.
                let rx = cx + gap;
                Shape::new()
                    .rounded(
                        rx - 8.0 * s,
                        cy - 8.0 * s,
                        16.0 * s,
                        16.0 * s,
                        1.5 * s,
                        false,
                    )
                    .rounded(
                        rx - 8.0 * s + t,
                        cy - 8.0 * s + t,
                        16.0 * s - 2.0 * t,
                        16.0 * s - 2.0 * t,
                        0.5 * s,
                        true,
                    )
                    .fill(self.img, fg);
            }
        }
    }

    fn ad_banner(&mut self, ad: Rect) {
        let s = self.dp(1.0);
        fill_rect(self.img, ad, rgba(0xF6F7F9, 255));
        fill_rect(
            self.img,
            Rect::new(ad.x, ad.y, ad.width, s.round() as u32),
            rgba(0xDADCE0, 255),
        );
        let (_, cy) = centre(ad);
        let x = ad.x as f32;
        // App icon.
        let icon = 40.0 * s;
        Shape::new()
            .rounded(x + 14.0 * s, cy - icon / 2.0, icon, icon, 9.0 * s, false)
            .fill(self.img, rgba(0x7E57C2, 255));
        self.glyphs_centered(
            Face::RobotoMedium,
            26.0 * s,
            "W",
            x + 14.0 * s + icon / 2.0,
            cy,
            rgba(0xFFFFFF, 255),
        );
        self.text(
            Face::RobotoMedium,
            15.0,
            "Word Garden: Crosswords",
            (x + 64.0 * s, cy - 9.0 * s),
            Align::Left,
            rgba(0x202124, 255),
        );
        self.text(
            Face::RobotoRegular,
            12.0,
            "4.6  FREE  Install now",
            (x + 64.0 * s, cy + 11.0 * s),
            Align::Left,
            rgba(0x5F6368, 255),
        );
        let (bw, bh) = (84.0 * s, 34.0 * s);
        let bx = ad.right() as f32 - bw - 12.0 * s;
        Shape::new()
            .rounded(bx, cy - bh / 2.0, bw, bh, 6.0 * s, false)
            .fill(self.img, rgba(0x01875F, 255));
        self.text(
            Face::RobotoMedium,
            14.0,
            "INSTALL",
            (bx + bw / 2.0, cy),
            Align::Center,
            rgba(0xFFFFFF, 255),
        );
        // The "Ad" tag in the corner.
        Shape::new()
            .rounded(
                x + 2.0 * s,
                ad.y as f32 + 2.0 * s,
                18.0 * s,
                11.0 * s,
                2.0 * s,
                false,
            )
            .fill(self.img, rgba(0xFBC02D, 255));
        self.text(
            Face::RobotoMedium,
            8.0,
            "Ad",
            (x + 11.0 * s, ad.y as f32 + 7.5 * s),
            Align::Center,
            rgba(0x202124, 255),
        );
    }

    fn end_banner(&mut self, title: &str, detail: &str, bg: Rgba<u8>) {
        let c = self.skin.colors;
        let r = self.l.controls;
        let (x, y, w, h) = (r.x as f32, r.y as f32, r.width as f32, r.height as f32);
        Shape::new()
            .rounded(x, y, w, h, self.dp(16.0), false)
            .fill(self.img, bg);
        let (cx, cy) = centre(r);
        self.text(
            self.skin.title_face,
            30.0,
            title,
            (cx, cy - self.dp(14.0)),
            Align::Center,
            c.banner_fg,
        );
        self.text(
            self.skin.ui_face,
            14.0,
            detail,
            (cx, cy + self.dp(22.0)),
            Align::Center,
            c.banner_fg,
        );
    }

    fn popup(&mut self) {
        let c = self.skin.colors;
        let dark = luma(c.grid_bg) < 128.0;
        // A 45 % black scrim over everything, in integer maths on the raw buffer.
        for px in self.img.chunks_exact_mut(4) {
            for v in &mut px[..3] {
                *v = (*v as u16 * 141 / 256) as u8;
            }
        }
        let p = self.l.popup;
        let (x, y, w, h) = (p.x as f32, p.y as f32, p.width as f32, p.height as f32);
        let (card, fg, muted) = if dark {
            (
                rgba(0x2A2C30, 255),
                rgba(0xE8EAED, 255),
                rgba(0xBDC1C6, 255),
            )
        } else {
            (
                rgba(0xFFFFFF, 255),
                rgba(0x202124, 255),
                rgba(0x5F6368, 255),
            )
        };
        Shape::new()
            .rounded(x, y, w, h, self.dp(20.0), false)
            .fill(self.img, card);
        let cx = x + w / 2.0;
        let face = self.skin.title_face;
        self.text(
            face,
            20.0,
            "Daily Challenge",
            (cx, y + self.dp(36.0)),
            Align::Center,
            fg,
        );
        let b = self.l.popup_button;
        let mid = (y + self.dp(56.0) + b.y as f32) / 2.0;
        let ui = self.skin.ui_face;
        self.text(
            ui,
            14.0,
            "A new puzzle is waiting for you.",
            (cx, mid - self.dp(10.0)),
            Align::Center,
            muted,
        );
        self.text(
            ui,
            14.0,
            "Come back any time today!",
            (cx, mid + self.dp(10.0)),
            Align::Center,
            muted,
        );
        let (bx, by, bw, bh) = (b.x as f32, b.y as f32, b.width as f32, b.height as f32);
        Shape::new()
            .rounded(bx, by, bw, bh, bh / 2.0, false)
            .fill(self.img, c.accent);
        let label = if dark {
            rgba(0x121212, 255)
        } else {
            rgba(0xFFFFFF, 255)
        };
        self.text(
            Face::RobotoMedium,
            15.0,
            "LATER",
            (bx + bw / 2.0, by + bh / 2.0),
            Align::Center,
            label,
        );
    }

    fn draw_state(&mut self, state: &GameState) {
        let secs = state.elapsed.as_secs();
        self.status_clock(secs);
        self.info_row(state);
        self.cell_backgrounds(state);
        self.cell_contents(state);
        let c = self.skin.colors;
        if state.is_solved() {
            let detail = format!(
                "Time {}   {} {}",
                timer_text(state),
                self.skin.mistakes_label,
                state.mistakes
            );
            self.end_banner("Solved!", &detail, c.banner_bg);
        } else if state.is_lost() {
            let detail = format!("{} mistakes: the game is over", state.mistakes);
            self.end_banner("Game over", &detail, rgba(0xC62828, 255));
        } else {
            self.keypad_timer(state);
        }
        if state.popup {
            self.popup();
        }
    }
}

fn luma(c: Rgba<u8>) -> f32 {
    0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32
}

/// One pixel row of vertical wood grain around `base`: plank seams, slow waves and fine fibres,
/// from a fixed seed so every frame (and golden) is the same.
fn wood_row(width: u32, base: Rgba<u8>) -> Vec<u8> {
    let mut seed = 0x2545_F491_u32;
    let mut noise = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % 1000) as f32 / 1000.0 - 0.5
    };
    let plank = (width / 5).max(1);
    let mut row = Vec::with_capacity(width as usize * 4);
    let mut fibre = 0.0f32;
    for x in 0..width {
        let t = x as f32 / width as f32 * std::f32::consts::TAU;
        fibre = 0.8 * fibre + 0.2 * noise();
        let mut shade = 1.0 + 0.10 * (t * 3.0).sin() + 0.06 * (t * 11.0 + 1.3).sin() + 0.35 * fibre;
        if x % plank < 2 {
            shade *= 0.7; // the seam between planks
        }
        for i in 0..3 {
            row.push((base[i] as f32 * shade).clamp(0.0, 255.0) as u8);
        }
        row.push(255);
    }
    row
}

/// Mid point of a rectangle, in float pixels.
fn centre(r: Rect) -> (f32, f32) {
    (
        r.x as f32 + r.width as f32 / 2.0,
        r.y as f32 + r.height as f32 / 2.0,
    )
}

fn timer_text(state: &GameState) -> String {
    let s = state.elapsed.as_secs();
    format!("{:02}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_pixel(w, h, Rgba([255, 255, 255, 255]))
    }

    #[test]
    fn fill_rect_clips_to_the_image_and_touches_nothing_else() {
        let mut img = blank(6, 4);
        fill_rect(&mut img, Rect::new(4, 2, 10, 10), Rgba([1, 2, 3, 255]));
        assert_eq!(*img.get_pixel(5, 3), Rgba([1, 2, 3, 255]));
        assert_eq!(*img.get_pixel(4, 2), Rgba([1, 2, 3, 255]));
        assert_eq!(*img.get_pixel(3, 3), Rgba([255, 255, 255, 255]));
        assert_eq!(*img.get_pixel(5, 1), Rgba([255, 255, 255, 255]));
    }

    #[test]
    fn shapes_are_anti_aliased_and_holes_stay_empty() {
        let mut img = blank(40, 40);
        Shape::new()
            .circle(20.0, 20.0, 15.0, false)
            .circle(20.0, 20.0, 8.0, true)
            .fill(&mut img, Rgba([0, 0, 0, 255]));
        assert_eq!(
            *img.get_pixel(20, 20),
            Rgba([255, 255, 255, 255]),
            "hole filled"
        );
        assert_eq!(*img.get_pixel(20, 8), Rgba([0, 0, 0, 255]), "ring missing");
        assert_eq!(*img.get_pixel(1, 1), Rgba([255, 255, 255, 255]));
        let greys = img.pixels().filter(|p| p[0] > 20 && p[0] < 235).count();
        assert!(greys > 20, "edges are not smoothed: {greys} grey pixels");
    }

    #[test]
    fn text_is_drawn_centred_on_its_ink_with_smooth_edges() {
        for face in [Face::RobotoRegular, Face::DejaVu, Face::SerifBold] {
            let mut img = blank(80, 80);
            let mut f = Frame {
                img: &mut img,
                skin: &Skin::default(),
                l: &Layout::new(&Skin::default(), crate::SUPPORTED_SIZES[0]),
            };
            f.glyphs_centered(face, 50.0, "8", 40.0, 40.0, Rgba([0, 0, 0, 255]));
            let ink: Vec<(u32, u32)> = img
                .enumerate_pixels()
                .filter(|(_, _, p)| p[0] < 128)
                .map(|(x, y, _)| (x, y))
                .collect();
            let (xs, ys): (Vec<u32>, Vec<u32>) = ink.iter().copied().unzip();
            let mid = |v: &[u32]| (v.iter().min().unwrap() + v.iter().max().unwrap()) / 2;
            assert!(
                mid(&xs).abs_diff(40) <= 1 && mid(&ys).abs_diff(40) <= 1,
                "{face:?}"
            );
            assert!(
                ys.iter().max().unwrap() - ys.iter().min().unwrap() > 30,
                "{face:?} too small"
            );
            assert!(
                img.pixels().any(|p| p[0] > 40 && p[0] < 215),
                "{face:?} not anti-aliased"
            );
        }
    }

    #[test]
    fn skins_use_more_than_one_font_family_for_digits() {
        let families: std::collections::HashSet<&str> = Skin::names()
            .iter()
            .map(|n| match Skin::named(n).unwrap().given_face {
                Face::RobotoRegular | Face::RobotoMedium | Face::RobotoLight => "Roboto",
                Face::DejaVu | Face::DejaVuBold => "DejaVu",
                Face::SerifRegular | Face::SerifBold => "Liberation Serif",
            })
            .collect();
        assert!(families.len() >= 3, "{families:?}");
    }
}
