//! The game stays in front while a run taps (issue 34): the app in front is asked at every check
//! ([`Front`]), and another one there stops the taps at once. It came during our own batch (every
//! check follows one, and the check before saw the game in front): a tap of ours may have hit a
//! notification banner, which opened its app, so BACK is pressed once and the run goes on only
//! when the game is back; its board is then checked as after any batch, so a board that changed
//! otherwise than by our moves stops the run. Still not back: the run waits (`--wait`) naming the
//! app in front, and never taps it. A game that paused meanwhile is resumed by its one round
//! play button, and only when its board comes back unchanged ([`Tapping::resume_paused`]).

use super::*;
use crate::device::Key;

/// The app the run plays, as the phone named it before the first tap.
pub(super) struct Front {
    /// `None`: the device cannot tell (a file, a phone whose dumpsys names nothing); no guard.
    game: Option<String>,
}

impl Front {
    /// Asks `device` which app is in front now: the game, since the plan was just read from it.
    pub(super) fn new(device: &mut dyn Device) -> Front {
        let game = device.foreground_app().unwrap_or_else(|e| {
            log::info!("cannot tell the app in front ({e:#}): not checking it between batches");
            None
        });
        Front { game }
    }

    /// The app in front when it is not the game; `None` when it is (or cannot be told).
    fn other(&self, device: &mut dyn Device) -> Result<Option<String>> {
        let Some(game) = &self.game else {
            return Ok(None);
        };
        // A phone that fails to say is left to the screenshot, which sees a phone gone.
        let now = device.foreground_app().unwrap_or_else(|e| {
            log::info!("cannot tell the app in front ({e:#}): going on");
            None
        });
        Ok(now.filter(|app| app != game))
    }
}

impl Tapping<'_, '_> {
    /// Before a check looks at the screen, and when it finds no board: the game is in front, or
    /// brought back (BACK once, as our last batch may have opened the app in front), or waited
    /// for up to `--wait`. True when another app was in front and the game is back.
    pub(super) fn keep_game_in_front(&mut self) -> Result<bool> {
        let Some(other) = self.front.other(self.phone.device)? else {
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
        match self.front.other(self.phone.device)? {
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
        let front = &self.front;
        self.phone.wait_for(
            wait,
            "play",
            |phone| Ok(front.other(phone.device)?.is_none().then_some(())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::screen::Scripted;

    fn apps(apps: &[Option<&'static str>]) -> Scripted {
        Scripted {
            apps: apps.to_vec(),
            ..Scripted::on()
        }
    }

    #[test]
    fn only_an_app_other_than_the_game_counts_as_in_front() {
        let mut phone = apps(&[
            Some("com.game"),
            Some("com.game"),
            Some("com.google.android.apps.messaging"),
            None,
        ]);
        let front = Front::new(&mut phone);
        assert_eq!(front.other(&mut phone).unwrap(), None);
        assert_eq!(
            front.other(&mut phone).unwrap().as_deref(),
            Some("com.google.android.apps.messaging")
        );
        assert_eq!(front.other(&mut phone).unwrap(), None, "cannot tell: go on");
    }

    #[test]
    fn a_device_that_cannot_name_the_game_is_never_guarded() {
        let mut phone = apps(&[None, Some("com.other")]);
        let front = Front::new(&mut phone);
        assert_eq!(front.other(&mut phone).unwrap(), None);
    }
}
