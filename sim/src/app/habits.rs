//! The habits of real apps on the simulated phone (see `crate::habits`): switching them on,
//! the app's clock that animations and flashes follow, the flash overlay, the wrong player
//! entries a `wrong-start` or `wrong-pair` game begins with, the key a `selected-key` game starts
//! with, the notes mode a `notes-on` game starts in, the given a `multi-answer` game lacks, and the looks that change the skin (`key-look`,
//! `jigsaw`, `tiles`).

use super::{AppClock, SudokuApp};
use crate::board::Cell;
use crate::habits::{Habits, KeyChoice};
use crate::layout::AppLayout;
use crate::model::Tool;
use crate::puzzles::{self, Answer};
use crate::render::Renderer;
use crate::skins::EntryOrder;
use std::time::Duration;

impl SudokuApp {
    /// Switches the habits of real apps on (see [`Habits`]); with `wrong-start` the player's
    /// entries are seeded now, which needs a puzzle with one solution.
    pub fn set_habits(&mut self, habits: Habits) -> Result<(), String> {
        self.state.habits = habits;
        if let Some(lives) = habits.lives {
            self.state.mistake_limit = Some(lives);
        }
        if habits.multi_answer {
            self.take_out_a_given()?;
        }
        if habits.wrong_start {
            self.seed_wrong_start()?;
        }
        if habits.wrong_pair {
            self.seed_wrong_pair()?;
        }
        if habits.notes_on {
            self.state.notes_mode = true;
        }
        if let Some(choice) = habits.selected_key {
            let digit = match choice {
                KeyChoice::Digit(d) => d,
                KeyChoice::MostGiven => self.most_given_digit(),
            };
            match self.skin.input {
                EntryOrder::NumberFirst => self.state.tool = Some(Tool::Digit(digit)),
                EntryOrder::CellFirst => self.state.marked_key = Some(digit),
            }
        }
        if habits.key_look.is_some() || habits.jigsaw || habits.tiles {
            self.skin = self.skin.clone().restyled(&habits);
            self.layout = AppLayout::new(&self.skin, self.layout.size);
            self.renderer = Renderer::new(&self.skin, &self.layout);
        }
        Ok(())
    }

    /// The digit the most givens hold, the smallest on a tie.
    pub(super) fn most_given_digit(&self) -> u8 {
        let givens = self.state.givens;
        let count = |d: u8| Cell::all().filter(|&c| givens.get(c) == Some(d)).count();
        (1..=9u8).rev().max_by_key(|&d| count(d)).unwrap_or(1)
    }

    /// The `multi-answer` habit: the first given (in cell order) whose removal leaves several
    /// completions is taken out; the app keeps its answer, the old solution, and judges by it.
    fn take_out_a_given(&mut self) -> Result<(), String> {
        let Answer::Unique(_) = self.answer else {
            return Err("multi-answer needs a puzzle with one solution to start from".to_string());
        };
        let givens = self.state.givens;
        let cell = Cell::all()
            .filter(|&c| givens.get(c).is_some())
            .find(|&c| {
                let mut fewer = givens;
                fewer.set(c, None);
                matches!(puzzles::analyse(&fewer), Ok(Answer::Several))
            })
            .ok_or("multi-answer found no given whose removal leaves several completions")?;
        self.state.givens.set(cell, None);
        Ok(())
    }

    /// The `wrong-pair` habit: two empty cells of one row get the same wrong digit, one no
    /// given or entry of their rows, columns or boxes holds, so they clash with each other only.
    fn seed_wrong_pair(&mut self) -> Result<(), String> {
        let Answer::Unique(solution) = self.answer else {
            return Err("wrong-pair needs a puzzle with one solution".to_string());
        };
        let board = self.state.board();
        let free = |c: Cell, d: u8| {
            board.get(c).is_none()
                && solution.get(c) != Some(d)
                && !puzzles::peers(c).any(|p| board.get(p) == Some(d))
        };
        for row in 0..9 {
            let cells: Vec<Cell> = (0..9).filter_map(|col| Cell::new(row, col)).collect();
            for d in 1..=9u8 {
                let fits: Vec<Cell> = cells.iter().copied().filter(|&c| free(c, d)).collect();
                if let [a, b, ..] = fits[..] {
                    self.set_entry(a, Some(d));
                    self.set_entry(b, Some(d));
                    return Ok(());
                }
            }
        }
        Err("wrong-pair found no row with two cells for one wrong digit".to_string())
    }

    pub fn habits(&self) -> Habits {
        self.state.habits
    }

    /// The completion card covers the board (`end-card` habit, board solved).
    pub fn end_card_shown(&self) -> bool {
        self.state.end_card_shown()
    }

    /// The player's entries the app judges wrong now (the solution's digit differs, or with
    /// several solutions a repeat), in cell order.
    pub fn wrong_entries(&self) -> Vec<Cell> {
        Cell::all()
            .filter(|c| self.state.wrong[c.index()])
            .collect()
    }

    /// The limit on mistakes shown in the header (`mistake-limit` or `lives`).
    pub fn mistake_limit(&self) -> Option<u32> {
        self.state.mistake_limit
    }

    /// The app's time now (see [`SudokuApp::set_clock`]).
    pub fn app_time(&self) -> Duration {
        self.clock.now()
    }

    /// Sets the app's time by hand, and stops it following the wall clock: for tests that want
    /// an exact frame of an animation. The handset moves it with the device clock instead.
    pub fn set_clock(&mut self, now: Duration) {
        self.clock = AppClock {
            base: now,
            since: None,
        };
    }

    /// Some entered digit is still fading or popping in at the app's time now.
    pub fn animating(&mut self) -> bool {
        self.state.now = self.clock.now();
        self.state.animating()
    }

    /// The flash of an overlay shows now (`flash` habit).
    pub fn flash_shown(&mut self) -> bool {
        self.update_flash();
        self.state.flash
    }

    /// Lets the flash of an overlay vanish once its time is up.
    pub(super) fn update_flash(&mut self) {
        let now = self.clock.now();
        self.state.now = now;
        if self.flash_until.is_some_and(|until| now >= until) {
            self.flash_until = None;
        }
        self.state.flash = self.flash_until.is_some();
    }

    /// The `wrong-start` habit: three of the first empty cells get their solution digit, then
    /// one cell a digit a given of its row, column or box holds, and one cell a wrong digit none
    /// of its peers holds.
    pub(super) fn seed_wrong_start(&mut self) -> Result<(), String> {
        let Answer::Unique(solution) = self.answer else {
            return Err("wrong-start needs a puzzle with one solution".to_string());
        };
        let start = self.state.board();
        let empty: Vec<Cell> = Cell::all().filter(|&c| start.get(c).is_none()).collect();
        let (right, rest) = empty.split_at(empty.len().min(3));
        for &c in right {
            self.set_entry(c, solution.get(c));
        }
        let board = self.state.board();
        let held_by_peer = |c: Cell, d: u8| puzzles::peers(c).any(|p| board.get(p) == Some(d));
        let clash = rest.iter().find_map(|&c| {
            let d = (1..=9).find(|&d| Some(d) != solution.get(c) && held_by_peer(c, d))?;
            Some((c, d))
        });
        let lone = rest.iter().rev().find_map(|&c| {
            let d = (1..=9).find(|&d| Some(d) != solution.get(c) && !held_by_peer(c, d))?;
            Some((c, d))
        });
        match (clash, lone) {
            (Some((a, x)), Some((b, y))) if a != b => {
                self.set_entry(a, Some(x));
                self.set_entry(b, Some(y));
                Ok(())
            }
            _ => Err("wrong-start found no cells for its two wrong entries".to_string()),
        }
    }
}
