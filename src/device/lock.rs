//! One agent per phone: a lock file per serial, held with an OS file lock (`File::try_lock`) for
//! as long as a command uses the phone. A second `play`, `visualize` or `calibrate` on the same
//! phone fails at once, before any tap, naming the holder's pid and command (written into the
//! file by the holder). The OS releases the lock when the holder exits, even when it is killed,
//! so a crash never leaves a phone locked; the file itself stays (deleting it on release would
//! let two processes lock two different files of the same name).

use anyhow::{Context, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Another sudoku-agent is using the phone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct PhoneInUse {
    pub serial: String,
    /// The holder's pid and command, when it has written them.
    pub pid: Option<u32>,
    pub command: Option<String>,
}

impl PhoneInUse {
    fn message(&self) -> String {
        let serial = crate::error::one_line(&self.serial);
        let holder = match (self.pid, &self.command) {
            (Some(pid), Some(command)) => {
                format!(
                    "sudoku-agent pid {pid} ({})",
                    crate::error::one_line(command)
                )
            }
            (Some(pid), None) => format!("sudoku-agent pid {pid}"),
            _ => "another sudoku-agent".to_string(),
        };
        format!("phone {serial} is in use by {holder}; wait for it to finish or stop it")
    }
}

/// The lock on one phone, held until dropped.
#[derive(Debug)]
pub struct PhoneLock {
    file: File,
    path: PathBuf,
}

impl PhoneLock {
    /// Locks the phone `serial` for `command` (`play`, `visualize`, ...) in [`lock_dir`]; fails
    /// at once with [`PhoneInUse`] when another process holds it.
    pub fn acquire(serial: &str, command: &str) -> Result<PhoneLock> {
        Self::acquire_in(&lock_dir(), serial, command).map_err(|e| {
            if e.downcast_ref::<PhoneInUse>().is_some() {
                return e;
            }
            let variable = if runtime_dir().is_some() {
                "XDG_RUNTIME_DIR"
            } else {
                "TMPDIR"
            };
            anyhow::anyhow!("{e:#}: set {variable} to a folder you can write")
        })
    }

    /// [`PhoneLock::acquire`] with the lock files in `dir` (created if missing).
    pub fn acquire_in(dir: &Path, serial: &str, command: &str) -> Result<PhoneLock> {
        std::fs::create_dir_all(dir).with_context(|| {
            format!("cannot create the folder for phone locks {}", dir.display())
        })?;
        let path = dir.join(format!("{}.lock", file_stem(serial)));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("cannot open the phone lock {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut said = String::new();
                let _ = file.read_to_string(&mut said);
                let (pid, command) = holder(&said);
                return Err(PhoneInUse {
                    serial: serial.to_string(),
                    pid,
                    command,
                }
                .into());
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", path.display()));
            }
        }
        // Who holds it, for the message a second agent prints.
        let record = format!("{}\n{}\n", std::process::id(), one_word(command));
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(record.as_bytes()))
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(PhoneLock { file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PhoneLock {
    fn drop(&mut self) {
        // Closing the file releases the lock too; unlocking first makes it immediate.
        let _ = self.file.unlock();
    }
}

/// Where lock files live: `$XDG_RUNTIME_DIR/sudoku-agent` (per user, cleared at logout), else
/// `sudoku-agent-locks` in the temp folder.
pub fn lock_dir() -> PathBuf {
    match runtime_dir() {
        Some(dir) => dir.join("sudoku-agent"),
        None => std::env::temp_dir().join("sudoku-agent-locks"),
    }
}

fn runtime_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_RUNTIME_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
}

/// A file name for `serial` (`127.0.0.1:5555` -> `127.0.0.1_5555`): letters, digits, `.`, `-`
/// and `_` kept, everything else `_`, plus a hash of the whole serial so two serials that
/// differ only in replaced characters never share a file.
pub fn file_stem(serial: &str) -> String {
    let clean: String = serial
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // FNV-1a: stable across runs and builds, unlike std's hasher.
    let hash = serial.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{clean}-{:08x}", hash as u32)
}

/// The pid and command a holder wrote (`PID\nCOMMAND\n`).
fn holder(text: &str) -> (Option<u32>, Option<String>) {
    let mut lines = text.lines();
    let pid = lines.next().and_then(|l| l.trim().parse().ok());
    let command = lines
        .next()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from);
    (pid, command)
}

/// `command` on one line, short.
fn one_word(command: &str) -> String {
    command
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(60)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "sudoku-agent-lock-test-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_second_holder_fails_at_once_naming_the_first_ones_pid_and_command() {
        let dir = dir("second");
        let first = PhoneLock::acquire_in(&dir, "127.0.0.1:5555", "play").unwrap();
        let err = PhoneLock::acquire_in(&dir, "127.0.0.1:5555", "calibrate").unwrap_err();
        let in_use = err.downcast_ref::<PhoneInUse>().expect("typed");
        assert_eq!(in_use.pid, Some(std::process::id()));
        assert_eq!(in_use.command.as_deref(), Some("play"));
        assert_eq!(
            err.to_string(),
            format!(
                "phone 127.0.0.1:5555 is in use by sudoku-agent pid {} (play); wait for it to finish or stop it",
                std::process::id()
            )
        );
        drop(first);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_dropped_lock_is_free_again_and_other_phones_never_conflict() {
        let dir = dir("free");
        let a = PhoneLock::acquire_in(&dir, "serial-a", "play").unwrap();
        let b = PhoneLock::acquire_in(&dir, "serial-b", "play").expect("another phone");
        drop(a);
        let again = PhoneLock::acquire_in(&dir, "serial-a", "visualize").expect("free again");
        assert_eq!(
            std::fs::read_to_string(again.path()).unwrap(),
            format!("{}\nvisualize\n", std::process::id())
        );
        drop((b, again));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_folder_that_cannot_be_made_is_one_line_naming_it() {
        let dir = dir("blocked");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("not-a-folder");
        std::fs::write(&file, b"x").unwrap();
        let err = PhoneLock::acquire_in(&file.join("locks"), "s", "play").unwrap_err();
        let msg = format!("{err:#}");
        assert!(
            msg.starts_with("cannot create the folder for phone locks ") && msg.contains("locks"),
            "{msg}"
        );
        assert!(err.downcast_ref::<PhoneInUse>().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn serials_become_safe_distinct_file_names() {
        assert!(file_stem("127.0.0.1:5555").starts_with("127.0.0.1_5555-"));
        assert!(file_stem("../../etc/passwd").starts_with(".._.._etc_passwd-"));
        assert_ne!(file_stem("a:b"), file_stem("a/b"));
        assert_eq!(file_stem("R5CW30"), file_stem("R5CW30"));
        assert!(!file_stem("a\nb").contains('\n'));
    }

    #[test]
    fn a_holder_that_wrote_nothing_yet_is_named_generally() {
        assert_eq!(holder(""), (None, None));
        assert_eq!(holder("42\n"), (Some(42), None));
        let e = PhoneInUse {
            serial: "x".into(),
            pid: None,
            command: None,
        };
        assert_eq!(
            e.to_string(),
            "phone x is in use by another sudoku-agent; wait for it to finish or stop it"
        );
    }
}
