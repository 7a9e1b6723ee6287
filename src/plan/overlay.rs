//! The picture of a plan for people: its taps drawn over the screenshot, so a dry run can be
//! checked by eye. Kept apart from the reader's overlay (what a read saw), which knows no plans.

use super::{Plan, Target};
use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_hollow_circle_mut;

/// The planned taps drawn over the screenshot: a ring per tap (the dry run lists them in
/// order), cells in blue, keys in orange.
pub fn draw_plan(screen: &RgbaImage, plan: &Plan) -> RgbaImage {
    let mut img = screen.clone();
    let r = (img.width() / 60).max(6) as i32;
    for t in &plan.taps {
        let colour = match t.target {
            Target::Cell(_) => Rgba([30, 110, 255, 255]),
            Target::Digit(_) | Target::Erase => Rgba([255, 120, 0, 255]),
        };
        for k in 0..3 {
            draw_hollow_circle_mut(&mut img, (t.at.x as i32, t.at.y as i32), r - k, colour);
        }
    }
    img
}
