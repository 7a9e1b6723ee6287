//! Draws the simulated app the way a phone shows it: status bar, app bar, info row, grid with
//! highlights, givens, entries and pencil notes, tool row and keypad, ad banner, navigation bar,
//! the end-of-game banner, the popup fault and the habits' completion card and flash overlay. Text is real TrueType (embedded Roboto, DejaVu Sans
//! and Liberation Serif) rasterised anti-aliased by `imageproc`; shapes are anti-aliased by the
//! same coverage rasteriser `ab_glyph` uses. The parts that never change are drawn once per phone.
//!
//! This module holds the renderer and the frame being drawn; `paint` has the anti-aliased
//! shapes, `text` the fonts and text, and `chrome` (bars, ad), `board` (grid and cells),
//! `controls` (tools and keypad) and `dialogs` (end banner, popup) draw the parts of a frame.

mod away;
mod board;
mod chrome;
mod controls;
mod dialogs;
mod jigsaw;
mod multigrid;
mod paint;
mod text;

use super::layout::{AppLayout, Inert};
use super::skins::{Face, KeypadShape, NavBar, Skin};
use crate::board::Cell;
use crate::geometry::Rect;
use crate::habits::KeyLook;
use crate::model::{GameState, Key, Tool};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use ab_glyph_rasterizer::{Rasterizer, point};
pub(crate) use away::keyguard;
use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_text_mut;
pub(crate) use multigrid::render_multigrid;
use paint::rgba;
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
    marked_key: Option<u8>,
    /// The end-of-game banner replaces the controls.
    ended: bool,
}

impl Renderer {
    pub fn new(_skin: &Skin, _layout: &AppLayout) -> Renderer {
        // Built on first use, so state-only tests never pay for it.
        Renderer::default()
    }

    pub fn render(&mut self, skin: &Skin, layout: &AppLayout, state: &GameState) -> RgbaImage {
        if state.away {
            let mut img = draw_frame_chrome(skin, layout);
            Frame {
                img: &mut img,
                skin,
                l: layout,
            }
            .messaging_app();
            return img;
        }
        let key = ControlsKey {
            notes_mode: state.notes_mode,
            tool: state.tool,
            marked_key: state.marked_key,
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

/// One frame being drawn: the image plus what it is drawn for.
struct Frame<'a> {
    img: &'a mut RgbaImage,
    skin: &'a Skin,
    l: &'a AppLayout,
}

fn draw_background(skin: &Skin, l: &AppLayout) -> RgbaImage {
    let mut img = draw_frame_chrome(skin, l);
    Frame {
        img: &mut img,
        skin,
        l,
    }
    .grid_static();
    if skin.style.jigsaw && skin.style.tile_dp == 0.0 {
        Frame {
            img: &mut img,
            skin,
            l,
        }
        .jigsaw_lines();
    }
    img
}

/// The backdrop and the bars around the app (status, app bar, navigation, ad banner).
fn draw_frame_chrome(skin: &Skin, l: &AppLayout) -> RgbaImage {
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
    f.nav_bar();
    if let Some(ad) = l.ad {
        f.ad_banner(ad);
    }
    img
}

impl Frame<'_> {
    pub(super) fn dp(&self, v: f32) -> f32 {
        v * self.l.dp
    }

    /// What changes outside the board: the status bar's clock and the info row.
    fn draw_chrome_state(&mut self, state: &GameState) {
        self.status_clock(state.elapsed.as_secs());
        self.info_row(state);
    }

    pub(super) fn draw_state(&mut self, state: &GameState) {
        self.draw_chrome_state(state);
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
            self.key_counters(state);
        }
        if state.end_card_shown() {
            self.end_card(state);
        }
        if state.popup {
            self.popup();
        }
        if state.flash && !state.habits.flash_unseen {
            self.flash();
        }
        if state.ad {
            self.interstitial();
        }
        if state.paused {
            self.pause_card();
        }
        if state.banner {
            self.message_banner(state);
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

fn timer_text(state: &GameState) -> String {
    let s = state.elapsed.as_secs();
    format!("{:02}:{:02}", s / 60, s % 60)
}
