//! Apps that keep score: `play` on a game that already holds a player's wrong entries, with the
//! app's mistake counter on, from an empty config (so learning probes the app first). The agent
//! must correct the entries and never type a digit that is not the solution: the counter ends
//! where it started. A board whose givens clash is refused before any tap.

use crate::support::{self, agent, outcome};
use sudoku_agent::geometry::Size;
use sudoku_sim::habits::Habits;
use sudoku_sim::{Cell, Screen, SudokuApp};
use support::adb_server;
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// `skin` at `size` showing the easy puzzle with a player's entries, two of them wrong (one
/// repeating a given, one breaking no rule yet), and a mistake counter (lives) that ends the
/// game at 3 and keeps wrong digits in red.
fn game_with_mistakes(skin: &str, size: Size) -> (SudokuApp, Vec<Cell>) {
    let mut phone = rig::phone(skin, size, "easy");
    phone
        .set_habits(Habits {
            lives: Some(3),
            wrong_start: true,
            ..Habits::default()
        })
        .unwrap();
    let wrong = phone.wrong_entries();
    assert_eq!(wrong.len(), 2, "{skin}: two wrong entries to start with");
    (phone, wrong)
}

#[test]
fn wrong_player_entries_are_corrected_and_no_new_mistake_is_counted_while_learning_and_playing() {
    let adb = adb_server::shared();
    // Every skin the agent plays, in both input orders, the sizes taking turns.
    let runs = rig::playable_skins()
        .enumerate()
        .map(|(i, skin)| (skin, [SMALL_SIZE, PHONE_SIZE][i % 2]));
    for (skin, size) in runs {
        let (phone, wrong) = game_with_mistakes(skin, size);
        let counted = phone.mistakes();
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let (code, err) = super::play_fresh(&adb, &sim);
        let (solved, mistakes, left) =
            sim.with_screen(|p| (p.is_solved(), p.mistakes(), p.wrong_entries()));
        // Whatever else happens, the agent types no digit the app counts as a mistake.
        assert_eq!(
            mistakes, counted,
            "{skin} {size}: the app counted no mistake of ours: {err}"
        );
        assert_eq!(code, 0, "{skin} {size}: {err}");
        assert!(solved, "{skin} {size}: {err}");
        assert!(left.is_empty(), "{skin} {size}: {left:?}");
        // One line names the corrected cells.
        let named: Vec<&str> = err
            .lines()
            .filter(|l| wrong.iter().all(|c| l.contains(&c.to_string())))
            .collect();
        assert_eq!(
            named.len(),
            1,
            "{skin} {size}: {wrong:?} in one line: {err}"
        );
        eprintln!("{skin} {size}: {}", named[0]);
    }
}

#[test]
fn a_screen_whose_givens_clash_is_refused_before_any_tap() {
    let dir = support::temp_dir("lives-clash");
    let cal = rig::write_calibration(&dir, "light", SMALL_SIZE);
    let mut phone = rig::phone("light", SMALL_SIZE, "easy");
    let givens = phone.givens();
    // Two givens in one row: draw the first one's digit over the second, so the row repeats it.
    let row: Vec<Cell> = (0..9)
        .map(|c| Cell::new(0, c).unwrap())
        .filter(|&c| givens.get(c).is_some())
        .collect();
    assert!(row.len() >= 2, "the easy puzzle's first row has two givens");
    let (from, to) = (phone.cell_center(row[0]), phone.cell_center(row[1]));
    let next = phone.cell_center(Cell::new(0, 1).unwrap());
    let half = (next.x - phone.cell_center(Cell::new(0, 0).unwrap()).x) * 2 / 5;
    let mut img = phone.render();
    for dy in 0..2 * half {
        for dx in 0..2 * half {
            let px = *img.get_pixel(from.x - half + dx, from.y - half + dy);
            img.put_pixel(to.x - half + dx, to.y - half + dy, px);
        }
    }
    let shot = dir.join("clash.png");
    img.save(&shot).unwrap();
    let (code, out, err) = outcome(agent().args([
        "play".into(),
        format!("--device=file:{}", shot.display()),
        "--calibration".into(),
        cal.display().to_string(),
        "--json".into(),
    ]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("nothing was tapped"), "{err}");
    assert!(out.trim().is_empty(), "no plan, no taps: {out}");
}
