//! The touch injector (`device/inject.rs`) on a phone through the adb server: pushed when this
//! version is not on the phone yet, started with `app_process` in one long-lived `exec:` stream
//! (on its own thread and `ADBServerDevice`, like the shell sessions), then fed tap lines, each
//! answered by one line; closing the stream closes its stdin and it exits. Also where `--input`
//! decides for or against it (the fallback when the phone refuses injection is the device's).

use super::device::AdbStats;
use super::probe::{PhoneInfo, choose_method};
use super::shell::{ChannelReader, SignallingWriter, run_shell};
use crate::device::inject::{self, Answer};
use crate::device::input::{InputKind, InputMethod};
use adb_client::ADBDeviceExt;
use adb_client::server_device::ADBServerDevice;
use anyhow::{Context, Result, anyhow, bail};
use std::net::SocketAddrV4;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the injector may take to start and say `ready`: a JVM start, reported at up to about
/// a second on old phones (notes/injector.md), with room for a slow link.
pub const START_TIMEOUT: Duration = Duration::from_secs(8);

/// Lines sent ahead of the last answer: enough to hide the link's latency, few enough that a
/// failure leaves little already committed.
const WINDOW: usize = 8;

/// Why taps through the injector did not happen.
#[derive(Debug, thiserror::Error)]
pub enum InjectError {
    /// Android refused injection; the injector's one line says what the user can do. Nothing was
    /// injected and the injector has exited.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// A running injector.
pub struct Injector {
    serial: String,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    closed: bool,
    manager: String,
    next_sync: u64,
    _thread: JoinHandle<()>,
}

impl Injector {
    /// Starts the injector on `serial`, pushing it first when this version is not there (or does
    /// not start); `Err` says why it cannot be used.
    pub fn start(
        addr: SocketAddrV4,
        serial: &str,
        device: SocketAddrV4,
        stats: &mut AdbStats,
    ) -> Result<Injector> {
        let path = inject::remote_path();
        stats.sessions += 1;
        match Self::launch(addr, serial, &path) {
            Ok(injector) => return Ok(injector),
            Err(e) => {
                log::debug!("{serial}: the injector did not start from {path} ({e:#}); pushing it")
            }
        }
        for command in inject::push_commands(inject::DEX, &path) {
            stats.shell_commands += 1;
            let out = run_shell(device, serial, &command)?;
            if out.status != 0 {
                bail!(
                    "cannot write {path} on {serial} (exit {}): {}",
                    out.status,
                    out.diagnostics()
                );
            }
        }
        stats.sessions += 1;
        Self::launch(addr, serial, &path)
    }

    /// Runs the injector from `path` and waits for its `ready`.
    fn launch(addr: SocketAddrV4, serial: &str, path: &str) -> Result<Injector> {
        let command = inject::launch_command(path);
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>();
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let writer = SignallingWriter {
            tx: out_tx,
            done: done.clone(),
        };
        let serial_owned = serial.to_string();
        let thread = std::thread::Builder::new()
            .name(format!("injector-{serial}"))
            .spawn(move || {
                let mut device = ADBServerDevice::new(serial_owned.clone(), Some(addr));
                let mut reader = ChannelReader {
                    rx: in_rx,
                    buf: Vec::new(),
                    pos: 0,
                };
                if let Err(e) = device.exec(&command, &mut reader, Box::new(writer)) {
                    log::debug!("{serial_owned}: injector session ended: {e}");
                }
                // Our side is done: a moment for the last answers, then the stream closes with
                // `device`, which closes the injector's stdin.
                let (lock, cvar) = &*done;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let _ = cvar.wait_timeout_while(guard, Duration::from_millis(300), |d| !*d);
            })
            .context("cannot start the injector's session thread")?;
        let mut injector = Injector {
            serial: serial.to_string(),
            input: Some(in_tx),
            output: out_rx,
            pending: Vec::new(),
            closed: false,
            manager: String::new(),
            next_sync: 1,
            _thread: thread,
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
                Answer::Ready { version, manager } if version == inject::PROTOCOL_VERSION => {
                    injector.manager = manager;
                    return Ok(injector);
                }
                Answer::Ready { version, .. } => {
                    bail!(
                        "it speaks protocol {version}, not {}",
                        inject::PROTOCOL_VERSION
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
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(nl) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=nl).collect();
                return Ok(String::from_utf8_lossy(&line).into_owned());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = self.output.recv_timeout(left)?;
            self.pending.extend_from_slice(&chunk);
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let sent = self
            .input
            .as_ref()
            .is_some_and(|tx| tx.send(format!("{line}\n").into_bytes()).is_ok());
        if !sent {
            self.closed = true;
            bail!(
                "the injector on {} has ended: check `adb devices`, then retry",
                self.serial
            );
        }
        Ok(())
    }

    /// Sends `lines` ([`inject::encode`]d, ending in a `sync`), keeping a few ahead, and returns
    /// when every one is answered. Any failure closes the session (answers may be in flight).
    pub fn run(&mut self, lines: &[String], per_line: Duration) -> Result<(), InjectError> {
        let result = self.run_inner(lines, per_line);
        if result.is_err() {
            self.closed = true;
            self.input = None;
        }
        result
    }

    fn run_inner(&mut self, lines: &[String], per_line: Duration) -> Result<(), InjectError> {
        let (mut sent, mut answered) = (0usize, 0usize);
        while answered < lines.len() {
            while sent < lines.len() && sent - answered < WINDOW {
                self.send(&lines[sent])?;
                sent += 1;
            }
            let line = self.next_line(per_line).map_err(|e| {
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
                Answer::Refused(why) => return Err(InjectError::Refused(why)),
                Answer::Bad(why) | Answer::Fail(why) => {
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

/// The input method for `asked` (`None` = auto) and, for `inject`, its running session. Auto
/// prefers the injector when it starts and answers, else the fastest other method (saying why
/// under `-v`); `--input inject` fails when it cannot start.
pub(super) fn choose(
    addr: SocketAddrV4,
    device: SocketAddrV4,
    info: &PhoneInfo,
    asked: Option<InputKind>,
    stats: &mut AdbStats,
) -> Result<(InputMethod, Option<Injector>)> {
    let serial = &info.serial;
    match asked {
        Some(InputKind::Inject) => {
            let injector = Injector::start(addr, serial, device, stats).map_err(|e| {
                anyhow!(
                    "--input inject is not possible on {serial} (Android {}): the injector did not start: {e:#}; use --input auto",
                    info.release
                )
            })?;
            Ok((InputMethod::Inject, Some(injector)))
        }
        None => match Injector::start(addr, serial, device, stats) {
            Ok(injector) => Ok((InputMethod::Inject, Some(injector))),
            Err(e) => {
                log::info!(
                    "{serial}: the injector did not start ({e:#}); using another input method"
                );
                Ok((choose_method(device, info, None, stats)?, None))
            }
        },
        other => Ok((choose_method(device, info, other, stats)?, None)),
    }
}
