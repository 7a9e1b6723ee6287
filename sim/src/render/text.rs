//! Text: the embedded fonts, sizing by em, ink bounds, and text drawn centred on its ink.

use super::*;

pub(super) static FONTS: LazyLock<[FontRef<'static>; 7]> = LazyLock::new(|| {
    let load = |bytes: &'static [u8]| {
        FontRef::try_from_slice(bytes).expect("embedded fonts are valid TrueType")
    };
    [
        load(include_bytes!("../../../assets/fonts/Roboto-Regular.ttf")),
        load(include_bytes!("../../../assets/fonts/Roboto-Medium.ttf")),
        load(include_bytes!("../../../assets/fonts/Roboto-Light.ttf")),
        load(include_bytes!("../../../assets/fonts/DejaVuSans.ttf")),
        load(include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf")),
        load(include_bytes!(
            "../../../assets/fonts/LiberationSerif-Regular.ttf"
        )),
        load(include_bytes!(
            "../../../assets/fonts/LiberationSerif-Bold.ttf"
        )),
    ]
});

pub(super) fn font(face: Face) -> &'static FontRef<'static> {
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
pub(super) fn scale_for_em(face: Face, em_px: f32) -> PxScale {
    let f = font(face);
    let units = f.units_per_em().unwrap_or(2048.0);
    PxScale::from(em_px * f.height_unscaled() / units)
}

/// Ink bounds (min x, min y, max x, max y) of `text` drawn at origin (0, 0) by `draw_text_mut`.
pub(super) fn ink_bounds(face: Face, scale: PxScale, text: &str) -> Option<(f32, f32, f32, f32)> {
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
pub(super) enum Align {
    Left,
    Center,
    Right,
}

impl Frame<'_> {
    /// Draws `text` with an em of `sp` dp, anchored at `x` and vertically centred (by the ink of
    /// a digit, so labels share a baseline) on `cy`.
    pub(super) fn text(
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
        draw_at(self.img, face, scale, text, (left, top), color);
    }

    /// Draws `text` centred on its own ink at (cx, cy), with an em of `em_px` pixels.
    pub(super) fn glyphs_centered(
        &mut self,
        face: Face,
        em_px: f32,
        text: &str,
        cx: f32,
        cy: f32,
        color: Rgba<u8>,
    ) {
        let scale = scale_for_em(face, em_px);
        draw_centred(self.img, face, scale, text, (cx, cy), color);
    }
}

/// Draws `text` at `scale` centred on its own ink at (cx, cy): the cells' glyphs and the lock
/// screen's lines.
pub(super) fn draw_centred(
    img: &mut RgbaImage,
    face: Face,
    scale: PxScale,
    text: &str,
    (cx, cy): (f32, f32),
    color: Rgba<u8>,
) {
    let Some((x0, y0, x1, y1)) = ink_bounds(face, scale, text) else {
        return;
    };
    let left = cx - (x0 + x1) / 2.0;
    let top = cy - (y0 + y1) / 2.0;
    draw_at(img, face, scale, text, (left, top), color);
}

/// Draws `text` with its origin at (left, top) rounded to the pixel, as every label is placed.
fn draw_at(
    img: &mut RgbaImage,
    face: Face,
    scale: PxScale,
    text: &str,
    (left, top): (f32, f32),
    color: Rgba<u8>,
) {
    draw_text_mut(
        img,
        color,
        left.round() as i32,
        top.round() as i32,
        scale,
        font(face),
        text,
    );
}

#[cfg(test)]
mod tests {
    use super::super::paint::blank;
    use super::*;

    #[test]
    fn text_is_drawn_centred_on_its_ink_with_smooth_edges() {
        for face in [Face::RobotoRegular, Face::DejaVu, Face::SerifBold] {
            let mut img = blank(80, 80);
            let mut f = Frame {
                img: &mut img,
                skin: &Skin::default(),
                l: &AppLayout::new(&Skin::default(), crate::SUPPORTED_SIZES[0]),
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
