//! The touch injector (`device/protocol/injector.rs`) on a phone through the adb server: pushed
//! when this version is not on the phone yet, started with `app_process` in one long-lived
//! `exec:` stream (on its own thread and `ADBServerDevice`, like the shell sessions), then fed tap
//! lines, each answered by one line; closing the stream closes its stdin and it exits. Whether
//! `--input` uses it is decided in `input_choice`.

use super::shell::{ExecStream, run_shell};
use super::stats::AdbStats;
use crate::device::protocol::injector::{self as protocol, Answer};
use anyhow::{Result, anyhow, bail};
use std::net::SocketAddrV4;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// How long the injector may take to start and say `ready`: a JVM start, reported at up to about
/// a second on old phones (`../shared/notes/injector.md`), with room for a slow link.
pub const START_TIMEOUT: Duration = Duration::from_secs(8);

/// Lines sent ahead of the last answer: enough to hide the link's latency, few enough that a
/// failure leaves little already committed.
const WINDOW: usize = 8;

/// Why taps through the injector did not happen.
#[derive(Debug, thiserror::Error)]
pub enum InjectError {
    /// Android refused injection (a `SecurityException`); the injector's line says so and it has
    /// exited. `taps_done` taps of the batch were answered before.
    #[error("{why}")]
    Refused { why: String, taps_done: usize },
    /// Android did not deliver one event (`injectInputEvent` returned false) after `taps_done`
    /// answered taps; the phone takes input otherwise.
    #[error("{why}")]
    Dropped { why: String, taps_done: usize },
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// Taps among the first `answered` injector lines (`tap X Y HOLD` each).
fn taps_in(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("tap ")).count()
}

/// A running injector.
pub struct Injector {
    serial: String,
    stream: ExecStream,
    closed: bool,
    manager: String,
    next_sync: u64,
}

impl Injector {
    /// Starts the injector on `serial` through the adb server at `server`, pushing it first when
    /// this version is not there (or does not start); `Err` says why it cannot be used.
    pub fn start(server: SocketAddrV4, serial: &str, stats: &mut AdbStats) -> Result<Injector> {
        let path = protocol::remote_path();
        stats.sessions += 1;
        match Self::launch(server, serial, &path) {
            Ok(injector) => return Ok(injector),
            Err(e) => {
                log::debug!("{serial}: the injector did not start from {path} ({e:#}); pushing it")
            }
        }
        for command in protocol::push_commands(protocol::DEX, &path) {
            stats.shell_commands += 1;
            let out = run_shell(server, serial, &command)?;
            if out.status != 0 {
                bail!(
                    "cannot write {path} on {serial} (exit {}): {}",
                    out.status,
                    out.diagnostics()
                );
            }
        }
        stats.sessions += 1;
        Self::launch(server, serial, &path)
    }

    /// Runs the injector from `path` and waits for its `ready`.
    fn launch(server: SocketAddrV4, serial: &str, path: &str) -> Result<Injector> {
        // Once our side is done, a moment for the last answers, then the stream closes, which
        // closes the injector's stdin.
        let stream = ExecStream::open(
            server,
            serial,
            &protocol::launch_command(path),
            format!("injector-{serial}"),
            Duration::from_millis(300),
        )?;
        let mut injector = Injector {
            serial: serial.to_string(),
            stream,
            closed: false,
            manager: String::new(),
            next_sync: 1,
        };
        let deadline = Instant::now() + START_TIMEOUT;
        let mut said = String::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match injector.next_line(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => bail!(
                    "no answer within {} s{}",
                    START_TIMEOUT.as_secs(),
                    quoted(&said)
                ),
                Err(RecvTimeoutError::Disconnected) => bail!("it exited{}", quoted(&said)),
            };
            match Answer::parse(&line) {
                Answer::Ready { version, manager } if version == protocol::PROTOCOL_VERSION => {
                    injector.manager = manager;
                    return Ok(injector);
                }
                Answer::Ready { version, .. } => {
                    bail!(
                        "it speaks protocol {version}, not {}",
                        protocol::PROTOCOL_VERSION
                    )
                }
                Answer::Error(why) => bail!("{why}"),
                _ => {
                    said.push_str(line.trim());
                    said.push(' ');
                }
            }
        }
    }

    /// The input manager class it injects through.
    pub fn manager(&self) -> &str {
        &self.manager
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The `sync` token for the next batch of lines.
    pub fn next_sync_token(&mut self) -> u64 {
        self.next_sync += 1;
        self.next_sync
    }

    /// The next complete output line, waiting at most `timeout`.
    fn next_line(&mut self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let line = self.stream.next_line(timeout)?;
        Ok(String::from_utf8_lossy(&line).into_owned())
    }

    fn send(&mut self, line: &str) -> Result<()> {
        if !self.stream.send(format!("{line}\n").into_bytes()) {
            self.closed = true;
            bail!(
                "the injector on {} has ended: check `adb devices`, then retry",
                self.serial
            );
        }
        Ok(())
    }

    /// Sends `lines` ([`protocol::encode`]d, ending in a `sync`), keeping a few ahead, and returns
    /// when every one is answered. Any failure closes the session (answers may be in flight).
    pub fn run(&mut self, lines: &[String], per_line: Duration) -> Result<(), InjectError> {
        let result = self.run_inner(lines, per_line);
        if result.is_err() {
            self.closed = true;
            self.stream.close_input(None);
        }
        result
    }

    fn run_inner(&mut self, lines: &[String], per_line: Duration) -> Result<(), InjectError> {
        let (mut sent, mut answered) = (0usize, 0usize);
        // Once a send fails the injector has ended, but its last answers may still be on the
        // way: a refusal (why it ended) tells the user more than "it has ended".
        let mut ended = None;
        while answered < lines.len() {
            while ended.is_none() && sent < lines.len() && sent - answered < WINDOW {
                match self.send(&lines[sent]) {
                    Ok(()) => sent += 1,
                    Err(e) => ended = Some(e),
                }
            }
            if answered == sent
                && let Some(e) = ended
            {
                return Err(e.into());
            }
            let line = self.next_line(per_line).map_err(|e| {
                if let Some(ended) = ended.take() {
                    return ended;
                }
                anyhow!(
                    "the injector on {} {} after {answered} of {} commands: check the phone, then retry",
                    self.serial,
                    match e {
                        RecvTimeoutError::Timeout => "stopped answering",
                        RecvTimeoutError::Disconnected => "exited",
                    },
                    lines.len()
                )
            })?;
            match Answer::parse(&line) {
                Answer::Ok | Answer::Sync(_) => answered += 1,
                Answer::Refused(why) => {
                    return Err(InjectError::Refused {
                        why,
                        taps_done: taps_in(&lines[..answered]),
                    });
                }
                Answer::Fail(why) => {
                    return Err(InjectError::Dropped {
                        why,
                        taps_done: taps_in(&lines[..answered]),
                    });
                }
                Answer::Bad(why) => {
                    return Err(anyhow!(
                        "the injector on {} did not carry out `{}`: {why}",
                        self.serial,
                        lines[answered]
                    )
                    .into());
                }
                // The runtime may print warnings of its own; they answer nothing.
                Answer::Other(text) => log::debug!("{}: injector said {text:?}", self.serial),
                other => {
                    return Err(anyhow!(
                        "the injector on {} answered {other:?} to `{}`",
                        self.serial,
                        lines[answered]
                    )
                    .into());
                }
            }
        }
        Ok(())
    }
}

fn quoted(said: &str) -> String {
    let said = said.trim();
    if said.is_empty() {
        String::new()
    } else {
        format!(": {}", said.chars().take(300).collect::<String>())
    }
}
