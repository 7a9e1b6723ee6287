//! The habits of real sudoku apps, each a switch that tests and presets turn on in the same list
//! as the faults (`--sim-faults end-card,fade=250`): a completion card after the last digit,
//! digits that fade or pop in, a mistake counter with lives that keeps wrong digits in red, a
//! flash of an overlay that swallows one tap, a game that starts with wrong player entries, a
//! same-number highlight that recolours the ink, and notes that stay when a peer is filled; a game
//! in progress (a digit key selected, notes mode left on, two clashing entries), a level-start cascade, a message
//! banner that opens another app, a Paused card, a puzzle with several answers, jigsaw regions
//! and a board of tiles. The phone around the app has its own habits ([`PhoneHabits`]): frames
//! that trail the input, a screen that is off or locked, injected input refused.
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

/// Which digit key a `selected-key` game starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyChoice {
    /// The digit the most givens hold (the smallest on a tie): where a player often starts.
    MostGiven,
    Digit(u8),
}

/// How an app draws its selected (pressed) digit key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyLook {
    /// The key's face filled with the accent, the digit in the face's colour.
    Filled,
    /// A ring in the accent round the key, the face as before.
    Outlined,
    /// A filled disc in the accent behind the digit.
    Disc,
}

/// Which injected input events the phone refuses (`input-refused`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Every one, as MIUI does without "USB debugging (Security settings)".
    Every,
    /// Only the Nth (1-based) injected event: one lost tap mid-batch.
    Nth(u64),
}

/// The habits of the phone around the app: the handset reads them from its screen
/// (`Screen::phone_habits`) when it starts, so they ride in the same list as the app's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhoneHabits {
    /// `lag=MS`: a screencap returns the screen as it was MS ms ago on the device clock.
    pub lag: Option<Duration>,
    /// `screen-off`: the screen starts off (black, taps ignored) until a wake-up key.
    pub screen_off: bool,
    /// `screen-off-after=N`: the screen goes off (black, taps ignored) after N delivered taps,
    /// as a phone's screen timeout does mid-play, until a wake-up key.
    pub screen_off_after: Option<u32>,
    /// `lock-screen`: the keyguard shows (taps ignored) until it is dismissed.
    pub lock_screen: bool,
    /// `input-refused` or `input-refused=N`: injected input is refused.
    pub input_refused: Option<Refusal>,
}

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
    /// `selected-key` or `selected-key=D`: the game starts with a digit key selected (the one
    /// most givens hold, or D): number-first, a tap on a cell enters it; cell-first, the key
    /// is drawn pressed, and the last digit key pressed stays so.
    pub selected_key: Option<KeyChoice>,
    /// `notes-on`: the game starts with notes (pencil) mode on, as a player may leave it: a
    /// digit goes into a cell as a pencil note until the notes button switches it off.
    pub notes_on: bool,
    /// `key-look=filled|outlined|disc`: how the selected key is drawn (default: the skin's).
    pub key_look: Option<KeyLook>,
    /// `intro=MS`: for the first MS ms of app time the givens appear one by one.
    pub intro: Option<Duration>,
    /// `wrong-pair`: the game starts with two wrong entries of one digit in one row, clashing
    /// with each other and with nothing else.
    pub wrong_pair: bool,
    /// `banner=N`: after N placed digits a message banner slides over the top of the screen for
    /// 3 s; a tap on it opens the messaging app, BACK returns to the game.
    pub banner_after: Option<u32>,
    /// `pause-card`: coming back from another app (the banner's, an ad) the game shows a Paused
    /// card with a round Resume button; the timer stops meanwhile.
    pub pause_card: bool,
    /// `multi-answer`: a given is taken out so the puzzle has several completions; the app
    /// judges mistakes against its own one.
    pub multi_answer: bool,
    /// `jigsaw`: the thick lines bound irregular regions instead of 3x3 boxes (drawing only).
    pub jigsaw: bool,
    /// `tiles`: the board is drawn as rounded tiles with gaps (wider between boxes), no lines.
    pub tiles: bool,
    /// The phone's habits (see [`PhoneHabits`]).
    pub phone: PhoneHabits,
}

/// The habit names for help and error messages.
pub const HABITS_HELP: &str = "habits are end-card, fade=MS, pop=MS, lives=N, flash=N, \
    flash-ms=MS, flash-unseen, wrong-start, same-ink, keep-notes, notes-on, selected-key[=D], \
    key-look=filled|outlined|disc, intro=MS, wrong-pair, banner=N, pause-card, multi-answer, \
    jigsaw, tiles, lag=MS, screen-off, screen-off-after=N, lock-screen, input-refused[=N]";

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
            "notes-on" => flag(&mut self.notes_on)?,
            "flash-unseen" => flag(&mut self.flash_unseen)?,
            "lives" => self.lives = Some(count("a number of lives")?),
            "flash" => self.flash_every = Some(count("a number of moves")?),
            "flash-ms" => self.flash_for = Some(Duration::from_millis(millis()?)),
            "wrong-pair" => flag(&mut self.wrong_pair)?,
            "pause-card" => flag(&mut self.pause_card)?,
            "multi-answer" => flag(&mut self.multi_answer)?,
            "jigsaw" => flag(&mut self.jigsaw)?,
            "tiles" => flag(&mut self.tiles)?,
            "screen-off" => flag(&mut self.phone.screen_off)?,
            "lock-screen" => flag(&mut self.phone.lock_screen)?,
            "screen-off-after" => self.phone.screen_off_after = Some(count("a number of taps")?),
            "banner" => self.banner_after = Some(count("a number of digits")?),
            "intro" => self.intro = Some(Duration::from_millis(millis()?)),
            "lag" => self.phone.lag = Some(Duration::from_millis(millis()?)),
            "selected-key" => {
                self.selected_key = Some(match value {
                    None => KeyChoice::MostGiven,
                    Some(v) => match v.parse::<u8>() {
                        Ok(d @ 1..=9) => KeyChoice::Digit(d),
                        _ => {
                            return Err(format!(
                                "habit '{item}' takes a digit 1 to 9, like selected-key=5, \
                                 or none (the digit most givens hold)"
                            ));
                        }
                    },
                })
            }
            "key-look" => {
                self.key_look = Some(match value {
                    Some("filled") => KeyLook::Filled,
                    Some("outlined") => KeyLook::Outlined,
                    Some("disc") => KeyLook::Disc,
                    _ => {
                        return Err(format!(
                            "habit '{item}' needs a look: key-look=filled, outlined or disc"
                        ));
                    }
                })
            }
            "input-refused" => {
                self.phone.input_refused = Some(match value {
                    None => Refusal::Every,
                    Some(_) => Refusal::Nth(u64::from(count("an event number")?)),
                })
            }
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
            "notes-on",
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
                notes_on: true,
                ..Habits::default()
            }
        );
        let pop = parse(&["pop=120ms"]).unwrap().animation.unwrap();
        assert_eq!(pop.style, AnimationStyle::Pop);
        assert_eq!(pop.duration, Duration::from_millis(120));
    }

    #[test]
    fn the_habits_of_a_game_in_progress_and_of_the_phone_parse() {
        let h = parse(&[
            "selected-key=7",
            "key-look=disc",
            "intro=1500",
            "wrong-pair",
            "banner=4",
            "pause-card",
            "multi-answer",
            "jigsaw",
            "tiles",
            "lag=300",
            "screen-off",
            "screen-off-after=20",
            "lock-screen",
            "input-refused=3",
        ])
        .unwrap();
        assert_eq!(h.selected_key, Some(KeyChoice::Digit(7)));
        assert_eq!(h.key_look, Some(KeyLook::Disc));
        assert_eq!(h.intro, Some(Duration::from_millis(1500)));
        assert!(h.wrong_pair && h.pause_card && h.multi_answer && h.jigsaw && h.tiles);
        assert_eq!(h.banner_after, Some(4));
        assert_eq!(
            h.phone,
            PhoneHabits {
                lag: Some(Duration::from_millis(300)),
                screen_off: true,
                screen_off_after: Some(20),
                lock_screen: true,
                input_refused: Some(Refusal::Nth(3)),
            }
        );
        let plain = parse(&["selected-key", "input-refused"]).unwrap();
        assert_eq!(plain.selected_key, Some(KeyChoice::MostGiven));
        assert_eq!(plain.phone.input_refused, Some(Refusal::Every));
        assert_eq!(Habits::default().phone, PhoneHabits::default());
    }

    #[test]
    fn bad_values_say_what_is_wanted() {
        for (items, wanted) in [
            (&["selected-key=0"][..], "a digit 1 to 9"),
            (&["key-look=round"], "filled, outlined or disc"),
            (&["lag=9000"], "1 to 5000 ms"),
            (&["intro=soon"], "like intro=250"),
            (&["banner=0"], "like banner=3"),
            (&["input-refused=x"], "like input-refused=3"),
            (&["screen-off=1"], "takes no value"),
            (&["fade"], "needs a time of 1 to 5000 ms"),
            (&["fade=0"], "needs a time"),
            (&["pop=fast"], "like pop=250"),
            (&["lives=0"], "1 or more"),
            (&["flash=-1"], "like flash=3"),
            (&["flash-ms=0"], "like flash-ms=250"),
            (&["end-card=yes"], "takes no value"),
            (&["fade=100", "pop=100"], "pick one"),
            (&["sparkles"], "not a habit"),
        ] {
            let err = parse(items).unwrap_err();
            assert!(err.contains(wanted), "{items:?}: {err}");
        }
    }
}
