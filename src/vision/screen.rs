//! A screenshot's brightness and colours as every stage reads them: one formula for the
//! brightness of a pixel (integer weights 77, 150, 29 of 256, Rec. 601), the [`Screen`] that
//! makes a screenshot's brightness plane once (and a half-size screen, made lazily) for every
//! stage of one read, and the distance between two colours.

use crate::geometry::Point;
use image::RgbaImage;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Deref;

/// A screenshot with its brightness plane, shared by every stage of a read (locating lines,
/// cutting cells, the keypad, the overrun check) so that each pixel is converted once. The
/// plane is made a row at a time, when a stage first wants the row: a calibrated read that
/// looks only at the grid converts only the grid's rows. Derefs to the RGBA image for the
/// stages that want colour.
pub struct Screen<'a> {
    img: Cow<'a, RgbaImage>,
    rows: Vec<OnceCell<Box<[u8]>>>,
    half: OnceCell<Box<Screen<'static>>>,
}

impl<'a> Screen<'a> {
    pub fn new(img: &'a RgbaImage) -> Screen<'a> {
        Screen::of(Cow::Borrowed(img))
    }

    fn of(img: Cow<'a, RgbaImage>) -> Screen<'a> {
        Screen {
            rows: (0..img.height()).map(|_| OnceCell::new()).collect(),
            img,
            half: OnceCell::new(),
        }
    }

    /// The brightness of each pixel of row `y` (converted on the first call for that row).
    #[inline]
    pub fn row(&self, y: u32) -> &[u8] {
        self.rows[y as usize].get_or_init(|| {
            let w = self.img.width() as usize;
            let start = y as usize * w * 4;
            let mut out = vec![0u8; w];
            luma_row(&self.img.as_raw()[start..start + w * 4], &mut out);
            out.into_boxed_slice()
        })
    }

    /// The brightness of a rectangle, row-major (`width * height` bytes), from the plane.
    pub fn luma_region(&self, x0: u32, y0: u32, w: u32, h: u32) -> Vec<u8> {
        let (x0, w) = (x0 as usize, w as usize);
        let mut out = Vec::with_capacity(w * h as usize);
        for y in y0..y0 + h {
            out.extend_from_slice(&self.row(y)[x0..x0 + w]);
        }
        out
    }

    /// This screen at half size in each direction (each pixel the mean of a 2x2 block), with
    /// its own brightness plane: made once, on the first call.
    pub fn half(&self) -> &Screen<'static> {
        self.half
            .get_or_init(|| Box::new(Screen::of(Cow::Owned(half_size(&self.img)))))
    }
}

impl Deref for Screen<'_> {
    type Target = RgbaImage;
    fn deref(&self) -> &RgbaImage {
        &self.img
    }
}

/// `img` at half size in each direction, each pixel the mean of a 2x2 block.
pub(crate) fn half_size(img: &RgbaImage) -> RgbaImage {
    let (w, h) = (img.width() / 2, img.height() / 2);
    let raw = img.as_raw();
    let stride = img.width() as usize * 4;
    let mut out = vec![0u8; w as usize * h as usize * 4];
    // Each pair of rows summed first, then pairs of pixels: two passes the compiler vectorises.
    let mut pair = vec![0u16; w as usize * 8];
    for (y, dst) in out.chunks_exact_mut(w as usize * 4).enumerate() {
        let top = &raw[2 * y * stride..2 * y * stride + w as usize * 8];
        let bottom = &raw[(2 * y + 1) * stride..(2 * y + 1) * stride + w as usize * 8];
        for ((p, &t), &b) in pair.iter_mut().zip(top).zip(bottom) {
            *p = t as u16 + b as u16;
        }
        for (d, v) in dst.chunks_exact_mut(4).zip(pair.chunks_exact(8)) {
            for k in 0..4 {
                d[k] = ((v[k] + v[4 + k] + 2) / 4) as u8;
            }
        }
    }
    RgbaImage::from_raw(w, h, out).expect("buffer sized to the image")
}

/// Two frames alike in the square of side `side` around `at`: no colour channel moved by more
/// than a few levels. A digit fading or popping in changes by tens of levels between frames,
/// so callers wait for this before they read what a tap did.
pub fn still_around(a: &RgbaImage, b: &RgbaImage, at: Point, side: u32) -> bool {
    const STILL: u8 = 6;
    let half = side / 2;
    let (x0, y0) = (at.x.saturating_sub(half), at.y.saturating_sub(half));
    let x1 = (at.x + half).min(a.width().min(b.width()));
    let y1 = (at.y + half).min(a.height().min(b.height()));
    (y0..y1).all(|y| {
        (x0..x1).all(|x| {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            (0..3).all(|k| p[k].abs_diff(q[k]) <= STILL)
        })
    })
}

/// The brightness of each RGBA pixel of `rgba` into `out` (one byte per pixel): the one
/// conversion, which [`Screen`] makes once per row of a screenshot. Written into a
/// slice of known length rather than collected, so that the compiler vectorises it: every
/// stage's brightness plane goes through here.
#[inline]
fn luma_row(rgba: &[u8], out: &mut [u8]) {
    // Sums in 16 bits (the weights add up to 256, so 255 * 256 fits): twice the pixels per
    // vector instruction of 32-bit sums, the same bytes out.
    for (o, p) in out.iter_mut().zip(rgba.chunks_exact(4)) {
        let (r, g, b) = (p[0] as u16, p[1] as u16, p[2] as u16);
        *o = ((r * 77 + g * 150 + b * 29) >> 8) as u8;
    }
}

/// Euclidean distance between two RGB colours.
pub fn colour_distance(a: [u8; 3], b: [u8; 3]) -> f64 {
    a.iter()
        .zip(&b)
        .map(|(&x, &y)| (x as f64 - y as f64).powi(2))
        .sum::<f64>()
        .sqrt()
}
