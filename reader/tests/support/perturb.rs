//! The robustness sweep shared by the reader's `tests/perturbed.rs` and
//! `benches/vision_robustness.rs` (and the agent's tests, which include this file): every real
//! screenshot is changed the way other phones and apps differ (another resolution,
//! JPEG re-encoding, a device frame or coloured margins, no status bar, no keypad, brightness,
//! contrast and gamma, a dark theme, an ad banner) and read with no calibration. Each read is
//! exact, refused or wrong against the MANIFEST grid; a wrong board is the worst outcome. The
//! perturbations are generic image operations: none knows which app drew the screen.

use ab_glyph::{FontRef, PxScale};
use image::{Rgba, RgbaImage, imageops::FilterType};
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut};
use imageproc::rect::Rect as DrawRect;
use std::path::{Path, PathBuf};
use sudoku_reader::geometry::Rect;
use sudoku_reader::{ReadError, VisionError};

/// The folders of real screenshots, each with a MANIFEST.tsv in one format.
const FOLDERS: [&str; 2] = ["real-screens", "real-screens-2"];

/// The folders of `FOLDERS` found beside the repository (or beside any folder above it, for
/// worktrees).
pub fn dirs() -> Vec<PathBuf> {
    FOLDERS
        .iter()
        .filter_map(|f| super::shared::find(&format!("{f}/MANIFEST.tsv")))
        .filter_map(|m| m.parent().map(Path::to_path_buf))
        .collect()
}

/// One real screenshot and the 81 digits it shows (`None` for the killer-sudoku shot).
pub struct Shot {
    pub name: String,
    pub img: RgbaImage,
    pub truth: Option<String>,
}

/// Every screenshot of both folders' MANIFESTs, decoded; empty when neither is on this machine.
// The bench's whole sweep; the tests read single screenshots (`shot`).
#[cfg_attr(test, allow(dead_code))]
pub fn shots() -> Vec<Shot> {
    let mut out = Vec::new();
    for dir in dirs() {
        let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
        out.extend(
            text.lines()
                .skip(1)
                .filter_map(|l| shot(l.split('\t').next()?)),
        );
    }
    out
}

/// One screenshot of a MANIFEST by file name, decoded.
pub fn shot(name: &str) -> Option<Shot> {
    dirs().into_iter().find_map(|dir| {
        let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).ok()?;
        let line = text.lines().find(|l| l.split('\t').next() == Some(name))?;
        let truth = line.split('\t').nth(5).filter(|t| t.len() == 81);
        Some(Shot {
            name: name.to_string(),
            img: image::open(dir.join(name)).ok()?.to_rgba8(),
            truth: truth.map(str::to_string),
        })
    })
}

/// What a perturbation may need to know about the original screen: where its grid is (found
/// by reading the untouched screenshot), so that banners and crops stay off the board.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    pub grid: Option<Rect>,
}

/// A named change to a screenshot; `None` when it does not apply to this screen (no room for
/// a banner, nothing to crop).
pub struct Perturbation {
    pub name: &'static str,
    pub apply: fn(&RgbaImage, Context) -> Option<RgbaImage>,
}

impl Perturbation {
    fn new(name: &'static str, apply: fn(&RgbaImage, Context) -> Option<RgbaImage>) -> Self {
        Perturbation { name, apply }
    }
}

/// Resized to `W` pixels wide (a phone of another width), unless it is that wide already.
fn width<const W: u32>(img: &RgbaImage, _: Context) -> Option<RgbaImage> {
    resize_width(img, W)
}

fn resize_width(img: &RgbaImage, w: u32) -> Option<RgbaImage> {
    if img.width() == w {
        return None;
    }
    let h = (img.height() as f64 * w as f64 / img.width() as f64).round() as u32;
    Some(image::imageops::resize(img, w, h, FilterType::Triangle))
}

/// Re-encodes as JPEG at `quality` and decodes again (a screenshot shared through a chat app).
pub fn jpeg(img: &RgbaImage, quality: u8) -> RgbaImage {
    let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(&rgb)
        .expect("JPEG encoding of an RGB image");
    image::load_from_memory(&bytes)
        .expect("our own JPEG decodes")
        .to_rgba8()
}

/// `img` inside a margin of `colour`, `sx` of its width on the left and right, `sy` of its
/// height above and below (a device frame, a letterboxed app on a wider screen).
fn pad(img: &RgbaImage, sx: f64, sy: f64, colour: [u8; 3]) -> RgbaImage {
    let (mx, my) = (
        (img.width() as f64 * sx).round() as u32,
        (img.height() as f64 * sy).round() as u32,
    );
    let mut out = RgbaImage::from_pixel(
        img.width() + 2 * mx,
        img.height() + 2 * my,
        Rgba([colour[0], colour[1], colour[2], 255]),
    );
    image::imageops::overlay(&mut out, img, mx as i64, my as i64);
    out
}

fn map_channels(img: &RgbaImage, f: impl Fn(f64) -> f64) -> RgbaImage {
    let table: Vec<u8> = (0..256)
        .map(|v| f(v as f64).round().clamp(0.0, 255.0) as u8)
        .collect();
    let mut out = img.clone();
    for p in out.pixels_mut() {
        for c in &mut p.0[..3] {
            *c = table[*c as usize];
        }
    }
    out
}

fn crop(img: &RgbaImage, y0: u32, y1: u32) -> Option<RgbaImage> {
    (y1 > y0 + 10 && y1 <= img.height() && (y0 > 0 || y1 < img.height()))
        .then(|| image::imageops::crop_imm(img, 0, y0, img.width(), y1 - y0).to_image())
}

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(include_bytes!("../../../assets/fonts/Roboto-Medium.ttf"))
        .expect("the embedded Roboto font parses")
}

/// An ad banner across the screen in the larger free band above or below the grid: a coloured
/// strip with a logo and a line of text holding digits, as ads do.
fn banner(img: &RgbaImage, ctx: Context) -> Option<RgbaImage> {
    let g = ctx.grid?;
    let (above, below) = (g.y, img.height().saturating_sub(g.bottom()));
    let h = (img.height() / 12).min(above.max(below) * 9 / 10);
    if h < 24 {
        return None;
    }
    let y = if below >= above {
        img.height() - h - (below - h) / 2
    } else {
        (above - h) / 2
    };
    let mut out = img.clone();
    let w = img.width();
    draw_filled_rect_mut(
        &mut out,
        DrawRect::at(0, y as i32).of_size(w, h),
        Rgba([250, 190, 30, 255]),
    );
    let logo = h * 7 / 10;
    draw_filled_rect_mut(
        &mut out,
        DrawRect::at((h / 6) as i32, (y + h * 3 / 20) as i32).of_size(logo, logo),
        Rgba([200, 30, 60, 255]),
    );
    let text_h = h as f32 * 0.42;
    draw_text_mut(
        &mut out,
        Rgba([20, 20, 20, 255]),
        (h + h / 4) as i32,
        (y as f32 + h as f32 * 0.08) as i32,
        PxScale::from(text_h),
        &font(),
        "Merge 2048 Blocks",
    );
    draw_text_mut(
        &mut out,
        Rgba([60, 60, 60, 255]),
        (h + h / 4) as i32,
        (y as f32 + h as f32 * 0.52) as i32,
        PxScale::from(text_h * 0.8),
        &font(),
        "4.7 * 1,000,000+ installs  INSTALL",
    );
    Some(out)
}

/// Every perturbation of the sweep, in table order.
pub fn perturbations() -> Vec<Perturbation> {
    vec![
        Perturbation::new("w360", width::<360>),
        Perturbation::new("w480", width::<480>),
        Perturbation::new("w720", width::<720>),
        Perturbation::new("w1080", width::<1080>),
        Perturbation::new("w1440", width::<1440>),
        Perturbation::new("w2000", width::<2000>),
        Perturbation {
            name: "jpeg65",
            apply: |img, _| Some(jpeg(img, 65)),
        },
        Perturbation {
            name: "720jpg",
            apply: |img, _| resize_width(img, 720).map(|i| jpeg(&i, 72)),
        },
        Perturbation {
            name: "frame",
            apply: |img, _| Some(pad(img, 0.05, 0.03, [12, 12, 14])),
        },
        Perturbation {
            name: "margin",
            apply: |img, _| Some(pad(img, 0.12, 0.02, [40, 110, 190])),
        },
        Perturbation {
            name: "notop",
            apply: |img, ctx| {
                let cut = img.height() * 6 / 100;
                (ctx.grid?.y > cut + 4).then(|| crop(img, cut, img.height()))?
            },
        },
        Perturbation {
            name: "nobot",
            apply: |img, ctx| {
                let g = ctx.grid?;
                let keep = g.bottom() + (img.height().saturating_sub(g.bottom())) / 5 + 4;
                crop(img, 0, keep.min(img.height()))
            },
        },
        Perturbation {
            name: "bright",
            apply: |img, _| Some(map_channels(img, |v| v * 0.85 + 45.0)),
        },
        Perturbation {
            name: "dim",
            apply: |img, _| Some(map_channels(img, |v| (v - 128.0) * 0.7 + 110.0)),
        },
        Perturbation {
            name: "gamma",
            apply: |img, _| Some(map_channels(img, |v| 255.0 * (v / 255.0).powf(1.6))),
        },
        Perturbation {
            name: "invert",
            apply: |img, _| Some(map_channels(img, |v| 255.0 - v)),
        },
        Perturbation {
            name: "banner",
            apply: banner,
        },
    ]
}

/// How one read came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Exact,
    Refused(String),
    /// The board read, and the cells that differ from the truth (`r1c2 5/6`: read 5, truth 6).
    Wrong(String),
}

impl Verdict {
    /// One character for the table: `=` exact, `-` refused, `X` wrong.
    pub fn mark(&self) -> char {
        match self {
            Verdict::Exact => '=',
            Verdict::Refused(_) => '-',
            Verdict::Wrong(_) => 'X',
        }
    }
}

/// Reads `img` with no calibration and judges it against `truth` (`None`: a killer sudoku,
/// which must be refused).
pub fn judge(img: &RgbaImage, truth: Option<&str>) -> Verdict {
    match (sudoku_reader::read(img, None).result, truth) {
        (Err(ReadError::Vision(VisionError::Killer(_))), None) => Verdict::Exact,
        (Err(e), _) => Verdict::Refused(e.to_string()),
        (Ok(rec), Some(t)) => {
            let got = rec.board.to_line().replace('.', "0");
            if got == t {
                return Verdict::Exact;
            }
            let diff: Vec<String> = got
                .bytes()
                .zip(t.bytes())
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(i, (a, b))| {
                    format!("r{}c{} {}/{}", i / 9 + 1, i % 9 + 1, a as char, b as char)
                })
                .collect();
            Verdict::Wrong(diff.join(" "))
        }
        (Ok(_), None) => Verdict::Wrong("a killer sudoku read as a classic board".into()),
    }
}

/// The grid rectangle read on the untouched screenshot, for perturbations that avoid it.
pub fn context(img: &RgbaImage) -> Context {
    Context {
        grid: sudoku_reader::stages::find_grid_and_cells(img, None)
            .ok()
            .map(|s| s.grid.rect()),
    }
}
