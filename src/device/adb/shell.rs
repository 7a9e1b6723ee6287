//! Shell commands on the phone: one-off commands with an exit-status marker (adb_client's
//! `shell_command` returns none), and the long-lived shell session of the `stream` and `evdev`
//! methods, which runs on its own thread with its own `ADBServerDevice`.

use super::deadline::{self, adb_timeout};
use crate::device::protocol::{parse, refusal};
use adb_client::ADBDeviceExt;
use adb_client::server_device::ADBServerDevice;
use anyhow::{Context, Result, anyhow, bail};
use std::io::{Read, Write};
use std::net::SocketAddrV4;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Output of a shell command run with the status marker.
#[derive(Debug)]
pub(super) struct ShellOutput {
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
    pub(super) status: i32,
}

impl ShellOutput {
    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub(super) fn diagnostics(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.stderr).trim().to_string();
        if s.is_empty() {
            s = String::from_utf8_lossy(&self.stdout).trim().to_string();
        }
        s.chars().take(300).collect()
    }
}

/// Runs `command` with the status marker on `serial`, waiting at most the adb deadline.
pub(super) fn run_shell(server: SocketAddrV4, serial: &str, command: &str) -> Result<ShellOutput> {
    run_shell_within(server, serial, command, adb_timeout())
}

/// `run_shell` with a deadline of its own (for commands that take long on purpose).
pub(super) fn run_shell_within(
    server: SocketAddrV4,
    serial: &str,
    command: &str,
    limit: Duration,
) -> Result<ShellOutput> {
    let (stdout, stderr) = shell_bytes(
        server,
        serial,
        &parse::with_status_marker(command),
        command,
        limit,
    )?;
    let (body, status) = parse::split_status(&stdout);
    let Some(status) = status else {
        bail!(
            "lost {serial} while running `{}` (no exit status came back): check the cable and `adb devices`, then retry",
            short(command)
        );
    };
    Ok(ShellOutput {
        stdout: body.to_vec(),
        stderr,
        status,
    })
}

/// One `shell_command` round trip (stdout, stderr) on a worker thread, abandoned with a clear
/// error after `limit` (adb_client has no timeout of its own). `shown` is the command as
/// messages name it.
pub(super) fn shell_bytes(
    server: SocketAddrV4,
    serial: &str,
    command: &str,
    shown: &str,
    limit: Duration,
) -> Result<(Vec<u8>, Vec<u8>)> {
    let (owned_serial, owned_command) = (serial.to_string(), command.to_string());
    let what = format!("`{}` on {serial}", short(shown));
    let result = deadline::within(limit, &what, move || {
        let mut device = ADBServerDevice::new(owned_serial, Some(server));
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        device
            .shell_command(&owned_command, Some(&mut stdout), Some(&mut stderr))
            .map(|_| (stdout, stderr))
    })?;
    result
        .map_err(|e| adb_error(e, serial))
        .with_context(|| what.clone())
}

pub(super) fn short(command: &str) -> String {
    if command.len() <= 80 {
        command.to_string()
    } else {
        let cut = (0..=77)
            .rev()
            .find(|&i| command.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}...", &command[..cut])
    }
}

/// An adb_client error as one line that says what to do next.
pub(super) fn adb_error(e: adb_client::RustADBError, serial: &str) -> anyhow::Error {
    use adb_client::RustADBError as E;
    match e {
        E::ADBRequestFailed(msg) if msg.contains("not found") || msg.contains("offline") => {
            anyhow!(
                "{serial} is gone ({msg}): reconnect it (`adb devices` should list it as `device`), then retry"
            )
        }
        E::ADBRequestFailed(msg) if msg.contains("unauthorized") => {
            anyhow!(
                "{serial} is unauthorized: accept the USB debugging prompt on the phone, then retry"
            )
        }
        E::IOError(io) => anyhow!(
            "connection to the adb server failed ({io}): is it still running? (`adb devices`)"
        ),
        other => anyhow!("adb: {other}"),
    }
}

/// Android refused the injected input of a long-lived shell's line after `done` lines had
/// succeeded (`said`: what it printed). The device turns it into a `TapsRefused`.
#[derive(Debug, thiserror::Error)]
#[error("Android refused injected input after {done} lines: {said}")]
pub(super) struct LineRefused {
    pub(super) done: usize,
    pub(super) said: String,
}

/// Lines a long-lived shell keeps queued ahead of the one running: enough to hide the link's
/// latency, few enough that a failure leaves little already committed.
pub(super) const STREAM_WINDOW: usize = 4;

/// A `Read` fed from a channel: a long-lived stream's stdin. EOF when the sender is dropped.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.buf = chunk;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// A long-lived stream's stdout: forwards chunks, and signals on `Drop` that adb_client's copy
/// thread is finished (the only completion signal `exec` gives).
struct SignallingWriter {
    tx: Sender<Vec<u8>>,
    done: Arc<(Mutex<bool>, Condvar)>,
}

impl Write for SignallingWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.tx
            .send(data.to_vec())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "reader gone"))?;
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for SignallingWriter {
    fn drop(&mut self) {
        let (lock, cvar) = &*self.done;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cvar.notify_all();
    }
}

/// One long-lived `exec:` stream on its own thread and its own `ADBServerDevice` (adb_client's
/// `exec` blocks until its input ends): bytes go to the command's stdin through a channel, its
/// output comes back in chunks and is read as lines. Dropping the input (or the stream) ends
/// the command's stdin. The `sh` session, the raw event sink and the injector all run on one.
pub(super) struct ExecStream {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    /// Output received and not yet taken as a line.
    pending: Vec<u8>,
    thread: Option<JoinHandle<()>>,
}

impl ExecStream {
    /// Starts `command` on `serial`. `exec` returns when our input ends, before the output has
    /// arrived, and dropping its device would cut that off: the thread then waits up to
    /// `patience` for the copy thread to finish before it closes the stream.
    pub(super) fn open(
        addr: SocketAddrV4,
        serial: &str,
        command: &str,
        thread_name: String,
        patience: Duration,
    ) -> Result<ExecStream> {
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>();
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let writer = SignallingWriter {
            tx: out_tx,
            done: done.clone(),
        };
        let (serial, command) = (serial.to_string(), command.to_string());
        let thread = std::thread::Builder::new()
            .name(thread_name)
            .spawn(move || {
                let mut device = ADBServerDevice::new(serial.clone(), Some(addr));
                let mut reader = ChannelReader {
                    rx: in_rx,
                    buf: Vec::new(),
                    pos: 0,
                };
                if let Err(e) = device.exec(&command, &mut reader, Box::new(writer)) {
                    log::debug!("{serial}: `{command}` session ended: {e}");
                }
                let (lock, cvar) = &*done;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let _ = cvar.wait_timeout_while(guard, patience, |d| !*d);
            })
            .context("cannot start the adb session thread")?;
        Ok(ExecStream {
            input: Some(in_tx),
            output: out_rx,
            pending: Vec::new(),
            thread: Some(thread),
        })
    }

    /// Sends bytes to the command's stdin; false when the stream has ended (or its input was
    /// closed).
    pub(super) fn send(&self, bytes: Vec<u8>) -> bool {
        self.input.as_ref().is_some_and(|tx| tx.send(bytes).is_ok())
    }

    /// Closes the command's stdin (the command then ends), optionally sending `last` first.
    pub(super) fn close_input(&mut self, last: Option<&[u8]>) {
        if let (Some(tx), Some(bytes)) = (self.input.take(), last) {
            let _ = tx.send(bytes.to_vec());
        }
    }

    /// Takes whatever output has arrived without waiting; `Err` once the stream has ended.
    pub(super) fn take_ready(&mut self) -> Result<(), mpsc::TryRecvError> {
        loop {
            match self.output.try_recv() {
                Ok(chunk) => self.pending.extend_from_slice(&chunk),
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }

    /// Output received and not yet taken as a line.
    pub(super) fn pending(&self) -> &[u8] {
        &self.pending
    }

    /// The next complete output line, waiting at most `timeout`.
    pub(super) fn next_line(&mut self, timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(nl) = self.pending.iter().position(|&b| b == b'\n') {
                return Ok(self.pending.drain(..=nl).collect());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = self.output.recv_timeout(left)?;
            self.pending.extend_from_slice(&chunk);
        }
    }

    /// Waits at most `limit` for the command to end (its output to close).
    pub(super) fn wait_end(&mut self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while self
            .output
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .is_ok()
        {}
    }
}

impl Drop for ExecStream {
    fn drop(&mut self) {
        self.input = None;
        if let Some(t) = self.thread.take()
            && t.is_finished()
        {
            let _ = t.join();
        }
    }
}

/// The long-lived shell of the `stream` and `evdev` methods, on an [`ExecStream`]: either `sh`
/// fed command lines, each acknowledged by a status marker, or a raw sink (`dd of=NODE`) fed bytes.
pub(super) struct ShellSession {
    serial: String,
    /// `sh` reading command lines (ended with `exit`), as opposed to a raw byte sink.
    interactive: bool,
    stream: ExecStream,
    closed: bool,
}

impl ShellSession {
    pub(super) fn open(addr: SocketAddrV4, serial: &str, command: &str) -> Result<ShellSession> {
        let interactive = command == "sh";
        // A raw sink never ends by itself (exec: has no half-close): give the bytes already sent
        // a moment to drain, then close; `sh` ends at `exit` and its output is awaited.
        let patience = Duration::from_millis(if interactive { 10_000 } else { 300 });
        let stream = ExecStream::open(
            addr,
            serial,
            command,
            format!("adb-shell-{serial}"),
            patience,
        )?;
        Ok(ShellSession {
            serial: serial.to_string(),
            interactive,
            stream,
            closed: false,
        })
    }

    pub(super) fn is_closed(&self) -> bool {
        self.closed
    }

    /// Sends raw bytes (raw sink sessions).
    pub(super) fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.check_alive()?;
        if !self.stream.send(bytes.to_vec()) {
            return Err(self.ended("touch event stream", String::new()));
        }
        Ok(())
    }

    /// Marks the session closed and says so: `what` has ended, with `said`, what it printed
    /// last, if anything.
    fn ended(&mut self, what: &str, said: String) -> anyhow::Error {
        self.closed = true;
        let said = if said.is_empty() {
            said
        } else {
            format!(" ({said})")
        };
        anyhow!(
            "the {what} on {} has ended{said}: check `adb devices`, then retry",
            self.serial
        )
    }

    /// Fails when the session has ended (the raw sink died, or the device went away), with
    /// whatever it printed.
    pub(super) fn check_alive(&mut self) -> Result<()> {
        if self.stream.take_ready().is_ok() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(self.stream.pending())
            .trim()
            .chars()
            .take(300)
            .collect::<String>();
        Err(self.ended("touch event stream", said))
    }

    pub(super) fn send(&mut self, line: &str) -> Result<()> {
        let line = format!("{}\n", parse::with_status_marker(line));
        if !self.stream.send(line.into_bytes()) {
            return Err(self.ended("shell session", String::new()));
        }
        Ok(())
    }

    /// The next complete output line, waiting at most `timeout`.
    pub(super) fn next_line(&mut self, timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        self.stream.next_line(timeout)
    }

    /// Runs `lines` in order, keeping a few queued ahead, and returns when the phone has
    /// acknowledged the last one. Stops at the first failure.
    pub(super) fn run(&mut self, lines: &[String], per_line: Duration) -> Result<()> {
        let (mut sent, mut acked) = (0usize, 0usize);
        let mut chatter = String::new();
        while acked < lines.len() {
            while sent < lines.len() && sent - acked < STREAM_WINDOW {
                self.send(&lines[sent])?;
                sent += 1;
            }
            let line = match self.next_line(per_line) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    self.closed = true;
                    bail!(
                        "{} stopped answering after {acked} of {} tap commands: check the phone, then retry",
                        self.serial,
                        lines.len()
                    );
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    bail!(
                        "lost {} after {acked} of {} tap commands{}: check the cable and `adb devices`, then retry",
                        self.serial,
                        lines.len(),
                        if chatter.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", chatter.trim())
                        }
                    );
                }
            };
            match parse::split_status(&line) {
                (before, Some(status)) => {
                    chatter.push_str(&String::from_utf8_lossy(before));
                    if refusal::is_input_refusal(&chatter) {
                        // The lines queued behind this one still run (the shell has read them),
                        // and are refused alike.
                        return Err(LineRefused {
                            done: acked,
                            said: chatter.trim().to_string(),
                        }
                        .into());
                    }
                    if status != 0 {
                        // The lines queued behind this one still run: the shell has read them.
                        bail!(
                            "`{}` failed on {} (exit {status}){}",
                            short(&lines[acked]),
                            self.serial,
                            if chatter.trim().is_empty() {
                                String::new()
                            } else {
                                format!(": {}", chatter.trim())
                            }
                        );
                    }
                    chatter.clear();
                    acked += 1;
                }
                (text, None) => chatter.push_str(&String::from_utf8_lossy(text)),
            }
        }
        Ok(())
    }
}

impl Drop for ShellSession {
    fn drop(&mut self) {
        if self.interactive {
            self.stream.close_input(Some(b"exit\n"));
            // Wait (bounded) for the shell to end so the session does not outlive us.
            if !self.closed {
                self.stream.wait_end(Duration::from_secs(2));
            }
        } else {
            self.stream.close_input(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_commands_are_shortened_in_messages() {
        assert_eq!(short("input tap 1 2"), "input tap 1 2");
        let long = "x".repeat(200);
        assert_eq!(short(&long).len(), 80);
    }
}
