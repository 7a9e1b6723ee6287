//! The sudoku app's model: its state (givens, entries, notes, selection, tool, mistakes, popup)
//! and the vocabulary of what is on screen (keys) and what taps do (hits, moves). The layout,
//! the renderer and the app's rules (`phone`) all read it; it depends on none of them.

use crate::board::{Board, Cell};
use crate::habits::{Animation, AnimationStyle, Habits};
use crate::puzzles;
use std::time::Duration;

/// A control on the screen other than a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A keypad digit, 1..=9.
    Digit(u8),
    /// Erase the selected cell (cell-first) or pick the eraser tool (number-first).
    Erase,
    /// Toggle pencil-note mode.
    Notes,
    /// The button that closes the popup dialog.
    PopupClose,
    /// The close button (X) of the interstitial ad.
    AdClose,
    /// The "New game" button of the completion card (`end-card` habit); it does nothing here.
    NewGame,
    /// The round Resume (play) button of the Paused card (`pause-card` habit).
    Resume,
}

/// What a tap landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hit {
    Cell(Cell),
    Key(Key),
    /// The popup was open and took the tap without acting.
    Popup,
    /// The interstitial ad was up and swallowed the tap.
    Ad,
    /// The flash of an overlay (`flash` habit) swallowed the tap.
    Flash,
    /// The completion card (`end-card` habit) covered the board and took the tap.
    EndCard,
    /// The message banner (`banner` habit) took the tap and opened the messaging app.
    Banner,
    /// Another app (the messaging app) was in front and took the tap.
    OtherApp,
    /// The Paused card (`pause-card` habit) covered the board and took the tap.
    Paused,
    /// No control: the tap did nothing.
    Nothing,
}

/// A change to the board made by taps, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppMove {
    /// `digit` was written into `cell`.
    Set { cell: Cell, digit: u8 },
    /// The digit in `cell` was removed.
    Erase { cell: Cell },
    /// The app refused `digit` in `cell` as a mistake (only with a mistake limit).
    Rejected { cell: Cell, digit: u8 },
}

/// The number-first tool in hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    Digit(u8),
    Eraser,
}

/// The app's state, as the renderer needs it.
#[derive(Debug, Clone)]
pub(crate) struct GameState {
    pub givens: Board,
    pub entries: Board,
    pub notes: [u16; 81],
    pub selected: Option<Cell>,
    pub tool: Option<Tool>,
    pub notes_mode: bool,
    pub mistakes: u32,
    pub mistake_limit: Option<u32>,
    pub popup: bool,
    /// The interstitial ad covers the screen (see `SudokuApp::set_ad_after`).
    pub ad: bool,
    pub elapsed: Duration,
    /// The habits switched on (all off by default).
    pub habits: Habits,
    /// Entries the app judged wrong (drawn in red with the `lives` habit).
    pub wrong: [bool; 81],
    /// App time each entry was made, for its entry animation.
    pub entered_at: [Duration; 81],
    /// App time of the frame being drawn.
    pub now: Duration,
    /// The flash of an overlay shows (`flash` habit).
    pub flash: bool,
    /// Cell-first `selected-key` habit: the digit key drawn selected (the last one pressed).
    pub marked_key: Option<u8>,
    /// The message banner shows (`banner` habit), since this app time.
    pub banner: bool,
    pub banner_since: Duration,
    /// Another app is in front (the banner's messaging app): the screen shows it.
    pub away: bool,
    /// The Paused card covers the board (`pause-card` habit).
    pub paused: bool,
}

impl GameState {
    /// A fresh game on `givens`: no entries, notes, selection or tool, no time played.
    pub fn new(givens: Board) -> GameState {
        GameState {
            givens,
            entries: Board::empty(),
            notes: [0; 81],
            selected: None,
            tool: None,
            notes_mode: false,
            mistakes: 0,
            mistake_limit: None,
            popup: false,
            ad: false,
            elapsed: Duration::ZERO,
            habits: Habits::default(),
            wrong: [false; 81],
            entered_at: [Duration::ZERO; 81],
            now: Duration::ZERO,
            flash: false,
            marked_key: None,
            banner: false,
            banner_since: Duration::ZERO,
            away: false,
            paused: false,
        }
    }

    /// Givens and entries together.
    pub fn board(&self) -> Board {
        let mut b = self.givens;
        for c in Cell::all() {
            if let Some(d) = self.entries.get(c) {
                b.set(c, Some(d));
            }
        }
        b
    }

    /// The digit the app highlights everywhere on the board: the number-first tool's digit, else
    /// the selected cell's.
    pub fn focus_digit(&self) -> Option<u8> {
        match self.tool {
            Some(Tool::Digit(d)) => Some(d),
            _ => self.selected.and_then(|s| self.board().get(s)),
        }
    }

    pub fn is_solved(&self) -> bool {
        let b = self.board();
        b.is_complete() && puzzles::first_conflict(&b).is_none()
    }

    pub fn is_lost(&self) -> bool {
        self.mistake_limit
            .is_some_and(|limit| self.mistakes >= limit)
    }

    /// The completion card covers the board.
    pub fn end_card_shown(&self) -> bool {
        self.habits.end_card && self.is_solved()
    }

    /// How far the entry animation of `cell` has got at `now`: `None` when the cell holds no
    /// entry or its animation is over (the digit is drawn as usual), else the style and the
    /// share done, in 0..1.
    pub fn entry_animation(&self, cell: Cell) -> Option<(AnimationStyle, f32)> {
        let Animation { style, duration } = self.habits.animation?;
        self.entries.get(cell)?;
        let age = self.now.checked_sub(self.entered_at[cell.index()])?;
        (age < duration).then(|| (style, age.as_secs_f32() / duration.as_secs_f32()))
    }

    /// Some digit is still being animated in at `now`, or the givens still cascade in.
    pub fn animating(&self) -> bool {
        self.intro_running() || Cell::all().any(|c| self.entry_animation(c).is_some())
    }

    /// The level-start cascade (`intro` habit) has not shown every given yet at `now`.
    pub fn intro_running(&self) -> bool {
        self.habits.intro.is_some_and(|d| self.now < d)
    }

    /// Whether the given in `cell` is on screen yet: during the level-start cascade the givens
    /// appear one by one in reading order, evenly over its time, none at its start.
    pub fn given_shown(&self, cell: Cell) -> bool {
        let Some(intro) = self.habits.intro.filter(|_| self.intro_running()) else {
            return true;
        };
        let count = Cell::all()
            .filter(|&c| self.givens.get(c).is_some())
            .count();
        let before = Cell::all()
            .take(cell.index())
            .filter(|&c| self.givens.get(c).is_some())
            .count();
        let shown = (self.now.as_secs_f64() / intro.as_secs_f64() * count as f64) as usize;
        before < shown
    }
}
