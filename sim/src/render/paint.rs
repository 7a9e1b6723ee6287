//! Anti-aliased painting on RGBA images: shapes built from lines and curves, filled with the
//! coverage rasteriser, plus solid rectangles and colour blending.

use super::*;

/// A closed outline made of lines and cubic curves, filled with non-zero coverage. Sub-paths
/// drawn in the opposite direction cut holes.
#[derive(Default)]
pub(super) struct Shape {
    lines: Vec<[(f32, f32); 2]>,
    cubics: Vec<[(f32, f32); 4]>,
}

/// Bezier handle length for a quarter circle.
const KAPPA: f32 = 0.552_284_8;

impl Shape {
    pub(super) fn new() -> Shape {
        Shape::default()
    }

    pub(super) fn polygon(mut self, pts: &[(f32, f32)]) -> Shape {
        for (i, &a) in pts.iter().enumerate() {
            self.lines.push([a, pts[(i + 1) % pts.len()]]);
        }
        self
    }

    pub(super) fn rect(self, x: f32, y: f32, w: f32, h: f32) -> Shape {
        self.polygon(&[(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    }

    /// A rectangle with rounded corners; `reverse` draws it counter-clockwise (a hole).
    pub(super) fn rounded(self, x: f32, y: f32, w: f32, h: f32, r: f32, reverse: bool) -> Shape {
        self.rounded_each(x, y, w, h, [r; 4], reverse)
    }

    /// A rectangle whose corners have radii `[top left, top right, bottom right, bottom left]`
    /// (0: square); `reverse` draws it counter-clockwise (a hole).
    pub(super) fn rounded_each(
        mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        radii: [f32; 4],
        reverse: bool,
    ) -> Shape {
        let [tl, tr, br, bl] = radii.map(|r| r.min(w / 2.0).min(h / 2.0).max(0.0));
        let k = |r: f32| r * KAPPA;
        let (x1, y1) = (x + w, y + h);
        let mut lines = vec![
            [(x + tl, y), (x1 - tr, y)],
            [(x1, y + tr), (x1, y1 - br)],
            [(x1 - br, y1), (x + bl, y1)],
            [(x, y1 - bl), (x, y + tl)],
        ];
        let mut cubics = vec![
            [
                (x1 - tr, y),
                (x1 - tr + k(tr), y),
                (x1, y + tr - k(tr)),
                (x1, y + tr),
            ],
            [
                (x1, y1 - br),
                (x1, y1 - br + k(br)),
                (x1 - br + k(br), y1),
                (x1 - br, y1),
            ],
            [
                (x + bl, y1),
                (x + bl - k(bl), y1),
                (x, y1 - bl + k(bl)),
                (x, y1 - bl),
            ],
            [
                (x, y + tl),
                (x, y + tl - k(tl)),
                (x + tl - k(tl), y),
                (x + tl, y),
            ],
        ];
        // A square corner has no curve.
        cubics.retain(|c| c[0] != c[3]);
        if reverse {
            lines.iter_mut().for_each(|l| l.reverse());
            cubics.iter_mut().for_each(|c| c.reverse());
        }
        self.lines.extend(lines);
        self.cubics.extend(cubics);
        self
    }

    pub(super) fn circle(self, cx: f32, cy: f32, r: f32, reverse: bool) -> Shape {
        self.rounded(cx - r, cy - r, 2.0 * r, 2.0 * r, r, reverse)
    }

    /// A straight stroke of width `w` from `a` to `b`.
    pub(super) fn stroke(self, a: (f32, f32), b: (f32, f32), w: f32) -> Shape {
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
    pub(super) fn arc_band(self, cx: f32, cy: f32, r0: f32, r1: f32, a0: f32, a1: f32) -> Shape {
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

    pub(super) fn fill(&self, img: &mut RgbaImage, color: Rgba<u8>) {
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
pub(super) fn blend(px: &mut Rgba<u8>, color: Rgba<u8>, a: f32) {
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

pub(super) fn fill_rect(img: &mut RgbaImage, r: Rect, color: Rgba<u8>) {
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

pub(super) fn rgba(hex: u32, alpha: u8) -> Rgba<u8> {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, alpha])
}

/// Mid point of a rectangle, in float pixels.
pub(super) fn centre(r: Rect) -> (f32, f32) {
    (
        r.x as f32 + r.width as f32 / 2.0,
        r.y as f32 + r.height as f32 / 2.0,
    )
}

/// A white `w` x `h` canvas, what the drawing tests paint on.
#[cfg(test)]
pub(super) fn blank(w: u32, h: u32) -> RgbaImage {
    RgbaImage::from_pixel(w, h, Rgba([255, 255, 255, 255]))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
