//! One agent per phone across processes: a child process (this test binary, run again as the
//! holder) takes the phone's lock, and this process is refused at once with the child's pid and
//! command; once the child is killed the OS releases the lock and it can be taken.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use sudoku_agent::device::{PhoneInUse, PhoneLock};

/// Set in the child: the folder to lock in. The child locks, says so, and holds until killed.
const CHILD_DIR: &str = "SUDOKU_AGENT_TEST_LOCK_CHILD_DIR";
const SERIAL: &str = "127.0.0.1:5555";
/// What the child prints once it holds the lock.
const HOLDING: &str = "@@holding the phone lock@@";

#[test]
fn a_phone_locked_by_another_process_is_refused_at_once_with_its_pid_until_it_dies() {
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        let _lock = PhoneLock::acquire_in(dir.as_ref(), SERIAL, "calibrate").expect("child locks");
        // libtest may have written "test NAME ... " on this line already.
        println!("{HOLDING}");
        std::thread::sleep(std::time::Duration::from_secs(60));
        return;
    }
    let dir = std::env::temp_dir().join(format!("sudoku-agent-lock-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "device::lock::a_phone_locked_by_another_process_is_refused_at_once_with_its_pid_until_it_dies",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run the holder");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains(HOLDING) {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the holder ended");
    }
    let started = std::time::Instant::now();
    let err = PhoneLock::acquire_in(&dir, SERIAL, "play").unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    let in_use = err.downcast_ref::<PhoneInUse>().expect("typed");
    assert_eq!(in_use.pid, Some(child.id()));
    assert_eq!(in_use.command.as_deref(), Some("calibrate"));
    assert_eq!(
        err.to_string(),
        format!(
            "phone {SERIAL} is in use by sudoku-agent pid {} (calibrate); wait for it to finish or stop it",
            child.id()
        )
    );
    child.kill().expect("stop the holder");
    child.wait().unwrap();
    let lock = PhoneLock::acquire_in(&dir, SERIAL, "play").expect("released by the OS");
    drop(lock);
    let _ = std::fs::remove_dir_all(&dir);
}
