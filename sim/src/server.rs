//! `SimServer`: a simulated phone listening on 127.0.0.1, ready for `adb connect`. It ties the
//! fake adbd (wire protocol) to the handset (shell, touch, clock) and the app's `Screen`, and
//! lets tests read the state back (the typed screen, taps, command log, virtual clock) and stop
//! it. This is also what the `sim` subcommand runs in the foreground.
//!
//! ```no_run
//! # use sudoku_sim::{SudokuApp, SimConfig, SimServer, Size, Skin, puzzles};
//! # fn main() -> anyhow::Result<()> {
//! # let adb_server = std::net::SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, 5037);
//! let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
//! let phone = SudokuApp::new(puzzle, Skin::default(), Size::new(1080, 2340))?;
//! let sim = SimServer::start(phone, SimConfig::default())?; // free port on 127.0.0.1
//! sim.connect_adb_server(adb_server)?; // = `adb -P PORT connect 127.0.0.1:SIMPORT`
//! // ... then `ADBServerDevice::new(sim.serial(), Some(adb_server))` as with any phone.
//! # Ok(()) }
//! ```

use super::Screen;
use super::adbd::{Adbd, Inline, Service, Services, Stream, packet, shell_packet};
use super::handset::{Handset, HandsetConfig, TapRecord};
use super::latency::Latency;
use super::shell::{Ending, Shell, ShellIo};
use anyhow::{Context, Result, bail};
use std::io;
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How to start a simulated phone.
#[derive(Debug, Clone, Default)]
pub struct SimConfig {
    /// Port on 127.0.0.1; `None` picks a free one (never in adb's emulator range 5555-5585).
    pub port: Option<u16>,
    pub latency: Latency,
    /// Sleep for real as the virtual clock advances.
    pub realtime: bool,
    /// The device vanishes when command line N+1 arrives (dropped-connection fault).
    pub drop_after: Option<u64>,
}

/// The ports the adb server scans for emulators; a device there shows up twice.
pub const EMULATOR_PORTS: std::ops::RangeInclusive<u16> = 5555..=5585;

/// A running simulated phone. Dropping it stops it.
pub struct SimServer<S: Screen + 'static> {
    screen: Arc<Mutex<S>>,
    handset: Arc<Handset>,
    adbd: Adbd,
    /// The adb servers this phone was connected to, told to forget it when it goes.
    adb_servers: Mutex<Vec<SocketAddrV4>>,
}

impl<S: Screen + 'static> SimServer<S> {
    /// Starts serving `screen` on 127.0.0.1.
    pub fn start(screen: S, config: SimConfig) -> Result<SimServer<S>> {
        let listener = bind(config.port)?;
        let screen = Arc::new(Mutex::new(screen));
        let dyn_screen: Arc<Mutex<dyn Screen>> = screen.clone();
        let handset = Arc::new(Handset::new(
            dyn_screen,
            HandsetConfig {
                latency: config.latency,
                realtime: config.realtime,
                drop_after: config.drop_after,
            },
        ));
        let services: Arc<dyn Services> = Arc::new(DeviceServices {
            handset: handset.clone(),
        });
        let adbd = Adbd::serve(listener, services).context("could not start the fake adbd")?;
        let remote = adbd.remote();
        handset.set_on_vanish(move || remote.vanish());
        Ok(SimServer {
            screen,
            handset,
            adbd,
            adb_servers: Mutex::new(Vec::new()),
        })
    }

    pub fn port(&self) -> u16 {
        self.adbd.port()
    }

    pub fn addr(&self) -> SocketAddrV4 {
        SocketAddrV4::new(Ipv4Addr::LOCALHOST, self.port())
    }

    /// The serial the adb server gives the device after `adb connect`: `127.0.0.1:PORT`.
    pub fn serial(&self) -> String {
        self.addr().to_string()
    }

    /// Asks the adb server at `server` to connect to this phone (`host:connect:127.0.0.1:PORT`
    /// on the smart socket), as `adb connect` does, without spawning any `adb` process. Returns
    /// the server's answer (`connected to ...` or `already connected to ...`).
    pub fn connect_adb_server(&self, server: SocketAddrV4) -> Result<String> {
        let serial = self.serial();
        let _turn = lock_adb_server(server);
        // A transport the server still holds for this address belongs to an earlier phone that
        // had the same port (the server keeps a lost TCP device, offline, while it retries it):
        // `connect` would answer "already connected" and the phone stay offline for many
        // seconds. This phone just bound the port, so any such transport is stale.
        disconnect_adb_server(server, &serial);
        let get_state = format!("host-serial:{serial}:get-state");
        let connect = format!("host:connect:{serial}");
        let answer = smart_socket_query(server, &connect)
            .with_context(|| format!("could not reach the adb server at {server}"))?;
        if !answer.contains("connected to") {
            bail!("the adb server at {server} could not connect to the simulated phone: {answer}");
        }
        // "connected to" comes back once the socket is open; the CNXN handshake finishes on the
        // server's own time, and a command sent before it ends fails with "device offline". A
        // transport that vanished meanwhile (a stale one removed late) is connected again.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let mut last_connect = std::time::Instant::now();
        loop {
            let state = smart_socket_query(server, &get_state);
            match &state {
                Ok(state) if state == "device" => {
                    self.remember_adb_server(server);
                    return Ok(answer);
                }
                _ if std::time::Instant::now() >= deadline => bail!(
                    "the adb server at {server} connected to the simulated phone, but it never came online: {state:?}"
                ),
                _ if is_not_found(&state)
                    && last_connect.elapsed() > Duration::from_millis(200) =>
                {
                    let _ = smart_socket_query(server, &connect);
                    last_connect = std::time::Instant::now();
                }
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    /// Records that `server` connected this phone (say through `adb connect`, with
    /// [`lock_adb_server`] held), so that the phone disconnects itself from it when it goes.
    pub fn remember_adb_server(&self, server: SocketAddrV4) {
        let mut servers = self.adb_servers.lock().unwrap_or_else(|e| e.into_inner());
        if !servers.contains(&server) {
            servers.push(server);
        }
    }

    /// Reads or changes the app (board, taps, faults) under its lock. The next screenshot is
    /// rendered afresh, since the closure may have changed what is on screen.
    pub fn with_screen<R>(&self, f: impl FnOnce(&mut S) -> R) -> R {
        let r = f(&mut self.screen.lock().unwrap());
        self.handset.invalidate_frame();
        r
    }

    /// Taps the app received through the device, with their virtual times and paths.
    pub fn taps(&self) -> Vec<TapRecord> {
        self.handset.taps()
    }

    /// Command lines the shell ran, in order.
    pub fn command_log(&self) -> Vec<String> {
        self.handset.command_log()
    }

    /// Taps whose DOWN reached the app before the previous tap's click ran (see
    /// `latency`): pacing that is safe on phones keeps this at 0.
    pub fn overtaken(&self) -> u64 {
        self.handset.overtaken()
    }

    /// Virtual device time spent so far.
    pub fn clock(&self) -> Duration {
        self.handset.clock()
    }

    /// True once the dropped-connection fault fired.
    pub fn is_gone(&self) -> bool {
        self.handset.is_gone()
    }

    /// The handset itself (shell, properties, clock), for in-process use.
    pub fn handset(&self) -> &Arc<Handset> {
        &self.handset
    }

    /// The freeze fault: the phone stops answering (every message from the host is read and
    /// ignored, nothing is sent) but keeps its connections and port open, as a hung phone does.
    /// The adb server still lists it as `device`; every command to it waits forever.
    pub fn freeze(&self) {
        self.adbd.remote().freeze();
    }

    /// Stops listening and closes every connection.
    pub fn stop(&mut self) {
        self.adbd.stop();
    }
}

impl<S: Screen + 'static> Drop for SimServer<S> {
    /// A phone that goes disconnects itself from the adb servers it joined, and waits until
    /// each has removed it (see [`lock_adb_server`]). A server otherwise keeps a gone TCP device
    /// and retries it every few seconds.
    fn drop(&mut self) {
        let serial = self.serial();
        let servers = std::mem::take(
            self.adb_servers
                .get_mut()
                .unwrap_or_else(|e| e.into_inner()),
        );
        for server in servers {
            let _turn = lock_adb_server(server);
            disconnect_adb_server(server, &serial);
        }
    }
}

/// `host:disconnect:SERIAL`, then waits (up to 2 s) until the server has forgotten the device:
/// it removes a kicked transport on its own thread a moment later, and a `connect` before that
/// hears "already connected" and then loses the phone. Call it with [`lock_adb_server`] held.
fn disconnect_adb_server(server: SocketAddrV4, serial: &str) {
    if smart_socket_query(server, &format!("host:disconnect:{serial}")).is_err() {
        return; // not known to the server (or no server): nothing to wait for
    }
    let get_state = format!("host-serial:{serial}:get-state");
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    while !is_not_found(&smart_socket_query(server, &get_state))
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether a server's answer says it does not know the device.
fn is_not_found(answer: &Result<String>) -> bool {
    matches!(answer, Err(e) if e.to_string().contains("not found"))
}

/// Takes this machine's turn to add or remove a TCP device on the adb server at `server`, until
/// the returned file is dropped; every process that uses the same server shares the lock file.
///
/// Why: Debian's adb 29.0.6 crashes (a segfault at the same instruction each time, or a fatal
/// "failed to unregister fd" log line) when one TCP transport is being torn down while another
/// is being set up. Measured with 4 threads against one server: 16 server deaths in about 5,050
/// phones connected and dropped, 0 in 1,000 with each connect (until online) and each
/// disconnect (until the server has forgotten the phone) taken in turn; one thread alone, 0 in
/// 1,303. `None` when the lock file cannot be made or locked (then nothing waits); on systems
/// other than Unix the file is made but not locked.
pub fn lock_adb_server(server: SocketAddrV4) -> Option<std::fs::File> {
    let path = std::env::temp_dir().join(format!(
        "sudoku-sim-adb-{}-{}.lock",
        server.ip(),
        server.port()
    ));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .ok()?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor this function owns; released when `file` is closed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return None;
        }
    }
    Some(file)
}

/// One smart-socket request (`XXXXhost:...`) and its `OKAY` + length-prefixed answer.
fn smart_socket_query(server: SocketAddrV4, request: &str) -> Result<String> {
    use std::io::{Read, Write};
    let mut tcp = std::net::TcpStream::connect(server)?;
    tcp.set_read_timeout(Some(Duration::from_secs(30)))?;
    tcp.write_all(format!("{:04x}{request}", request.len()).as_bytes())?;
    let mut status = [0u8; 4];
    tcp.read_exact(&mut status)?;
    let mut len = [0u8; 4];
    tcp.read_exact(&mut len)?;
    let len = usize::from_str_radix(std::str::from_utf8(&len)?, 16)?;
    let mut body = vec![0u8; len];
    tcp.read_exact(&mut body)?;
    let body = String::from_utf8_lossy(&body).into_owned();
    match &status {
        b"OKAY" => Ok(body),
        _ => bail!("{body}"),
    }
}

fn bind(port: Option<u16>) -> Result<TcpListener> {
    match port {
        Some(p) if EMULATOR_PORTS.contains(&p) => bail!(
            "port {p} is in the range 5555-5585 that the adb server scans for emulators; the phone would show up twice. Choose another port or leave --port out"
        ),
        Some(p) => TcpListener::bind((Ipv4Addr::LOCALHOST, p))
            .with_context(|| format!("could not listen on 127.0.0.1:{p}; is the port in use?")),
        None => {
            // Ephemeral ports (32768+ on Linux) are never in the emulator range; check anyway.
            for _ in 0..8 {
                let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                    .context("could not listen on 127.0.0.1")?;
                if !EMULATOR_PORTS.contains(&l.local_addr()?.port()) {
                    return Ok(l);
                }
            }
            bail!("could not find a free port on 127.0.0.1 outside 5555-5585")
        }
    }
}

/// The services the phone offers: `shell` (v1 and v2), `exec`, `framebuffer`.
struct DeviceServices {
    handset: Arc<Handset>,
}

impl Services for DeviceServices {
    fn banner(&self) -> String {
        self.handset.banner()
    }

    fn accepts(&self, service: &Service) -> bool {
        !self.handset.is_gone()
            && matches!(
                service,
                Service::Shell { .. } | Service::Exec(_) | Service::Framebuffer
            )
    }

    fn serve_inline(&self, service: &Service) -> Option<Inline> {
        // Real sleeping would stall every other stream of the connection.
        if self.handset.realtime() {
            return None;
        }
        let (v2, command) = match service {
            Service::Shell {
                v2,
                pty: false,
                command,
            } => (*v2, command),
            Service::Exec(command) => (false, command),
            _ => return None,
        };
        if !super::shell::runs_without_stdin(command) {
            return None;
        }
        let mut io = ReplyIo {
            v2,
            reply: Vec::new(),
        };
        match Shell::new(&self.handset, &mut io).run(command) {
            Ending::Exit(status) => {
                if v2 {
                    io.reply
                        .extend(shell_packet(packet::EXIT, &[(status & 0xff) as u8]));
                }
                Some(Inline::Reply(io.reply))
            }
            Ending::Gone => Some(Inline::Vanished),
        }
    }

    fn serve(&self, service: Service, stream: &mut Stream) {
        match service {
            Service::Shell { v2, pty, command } => {
                let mut io = StreamShellIo::new(stream, v2);
                io.terminal = pty.then(Terminal::default);
                let ending = Shell::new(&self.handset, &mut io).run(&command);
                match ending {
                    Ending::Exit(status) if v2 => {
                        io.pending
                            .extend(shell_packet(packet::EXIT, &[(status & 0xff) as u8]));
                        let _ = io.flush();
                    }
                    Ending::Exit(_) => {
                        let _ = io.flush();
                    }
                    Ending::Gone => stream.drop_connection(),
                }
            }
            Service::Exec(command) => {
                let mut io = StreamShellIo::new(stream, false);
                match Shell::new(&self.handset, &mut io).run(&command) {
                    Ending::Exit(_) => {
                        let _ = io.flush();
                    }
                    Ending::Gone => stream.drop_connection(),
                }
            }
            Service::Framebuffer => match self.handset.framebuffer() {
                Ok(data) => {
                    let _ = stream.write(&data);
                }
                Err(_) => stream.drop_connection(),
            },
            Service::Other(_) => {}
        }
    }
}

/// Shell I/O over an adbd stream: raw bytes (`shell:`, `exec:`) or shell v2 packets. Output is
/// collected and sent at `flush` (after each command line and before the exit packet), so a
/// short command costs one WRTE round trip.
struct StreamShellIo<'a> {
    stream: &'a mut Stream,
    v2: bool,
    pending: Vec<u8>,
    decoder: super::adbd::PacketDecoder,
    stdin_closed: bool,
    /// A pty session (a person typing in `adb shell`): echo and line editing, `\n` -> `\r\n`.
    terminal: Option<Terminal>,
}

/// The pty's canonical-mode line discipline: typed bytes are echoed and collected into lines;
/// backspace edits, Ctrl-C drops the line, Ctrl-D on an empty line ends input.
#[derive(Default)]
struct Terminal {
    line: Vec<u8>,
    eof: bool,
}

impl Terminal {
    /// Takes typed bytes; returns (complete lines for the shell, bytes to echo).
    fn feed(&mut self, typed: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let (mut ready, mut echo) = (Vec::new(), Vec::new());
        for &b in typed {
            match b {
                b'\r' | b'\n' => {
                    echo.extend_from_slice(b"\r\n");
                    ready.append(&mut self.line);
                    ready.push(b'\n');
                }
                0x7f | 0x08 => {
                    if self.line.pop().is_some() {
                        echo.extend_from_slice(b"\x08 \x08");
                    }
                }
                0x03 => {
                    self.line.clear();
                    echo.extend_from_slice(b"^C\r\n");
                    ready.push(b'\n');
                }
                0x04 if self.line.is_empty() => self.eof = true,
                b => {
                    self.line.push(b);
                    echo.push(b);
                }
            }
        }
        (ready, echo)
    }
}

impl<'a> StreamShellIo<'a> {
    fn new(stream: &'a mut Stream, v2: bool) -> Self {
        StreamShellIo {
            stream,
            v2,
            pending: Vec::new(),
            decoder: Default::default(),
            stdin_closed: false,
            terminal: None,
        }
    }
}

/// Appends a command's output on `fd` to `out` as the host reads it: shell v2 wraps it in a
/// STDOUT or STDERR packet, the legacy shell sends the bytes as they are (stderr merged).
fn push_output(out: &mut Vec<u8>, v2: bool, fd: u8, data: &[u8]) {
    if v2 {
        let id = if fd == 2 {
            packet::STDERR
        } else {
            packet::STDOUT
        };
        out.extend(shell_packet(id, data));
    } else {
        out.extend_from_slice(data);
    }
}

/// Shell I/O for a command answered in one go: no stdin, output collected into the reply.
struct ReplyIo {
    v2: bool,
    reply: Vec<u8>,
}

impl ShellIo for ReplyIo {
    fn read_stdin(&mut self) -> Option<Vec<u8>> {
        None
    }

    fn write_output(&mut self, fd: u8, data: &[u8]) -> io::Result<()> {
        push_output(&mut self.reply, self.v2, fd, data);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Flush early when this much output is waiting (big screenshots go out as they come).
const FLUSH_AT: usize = 256 * 1024;

impl StreamShellIo<'_> {
    /// The next stdin bytes from the host (v2: the payload of STDIN packets).
    fn read_raw_stdin(&mut self) -> Option<Vec<u8>> {
        loop {
            if self.stdin_closed {
                return None;
            }
            let chunk = self.stream.read_chunk()?;
            if !self.v2 {
                return Some(chunk);
            }
            let mut data = Vec::new();
            for (id, payload) in self.decoder.push(&chunk) {
                match id {
                    packet::STDIN => data.extend(payload),
                    packet::CLOSE_STDIN => self.stdin_closed = true,
                    _ => {}
                }
            }
            if !data.is_empty() {
                return Some(data);
            }
        }
    }

    fn send_output(&mut self, fd: u8, data: &[u8]) {
        push_output(&mut self.pending, self.v2, fd, data);
    }
}

impl ShellIo for StreamShellIo<'_> {
    fn read_stdin(&mut self) -> Option<Vec<u8>> {
        loop {
            let data = self.read_raw_stdin()?;
            let Some(term) = &mut self.terminal else {
                return Some(data);
            };
            let (ready, echo) = term.feed(&data);
            let eof = term.eof;
            if !echo.is_empty() {
                self.send_output(1, &echo);
                let _ = self.flush();
            }
            if !ready.is_empty() {
                return Some(ready);
            }
            if eof {
                self.stdin_closed = true;
                return None;
            }
        }
    }

    fn is_terminal(&self) -> bool {
        self.terminal.is_some()
    }

    fn write_output(&mut self, fd: u8, data: &[u8]) -> io::Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if self.terminal.is_some() {
            // The pty's output processing (onlcr), which also mangles binary output as on a phone.
            let mut translated = Vec::with_capacity(data.len() + data.len() / 16);
            for &b in data {
                if b == b'\n' {
                    translated.push(b'\r');
                }
                translated.push(b);
            }
            self.send_output(1, &translated);
        } else {
            self.send_output(fd, data);
        }
        if self.pending.len() >= FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.pending);
        self.stream.write(&data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminal_echoes_edits_and_hands_over_whole_lines() {
        let mut t = Terminal::default();
        let (ready, echo) = t.feed(b"wm sz");
        assert!(ready.is_empty());
        assert_eq!(echo, b"wm sz");
        let (ready, echo) = t.feed(b"\x7fize\r");
        assert_eq!(ready, b"wm size\n");
        assert_eq!(echo, b"\x08 \x08ize\r\n");
        let (ready, _) = t.feed(b"junk\x03");
        assert_eq!(ready, b"\n");
        t.feed(b"\x04");
        assert!(t.eof);
    }

    #[test]
    fn ports_in_the_emulator_range_are_refused() {
        let err = bind(Some(5557)).unwrap_err().to_string();
        assert!(err.contains("5555-5585"), "{err}");
        let free = bind(None).unwrap().local_addr().unwrap().port();
        assert!(!EMULATOR_PORTS.contains(&free));
    }
}
