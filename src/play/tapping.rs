//! Tapping a plan in and checking it on screen: batches of at most [`super::WATCH_TAPS`]
//! taps, each re-read (after the screen settles); a cover that comes and goes, or dims the
//! board; the input order re-learned from the first move; a number-first key tap checked on the
//! keypad before its cells; the last move alone, and the end screen after it.

use super::batches::{DRAWING, batch_end, blank_while_drawn};
use super::keys::{self, KeyLook, KeyWatch};
use super::relearn::relearn_order;
use super::{
    PlayOptions, PlayReport, Step, Timings, assess_read, board_as_seen, ms, plural_cells, show,
};
use crate::device::{Device, Pacing, TapsRefused};
use crate::error::BoardProblem;
use crate::geometry::Point;
use crate::phone::{Phone, cover};
use crate::plan::{self, Move, Plan};
use crate::profile::Profile;
use crate::profile::calibration::{Calibration, InputOrder};
use crate::sudoku::{Board, Cell};
use anyhow::{Context, Result, anyhow};
use std::sync::Arc;
use std::time::{Duration, Instant};
use sudoku_reader::Recognition;
use sudoku_reader::stages::Boundaries;
use sudoku_reader::stages::settling::{self, Settling};

mod guard;
mod run;
use run::{Frame, Run};

/// Sends the planned moves of `report` in checked batches and compares the board with the
/// solution at the end (the part of `play` after the plan was confirmed on screen).
pub(super) fn tap_and_check(
    report: PlayReport,
    phone: &mut Phone,
    options: &PlayOptions,
    progress: &mut dyn FnMut(Step),
) -> Result<PlayReport> {
    let started = Instant::now();
    let per_call = match options.moves_per_call {
        0 => phone.device.input().moves_per_call(),
        n => n,
    };
    let run = Run {
        cal: phone.profile.calibration.clone(),
        base: report.assessment.recognition.board,
        base_notes: report.assessment.recognition.noted_cells(),
        givens: report.assessment.recognition.givens(),
        moves: report.assessment.moves.clone(),
        plan: report.assessment.plan.clone(),
        done: 0,
        taps_done: 0,
        verified: 0,
        sent_at: Vec::new(),
        order_checked: false,
        whole_checks: false,
        missed: Vec::new(),
        frame: None,
        partial_checks: 0,
        fetched: 0..0,
        clear: None,
        keys: KeyWatch::new(),
        refusals: Vec::new(),
        refused: false,
        notes_switched_off: false,
        noted: Vec::new(),
    };
    let total = run.moves.len();
    // Taps on the board need no wait for a frame after them; taps on keys do (`tap_waits`).
    phone.device.set_board(Some(run.cal.grid));
    // Tell the caller the board and the plan before the first tap, not only after the first call.
    progress(Step::Planned(&report.assessment));
    progress(Step::Moves { done: 0, total });
    phone.note_game_in_front();
    let mut tapping = Tapping {
        phone,
        options,
        run,
        report,
        per_call,
        total,
        last_sent: Instant::now(),
    };
    let mut last_seen = None;
    while tapping.run.done < tapping.run.moves.len() {
        // The first move alone, then a few moves at a time, each batch checked on screen.
        let upto = if tapping.run.order_checked {
            tapping.run.watched_batch_end()
        } else {
            let done = tapping.run.done;
            (done + 1, tapping.run.plan.move_ends[done] + 1)
        };
        // Never tap through a banner: the screen over the batch's targets is as last checked.
        if tapping.phone.device.shows_taps()
            && let Some(checked) = tapping.look_before_batch(upto.1)?
        {
            tapping.take(checked, &mut last_seen)?;
            continue;
        }
        tapping.send(upto, progress)?;
        // Ctrl-C during the batch: stop now rather than after its check (every move sent is
        // whole; the check would only delay the stop).
        tapping.stop_if_asked()?;
        if !tapping.phone.device.shows_taps() {
            // A screenshot file never changes: checking it between moves proves nothing, and
            // the final comparison says so in a file's terms.
            tapping.run.order_checked = true;
            continue;
        }
        let checked = tapping.check()?;
        tapping.take(checked, &mut last_seen)?;
        tapping.judge_key()?;
    }
    tapping.report.timings.tap_ms = ms(started.elapsed());
    tapping.report.timings.verify_ms = 0.0;
    tapping.finish(last_seen)
}

/// A run between the first tap and the final comparison: the phone, what the user asked for,
/// the plan and how far it got, and the report so far.
struct Tapping<'p, 'a> {
    phone: &'p mut Phone<'a>,
    options: &'p PlayOptions,
    run: Run,
    report: PlayReport,
    /// Moves sent per `tap_all` call.
    per_call: usize,
    /// Moves in the first plan (what progress counts to).
    total: usize,
    /// When the last taps went out (what the screen is settling from).
    last_sent: Instant,
}

/// What a check of the moves sent found. The first three end the check; the others call for
/// something before the run goes on ([`Tapping::act_on`]), which ends in one of the first three.
enum Checked {
    /// The board shows the moves sent (those still being drawn will be seen at the next check).
    Verified(Board),
    /// The run goes on from a fresh plan of the board as it is now: after a cover, lost taps,
    /// or with the other input order.
    Replanned,
    /// After the last move the board gave way to the app's end screen.
    Ended,
    /// No board on screen: something covers it, or the app left it. Waited out, untapped
    /// ([`Tapping::wait_out_cover`]).
    Covered(sudoku_reader::ReadError),
    /// Cells that showed a digit show none, one of them at least a cell no move of ours
    /// touched, while the board around them reads: something over them (a banner). Waited for
    /// ([`Tapping::wait_for_digits`]).
    Hidden(Vec<Cell>),
    /// The screen settled on a board that differs from the plan in `cells`, of which `noted`
    /// show pencil notes: taps lost, notes mode on, the input order changed, or a stop
    /// ([`Tapping::correct`]).
    Wrong {
        seen: Board,
        cells: Vec<Cell>,
        noted: Vec<Cell>,
    },
}

/// What a check's screenshot showed.
enum Shown {
    /// A board (as it was read, or as [`board_as_seen`] makes it out).
    Board(Board),
    /// No board: something covers it, or the app left it.
    Covered(sudoku_reader::ReadError),
    /// The board came back short of the plan after a cover; a fresh plan was made from it.
    Replanned,
}

impl Tapping<'_, '_> {
    /// An error once the user asked to stop (Ctrl-C): called between moves only.
    fn stop_if_asked(&self) -> Result<()> {
        if self.phone.stopped() {
            return Err(anyhow!(
                "stopped by the user after {} of {} moves; re-run play to finish the board",
                self.report.moves_done,
                self.total
            ));
        }
        Ok(())
    }

    /// Sends the moves up to `upto.0` and the taps up to `upto.1` (a key tap may end the batch
    /// before its move's cells), `per_call` moves a call; Ctrl-C is noticed between calls.
    fn send(&mut self, upto: (usize, usize), progress: &mut dyn FnMut(Step)) -> Result<()> {
        let total = self.total;
        let (upto, taps_upto) = upto;
        while self.run.done < upto || self.run.taps_done < taps_upto {
            self.stop_if_asked()?;
            let call_end = (self.run.done + self.per_call).min(upto);
            if let Some(p) = self.options.pacing.or_else(|| self.phone.device.pacing()) {
                // No settle before a check's screenshot: most screens show the taps by the time
                // it is taken, and one that does not is looked at again (`look_again`), which
                // waits the settle only then. A tap is followed by the ordinary gap.
                self.phone.device.set_pacing(Pacing {
                    settle_ms: p.gap_ms,
                    ..p
                });
            }
            let end = if call_end == upto {
                taps_upto - 1
            } else {
                self.run.plan.move_ends[call_end - 1]
            };
            let (call_end, end) = self.key_ends_call(call_end, end);
            let points: Vec<Point> = self.run.plan.taps[self.run.taps_done..=end]
                .iter()
                .map(|t| t.at)
                .collect();
            let refused = match self.phone.tap_all(&points) {
                Ok(()) => {
                    self.run.refusals.clear();
                    false
                }
                Err(e) => {
                    self.taps_refused(e)?;
                    true
                }
            };
            self.last_sent = Instant::now();
            self.run.sent_at.resize(call_end, self.last_sent);
            self.report.moves_done += call_end - self.run.done;
            self.report.taps_sent += points.len();
            self.run.taps_done = end + 1;
            self.run.done = call_end;
            progress(Step::Moves {
                done: self.report.moves_done.min(total),
                total,
            });
            if refused {
                // The rest of the call was not sent: the check sees what is missing and enters
                // it again. No key tap awaits a look (it may not have landed).
                self.run.keys.replanned();
                return Ok(());
            }
            let last = self.run.plan.taps[end].target;
            self.run.keys.sent(last, &self.run.cal);
        }
        Ok(())
    }

    /// In a number-first app a call ends with its first key tap (`end`: the call's last tap,
    /// `call_end`: the moves it completes): taps queued behind a key the phone refused would
    /// enter the digit selected before, a mistake. A refused key at the end of a call leaves
    /// nothing behind it.
    fn key_ends_call(&self, call_end: usize, end: usize) -> (usize, usize) {
        if self.run.cal.input_order != InputOrder::NumberFirst {
            return (call_end, end);
        }
        let taps = &self.run.plan.taps;
        let Some(key) = (self.run.taps_done..end).find(|&i| taps[i].target.is_key()) else {
            return (call_end, end);
        };
        let ends = &self.run.plan.move_ends;
        let moves = ends[self.run.done..call_end].partition_point(|&e| e <= key);
        (self.run.done + moves, key)
    }

    /// A `tap_all` call failed. Taps the phone refused ([`TapsRefused`]) are taps lost: the
    /// call counts as sent and the check after it re-enters what is missing; the run ends only
    /// when input is refused for good, or after [`REFUSALS`] refusals in a row with no change on
    /// screen between them. Any other failure is a phone that went away.
    fn taps_refused(&mut self, e: anyhow::Error) -> Result<()> {
        let Some(refused) = e.downcast_ref::<TapsRefused>() else {
            let done = self.report.moves_done;
            return Err(e.context(format!(
                "the device stopped taking taps after {done} moves; re-run play to finish the board"
            )));
        };
        if refused.ends_run() {
            return Err(e);
        }
        // The board as the last check saw it: a refusal after a change on screen starts a new
        // count.
        let now = plan::apply(&self.run.base, &self.run.moves[..self.run.verified]);
        if self
            .run
            .refusals
            .last()
            .is_some_and(|&(board, _)| board != now)
        {
            self.run.refusals.clear();
        }
        self.run.refusals.push((now, self.report.moves_done));
        if self.run.refusals.len() >= REFUSALS {
            return Err(e.context(format!(
                "the phone refused {REFUSALS} injected taps in a row and the board did not change between them, after {} moves; re-run play to finish the board",
                self.report.moves_done
            )));
        }
        log::info!("{refused}: checking the screen and entering what is missing");
        self.run.refused = true;
        Ok(())
    }

    /// Acts on what a check found until the run can go on ([`Self::act_on`]), and keeps what
    /// it verified: the board seen, or the end screen.
    fn take(&mut self, checked: Checked, last_seen: &mut Option<Board>) -> Result<()> {
        match self.act_on(checked)? {
            Checked::Verified(seen) => *last_seen = Some(seen),
            Checked::Ended => self.report.end_screen = true,
            _ => {}
        }
        Ok(())
    }

    /// Does what a check's finding calls for (a cover waited out, hidden digits waited for, a
    /// wrong board corrected), which may find more; returns `Verified`, `Replanned` or `Ended`.
    fn act_on(&mut self, mut checked: Checked) -> Result<Checked> {
        loop {
            checked = match checked {
                Checked::Covered(why) => self.wait_out_cover(why)?,
                Checked::Hidden(cells) => self.wait_for_digits(&cells)?,
                Checked::Wrong { seen, cells, noted } => self.correct(&seen, &cells, &noted)?,
                done => return Ok(done),
            };
        }
    }

    /// Checks the moves sent so far on screen (each check a step of the run).
    fn check(&mut self) -> Result<Checked> {
        self.keep_game_in_front()?;
        let expected = plan::apply(&self.run.base, &self.run.moves[..self.run.done]);
        let changed: Vec<Cell> = self.run.moves[..self.run.done]
            .iter()
            .map(|m| m.cell())
            .collect();
        let seen = match self.look(&expected, &changed)? {
            Shown::Board(seen) => seen,
            Shown::Replanned => return Ok(Checked::Replanned),
            Shown::Covered(_) if self.run.ended() && self.still_covered(&expected, &changed)? => {
                return Ok(Checked::Ended);
            }
            Shown::Covered(why) => return Ok(Checked::Covered(why)),
        };
        let differ = expected.diff(&seen);
        if differ.is_empty() {
            return self.shows_all(seen);
        }
        let gone = self.digits_gone(&seen);
        if !gone.is_empty() {
            return Ok(Checked::Hidden(gone));
        }
        if self.run.refused {
            return self.settled_check(&expected, &changed);
        }
        if let Some(upto) = self.run.still_drawn(&expected, &seen, &differ) {
            log::debug!(
                "check after move {}: {} not drawn yet, seen at the next check",
                self.run.done,
                plural_cells(differ.len())
            );
            self.run.verified = upto;
            return Ok(Checked::Verified(seen));
        }
        self.settled_check(&expected, &changed)
    }

    /// [`Self::look_again`], where a board that gave way while the screen settled after the
    /// last move is the end screen, as at a first look: on a phone whose frames trail the
    /// input, the first look still shows the board, and the card comes during the settle.
    fn settled_check(&mut self, expected: &Board, changed: &[Cell]) -> Result<Checked> {
        match self.look_again(expected, changed)? {
            Checked::Covered(_) if self.run.ended() && self.still_covered(expected, changed)? => {
                Ok(Checked::Ended)
            }
            checked => Ok(checked),
        }
    }

    /// The board is covered: stop tapping, wait (without tapping) until it is back, and go on
    /// from a fresh plan of it as it is then.
    fn wait_out_cover(&mut self, why: sudoku_reader::ReadError) -> Result<Checked> {
        // A screen that went dark mid-play (a screen timeout) is no cover: wake it and go on
        // from the board (the taps sent while it was dark were lost).
        if self.phone.wake_if_dark()?
            && let Ok(now) = self.read_whole_screen()?
        {
            self.run.clear = None;
            self.run.replan(now, self.options)?;
            return Ok(Checked::Replanned);
        }
        // Another app came in front meanwhile: back to the game, its board unchanged.
        if self.keep_game_in_front()?
            && let Ok(now) = self.read_whole_screen()?
        {
            return self.go_on_if_unchanged(
                now,
                "the game is back with its board unchanged; continuing from it",
            );
        }
        if let Some(resumed) = self.resume_paused()? {
            return Ok(resumed);
        }
        self.phone.say(&format!(
            "the board is not on screen after {} moves ({why}): an ad or a dialog? stopped tapping",
            self.report.moves_done
        ));
        let back = self
            .phone
            .wait_for_board(self.options.wait, "play", Some("--wait SECONDS"))?;
        self.report.interruptions += 1;
        // The screen may have changed its look meanwhile (a theme): the next clear check is
        // what later ones are compared with.
        self.run.clear = None;
        self.run.replan(back, self.options)?;
        Ok(Checked::Replanned)
    }

    /// After the last move the board is gone: one more look after a settle, so that a flash
    /// (a toast, an overlay closed at once) is not taken for the end screen.
    fn still_covered(&mut self, expected: &Board, changed: &[Cell]) -> Result<bool> {
        std::thread::sleep(settle_time(self.options));
        Ok(board_as_seen(self.read_whole_screen()?, expected, changed).is_err())
    }

    /// A check's screenshot read: the grid's rows (or the whole screen once they failed).
    fn look(&mut self, expected: &Board, changed: &[Cell]) -> Result<Shown> {
        self.run.check_shot(self.phone.device, false)?;
        self.report.checks += 1;
        let shot = self.run.last_frame();
        let (seen, dimmed) = self.run.boundaries(&shot.image);
        if dimmed.is_some() {
            self.run.frame = Some(shot);
            return self.wait_out_dimming(expected, changed);
        }
        let read = self
            .run
            .read_undimmed(&shot.image, seen, self.phone.profile);
        self.run.frame = Some(shot);
        match board_as_seen(read, expected, changed) {
            Ok(seen) => Ok(Shown::Board(seen)),
            // The rows may have come back wrong (a phone whose `tail` or `head` differ), or
            // something covered the grid a moment ago: the whole screen decides.
            Err(_) if !self.run.whole_checks => self.look_at_whole_screen(expected, changed),
            Err(why) => Ok(Shown::Covered(why)),
        }
    }

    /// A check's screenshot came dimmed: an overlay's scrim, which swallows the taps sent while
    /// it shows, even where the board still reads through it. One more look after a settle (an
    /// overlay that flashes is gone by then); dimmed still, it is a cover.
    fn wait_out_dimming(&mut self, expected: &Board, changed: &[Cell]) -> Result<Shown> {
        std::thread::sleep(settle_time(self.options));
        let read = self.read_check(true)?;
        Ok(match board_as_seen(read, expected, changed) {
            Ok(seen) => Shown::Board(seen),
            Err(why) => Shown::Covered(why),
        })
    }

    /// The rows showed no board: reads the whole screen (twice when it shows one short of the
    /// plan) and decides between rows that do not read, a cover that came and went, and a
    /// board still covered.
    fn look_at_whole_screen(&mut self, expected: &Board, changed: &[Cell]) -> Result<Shown> {
        let mut whole = self.read_whole_screen()?;
        if matches!(&whole, Ok(rec) if !expected.diff(&rec.board).is_empty()) {
            // Not drawn yet, or taps lost under a cover that is gone: look once more.
            std::thread::sleep(settle_time(self.options));
            whole = self.read_whole_screen()?;
        }
        Ok(match whole {
            Ok(rec) if expected.diff(&rec.board).is_empty() => {
                log::info!(
                    "a check of the grid's rows did not read where the whole screen did: checking whole screens from now on"
                );
                self.run.whole_checks = true;
                Shown::Board(rec.board)
            }
            Ok(rec) => {
                // The rows showed no board and the screen now shows one short of the plan: an
                // ad or a dialog came and went, and swallowed the taps sent meanwhile. Go on
                // from the board as it is (as after a longer wait).
                self.phone.say(&format!(
                    "the board was covered after {} moves and is back (an ad or a dialog?); continuing from it as it is now",
                    self.report.moves_done
                ));
                self.report.interruptions += 1;
                self.run.replan(rec, self.options)?;
                Shown::Replanned
            }
            Err(e) => match board_as_seen(Err(e), expected, changed) {
                Ok(seen) => Shown::Board(seen),
                Err(why) => Shown::Covered(why),
            },
        })
    }

    /// A screenshot of the whole screen, read (a check, counted as one). Taken past the frame
    /// lag after the last taps: a fresh plan made from a frame that still trails them would
    /// enter their cells again (in a number-first app a re-tap erases the digit).
    fn read_whole_screen(&mut self) -> Result<Result<Recognition, sudoku_reader::ReadError>> {
        let past_lag = self.last_sent + self.phone.lag_to_wait_out();
        std::thread::sleep(past_lag.saturating_duration_since(Instant::now()));
        let image = self.phone.device.screenshot().context(CHECK_SHOT_FAILED)?;
        let taken = Instant::now();
        self.report.checks += 1;
        self.run.fetched = check_rows(&self.run.cal);
        self.run.keys.note(&image, &self.run.cal);
        let read = self.run.read(&image, self.phone.profile);
        // The last screen seen, which the next check's rows are laid over.
        self.run.frame = Some(Frame {
            taken,
            image: Arc::new(image),
        });
        Ok(read)
    }

    /// The board differs from the plan: the app may not have drawn the last move yet. Looks
    /// again until the screen shows the plan, or its cells in question have stopped changing
    /// (apps fade or pop digits in: a faint digit halfway reads as none, frame after frame), at
    /// least a settle after the taps, within a bound ([`settling`]). Still different: the board
    /// is [`Checked::Wrong`].
    fn look_again(&mut self, expected: &Board, changed: &[Cell]) -> Result<Checked> {
        // A lagging phone's frames show the screen from before the taps for a while: the
        // settle starts past the lag the first moves showed (see `Phone::settle`).
        let lag = self.phone.lag_to_wait_out();
        let mut frames = Settling::with_lag(self.last_sent, settle_time(self.options), lag);
        if let Some(last) = &self.run.frame {
            // The settle shares the last frame (no copy), which stays the rows' base.
            frames.add_at(last.taken, last.image.clone());
        }
        let side = self.phone.cell_side();
        // The frame the lag is measured from, until a later one shows the taps' cells change.
        let mut before = self.run.frame.as_ref().map(|f| f.image.clone());
        let cells: Vec<Point> = changed.iter().map(|&c| self.phone.cell_centre(c)).collect();
        let seen = loop {
            std::thread::sleep(settling::STEP);
            let read = self.read_check(true)?;
            let shot = &self
                .run
                .frame
                .as_ref()
                .expect("a check keeps its frame")
                .image;
            frames.add(shot.clone());
            if let (Some(first), Some(now)) = (&before, &self.run.frame)
                && self
                    .phone
                    .lag_shown(self.last_sent, (first, &now.image), now.taken, &cells)
            {
                before = None;
            }
            let seen = match board_as_seen(read, expected, changed) {
                Ok(seen) => seen,
                // Covered meanwhile (an overlay that flashed, a dialog): wait while the
                // screen settles, then as for any cover.
                Err(_) if !frames.timed_out() => continue,
                Err(why) => return Ok(Checked::Covered(why)),
            };
            let around: Vec<Point> = expected
                .diff(&seen)
                .into_iter()
                .map(|c| self.phone.cell_centre(c))
                .collect();
            if around.is_empty() || !frames.waiting(&around, side) {
                log::debug!(
                    "check after move {}: the screen settled {:.0} ms after the taps, showing the plan: {}",
                    self.run.done,
                    ms(self.last_sent.elapsed()),
                    around.is_empty()
                );
                break seen;
            }
        };
        let cells = expected.diff(&seen);
        if cells.is_empty() {
            return self.shows_all(seen);
        }
        let noted = cells
            .iter()
            .copied()
            .filter(|c| self.run.noted.contains(c))
            .collect();
        Ok(Checked::Wrong { seen, cells, noted })
    }

    /// The screen settled on `seen`, which differs from the plan in `differ` (`noted` of them
    /// show pencil notes): digits of ours that went in as notes switch notes mode off; cells the
    /// phone refused, or taps lost, are entered again; a first move that did not land tries the
    /// other input order; anything else stops the run.
    fn correct(&mut self, seen: &Board, differ: &[Cell], noted: &[Cell]) -> Result<Checked> {
        let ours_as_notes = self.run.ours_as_notes(noted);
        if !ours_as_notes.is_empty() {
            return self.switch_notes_off(&ours_as_notes);
        }
        if self.run.refused && self.run.untouched(seen, differ) {
            return self.enter_again(differ, true);
        }
        if self.run.order_checked {
            let expected = plan::apply(&self.run.base, &self.run.moves[..self.run.done]);
            // Cells that show their solution's digit before the plan put it there (a move of
            // ours sent before a fresh plan, seen late on a lagging phone) are no harm.
            let solution = &self.report.assessment.solution;
            let ahead = |c: &Cell| {
                expected.get(*c).is_none()
                    && seen.get(*c).is_some()
                    && seen.get(*c) == solution.get(*c)
            };
            let behind: Vec<Cell> = differ.iter().copied().filter(|c| !ahead(c)).collect();
            if behind.is_empty() {
                log::info!(
                    "{} show their solution ahead of the plan: a fresh plan",
                    plural_cells(differ.len())
                );
                return self.replan_from_screen();
            }
            if self.run.lost_taps_only(&expected, seen, &behind) {
                return self.enter_again(&behind, false);
            }
            return Err(BoardProblem(late_mismatch(&expected, seen, differ)).into());
        }
        self.switch_order(seen)?;
        Ok(Checked::Replanned)
    }

    /// Digits of ours went into `cells` as pencil notes: the app's notes mode is on (a player
    /// left it so). Its button, when learned, switches it off once and the cells are entered
    /// again (a digit replaces a cell's notes); notes are no mistake, so without the button, or
    /// when notes come again, the run stops with what to do.
    fn switch_notes_off(&mut self, cells: &[Cell]) -> Result<Checked> {
        let names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        let what = format!(
            "notes mode is on in the app: {} took our digits as pencil notes",
            names.join(", ")
        );
        let toggle = self.run.cal.keypad.as_ref().and_then(|k| k.notes);
        let toggle = match toggle {
            Some(t) if !self.run.notes_switched_off => t,
            Some(t) => {
                return Err(BoardProblem(format!(
                    "{what} again after its button at {},{} switched it off: switch notes off in the app and run play again (notes are no mistake)",
                    t.x, t.y
                ))
                .into());
            }
            None => {
                return Err(BoardProblem(format!(
                    "{what}, and the profile knows no notes button: switch notes off in the app and run play again (notes are no mistake), or run `sudoku-agent calibrate` with notes on so it learns the button"
                ))
                .into());
            }
        };
        self.phone.say(&format!(
            "{what}: switching it off with its button at {},{} and entering them again",
            toggle.x, toggle.y
        ));
        self.phone.tap_all(&[toggle])?;
        self.last_sent = Instant::now();
        self.run.notes_switched_off = true;
        self.replan_from_screen()
    }

    /// The board shows every move sent: verified, the input order with it; after refused taps,
    /// a fresh plan ([`Self::replan_after_refusal`]).
    fn shows_all(&mut self, seen: Board) -> Result<Checked> {
        if self.run.refused {
            return self.replan_after_refusal();
        }
        self.run.order_checked = true;
        self.run.verified = self.run.done;
        Ok(Checked::Verified(seen))
    }

    /// Taps were refused and the board shows every move sent: go on from a fresh plan of it (the
    /// taps after the refused one may not have been sent; a fresh plan starts with its key).
    fn replan_after_refusal(&mut self) -> Result<Checked> {
        self.replan_from_screen()
    }

    /// A fresh plan from the whole screen read now (or the cover over it waited out).
    fn replan_from_screen(&mut self) -> Result<Checked> {
        match self.read_whole_screen()? {
            Ok(now) => {
                self.run.replan(now, self.options)?;
                Ok(Checked::Replanned)
            }
            Err(why) => Ok(Checked::Covered(why)),
        }
    }

    /// Planned cells took no digit and nothing else went wrong: a tap was lost (an overlay
    /// that flashed, a touch the app dropped). Go on from the board as it is now, re-selecting
    /// the digit (a fresh plan starts with its key); a cell that misses twice stops the run.
    /// After `refused` taps (the phone said so) the cells are not counted as missed.
    fn enter_again(&mut self, missed: &[Cell], refused: bool) -> Result<Checked> {
        let cells: Vec<String> = missed.iter().map(|c| c.to_string()).collect();
        let cause = if refused {
            "the phone refused a tap"
        } else {
            "a tap lost under an overlay?"
        };
        self.phone.say(&format!(
            "{} took no digit ({cause}): entering {} again",
            cells.join(", "),
            if missed.len() == 1 { "it" } else { "them" }
        ));
        if !refused {
            self.run.missed.extend(missed.iter().copied());
        }
        self.replan_from_screen()
    }

    /// Judges the key tap that ended the batch ([`Run::key_verdict`]); one that does not look
    /// selected is looked at once more after a settle (the app may still be drawing it, and in
    /// an app where tapping a selected key deselects it, tapping it again would), then acted on
    /// ([`KeyWatch::tap_again`]: a key tapped again resumes the batch at it).
    fn judge_key(&mut self) -> Result<()> {
        let Some((key, mut verdict)) = self.run.key_verdict() else {
            return Ok(());
        };
        if verdict == KeyLook::NotSelected {
            std::thread::sleep(settle_time(self.options));
            self.run.keys.look_again(key);
            self.shot()?;
            if let Some((_, again)) = self.run.key_verdict() {
                verdict = again;
            }
        }
        let target = self.run.plan.taps[self.run.taps_done - 1].target;
        if self.run.keys.tap_again(verdict, target)? {
            self.run.taps_done -= 1;
        }
        Ok(())
    }

    /// A check's screenshot (counted as a check), kept as the last frame.
    fn shot(&mut self) -> Result<()> {
        self.report.checks += 1;
        self.run.check_shot(self.phone.device, true)
    }

    /// A check's screenshot ([`Self::shot`]), read ([`Run::read`]).
    fn read_check(&mut self, full: bool) -> Result<Result<Recognition, sudoku_reader::ReadError>> {
        self.report.checks += 1;
        self.run.check_shot(self.phone.device, full)?;
        let shot = self.run.last_frame();
        let read = self.run.read(&shot.image, self.phone.profile);
        self.run.frame = Some(shot);
        Ok(read)
    }

    /// The first move of the run did not land: the input order may have changed since
    /// calibration. Try the other order on the same cell once, and go on in the one that works.
    fn switch_order(&mut self, seen: &Board) -> Result<()> {
        let learned = relearn_order(
            self.phone,
            &self.run.cal,
            (&self.run.base, self.run.moves[0]),
            seen,
            settle_time(self.options),
        )?;
        self.phone.say(&format!(
            "the app now takes {}: re-learned from the first move, continuing",
            match learned.cal.input_order {
                InputOrder::CellFirst => "the cell first, then the digit",
                InputOrder::NumberFirst => "the digit first, then the cell",
            }
        ));
        self.report.relearned_order = Some(learned.cal.input_order);
        self.report.checks += 1;
        self.run.cal = learned.cal;
        self.run.order_checked = true;
        self.run.replan(learned.board, self.options)
    }

    /// The last step: the board as last seen (or read now) must show the solution.
    fn finish(self, last_seen: Option<Board>) -> Result<PlayReport> {
        let mut report = self.report;
        if report.end_screen {
            // Nothing left to read: the moves before the last were seen, the last one made the
            // app announce the end.
            return Ok(report);
        }
        let seen = match last_seen {
            Some(seen) => seen,
            None => {
                let shot = self.phone.capture()?.screen;
                self.phone
                    .read(&shot)
                    .result
                    .map_err(|e| BoardProblem(format!("cannot read the board back: {e}")))?
                    .board
            }
        };
        report.final_board = Some(seen);
        let solution = report.assessment.solution;
        let differ = solution.diff(&seen);
        if !differ.is_empty() {
            let advice = if self.phone.device.shows_taps() {
                "check the app's input settings and re-run play"
            } else {
                "a screenshot file does not change when tapped (the taps were only recorded): use --dry-run to see the plan on a picture, or play on a phone"
            };
            return Err(BoardProblem(format!(
                "after tapping, {} do not show the solution: {}; {advice}",
                plural_cells(differ.len()),
                differ
                    .iter()
                    .map(|&c| format!(
                        "{c} shows {} instead of {}",
                        show(seen.get(c)),
                        show(solution.get(c))
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .into());
        }
        Ok(report)
    }
}

/// Refusals of injected taps in a row, with no change on screen between them, that end a run.
pub const REFUSALS: usize = 3;

/// Every this many checks one fetches all the grid's rows (the others only the rows their
/// batch changed).
pub const FULL_CHECK_EVERY: usize = 4;

/// The screen rows a check looks at: the grid and half a cell around it (the grid is found
/// again near where it was calibrated). An ad or a dialog that covers the board covers these.
pub fn check_rows(cal: &Calibration) -> std::ops::Range<u32> {
    let margin = cal.grid.height / 18;
    cal.grid.y.saturating_sub(margin)..cal.grid.y + cal.grid.height + margin
}

/// What a check that cannot take its screenshot says: the phone went away mid-play.
const CHECK_SHOT_FAILED: &str =
    "cannot take a screenshot to check the moves sent; re-run play to finish the board";

/// How long the app may take to draw what was tapped, before a second look.
fn settle_time(options: &PlayOptions) -> Duration {
    Duration::from_millis(options.pacing.map_or(300, |p| p.settle_ms.max(100)) as u64)
}

/// The message for a checked batch that did not land, after the first move had.
fn late_mismatch(expected: &Board, seen: &Board, differ: &[Cell]) -> String {
    let detail = differ
        .iter()
        .map(|&c| {
            format!(
                "{c} shows {} instead of {}",
                show(seen.get(c)),
                show(expected.get(c))
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let refused = differ
        .iter()
        .all(|&c| seen.get(c).is_none() && expected.get(c).is_some());
    let cause = if refused {
        "the app refused or ignored the digits: a mistake limit reached (game over), notes mode switched on, or a dialog over the keypad"
    } else {
        "digits landed where they should not: the keypad layout changed or a key was mis-tapped; re-run `sudoku-agent calibrate`"
    };
    format!("stopped: {detail}. Likely cause: {cause}; fix it on the phone and re-run play")
}
