//! The sudoku app on the simulated phone: game state (givens, entries, notes, selection, tools,
//! mistakes, popup), the rules that turn taps into moves, and a log of every tap and move for
//! tests. It implements `Screen`, so the fake adbd and the in-process device drive it the same way.

use super::layout::AppLayout;
pub use super::model::{AppMove, Hit, Key};
use super::model::{GameState, Tool};
use super::puzzles::{self, Answer};
use super::render::Renderer;
use super::skins::{EntryOrder, Skin};
use super::{SUPPORTED_SIZES, Screen};
use crate::board::{Board, Cell};
use crate::geometry::{Point, Rect, Size};
use anyhow::{Context, Result, bail};

mod away;
mod habits;
pub use away::MESSAGING_ACTIVITY;
use image::RgbaImage;
use std::time::{Duration, Instant};

/// How long the flash of an overlay shows (`flash` habit).
const FLASH: Duration = Duration::from_millis(100);

/// The app's time, which its animations and the flash overlay follow: it runs with the wall
/// clock, and jumps ahead to the device clock the handset reports (`Screen::advance_clock`)
/// whenever that is ahead. Through adb with a latency preset the virtual clock runs ahead of
/// the wall (a raw screenshot costs 250 ms of it), so screenshots age animations as on a phone;
/// with the `instant` preset or in-process, where little device time passes, the wall clock
/// does, so a caller that sleeps sees animations end. (Once it only took the larger of the two:
/// a device clock ahead of the wall then froze the app's time, and an animation with it.)
/// Tests set it by hand (`SudokuApp::set_clock`).
#[derive(Debug, Clone, Copy)]
struct AppClock {
    /// App time at `since`.
    base: Duration,
    /// When `base` was set; `None`: set by hand, the wall clock is not looked at.
    since: Option<Instant>,
}

impl AppClock {
    fn now(&self) -> Duration {
        self.base + self.since.map_or(Duration::ZERO, |w| w.elapsed())
    }

    /// The device clock reads `device`: the app's time moves up to it if behind.
    fn follow(&mut self, device: Duration) {
        if device > self.now() {
            self.base = device;
            self.since = self.since.map(|_| Instant::now());
        }
    }
}

/// The simulated sudoku app at one screen size.
pub struct SudokuApp {
    skin: Skin,
    layout: AppLayout,
    answer: Answer,
    state: GameState,
    taps: Vec<Point>,
    hits: Vec<Hit>,
    moves: Vec<AppMove>,
    renderer: Renderer,
    /// The interstitial-ad fault: placed digits before the ad, and whether it came already.
    ad_after: Option<u32>,
    ad_shown: bool,
    clock: AppClock,
    /// App time the flash of an overlay vanishes at, while it shows.
    flash_until: Option<Duration>,
    /// The last frame was drawn mid-animation (or with the flash): it is stale once time moves,
    /// even when the animation has ended by the next look.
    drawn_moving: bool,
    /// App time the message banner (`banner` habit) goes at, while it shows.
    banner_until: Option<Duration>,
    /// The banner came already (it comes once).
    banner_came: bool,
}

impl std::fmt::Debug for SudokuApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SudokuApp")
            .field("skin", &self.skin.name())
            .field("size", &self.layout.size)
            .field("board", &self.state.board())
            .field("taps", &self.taps.len())
            .finish()
    }
}

/// Fails on a screen size the simulated phone does not offer.
pub(crate) fn check_size(size: Size) -> Result<()> {
    if !SUPPORTED_SIZES.contains(&size) {
        let offered: Vec<String> = SUPPORTED_SIZES.iter().map(|s| s.to_string()).collect();
        bail!(
            "the simulated phone has no {size} screen; pick one of {}",
            offered.join(", ")
        );
    }
    Ok(())
}

/// A given whose digit stands in the most of the grid's four corner cells (the first such digit
/// in reading order on a tie), outside the corners when that digit has a given there too, so
/// that selecting it highlights the corners; `None` when no corner holds a given.
fn corner_digit_cell(givens: &Board) -> Option<Cell> {
    let corners: Vec<Cell> = [(0, 0), (0, 8), (8, 0), (8, 8)]
        .iter()
        .filter_map(|&(r, c)| Cell::new(r, c))
        .collect();
    let in_corners = |d: u8| {
        corners
            .iter()
            .filter(|&&c| givens.get(c) == Some(d))
            .count()
    };
    let digit = corners.iter().filter_map(|&c| givens.get(c)).fold(
        None,
        |best: Option<u8>, d| match best {
            Some(b) if in_corners(b) >= in_corners(d) => Some(b),
            _ => Some(d),
        },
    )?;
    let holding = || Cell::all().filter(move |&c| givens.get(c) == Some(digit));
    holding()
        .find(|c| !corners.contains(c))
        .or_else(|| holding().next())
}

impl SudokuApp {
    /// A phone showing `puzzle` (its digits become the givens) in `skin` at `size`. Fails on a
    /// size the simulator does not offer and on a puzzle with conflicts or no solution.
    pub fn new(puzzle: Board, skin: Skin, size: Size) -> Result<SudokuApp> {
        check_size(size)?;
        let answer = puzzles::analyse(&puzzle).with_context(|| {
            format!(
                "the simulated phone cannot show puzzle {}",
                puzzle.to_line()
            )
        })?;
        let layout = AppLayout::new(&skin, size);
        let selected = skin
            .style
            .opens_on_corner_digit
            .then(|| corner_digit_cell(&puzzle))
            .flatten();
        Ok(SudokuApp {
            renderer: Renderer::new(&skin, &layout),
            skin,
            layout,
            answer,
            state: GameState {
                selected,
                ..GameState::new(puzzle)
            },
            taps: Vec::new(),
            hits: Vec::new(),
            moves: Vec::new(),
            ad_after: None,
            ad_shown: false,
            clock: AppClock {
                base: Duration::ZERO,
                since: Some(Instant::now()),
            },
            flash_until: None,
            drawn_moving: false,
            banner_until: None,
            banner_came: false,
        })
    }

    pub fn skin(&self) -> &Skin {
        &self.skin
    }

    pub fn input_order(&self) -> EntryOrder {
        self.skin.input_order()
    }

    /// Switches how the app takes a digit, as a player does in its settings: the look and the
    /// package stay, a digit chosen for number-first entry is put down.
    pub fn set_input_order(&mut self, order: EntryOrder) {
        self.skin.input = order;
        self.state.tool = None;
    }

    /// Givens and entries together.
    pub fn board(&self) -> Board {
        self.state.board()
    }

    pub fn givens(&self) -> Board {
        self.state.givens
    }

    /// The player's digits only.
    pub fn entries(&self) -> Board {
        self.state.entries
    }

    /// Pencil notes of `cell`: bit `d` set for each noted digit `d` (1..=9).
    pub fn notes(&self, cell: Cell) -> u16 {
        self.state.notes[cell.index()]
    }

    pub fn selected(&self) -> Option<Cell> {
        self.state.selected
    }

    /// The digit picked on a number-first keypad (`None` with no digit or with the eraser).
    pub fn selected_digit(&self) -> Option<u8> {
        match self.state.tool {
            Some(Tool::Digit(d)) => Some(d),
            _ => None,
        }
    }

    /// True when the screen draws the digit in `cell` in the same-number highlight's own ink,
    /// givens and entries alike, so that its pixels no longer say which it is. For tests that
    /// judge a reader's given/entry split; nothing the reader may ask.
    pub fn kind_hidden(&self, cell: Cell) -> bool {
        (self.skin.style.highlight_fg.is_some() || self.state.habits.same_ink)
            && self.state.focus_digit().is_some()
            && self.state.board().get(cell) == self.state.focus_digit()
    }

    /// True while the number-first eraser tool is picked.
    pub fn eraser_selected(&self) -> bool {
        self.state.tool == Some(Tool::Eraser)
    }

    pub fn notes_mode(&self) -> bool {
        self.state.notes_mode
    }

    pub fn mistakes(&self) -> u32 {
        self.state.mistakes
    }

    /// Every cell filled and no digit repeated: the app shows its "Solved!" banner.
    pub fn is_solved(&self) -> bool {
        self.state.is_solved()
    }

    pub fn popup_shown(&self) -> bool {
        self.state.popup
    }

    /// Every digit placed, erased or refused by taps, in order.
    pub fn moves(&self) -> &[AppMove] {
        &self.moves
    }

    /// Every tap received, in order.
    pub fn taps(&self) -> &[Point] {
        &self.taps
    }

    /// What each tap of [`SudokuApp::taps`] landed on.
    pub fn hits(&self) -> &[Hit] {
        &self.hits
    }

    /// The centre of `cell` on screen.
    pub fn cell_center(&self, cell: Cell) -> Point {
        self.layout.cell_rect(cell).center()
    }

    /// The inside of `cell` on screen, between its lines (or the gaps around a tile).
    pub fn cell_rect(&self, cell: Cell) -> Rect {
        self.layout.cell_rect(cell)
    }

    /// The whole grid on screen, outer lines included; taps in it go to the cell whose ninth
    /// of it (across and down) they fall in.
    pub fn grid_rect(&self) -> Rect {
        self.layout.grid
    }

    /// The centre of `key` on screen.
    ///
    /// # Panics
    /// On `Key::Digit` outside 1..=9 (a test bug).
    pub fn key_center(&self, key: Key) -> Point {
        self.layout
            .key_rect(key)
            .unwrap_or_else(|| panic!("{key:?} is not a key of this app (digits are 1..=9)"))
            .center()
    }

    /// Puts a player digit into (or with `None` clears) a non-given cell; givens are left alone.
    /// The digit is drawn at once (no entry animation) and counts as no mistake.
    pub fn set_entry(&mut self, cell: Cell, digit: Option<u8>) {
        if self.state.givens.get(cell).is_none() {
            let digit = digit.filter(|d| (1..=9).contains(d));
            self.state.wrong[cell.index()] = digit.is_some_and(|d| self.is_wrong(cell, d));
            self.state.entries.set(cell, digit);
            self.state.entered_at[cell.index()] = Duration::ZERO;
        }
    }

    /// Replaces the pencil notes of `cell` (bits 1..=9).
    pub fn set_notes(&mut self, cell: Cell, mask: u16) {
        self.state.notes[cell.index()] = mask & 0b11_1111_1110;
    }

    pub fn select(&mut self, cell: Option<Cell>) {
        self.state.selected = cell;
    }

    /// Shows or hides the dialog that covers the grid and swallows taps until closed.
    pub fn set_popup(&mut self, shown: bool) {
        self.state.popup = shown;
    }

    /// The interstitial-ad fault: with `Some(n)`, a full-screen ad covers the app once `n`
    /// digits have been placed; it swallows every tap but its close button
    /// ([`Key::AdClose`]), and comes once.
    pub fn set_ad_after(&mut self, moves: Option<u32>) {
        self.ad_after = moves;
    }

    pub fn ad_shown(&self) -> bool {
        self.state.ad
    }

    /// Digits placed so far.
    fn placed(&self) -> u32 {
        self.moves
            .iter()
            .filter(|m| matches!(m, AppMove::Set { .. }))
            .count() as u32
    }

    /// With `Some(n)`, a wrong digit is refused and counted, and the game ends at `n` mistakes.
    pub fn set_mistake_limit(&mut self, limit: Option<u32>) {
        self.state.mistake_limit = limit;
    }

    /// Time played, shown by the timer (and advancing the status-bar clock from 09:41).
    pub fn set_elapsed(&mut self, elapsed: Duration) {
        self.state.elapsed = elapsed;
    }

    /// Handles one tap, as the app would.
    fn handle_tap(&mut self, at: Point) -> Hit {
        if let Some(hit) = self.tap_away(at) {
            return hit;
        }
        if self.state.ad {
            if self.layout.interstitial_close.contains(at) {
                self.state.ad = false;
                self.come_back();
                return Hit::Key(Key::AdClose);
            }
            return Hit::Ad;
        }
        if self.state.popup {
            if self.layout.popup_button.contains(at) {
                self.state.popup = false;
                return Hit::Key(Key::PopupClose);
            }
            return Hit::Popup;
        }
        if self.flash_shown() {
            self.flash_until = None;
            self.state.flash = false;
            return Hit::Flash;
        }
        if self.state.end_card_shown() {
            if self.layout.end_card_button.contains(at) {
                return Hit::Key(Key::NewGame);
            }
            return Hit::EndCard;
        }
        if let Some(cell) = self.layout.cell_at(at) {
            self.tap_cell(cell);
            return Hit::Cell(cell);
        }
        // The end-of-game banner covers the controls.
        if self.state.is_solved() || self.state.is_lost() {
            return Hit::Nothing;
        }
        match self.layout.key_at(at) {
            Some(key) => {
                self.tap_key(key);
                Hit::Key(key)
            }
            None => Hit::Nothing,
        }
    }

    fn tap_cell(&mut self, cell: Cell) {
        self.state.selected = Some(cell);
        if self.skin.input != EntryOrder::NumberFirst || self.state.givens.get(cell).is_some() {
            return;
        }
        match self.state.tool {
            None => {}
            Some(Tool::Eraser) => self.erase(cell),
            Some(Tool::Digit(d)) if self.state.notes_mode => self.toggle_note(cell, d),
            Some(Tool::Digit(d)) if self.state.entries.get(cell) == Some(d) => self.erase(cell),
            Some(Tool::Digit(d)) => self.place(cell, d),
        }
    }

    fn tap_key(&mut self, key: Key) {
        match (self.skin.input, key) {
            (_, Key::Notes) => self.state.notes_mode = !self.state.notes_mode,
            (_, Key::PopupClose | Key::AdClose | Key::NewGame | Key::Resume) => {}
            (EntryOrder::NumberFirst, Key::Digit(d)) => self.state.tool = Some(Tool::Digit(d)),
            (EntryOrder::NumberFirst, Key::Erase) => self.state.tool = Some(Tool::Eraser),
            (EntryOrder::CellFirst, Key::Digit(d)) => {
                // An app that marks its selected key marks the last one pressed.
                if self.state.habits.selected_key.is_some() {
                    self.state.marked_key = Some(d);
                }
                let Some(cell) = self.state.selected else {
                    return;
                };
                if self.state.givens.get(cell).is_some() {
                    return;
                }
                if self.state.notes_mode {
                    self.toggle_note(cell, d);
                } else {
                    self.place(cell, d);
                }
            }
            (EntryOrder::CellFirst, Key::Erase) => {
                if let Some(cell) = self.state.selected {
                    self.erase(cell);
                }
            }
        }
    }

    /// Would `digit` in `cell` be a mistake? Against the solution when it is unique, else by the
    /// rules (a repeat in the row, column or box).
    fn is_wrong(&self, cell: Cell, digit: u8) -> bool {
        match &self.answer {
            Answer::Unique(solution) => solution.get(cell) != Some(digit),
            Answer::Several => {
                let board = self.state.board();
                puzzles::peers(cell).any(|p| board.get(p) == Some(digit))
            }
        }
    }

    fn place(&mut self, cell: Cell, digit: u8) {
        if self.state.entries.get(cell) == Some(digit) {
            return;
        }
        let wrong = self.is_wrong(cell, digit);
        if wrong {
            self.state.mistakes += 1;
            // Lives keep the wrong digit (in red); a plain limit refuses it.
            if self.state.mistake_limit.is_some() && self.state.habits.lives.is_none() {
                self.moves.push(AppMove::Rejected { cell, digit });
                return;
            }
        }
        self.state.entries.set(cell, Some(digit));
        self.state.wrong[cell.index()] = wrong;
        self.state.entered_at[cell.index()] = self.clock.now();
        self.state.notes[cell.index()] = 0;
        // Like most apps, a placed digit clears itself from the notes of its peers.
        if !self.state.habits.keep_notes {
            for p in puzzles::peers(cell) {
                self.state.notes[p.index()] &= !(1 << digit);
            }
        }
        self.moves.push(AppMove::Set { cell, digit });
        if let Some(n) = self.state.habits.flash_every
            && self.placed().is_multiple_of(n)
        {
            let shows = self.state.habits.flash_for.unwrap_or(FLASH);
            self.flash_until = Some(self.clock.now() + shows);
            self.state.flash = true;
        }
    }

    fn erase(&mut self, cell: Cell) {
        if self.state.entries.get(cell).is_some() {
            self.state.wrong[cell.index()] = false;
            self.state.entries.set(cell, None);
            self.moves.push(AppMove::Erase { cell });
        } else {
            self.state.notes[cell.index()] = 0;
        }
    }

    fn toggle_note(&mut self, cell: Cell, digit: u8) {
        if self.state.entries.get(cell).is_none() {
            self.state.notes[cell.index()] ^= 1 << digit;
        }
    }
}

impl Screen for SudokuApp {
    fn size(&self) -> Size {
        self.layout.size
    }

    fn render(&mut self) -> RgbaImage {
        self.update_flash();
        self.update_banner();
        self.drawn_moving = self.state.flash || self.state.banner || self.state.animating();
        self.renderer.render(&self.skin, &self.layout, &self.state)
    }

    fn advance_clock(&mut self, now: Duration) -> bool {
        let moving_before = self.drawn_moving || self.changes_with_time();
        self.clock.follow(now);
        moving_before || self.changes_with_time()
    }

    fn tap(&mut self, at: Point) {
        let hit = self.handle_tap(at);
        self.taps.push(at);
        self.hits.push(hit);
        if let Some(n) = self.ad_after
            && !self.ad_shown
            && self.placed() >= n
        {
            self.ad_shown = true;
            self.state.ad = true;
        }
        self.maybe_show_banner();
    }

    fn activity(&self) -> String {
        if self.state.away {
            return MESSAGING_ACTIVITY.to_string();
        }
        format!("{}/.MainActivity", self.skin.package())
    }

    fn key_event(&mut self, code: u32) {
        self.key(code);
    }

    fn phone_habits(&self) -> crate::habits::PhoneHabits {
        self.state.habits.phone
    }

    /// The board is one custom view that selects or fills a cell in `onTouchEvent` (as
    /// OpenSudoku's `SudokuBoardView` does); the keypad, the popup's and the ad's buttons are
    /// buttons with click listeners.
    fn acts_on_touch(&self, at: Point) -> bool {
        let banner = self.banner_until.is_some_and(|u| self.clock.now() < u)
            && self.layout.banner().contains(at);
        !self.state.ad
            && !banner
            && !self.state.away
            && !self.state.paused
            && !self.state.popup
            && self.flash_until.is_none()
            && !self.state.end_card_shown()
            && self.layout.cell_at(at).is_some()
    }
}

impl SudokuApp {
    /// The picture changes with time alone from now: a digit is animating or a flash shows.
    fn changes_with_time(&mut self) -> bool {
        self.update_flash();
        self.update_banner();
        self.state.flash || self.state.banner || self.state.animating()
    }
}

#[cfg(test)]
mod habit_tests;
#[cfg(test)]
mod tests;
