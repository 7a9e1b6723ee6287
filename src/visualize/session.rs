//! The replay loop of `visualize` on any `Device` (the search comes from `record`, its cost from
//! `estimate`, which counts with this loop's own batch sizes, `moves_per_batch`): every move is
//! sent as taps in short batches (so Ctrl-C stops within a fraction of a second),
//! with checks that re-read the screen and compare it with the replayed board, and a state
//! file so an interrupted run can continue where the screen is.

use super::resume::State;
use crate::device::Pacing;
use crate::error::BoardProblem;
use crate::geometry::Point;
use crate::phone::{Phone, SettledBoard, under_heads_up};
use crate::plan::{self, Layout, Move};
use crate::play::relearn_order;
use crate::profile::calibration::InputOrder;
use crate::sudoku::Board;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use sudoku_reader::stages::settling;

/// How to replay.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// Re-read the screen after every this many moves (and at the end).
    pub check_every: usize,
    /// Slow down to at most this many moves per second.
    pub moves_per_second: Option<f64>,
    /// Hold and gap for every tap; the settle is used only before checks.
    pub pacing: Pacing,
    /// Wait after the last tap before a check's screenshot.
    pub check_settle_ms: u32,
    /// Longest a batch of taps should take, so a stop request is honoured quickly.
    pub batch_time: Duration,
    /// Where progress is saved for `--resume` (none: not saved).
    pub state_file: Option<PathBuf>,
    /// What a move was measured to take on this phone before the replay (`measure`): sizes the
    /// first batch; without it the input method's known cost does.
    pub first_per_move: Option<Duration>,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            check_every: 200,
            moves_per_second: None,
            pacing: Pacing::NONE,
            check_settle_ms: 100,
            batch_time: Duration::from_millis(250),
            state_file: None,
            first_per_move: None,
        }
    }
}

/// How long `moves` take at `rate` moves per second; saturates instead of panicking when the
/// rate is so low that the time does not fit a `Duration`.
pub fn paced_time(moves: usize, rate: f64) -> Duration {
    Duration::try_from_secs_f64(moves as f64 / rate).unwrap_or(Duration::MAX)
}

/// Moves per `tap_all` call: as many as take about `batch_time` at `per_move`, 1 to 64, and no
/// more than the rate limit allows in that time. The replay loop sizes its batches with this,
/// and the estimate counts calls with it.
pub fn moves_per_batch(options: &ReplayOptions, per_move: Duration) -> usize {
    let fit = if per_move.is_zero() {
        64
    } else {
        (options.batch_time.as_secs_f64() / per_move.as_secs_f64()) as usize
    };
    let mut n = fit.clamp(1, 64);
    if let Some(rate) = options.moves_per_second.filter(|r| *r > 0.0) {
        n = n.min(((rate * options.batch_time.as_secs_f64()) as usize).max(1));
    }
    n
}

/// A replay on one phone: the phone, and where the moves are tapped (its input order as last
/// learned).
pub struct Replay<'p, 'a> {
    pub phone: &'p mut Phone<'a>,
    pub layout: Layout,
}

/// How a replay ended.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// Moves on the screen at the end (all of them unless stopped).
    pub done: usize,
    pub taps_sent: usize,
    pub checks: usize,
    /// After the last move the board gave way to the app's end screen; every earlier move was
    /// seen on the board (`final_board` is the replayed board then).
    pub end_screen: bool,
    /// The board the last check read.
    pub final_board: Board,
    pub elapsed: Duration,
    /// The first move did not land in the calibrated input order and did in the other one: the
    /// app's order now (to be saved to its profile).
    pub relearned_order: Option<InputOrder>,
}

/// Progress as the replay goes: moves done so far.
pub type ProgressFn<'a> = dyn FnMut(usize) + 'a;

/// Replays `moves[start..]` (the first `start` are already on the screen) from `puzzle`.
#[allow(clippy::too_many_arguments)]
pub fn replay_moves(
    replay: &mut Replay,
    puzzle: &Board,
    moves: &[Move],
    start: usize,
    options: &ReplayOptions,
    mut state: Option<State>,
    progress: &mut ProgressFn,
) -> Result<ReplayReport> {
    let total = moves.len();
    if replay.layout.erase.is_none()
        && moves[start..]
            .iter()
            .any(|m| matches!(m, Move::Erase { .. }))
    {
        return Err(plan::NoEraseButton)
            .context("the search takes digits back with the erase button; nothing was tapped");
    }
    let check_every = options.check_every.max(1);
    // Taps on the board need no wait for a frame after them; taps on keys do (`tap_waits`).
    replay.phone.device.set_board(Some(replay.layout.grid));
    // Its board was just read: at a check that finds none, another app in front is named.
    replay.phone.note_game_in_front();
    let started = Instant::now();
    save(&mut state, options, &|s| {
        s.sent = start;
        s.sending = start;
        s.confirmed = s.confirmed.min(start);
    })?;
    let mut expected = plan::apply(puzzle, &moves[..start]);
    let mut done = start;
    let mut taps_sent = 0;
    let mut checks = 0;
    let mut final_board = expected;
    let mut confirmed = start;
    let mut end_screen = false;
    let mut relearned_order = None;
    // The first batch is sized from what was measured before the replay (else the input method's
    // known cost), later ones from the batches themselves.
    let per_move_guess = options
        .first_per_move
        .unwrap_or_else(|| replay.phone.device.tap_cost(&options.pacing) * 2);
    let mut batch = moves_per_batch(options, per_move_guess);
    // The last batch tapped where a heads-up notification shows: a tap there may have opened
    // the notification's app, so the app in front is asked before the next batch.
    let mut under_banner = false;
    while done < total {
        if replay.phone.stopped() {
            bail!(
                "stopped by the user after {done} of {total} moves; continue with `sudoku-agent visualize --resume`"
            );
        }
        if under_banner {
            stop_if_another_app_in_front(replay, done, total)?;
        }
        let next_check = next_check(done, total, check_every);
        let limit = (done + batch).min(next_check);
        let (end, points, banner) = next_batch(replay, moves, (done, start), limit)?;
        under_banner = banner;
        save(&mut state, options, &|s| s.sending = end)?;
        // Settling is for the check's screenshot; between batches a tap is a tap, and the
        // pacing's gap (the injector's wait for the app's click) still follows the last one.
        let settle = if end == next_check {
            options.check_settle_ms
        } else {
            options.pacing.gap_ms
        };
        let took = send_batch(replay, &points, (done, total), settle, options)?;
        let sent_at = Instant::now();
        taps_sent += points.len();
        let before = expected;
        expected = plan::apply(&expected, &moves[done..end]);
        let sent_now = end - done;
        done = end;
        save(&mut state, options, &|s| s.sent = end)?;
        progress(done);
        let per_move = took.saturating_sub(Duration::from_millis(settle.into())) / sent_now as u32;
        batch = moves_per_batch(options, per_move);
        keep_rate(options, started, done - start, replay.phone.stop_flag());
        if done == next_check {
            // All but the last move were seen on the board: a screen that no longer shows it
            // after the last one is the app's end screen (most apps show a completion card).
            let look = Look::new(&expected, sent_at, done, total);
            final_board = match check(replay, &look) {
                Ok(board) => board,
                Err(Mismatch::Board(seen)) if done == start + 1 && relearned_order.is_none() => {
                    let (board, order, taps) =
                        relearn_first_move(replay, (&before, moves[start]), &seen, &look)?;
                    relearned_order = Some(order);
                    taps_sent += taps;
                    board
                }
                Err(_) if done == total && confirmed + 1 >= total && covered(replay) => {
                    end_screen = true;
                    final_board = expected;
                    break;
                }
                Err(e) => return Err(e.into_error(&look)),
            };
            checks += 1;
            confirmed = done;
            save(&mut state, options, &|s| s.confirmed = end)?;
        }
    }
    if start == total {
        let look = Look::new(&expected, started, done, total);
        final_board = check(replay, &look).map_err(|e| e.into_error(&look))?;
        checks += 1;
    }
    Ok(ReplayReport {
        done,
        taps_sent,
        checks,
        final_board,
        end_screen,
        elapsed: started.elapsed(),
        relearned_order,
    })
}

/// Saves the progress for `--resume` after `f` updates it (when there is a state file).
fn save(state: &mut Option<State>, options: &ReplayOptions, f: &dyn Fn(&mut State)) -> Result<()> {
    if let (Some(s), Some(path)) = (state.as_mut(), &options.state_file) {
        f(s);
        s.save(path)?;
    }
    Ok(())
}

/// Sends a batch's taps (`done` of `total` moves are on the screen before it) in one `tap_all`
/// call with the replay's pacing, settling `settle_ms` after it: the time the call took.
fn send_batch(
    replay: &mut Replay,
    points: &[Point],
    (done, total): (usize, usize),
    settle_ms: u32,
    options: &ReplayOptions,
) -> Result<Duration> {
    replay.phone.device.set_pacing(Pacing {
        settle_ms,
        ..options.pacing
    });
    let t = Instant::now();
    replay.phone.device.tap_all(points).with_context(|| {
        format!(
            "the phone stopped taking taps after {done} of {total} moves; reconnect it (`adb devices`) and continue with `sudoku-agent visualize --resume`"
        )
    })?;
    Ok(t.elapsed())
}

/// The next batch after `done` (`start`: where the replay began), up to `end`: its end, its
/// taps, and whether they tap where a heads-up notification shows. Such a batch is cut to
/// [`BANNER_BATCH`] moves: at most these follow a tap on a banner before the app in front is
/// asked.
fn next_batch(
    replay: &Replay,
    moves: &[Move],
    (done, start): (usize, usize),
    end: usize,
) -> Result<(usize, Vec<Point>, bool)> {
    let width = replay.phone.profile.calibration.screen.width;
    let points = batch_taps(moves, done, end, start, &replay.layout)?;
    let under_banner = points.iter().any(|p| under_heads_up(p.y, width));
    if under_banner && end - done > BANNER_BATCH {
        let end = done + BANNER_BATCH;
        let points = batch_taps(moves, done, end, start, &replay.layout)?;
        return Ok((end, points, true));
    }
    Ok((end, points, under_banner))
}

/// Moves a batch that taps where a heads-up notification shows is cut to: with the app in
/// front asked before the next batch, at most 8 taps (a check's worth) go to an app that a
/// tap on a banner opened.
const BANNER_BATCH: usize = 4;

/// Another app in front of the game (a notification tapped): the replay stops before its next
/// tap, naming it.
fn stop_if_another_app_in_front(replay: &mut Replay, done: usize, total: usize) -> Result<()> {
    if let Some(other) = replay.phone.other_app_in_front()? {
        return Err(BoardProblem(format!(
            "{} came to the front after {done} of {total} moves (a tap on a notification?): stopped tapping; open the game and continue with `sudoku-agent visualize --resume`",
            crate::error::one_line(&other)
        ))
        .into());
    }
    Ok(())
}

/// Waits until `moved` moves since `started` keep to `options.moves_per_second` (or a stop).
fn keep_rate(options: &ReplayOptions, started: Instant, moved: usize, stop: &AtomicBool) {
    let Some(rate) = options.moves_per_second.filter(|r| *r > 0.0) else {
        return;
    };
    let wait = paced_time(moved, rate);
    // A wait past the end of `Instant` waits until stopped rather than panicking.
    let due = started.checked_add(wait);
    while !stop.load(Ordering::SeqCst) {
        let left = due.map_or(Duration::MAX, |d| {
            d.saturating_duration_since(Instant::now())
        });
        if left.is_zero() {
            break;
        }
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}

/// The screen points for `moves[a..b]`. Number-first apps keep the selected key between
/// batches, so the move before `a` is planned too (and its taps dropped) unless `a` is where
/// this run started and nothing is known about the key in hand.
fn batch_taps(
    moves: &[Move],
    a: usize,
    b: usize,
    first: usize,
    layout: &Layout,
) -> Result<Vec<Point>> {
    let from = if a > first { a - 1 } else { a };
    let plan = plan::plan(&moves[from..b], layout)?;
    let skip = if from < a { plan.move_ends[0] + 1 } else { 0 };
    Ok(plan.taps[skip..].iter().map(|t| t.at).collect())
}

/// Reads the screen and compares it with the board the replay should have made.
/// The move count of the next check after `done` of `total`: the first move alone (it
/// proves the input order and the app's settings, so a wrong one costs one move), then after
/// 8 and 64 moves, then every `check_every`; and the last move alone, after a check of all
/// the others (after it most apps cover the board with an end card).
pub fn next_check(done: usize, total: usize, check_every: usize) -> usize {
    let every = check_every.max(1);
    let regular = (done / every + 1) * every;
    let next = [1, 8, 64]
        .into_iter()
        .find(|&n| n > done)
        .map_or(regular, |n| n.min(regular));
    if next >= total - 1 && done < total - 1 {
        total - 1
    } else {
        next.min(total)
    }
}

/// The board is not on the screen now, and still not after a short settle (not a flash).
fn covered(replay: &mut Replay) -> bool {
    let mut look = || {
        replay
            .phone
            .capture()
            .map(|s| replay.phone.read(&s.screen).result.is_err())
            .unwrap_or(false)
    };
    look() && {
        std::thread::sleep(Duration::from_millis(300));
        look()
    }
}

/// The run's first move alone did not land: the app's input order may have changed since it
/// was learned. The same move in the other order, once; the replay goes on in the order that
/// worked. Returns the board now, that order and the taps the retry sent.
fn relearn_first_move(
    replay: &mut Replay,
    before_and_first: (&Board, Move),
    seen: &Board,
    look: &Look,
) -> Result<(Board, InputOrder, usize)> {
    let mut cal = replay.phone.profile.calibration.clone();
    cal.input_order = replay.layout.order;
    let learned = relearn_order(
        replay.phone,
        &cal,
        before_and_first,
        seen,
        settling::MIN_WAIT,
    )?;
    replay.layout.order = learned.cal.input_order;
    check_board(look.expected, &learned.board.board, look.done, look.total)?;
    Ok((learned.board.board, learned.cal.input_order, learned.taps))
}

/// A check: the board the replay should have made, when its last taps went out, and how
/// far the replay is.
struct Look<'a> {
    expected: &'a Board,
    sent_at: Instant,
    done: usize,
    total: usize,
}

/// Why a check failed: the screen could not be read, or it shows another board.
enum Mismatch {
    Unreadable(anyhow::Error),
    Board(Board),
}

impl<'a> Look<'a> {
    fn new(expected: &'a Board, sent_at: Instant, done: usize, total: usize) -> Look<'a> {
        Look {
            expected,
            sent_at,
            done,
            total,
        }
    }
}

impl Mismatch {
    fn into_error(self, look: &Look) -> anyhow::Error {
        match self {
            Mismatch::Unreadable(e) => e,
            Mismatch::Board(seen) => {
                match check_board(look.expected, &seen, look.done, look.total) {
                    Err(e) => e,
                    Ok(()) => anyhow::anyhow!(
                        "check after {} of {} moves: the board changed while it was read; continue with `sudoku-agent visualize --resume`",
                        look.done,
                        look.total
                    ),
                }
            }
        }
    }
}

/// Reads the grid's rows and compares them with the replayed board, once the screen settled
/// ([`Phone::settle_board`]: no frame caught halfway through a digit fading in fails a run).
fn check(replay: &mut Replay, look: &Look) -> Result<Board, Mismatch> {
    let (done, total) = (look.done, look.total);
    let rows = crate::play::check_rows(&replay.phone.profile.calibration);
    let settled = replay
        .phone
        .settle_board(rows, look.sent_at, settling::MIN_WAIT, look.expected)
        .with_context(|| format!("cannot take a screenshot at the check after {done} of {total} moves; reconnect the phone and continue with `sudoku-agent visualize --resume`"))
        .map_err(Mismatch::Unreadable)?;
    match settled {
        SettledBoard::Shows(seen) => Ok(seen),
        SettledBoard::Differs(seen) => Err(Mismatch::Board(seen)),
        SettledBoard::Unreadable(e) => {
            // Another app in front is named, rather than the board it hides.
            stop_if_another_app_in_front(replay, done, total).map_err(Mismatch::Unreadable)?;
            Err(Mismatch::Unreadable(BoardProblem(format!(
            "cannot read the board at the check after {done} of {total} moves ({e}); if the app ended the game (mistake limit) or shows a dialog, {ADVICE}"
        )).into()))
        }
    }
}

const ADVICE: &str = "turn off the app's mistake limit / auto-check (\"stop mistakes\") setting: a search must be allowed to place wrong digits; then start the puzzle again and re-run visualize";

/// Compares the screen with the replayed board: a digit the search set but the screen lacks
/// means the app refused it (or missed the tap).
pub fn check_board(expected: &Board, seen: &Board, done: usize, total: usize) -> Result<()> {
    let differ = expected.diff(seen);
    if differ.is_empty() {
        return Ok(());
    }
    let show = |d: Option<u8>| d.map_or("nothing".to_string(), |d| d.to_string());
    let listed: Vec<String> = differ
        .iter()
        .take(6)
        .map(|&c| {
            format!(
                "{c} should show {} but shows {}",
                show(expected.get(c)),
                show(seen.get(c))
            )
        })
        .collect();
    let more = if differ.len() > 6 {
        format!(" and {} more", differ.len() - 6)
    } else {
        String::new()
    };
    let refused = differ
        .iter()
        .any(|&c| expected.get(c).is_some() && seen.get(c).is_none());
    let why = if refused {
        format!("the app did not take digits the search set: {ADVICE}")
    } else {
        "the app did not take every tap: give the calibration a [pacing] section (hold_ms, gap_ms) or use a lower --moves-per-second, then --resume".to_string()
    };
    Err(BoardProblem(format!(
        "check after {done} of {total} moves: {}{more}; {why}",
        listed.join(", ")
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::sim::SimDevice;
    use crate::device::{Input, InputKind};
    use crate::geometry::Rect;
    use crate::profile::Profile;
    use crate::profile::calibration::InputOrder;
    use crate::sudoku::{Cell, Strategy};
    use crate::visualize::record::{Search, record_search};
    use sudoku_sim::{Skin, SudokuApp, puzzles};

    const EASY2: &str =
        "040100050107003960520008000000000017000906800803050620090060543600080700250097100";

    #[test]
    fn batches_of_a_number_first_replay_join_up_without_extra_key_taps() {
        let puzzle = Board::from(puzzles::parse(EASY2).unwrap());
        let search = record_search(&puzzle, Strategy::Naive, None).unwrap();
        let moves = search.moves();
        let lay = Layout {
            grid: Rect::new(0, 0, 900, 900),
            digits: std::array::from_fn(|i| Point::new(100 * i as u32 + 50, 1000)),
            erase: Some(Point::new(50, 1100)),
            order: InputOrder::NumberFirst,
            park: None,
        };
        let whole = plan::plan(&moves, &lay).unwrap();
        let mut joined = Vec::new();
        for a in (0..moves.len()).step_by(7) {
            joined.extend(batch_taps(&moves, a, (a + 7).min(moves.len()), 0, &lay).unwrap());
        }
        let whole: Vec<Point> = whole.taps.iter().map(|t| t.at).collect();
        assert_eq!(joined, whole);
    }

    #[test]
    fn batches_stay_short_one_move_for_a_jvm_per_tap_several_for_raw_events() {
        let batch = Input::Method(InputKind::Batch);
        let evdev = Input::Method(InputKind::Evdev);
        let options = ReplayOptions::default();
        let slow = batch.tap_cost(&batch.fastest_pacing()) * 2;
        assert_eq!(moves_per_batch(&options, slow), 1);
        // 2 ms, a 10 ms hold and the 21 ms gap a tap, two taps a move: three moves in 250 ms.
        let quick = evdev.tap_cost(&evdev.fastest_pacing()) * 2;
        assert_eq!(moves_per_batch(&options, quick), 3);
    }

    #[test]
    fn a_check_names_refused_digits_with_the_settings_advice() {
        let mut expected = Board::empty();
        let c = Cell::new(0, 2).unwrap();
        expected.set(c, Some(4));
        let err = check_board(&expected, &Board::empty(), 10, 20)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("r1c3 should show 4 but shows nothing"),
            "{err}"
        );
        assert!(err.contains("mistake limit"), "{err}");
        let err = check_board(&Board::empty(), &expected, 10, 20)
            .unwrap_err()
            .to_string();
        assert!(err.contains("did not take every tap"), "{err}");
        assert!(check_board(&expected, &expected, 1, 1).is_ok());
    }

    /// The in-process phone showing `puzzle`, and a calibration measured on its screen.
    fn sim_phone(puzzle: &Board) -> (SimDevice, crate::calibrate::Calibrated) {
        use sudoku_sim::Screen;
        let mut phone = SudokuApp::new(
            (*puzzle).into(),
            Skin::named("light").unwrap(),
            sudoku_sim::Size::new(720, 1280),
        )
        .unwrap();
        let options = crate::calibrate::CalibrateOptions {
            profile: "default".into(),
            erase: Some(phone.key_center(sudoku_sim::Key::Erase).into()),
            ..Default::default()
        };
        let done = crate::calibrate::calibrate_image(&phone.render(), &options).unwrap();
        (SimDevice::new(phone), done)
    }

    /// Replays the naive search of [`EASY2`] on the in-process phone through `run`, given the
    /// replay, the search and the stop flag the phone watches; returns the phone's device
    /// afterwards (for its log of moves) with what `run` returned.
    fn on_sim_phone<R>(
        run: impl FnOnce(&mut Replay<'_, '_>, &Search, &AtomicBool) -> R,
    ) -> (SimDevice, R) {
        let puzzle = Board::from(puzzles::parse(EASY2).unwrap());
        let search = record_search(&puzzle, Strategy::Naive, None).unwrap();
        let (mut device, done) = sim_phone(&puzzle);
        let layout = crate::plan::layout(&done.calibration).unwrap();
        let profile = Profile::new(done.calibration, done.templates);
        let stop = AtomicBool::new(false);
        let out = {
            let mut phone = Phone::new(&mut device, &profile, &stop, &|_| {});
            let mut replay = Replay {
                phone: &mut phone,
                layout,
            };
            run(&mut replay, &search, &stop)
        };
        (device, out)
    }

    #[test]
    fn the_in_process_phone_shows_every_move_of_the_search() {
        let mut seen = Vec::new();
        let (device, (moves, solution, report)) = on_sim_phone(|replay, search, _| {
            let options = ReplayOptions {
                check_every: 100,
                ..Default::default()
            };
            let moves = search.moves();
            let report = replay_moves(
                replay,
                &search.puzzle,
                &moves,
                0,
                &options,
                None,
                &mut |d| seen.push(d),
            );
            (moves, search.solution, report.unwrap())
        });
        assert_eq!(report.done, moves.len());
        assert_eq!(report.final_board, solution);
        assert_eq!(seen.last(), Some(&moves.len()));
        let log: Vec<Move> = device
            .phone()
            .moves()
            .iter()
            .map(|m| match *m {
                sudoku_sim::AppMove::Set { cell, digit } => Move::Set {
                    cell: cell.into(),
                    digit,
                },
                sudoku_sim::AppMove::Erase { cell } => Move::Erase { cell: cell.into() },
                sudoku_sim::AppMove::Rejected { .. } => {
                    panic!("nothing is rejected without a limit")
                }
            })
            .collect();
        assert_eq!(log, moves);
    }

    #[test]
    fn a_stop_request_ends_the_replay_between_batches_and_saves_the_progress() {
        let dir = std::env::temp_dir().join(format!("sa-session-stop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("progress.json");
        let options = ReplayOptions {
            state_file: Some(path.clone()),
            moves_per_second: Some(40.0),
            ..Default::default()
        };
        let (device, (err, moves)) = on_sim_phone(|replay, search, stop| {
            let moves = search.moves();
            let state = State::new(
                &search.puzzle,
                Strategy::Naive,
                None,
                moves.len(),
                "direct".into(),
            );
            let err = replay_moves(
                replay,
                &search.puzzle,
                &moves,
                0,
                &options,
                Some(state),
                &mut |_| stop.store(true, Ordering::SeqCst),
            )
            .unwrap_err()
            .to_string();
            (err, moves)
        });
        assert!(err.contains("--resume"), "{err}");
        let saved = State::load(&path).unwrap();
        assert!(saved.sent > 0 && saved.sent < moves.len(), "{saved:?}");
        assert_eq!(saved.sending, saved.sent);
        // Exactly the moves sent are on the phone.
        assert_eq!(device.phone().moves().len(), saved.sent);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
