//! The habits of real sudoku apps, each a switch that tests and presets turn on in the same list
//! as the faults (`--sim-faults end-card,fade=250`): a completion card after the last digit,
//! digits that fade or pop in, a mistake counter with lives that keeps wrong digits in red, a
//! flash of an overlay that swallows one tap, a game that starts with wrong player entries, a
//! same-number highlight that recolours the ink, and notes that stay when a peer is filled.
//! All are off by default, which is the app exactly as it was before they existed.

use std::time::Duration;

/// How a digit appears after it is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnimationStyle {
    /// The ink goes from the cell's background to its full colour.
    Fade,
    /// The digit grows from a fifth of its size to its full size.
    Pop,
}

/// A digit's entry animation: its style and how long it takes (app time, see `SudokuApp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Animation {
    pub style: AnimationStyle,
    pub duration: Duration,
}

/// The longest animation the switch accepts, in milliseconds.
const MAX_ANIMATION_MS: u64 = 5_000;

/// Every habit, off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Habits {
    /// `end-card`: a card covers the board once it is solved ("Excellent!", time, "New game").
    pub end_card: bool,
    /// `fade=MS` or `pop=MS`: entered digits fade or pop in over MS milliseconds.
    pub animation: Option<Animation>,
    /// `lives=N`: wrong digits are kept, drawn in red and counted ("Mistakes 1/3" in the
    /// header); the game is over at N. Today's `mistake-limit=N` refuses them instead.
    pub lives: Option<u32>,
    /// `flash=N`: after every N placed digits an overlay shows for 0.1 s and swallows the first
    /// tap that comes while it shows, then vanishes.
    pub flash_every: Option<u32>,
    /// `flash-ms=MS`: the flash shows for MS milliseconds instead of 0.1 s (an overlay slow to
    /// go, which a check right after the last tap is sure to catch).
    pub flash_for: Option<Duration>,
    /// `flash-unseen`: the flash draws nothing: the app drops the first tap while an animation
    /// plays (input blocked, nothing on screen to tell), which no check can see.
    pub flash_unseen: bool,
    /// `wrong-start`: the game starts with player entries, three right and two wrong: one
    /// repeating a given of its row, column or box, one clashing with nothing on the board.
    pub wrong_start: bool,
    /// `same-ink`: the same-number highlight recolours every equal digit, givens and entries
    /// alike, in the skin's accent (skins with their own highlight ink keep it).
    pub same_ink: bool,
    /// `keep-notes`: a placed digit leaves the pencil notes of its peers alone (by default it
    /// clears itself from them, as most apps do).
    pub keep_notes: bool,
}

/// The habit names for help and error messages.
pub const HABITS_HELP: &str = "habits are end-card, fade=MS, pop=MS, lives=N, flash=N, \
                               flash-ms=MS, flash-unseen, wrong-start, same-ink, keep-notes";

impl Habits {
    /// Sets the habit `name` (with `value` after `=`, if any) from one item of the list.
    /// `Ok(false)`: `name` is no habit. `item` is the whole item, for messages.
    pub(crate) fn set(
        &mut self,
        item: &str,
        name: &str,
        value: Option<&str>,
    ) -> Result<bool, String> {
        let flag = |on: &mut bool| match value {
            None => {
                *on = true;
                Ok(())
            }
            Some(_) => Err(format!("habit '{item}' takes no value; write just {name}")),
        };
        let count = |what: &str| -> Result<u32, String> {
            value
                .and_then(|v| v.parse::<u32>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("habit '{item}' needs {what} of 1 or more, like {name}=3"))
        };
        let millis = || {
            value
                .and_then(|v| v.strip_suffix("ms").unwrap_or(v).parse::<u64>().ok())
                .filter(|ms| (1..=MAX_ANIMATION_MS).contains(ms))
                .ok_or_else(|| {
                    format!(
                        "habit '{item}' needs a time of 1 to {MAX_ANIMATION_MS} ms, like {name}=250"
                    )
                })
        };
        match name {
            "end-card" => flag(&mut self.end_card)?,
            "wrong-start" => flag(&mut self.wrong_start)?,
            "same-ink" => flag(&mut self.same_ink)?,
            "keep-notes" => flag(&mut self.keep_notes)?,
            "flash-unseen" => flag(&mut self.flash_unseen)?,
            "lives" => self.lives = Some(count("a number of lives")?),
            "flash" => self.flash_every = Some(count("a number of moves")?),
            "flash-ms" => self.flash_for = Some(Duration::from_millis(millis()?)),
            "fade" | "pop" => {
                let ms = millis()?;
                let style = if name == "fade" {
                    AnimationStyle::Fade
                } else {
                    AnimationStyle::Pop
                };
                if self.animation.is_some_and(|a| a.style != style) {
                    return Err("fade and pop cannot both be on: pick one".to_string());
                }
                self.animation = Some(Animation {
                    style,
                    duration: Duration::from_millis(ms),
                });
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(items: &[&str]) -> Result<Habits, String> {
        let mut h = Habits::default();
        for item in items {
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (*item, None),
            };
            if !h.set(item, name, value)? {
                return Err(format!("not a habit: {item}"));
            }
        }
        Ok(h)
    }

    #[test]
    fn each_habit_parses_from_its_item() {
        let h = parse(&[
            "end-card",
            "fade=250",
            "lives=3",
            "flash=5",
            "flash-ms=300",
            "flash-unseen",
            "wrong-start",
            "same-ink",
            "keep-notes",
        ])
        .unwrap();
        assert_eq!(
            h,
            Habits {
                end_card: true,
                animation: Some(Animation {
                    style: AnimationStyle::Fade,
                    duration: Duration::from_millis(250)
                }),
                lives: Some(3),
                flash_every: Some(5),
                flash_for: Some(Duration::from_millis(300)),
                flash_unseen: true,
                wrong_start: true,
                same_ink: true,
                keep_notes: true,
            }
        );
        let pop = parse(&["pop=120ms"]).unwrap().animation.unwrap();
        assert_eq!(pop.style, AnimationStyle::Pop);
        assert_eq!(pop.duration, Duration::from_millis(120));
    }

    #[test]
    fn bad_values_say_what_is_wanted() {
        let err = |items: &[&str]| parse(items).unwrap_err();
        assert!(err(&["fade"]).contains("needs a time of 1 to 5000 ms"));
        assert!(err(&["fade=0"]).contains("needs a time"));
        assert!(err(&["pop=fast"]).contains("like pop=250"));
        assert!(err(&["lives=0"]).contains("1 or more"));
        assert!(err(&["flash=-1"]).contains("like flash=3"));
        assert!(err(&["flash-ms=0"]).contains("like flash-ms=250"));
        assert!(err(&["end-card=yes"]).contains("takes no value"));
        assert!(err(&["fade=100", "pop=100"]).contains("pick one"));
        assert!(err(&["sparkles"]).contains("not a habit"));
    }
}
