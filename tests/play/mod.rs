mod adb;
mod all_habits;
mod answers;
mod cli;
mod end_screen;
mod flash;
mod fleet;
mod game_start;
mod lives;
mod notes_mode;
mod phone_around;
mod phone_claim;
mod refused;
mod resilience;
mod sim;
mod timing;

use crate::support::{self, adb_server::AdbServer, agent, outcome};
use sudoku_sim::{SimServer, SudokuApp};

/// `play` from empty config and working folders on the phone `sim`: exit code and stderr.
fn play_fresh(adb: &AdbServer, sim: &SimServer<SudokuApp>) -> (i32, String) {
    let folder = support::temp_dir("play-folder");
    let (code, _, err) = outcome(agent().current_dir(&folder).args([
        "play",
        "-P",
        &adb.port().to_string(),
        "-s",
        &sim.serial(),
    ]));
    (code, err)
}

/// `play` on the phone `sim` from a fresh working folder, with `config` as its config dir (the
/// profiles an earlier run learned there): exit code and stderr.
fn play_with_profiles(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    config: &std::path::Path,
) -> (i32, String) {
    let folder = support::temp_dir("play-folder");
    let (code, _, err) = outcome(
        agent()
            .current_dir(&folder)
            .env("SUDOKU_AGENT_CONFIG_DIR", config)
            .args(["play", "-P", &adb.port().to_string(), "-s", &sim.serial()]),
    );
    (code, err)
}
