//! The game stays in front while a run taps (issue 34): the app in front is asked at every check
//! ([`Phone::other_app_in_front`]), and another one there stops the taps at once. It came during our own batch (every
//! check follows one, and the check before saw the game in front): a tap of ours may have hit a
//! notification banner, which opened its app, so BACK is pressed once and the run goes on only
//! when the game is back; its board is then checked as after any batch, so a board that changed
//! otherwise than by our moves stops the run. Still not back: the run waits (`--wait`) naming the
//! app in front, and never taps it. A game that paused meanwhile is resumed by its one round
//! play button, and only when its board comes back unchanged ([`Tapping::resume_paused`]).
//!
//! Never tapping through a banner: before a batch that taps where a heads-up notification
//! shows (the top 130 dp), the screen over those cells and keys is fetched (one band of rows)
//! and compared with the last check's frame, patch by patch ([`Tapping::look_before_batch`]);
//! one that changed is waited out, untapped. A check that
//! finds digits gone from cells that showed them (a banner over a row the board reads through)
//! waits for them too ([`Tapping::wait_for_digits`]), rather than planning from a board missing
//! them.

use super::*;
use crate::device::Key;
use crate::geometry::Rect;
use crate::phone::under_heads_up;
use image::RgbaImage;

/// How often a cover over the next batch's targets, or over digits, is looked at again.
const POLL: Duration = Duration::from_millis(250);

impl Tapping<'_, '_> {
    /// Before a check looks at the screen, and when it finds no board: the game is in front, or
    /// brought back (BACK once, as our last batch may have opened the app in front), or waited
    /// for up to `--wait`. True when another app was in front and the game is back.
    pub(super) fn keep_game_in_front(&mut self) -> Result<bool> {
        let Some(other) = self.phone.other_app_in_front()? else {
            return Ok(false);
        };
        self.phone.say(&format!(
            "{} came to the front after {} moves (a tap on a notification?): stopped tapping, pressing BACK once",
            crate::error::one_line(&other),
            self.report.moves_done
        ));
        self.report.interruptions += 1;
        self.phone
            .device
            .press_key(Key::Back)
            .context("cannot press BACK to return to the game; open the game and re-run play")?;
        std::thread::sleep(settle_time(self.options));
        match self.phone.other_app_in_front()? {
            None => {
                self.phone
                    .say("the game is back in front; checking its board before going on");
                // The screen was another app's: the next clear check is what later ones are
                // compared with.
                self.run.clear = None;
                Ok(true)
            }
            Some(still) => self.wait_for_game(&still).map(|()| true),
        }
    }

    /// Another app stays in front: waits up to `--wait` for the game to come back, asking
    /// every half second ([`Phone::wait_for`]); never taps. Ctrl-C ends the wait.
    fn wait_for_game(&mut self, other: &str) -> Result<()> {
        let other = crate::error::one_line(other);
        let wait = self.options.wait;
        self.phone.say(&format!(
            "waiting up to {:.0} s for the game to come back to the front ({other} is in front): open the game on the phone (the agent never taps another app)",
            wait.as_secs_f64()
        ));
        self.phone.wait_for(
            wait,
            "play",
            |phone| Ok(phone.other_app_in_front()?.is_none().then_some(())),
            || {
                BoardProblem(format!(
                    "{other} stayed in front of the game for {:.0} s; open the game and re-run play, or pass --wait SECONDS",
                    wait.as_secs_f64()
                ))
                .into()
            },
        )?;
        self.phone
            .say("the game is back in front; checking its board before going on");
        self.run.clear = None;
        Ok(())
    }
}

impl Tapping<'_, '_> {
    /// The board is covered: when the cover is a paused game's card with one round play button,
    /// taps it once ([`Phone::resume`]) and goes on from a fresh plan only when the board comes
    /// back unchanged: every cell as the last check saw it, or as our moves since made it.
    /// `None`: no such card (nothing tapped), or the board not back yet; the usual wait follows.
    pub(super) fn resume_paused(&mut self) -> Result<Option<Checked>> {
        let Some(back) = self.phone.resume(settle_time(self.options))? else {
            return Ok(None);
        };
        self.report.checks += 2;
        let Ok(now) = back else {
            return Ok(None);
        };
        self.go_on_if_unchanged(
            now,
            "the game resumed with its board unchanged; continuing from it",
        )
        .map(Some)
    }

    /// The game is back after something took it away (another app, a paused card): a fresh
    /// plan from `now` when every cell is as the last check saw it or as our moves since made
    /// it (taps lost meanwhile are entered again); any other change stops the run.
    pub(super) fn go_on_if_unchanged(&mut self, now: Recognition, said: &str) -> Result<Checked> {
        let before = plan::apply(&self.run.base, &self.run.moves[..self.run.verified]);
        let expected = plan::apply(&self.run.base, &self.run.moves[..self.run.done]);
        let changed: Vec<Cell> = expected
            .diff(&now.board)
            .into_iter()
            .filter(|&c| now.board.get(c) != before.get(c))
            .collect();
        if !changed.is_empty() {
            return Err(BoardProblem(format!(
                "the game came back with its board changed ({}); check the game and re-run play",
                changed
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .into());
        }
        self.phone.say(said);
        self.report.interruptions += 1;
        self.run.clear = None;
        self.run.replan(now, self.options)?;
        Ok(Checked::Replanned)
    }
}

impl Tapping<'_, '_> {
    /// Before a batch whose taps end at `taps_end`: the screen over its cells and keys where a
    /// heads-up notification can show ([`under_heads_up`]) must look as the last check saw it.
    /// `None`: it does (or there is nothing there to compare, or nothing to compare with yet),
    /// tap. Something over them (a notification, a dialog): no tap; it is waited out, polling
    /// only those rows, for up to `--wait`; gone, `None`; still there, the error says so. A
    /// check made meanwhile (another app came to the front) is returned as `Some`.
    pub(super) fn look_before_batch(&mut self, taps_end: usize) -> Result<Option<Checked>> {
        if !self.run.order_checked || self.run.whole_checks {
            return Ok(None);
        }
        let Some(patches) = self.target_patches(taps_end) else {
            return Ok(None);
        };
        if self.targets_look_as_checked(&patches)? {
            return Ok(None);
        }
        self.phone.say(&format!(
            "something came over the cells or keys about to be tapped after {} moves (a notification?): not tapping until it goes",
            self.report.moves_done
        ));
        self.report.interruptions += 1;
        let until = Instant::now() + self.options.wait;
        loop {
            self.stop_if_asked()?;
            std::thread::sleep(POLL);
            if self.keep_game_in_front()? {
                return self.check().map(Some);
            }
            if self.targets_look_as_checked(&patches)? {
                self.phone
                    .say("it is gone and the screen looks as before; tapping on");
                return Ok(None);
            }
            if Instant::now() >= until {
                return Err(BoardProblem(format!(
                    "something stayed over the cells or keys about to be tapped for {:.0} s; clear it on the phone and re-run play, or pass --wait SECONDS",
                    self.options.wait.as_secs_f64()
                ))
                .into());
            }
        }
    }

    /// The patches the next taps (up to `taps_end`) where a heads-up notification shows ([`under_heads_up`]) land in: a cell's
    /// with its lines around it (which no highlight changes, and a card over it hides), a key's
    /// middle. Cells our moves filled are left out (their digits may still be fading in), and
    /// so are keys unless the last check fetched their rows (a key's look changes as keys are
    /// tapped). `None`: no frame to compare with, or nothing to compare.
    fn target_patches(&self, taps_end: usize) -> Option<Vec<Rect>> {
        let frame = self.run.frame.as_ref()?;
        let (w, h) = frame.image.dimensions();
        let cell = self.run.cal.grid.width / 9;
        let filled: Vec<Cell> = self.run.moves[..self.run.done]
            .iter()
            .map(|m| m.cell())
            .collect();
        let fresh = &self.run.fetched;
        let patches: Vec<Rect> = self.run.plan.taps[self.run.taps_done..taps_end]
            .iter()
            .filter(|tap| under_heads_up(tap.at.y, w))
            .filter_map(|tap| {
                let side = match tap.target {
                    plan::Target::Cell(c) if filled.contains(&c) => return None,
                    plan::Target::Cell(_) => cell + cell / 8,
                    _ => cell / 2,
                };
                let half = side / 2;
                let r = Rect::new(
                    tap.at.x.saturating_sub(half),
                    tap.at.y.saturating_sub(half),
                    side.min(w.saturating_sub(tap.at.x.saturating_sub(half))),
                    side.min(h.saturating_sub(tap.at.y.saturating_sub(half))),
                );
                let key_seen = fresh.start <= r.y && r.y + r.height <= fresh.end;
                (r.width > 2 && r.height > 2 && (tap.target.is_key() <= key_seen)).then_some(r)
            })
            .collect();
        (!patches.is_empty()).then_some(patches)
    }

    /// Fetches the band of rows holding `patches` (counted as a check's screenshot) and tells
    /// whether each patch looks as on the last check's frame ([`looks_alike`]).
    fn targets_look_as_checked(&mut self, patches: &[Rect]) -> Result<bool> {
        let top = patches.iter().map(|r| r.y).min().unwrap_or(0);
        let bottom = patches.iter().map(|r| r.y + r.height).max().unwrap_or(0);
        let shot = self
            .phone
            .device
            .screenshot_rows(top..bottom)
            .context(CHECK_SHOT_FAILED)?;
        self.report.checks += 1;
        let Some(frame) = &self.run.frame else {
            return Ok(true);
        };
        if frame.image.dimensions() != shot.dimensions() {
            // The screen turned: the check after the batch decides.
            return Ok(true);
        }
        let changed: Vec<&Rect> = patches
            .iter()
            .filter(|&&r| !looks_alike(&frame.image, &shot, r))
            .collect();
        if !changed.is_empty() {
            log::debug!("the look changed over {changed:?} since the last check");
        }
        Ok(changed.is_empty())
    }

    /// A check read a board missing digits that the last verified check saw: something covers
    /// those cells while the board around them reads (a banner over the first row). Planning
    /// from it would tap them again; instead, no tap until they show again (up to `--wait`),
    /// then on from the board as it is, when unchanged but for our moves.
    pub(super) fn wait_for_digits(&mut self, gone: &[Cell]) -> Result<Checked> {
        self.phone.say(&format!(
            "{} no longer show their digits after {} moves (a notification over the board?): not tapping until they show again",
            gone.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            self.report.moves_done
        ));
        let until = Instant::now() + self.options.wait;
        loop {
            self.stop_if_asked()?;
            std::thread::sleep(POLL);
            self.keep_game_in_front()?;
            let read = self.read_whole_screen()?;
            match read {
                Ok(now) if gone.iter().all(|&c| now.board.get(c).is_some()) => {
                    return self.go_on_if_unchanged(
                        now,
                        "the digits show again; continuing from the board as it is now",
                    );
                }
                // No board at all: a cover (a card, a scrim, another screen), waited out as one.
                Err(why) => return Ok(Checked::Covered(why)),
                _ if Instant::now() < until => {}
                Ok(_) => {
                    return Err(BoardProblem(format!(
                        "digits stayed hidden for {:.0} s (something over the board?); clear it on the phone and re-run play, or pass --wait SECONDS",
                        self.options.wait.as_secs_f64()
                    ))
                    .into());
                }
            }
        }
    }

    /// Cells that showed a digit at the last verified check and show none on `seen`, when at
    /// least one of them is a cell no move of ours touched: we never empty such a cell, so
    /// something covers them. Cells of ours alone may be emptied by our own taps (in a
    /// cell-first app a swallowed cell tap sends the key to the cell before, and an app that
    /// toggles clears it): those are lost moves, entered again by the replan.
    pub(super) fn digits_gone(&self, seen: &Board) -> Vec<Cell> {
        let before = plan::apply(&self.run.base, &self.run.moves[..self.run.verified]);
        let gone: Vec<Cell> = before
            .diff(seen)
            .into_iter()
            .filter(|&c| before.get(c).is_some() && seen.get(c).is_none())
            .collect();
        let ours = |c: &Cell| self.run.moves.iter().any(|m| m.cell() == *c);
        if gone.iter().all(ours) {
            return Vec::new();
        }
        gone
    }
}

/// Whether `r` looks alike on `a` and `b`: the same structure (lines, digits, glyphs) however
/// its colours shifted (a highlight, a selected key turning dark): the absolute normalised
/// correlation of their brightness is at least [`ALIKE`]. A flat patch is alike only a flat one
/// of about the same brightness. A card over a cell hides its lines and shows its own text.
pub(super) fn looks_alike(a: &RgbaImage, b: &RgbaImage, r: Rect) -> bool {
    let luma = |img: &RgbaImage, x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        (299 * p[0] as u32 + 587 * p[1] as u32 + 114 * p[2] as u32) as f64 / 1000.0
    };
    let (mut n, mut sa, mut sb, mut saa, mut sbb, mut sab) = (0.0f64, 0.0, 0.0, 0.0, 0.0, 0.0);
    for y in r.y..r.y + r.height {
        for x in r.x..r.x + r.width {
            let (va, vb) = (luma(a, x, y), luma(b, x, y));
            n += 1.0;
            sa += va;
            sb += vb;
            saa += va * va;
            sbb += vb * vb;
            sab += va * vb;
        }
    }
    if n == 0.0 {
        return true;
    }
    let (ma, mb) = (sa / n, sb / n);
    let (va, vb) = ((saa / n - ma * ma).max(0.0), (sbb / n - mb * mb).max(0.0));
    let (flat_a, flat_b) = (va < FLAT, vb < FLAT);
    if flat_a || flat_b {
        return flat_a && flat_b && (ma - mb).abs() < 24.0;
    }
    let ncc = (sab / n - ma * mb) / (va.sqrt() * vb.sqrt());
    ncc.abs() >= ALIKE
}

/// The least absolute correlation of two looks of one patch that count as alike.
const ALIKE: f64 = 0.5;
/// Brightness variance under which a patch is flat (no lines, no glyph).
const FLAT: f64 = 4.0;

#[cfg(test)]
mod tests {
    use super::*;

    /// A 40x40 light cell patch: its lines at the edges (`line`), a "digit" bar in the middle
    /// (`ink`), on `ground`.
    fn cell(ground: u8, line: u8, ink: Option<u8>) -> RgbaImage {
        RgbaImage::from_fn(40, 40, |x, y| {
            let stroke = (18..22).contains(&x) && (10..30).contains(&y);
            let v = match ink {
                _ if x < 2 || y < 2 || x > 37 || y > 37 => line,
                Some(ink) if stroke => ink,
                _ => ground,
            };
            image::Rgba([v, v, v, 255])
        })
    }

    #[test]
    fn a_cell_under_a_highlight_looks_alike_and_under_a_card_does_not() {
        let r = Rect::new(0, 0, 40, 40);
        let plain = cell(255, 120, Some(30));
        assert!(
            looks_alike(&plain, &cell(214, 120, Some(30)), r),
            "highlight"
        );
        assert!(
            looks_alike(&plain, &cell(60, 200, Some(240)), r),
            "inverted"
        );
        let card = RgbaImage::from_pixel(40, 40, image::Rgba([241, 243, 244, 255]));
        assert!(!looks_alike(&plain, &card, r), "a flat card");
        assert!(
            !looks_alike(&cell(255, 120, None), &card, r),
            "over an empty cell"
        );
        let text = RgbaImage::from_fn(40, 40, |x, y| {
            let v = if (12..16).contains(&y) && x % 6 < 3 {
                90
            } else {
                242
            };
            image::Rgba([v, v, v, 255])
        });
        assert!(!looks_alike(&plain, &text, r), "a card's text line");
        let blank = RgbaImage::from_pixel(40, 40, image::Rgba([250, 250, 250, 255]));
        assert!(looks_alike(&blank, &blank, r), "flat and flat");
    }
}
