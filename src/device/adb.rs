//! A real phone through the adb server, with `adb_client` 3.2.3 as the transport: I/O only, the
//! parsing and encoding live in `parse` and `input`. This adapter owns the workarounds for
//! adb_client's known problems (`notes/adb-protocol.md`) so nothing above it has to know:
//!
//! * `shell_command` returns no exit status: every command whose status matters ends in
//!   `; echo __rc=$?`, and a missing marker means the device went away mid-command.
//! * `ADBServer` spawns `adb start-server` (ignoring our port) on every call: we start the server
//!   ourselves with `adb -P PORT start-server` and hand `ADBServer` a no-op program to spawn.
//! * `exec`/`shell` return before their output has arrived and lose it if the same
//!   `ADBServerDevice` is used again: the long-lived shell of the `stream` and `evdev` methods
//!   runs on its own thread with its own `ADBServerDevice`, and completion is the output writer
//!   being dropped.
//! * Screenshots use raw `screencap` through `shell_command` (binary-safe with shell v2), not
//!   adb_client's framebuffer decoder, which ignores the pixel format.

use crate::device::Device;
use crate::device::input::{
    self, EncodeError, EvdevTarget, EventLayout, InputKind, InputMethod, Pacing,
};
use crate::device::parse::{self, DisplaySize, Rotation, Touchscreen};
use crate::geometry::{Point, Size};
use adb_client::ADBDeviceExt;
use adb_client::server::{ADBServer, DeviceState};
use adb_client::server_device::ADBServerDevice;
use anyhow::{Context, Result, anyhow, bail};
use image::RgbaImage;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod inject;

/// Port of the adb server when neither `-P` nor `ANDROID_ADB_SERVER_PORT` says otherwise.
pub const DEFAULT_SERVER_PORT: u16 = 5037;

/// The one-line advice for "there is no phone".
pub const NO_DEVICE_HINT: &str = "no device attached: plug a phone in with USB debugging on, or run `adb connect HOST:PORT`, or start the simulated phone with `sudoku-agent sim`";

/// How to reach the adb server and which phone to use; the CLI fills it from -H/-P/-s/--input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdbOptions {
    /// Server host; `None` = 127.0.0.1.
    pub host: Option<String>,
    /// Server port; `None` = `ANDROID_ADB_SERVER_PORT` or 5037.
    pub port: Option<u16>,
    /// Device serial; `None` = `ANDROID_SERIAL` or the only device attached.
    pub serial: Option<String>,
    /// Input method; `None` = chosen by probing the phone.
    pub input: Option<InputKind>,
    /// The `adb` program used to start a server; `None` = `adb` on `PATH`.
    pub adb_program: Option<PathBuf>,
}

/// The server address from `-H`/`-P`, else `ANDROID_ADB_SERVER_PORT` (given as `env_port`), else
/// 127.0.0.1:5037.
pub fn server_address(
    host: Option<&str>,
    port: Option<u16>,
    env_port: Option<&str>,
) -> Result<SocketAddrV4> {
    let port = match (port, env_port.map(str::trim).filter(|p| !p.is_empty())) {
        (Some(p), _) => p,
        (None, Some(p)) => p.parse().map_err(|_| {
            anyhow!("ANDROID_ADB_SERVER_PORT={p:?} is not a port number: unset it or pass -P PORT")
        })?,
        (None, None) => DEFAULT_SERVER_PORT,
    };
    let host = host.unwrap_or("127.0.0.1");
    if let Ok(ip) = host.parse::<Ipv4Addr>() {
        return Ok(SocketAddrV4::new(ip, port));
    }
    (host, port)
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve adb server host {host:?}: check -H"))?
        .find_map(|a| match a {
            SocketAddr::V4(v4) => Some(v4),
            SocketAddr::V6(_) => None,
        })
        .ok_or_else(|| {
            anyhow!("adb server host {host:?} has no IPv4 address: pass -H with an IPv4 address")
        })
}

/// One line of `adb devices`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedDevice {
    pub serial: String,
    /// `device`, `offline`, `unauthorized`, ...
    pub state: String,
    /// From `adb devices -l` (may be empty).
    pub model: String,
}

/// Picks the phone to use: `wanted` (from -s or `ANDROID_SERIAL`) or the only one attached, and
/// says exactly what to do when that is impossible.
pub fn choose_device(devices: &[ListedDevice], wanted: Option<&str>) -> Result<String> {
    let listing = || {
        devices
            .iter()
            .map(|d| format!("{} ({})", d.serial, d.state))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let chosen = match wanted {
        Some(serial) => devices.iter().find(|d| d.serial == serial).ok_or_else(|| {
            if devices.is_empty() {
                anyhow!("device {serial} not found: {NO_DEVICE_HINT}")
            } else {
                anyhow!(
                    "device {serial} not found; attached: {}; pass one of these with -s",
                    listing()
                )
            }
        })?,
        None => match devices {
            [] => bail!(NO_DEVICE_HINT),
            [only] => only,
            _ => bail!(
                "{} devices attached: {}; pass -s SERIAL to pick one",
                devices.len(),
                listing()
            ),
        },
    };
    match chosen.state.as_str() {
        "device" => Ok(chosen.serial.clone()),
        "unauthorized" => bail!(
            "device {} is unauthorized: unlock the phone and accept the \"Allow USB debugging\" prompt, then retry",
            chosen.serial
        ),
        "offline" => bail!(
            "device {} is offline: run `adb reconnect` (or unplug and plug it in again, or `adb connect` it again)",
            chosen.serial
        ),
        other => bail!(
            "device {} is in state '{other}', not ready for commands: wait for it to boot into Android",
            chosen.serial
        ),
    }
}

/// Finds a program on `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A program that does nothing, handed to `ADBServer` so that its own `adb start-server`
/// (which ignores our port) never runs: we start the server ourselves.
fn no_op_program() -> String {
    ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| std::path::Path::new(p).is_file())
        .map(str::to_string)
        .or_else(|| find_on_path("true").map(|p| p.display().to_string()))
        .unwrap_or_else(|| "true".into())
}

/// The adb server: reachable at `addr`, started by us when it was not running.
#[derive(Debug, Clone)]
pub struct AdbServer {
    pub addr: SocketAddrV4,
}

impl AdbServer {
    /// Connects to the server of `options`, starting one (`adb -P PORT start-server`, as `adb`
    /// itself does) when the address is local and nothing listens there.
    pub fn connect(options: &AdbOptions) -> Result<AdbServer> {
        let env_port = std::env::var("ANDROID_ADB_SERVER_PORT").ok();
        let addr = server_address(options.host.as_deref(), options.port, env_port.as_deref())?;
        if TcpStream::connect_timeout(&SocketAddr::V4(addr), Duration::from_secs(2)).is_ok() {
            return Ok(AdbServer { addr });
        }
        if !(addr.ip().is_loopback() || addr.ip().is_unspecified()) {
            bail!(
                "no adb server answers at {addr}: start one there (`adb -a -P {} server nodaemon`) or drop -H to use a local one",
                addr.port()
            );
        }
        let adb = match &options.adb_program {
            Some(p) => p.clone(),
            None => find_on_path("adb").ok_or_else(|| {
                anyhow!(
                    "no adb server runs on port {} and adb was not found on PATH: install it with `apt-get install adb` (or Android platform-tools), or pass -H/-P of a running server",
                    addr.port()
                )
            })?,
        };
        log::info!(
            "starting the adb server: {} -P {} start-server",
            adb.display(),
            addr.port()
        );
        let out = std::process::Command::new(&adb)
            .args(["-P", &addr.port().to_string(), "start-server"])
            .stdin(std::process::Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", adb.display()))?;
        if !out.status.success() {
            bail!(
                "`{} -P {} start-server` failed: {}",
                adb.display(),
                addr.port(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&SocketAddr::V4(addr), Duration::from_secs(1)).is_err() {
            if Instant::now() > deadline {
                bail!(
                    "started the adb server but nothing answers at {addr}: see `adb -P {} server nodaemon` for why",
                    addr.port()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(AdbServer { addr })
    }

    fn client(&self) -> ADBServer {
        ADBServer::new_from_path(self.addr, Some(no_op_program()))
    }

    /// `adb devices -l`.
    pub fn devices(&self) -> Result<Vec<ListedDevice>> {
        let mut client = self.client();
        let listed = match client.devices_long() {
            Ok(long) => long
                .into_iter()
                .map(|d| ListedDevice {
                    serial: d.identifier,
                    state: d.state.to_string(),
                    model: if d.model == "Unk" {
                        String::new()
                    } else {
                        d.model
                    },
                })
                .collect(),
            // `devices -l` lines vary between adb versions; the short listing always parses.
            Err(e) => {
                log::debug!("adb devices -l failed ({e}); using adb devices");
                client
                    .devices()
                    .with_context(|| {
                        format!("cannot list devices from the adb server at {}", self.addr)
                    })?
                    .into_iter()
                    .map(|d| ListedDevice {
                        serial: d.identifier,
                        state: if d.state == DeviceState::Device {
                            "device".into()
                        } else {
                            d.state.to_string()
                        },
                        model: String::new(),
                    })
                    .collect()
            }
        };
        Ok(listed)
    }
}

/// What we learn about a phone before tapping it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneInfo {
    pub serial: String,
    pub sdk: u32,
    /// `ro.build.version.release`, e.g. `12`.
    pub release: String,
    pub model: String,
    /// `ro.product.cpu.abi`, e.g. `arm64-v8a`.
    pub abi: String,
    pub display: DisplaySize,
    pub rotation: Rotation,
}

impl PhoneInfo {
    /// Screen size in the current orientation.
    pub fn screen(&self) -> Size {
        self.rotation.apply(self.display.effective())
    }
}

/// Counters for benchmarks and `-v` output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdbStats {
    /// `shell_command` calls (each one adb round trip).
    pub shell_commands: u64,
    /// Long-lived shell sessions opened.
    pub sessions: u64,
    /// Lines run in long-lived shells (pipelined, not one round trip each).
    pub stream_lines: u64,
    pub screenshots: u64,
    pub taps: u64,
}

impl AdbStats {
    /// Requests that waited for the phone's answer: one per shell command, one per session
    /// opened (lines in a session are pipelined).
    pub fn round_trips(&self) -> u64 {
        self.shell_commands + self.sessions
    }
}

/// Output of a shell command run with the status marker.
#[derive(Debug)]
struct ShellOutput {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: i32,
}

impl ShellOutput {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    fn diagnostics(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.stderr).trim().to_string();
        if s.is_empty() {
            s = String::from_utf8_lossy(&self.stdout).trim().to_string();
        }
        s.chars().take(300).collect()
    }
}

/// Screenshot transfer format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenshotMode {
    /// `screencap` raw pixels (no PNG encoding on the phone): fast.
    Raw,
    /// `screencap -p`: slower, for phones whose raw output we cannot read.
    Png,
}

/// A phone through the adb server.
pub struct AdbDevice {
    server: AdbServer,
    device: ADBServerDevice,
    info: PhoneInfo,
    method: InputMethod,
    pacing: Pacing,
    shell: Option<ShellSession>,
    /// The on-device injector's session (`inject` method).
    injector: Option<inject::Injector>,
    /// The method asked for (`None` = auto: falls back when the phone refuses injection).
    asked: Option<InputKind>,
    evdev_writer: EvdevWriter,
    screenshot_mode: ScreenshotMode,
    stats: AdbStats,
}

/// How raw touch events reach the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvdevWriter {
    /// `printf '\ooo..' | dd of=NODE` lines in a long-lived shell: timed on the phone (`sleep`),
    /// each tap acknowledged.
    PrintfLines,
    /// A long-lived `dd of=NODE` fed records, timed by the host; for phones without `printf`.
    RawStream,
}

impl std::fmt::Debug for AdbDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdbDevice")
            .field("server", &self.server.addr)
            .field("info", &self.info)
            .field("input", &self.method.kind())
            .field("pacing", &self.pacing)
            .finish()
    }
}

/// Runs `command` with the status marker through `shell_command` on `device`.
fn run_shell(device: &mut ADBServerDevice, serial: &str, command: &str) -> Result<ShellOutput> {
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    device
        .shell_command(
            &parse::with_status_marker(command),
            Some(&mut stdout),
            Some(&mut stderr),
        )
        .map_err(|e| adb_error(e, serial))
        .with_context(|| format!("`{}` on {serial}", short(command)))?;
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

fn short(command: &str) -> String {
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
fn adb_error(e: adb_client::RustADBError, serial: &str) -> anyhow::Error {
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

impl AdbDevice {
    /// Opens the phone chosen by `options` and probes it (Android version, screen, rotation,
    /// touchscreen) to pick the input method.
    pub fn open(options: &AdbOptions) -> Result<AdbDevice> {
        let server = AdbServer::connect(options)?;
        let wanted = options.serial.clone().or_else(|| {
            std::env::var("ANDROID_SERIAL")
                .ok()
                .filter(|s| !s.is_empty())
        });
        let serial = choose_device(&server.devices()?, wanted.as_deref())?;
        Self::open_serial(server, &serial, options.input)
    }

    /// Opens a device already known by serial on `server`.
    pub fn open_serial(
        server: AdbServer,
        serial: &str,
        input: Option<InputKind>,
    ) -> Result<AdbDevice> {
        let mut device = ADBServerDevice::new(serial.to_string(), Some(server.addr));
        let mut stats = AdbStats::default();
        let info = probe(&mut device, serial, &mut stats)?;
        let (method, injector) =
            inject::choose(server.addr, &mut device, &info, input, &mut stats)?;
        let pacing = Pacing::default_for(method.kind());
        let evdev_writer = match &method {
            InputMethod::Evdev(_) => {
                stats.shell_commands += 1;
                match run_shell(&mut device, serial, "printf '\\101\\102'") {
                    Ok(out) if out.status == 0 && out.stdout == b"AB" => EvdevWriter::PrintfLines,
                    _ => EvdevWriter::RawStream,
                }
            }
            _ => EvdevWriter::PrintfLines,
        };
        log::info!(
            "{serial}: {} Android {} (API {}), screen {} rotation {}, input {}",
            info.model,
            info.release,
            info.sdk,
            info.screen(),
            info.rotation.degrees(),
            describe(&method, evdev_writer, injector.as_ref())
        );
        Ok(AdbDevice {
            server,
            device,
            info,
            method,
            pacing,
            shell: None,
            injector,
            asked: input,
            evdev_writer,
            screenshot_mode: ScreenshotMode::Raw,
            stats,
        })
    }

    pub fn info(&self) -> &PhoneInfo {
        &self.info
    }

    pub fn input_method(&self) -> &InputMethod {
        &self.method
    }

    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    pub fn stats(&self) -> AdbStats {
        self.stats
    }

    pub fn server(&self) -> &AdbServer {
        &self.server
    }

    /// Forces the screenshot format (raw by default, falling back to PNG by itself).
    pub fn set_screenshot_mode(&mut self, mode: ScreenshotMode) {
        self.screenshot_mode = mode;
    }

    fn shell(&mut self, command: &str) -> Result<ShellOutput> {
        self.stats.shell_commands += 1;
        run_shell(&mut self.device, &self.info.serial, command)
    }

    /// Runs a binary-output command (no status marker, which would corrupt the bytes).
    fn shell_binary(&mut self, command: &str) -> Result<(Vec<u8>, Vec<u8>)> {
        self.stats.shell_commands += 1;
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        self.device
            .shell_command(&command, Some(&mut stdout), Some(&mut stderr))
            .map_err(|e| adb_error(e, &self.info.serial))
            .with_context(|| format!("`{command}` on {}", self.info.serial))?;
        Ok((stdout, stderr))
    }

    fn screenshot_as(&mut self, mode: ScreenshotMode) -> Result<RgbaImage> {
        let command = match mode {
            ScreenshotMode::Raw => "screencap",
            ScreenshotMode::Png => "screencap -p",
        };
        let (bytes, stderr) = self.shell_binary(command)?;
        let decoded = match mode {
            ScreenshotMode::Raw => parse::raw_screencap(&bytes),
            ScreenshotMode::Png => parse::png_screencap(&bytes),
        };
        decoded.map_err(|e| {
            let serial = &self.info.serial;
            let why = String::from_utf8_lossy(&stderr)
                .trim()
                .chars()
                .take(200)
                .collect::<String>();
            if bytes.is_empty() && why.is_empty() {
                anyhow!("no screenshot data from {serial}: is it still connected? (`adb devices`)")
            } else if why.is_empty() {
                anyhow!("`{command}` on {serial}: {e}")
            } else {
                anyhow!("`{command}` on {serial}: {e} ({why})")
            }
        })
    }

    /// Sends encoded lines through the long-lived shell, opening it on first use.
    fn run_streamed(&mut self, lines: &[String]) -> Result<()> {
        if self.shell.as_ref().is_some_and(|s| s.is_closed()) {
            self.shell = None;
        }
        if self.shell.is_none() {
            let mut session = ShellSession::open(self.server.addr, &self.info.serial, "sh")?;
            self.stats.sessions += 1;
            if let InputMethod::Evdev(t) = &self.method {
                // Clear a contact left down by an earlier, interrupted run.
                session.run(&[t.write_command(&t.up_frame())], Duration::from_secs(10))?;
            }
            self.shell = Some(session);
        }
        let pacing = self.pacing;
        let per_line =
            Duration::from_millis((pacing.hold_ms + pacing.gap_ms + pacing.settle_ms) as u64)
                + Duration::from_secs(10);
        let session = self.shell.as_mut().expect("opened above");
        self.stats.stream_lines += lines.len() as u64;
        let result = session.run(lines, per_line);
        if result.is_err() {
            self.shell = None;
        }
        result
    }

    /// Taps through a long-lived `dd of=NODE`, timing holds and gaps on the host.
    fn run_raw_stream(&mut self, target: &EvdevTarget, taps: &[Point]) -> Result<()> {
        let writes = target
            .encode_raw(taps, &self.pacing)
            .map_err(|e| anyhow!("{e}"))?;
        if self.shell.as_ref().is_some_and(|s| s.is_closed()) {
            self.shell = None;
        }
        if self.shell.is_none() {
            let mut session = ShellSession::open(
                self.server.addr,
                &self.info.serial,
                &target.stream_command(),
            )?;
            self.stats.sessions += 1;
            session.write_raw(&input::event_bytes(&target.up_frame(), target.layout))?;
            self.shell = Some(session);
        }
        let session = self.shell.as_mut().expect("opened above");
        for (i, w) in writes.iter().enumerate() {
            if let Err(e) = session.write_raw(&w.bytes) {
                self.shell = None;
                return Err(e).with_context(|| format!("after {} of {} taps", i / 2, taps.len()));
            }
            self.stats.stream_lines += 1;
            // The settle after the last tap also lets the bytes drain to the phone.
            let wait = if i + 1 == writes.len() {
                w.then_wait_ms.max(RAW_STREAM_DRAIN_MS)
            } else {
                w.then_wait_ms
            };
            std::thread::sleep(Duration::from_millis(wait as u64));
        }
        session.check_alive()
    }
}

/// Least wait after the last raw write before the taps count as delivered (no acknowledgement
/// exists on that path).
const RAW_STREAM_DRAIN_MS: u32 = 30;

/// Reads what the tap methods need: version, model, ABI, screen size and rotation.
fn probe(device: &mut ADBServerDevice, serial: &str, stats: &mut AdbStats) -> Result<PhoneInfo> {
    stats.shell_commands += 1;
    let out = run_shell(
        device,
        serial,
        "getprop ro.build.version.sdk; getprop ro.build.version.release; getprop ro.product.model; getprop ro.product.cpu.abi; wm size",
    )?;
    let text = out.text();
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    if lines.len() < 5 {
        bail!(
            "unexpected answer from {serial} to getprop/wm size: {:?}",
            text.trim()
        );
    }
    let sdk = parse::sdk_level(lines[0])
        .with_context(|| format!("reading the Android version of {serial}"))?;
    let display = parse::wm_size(&lines[4..].join("\n"))
        .with_context(|| format!("reading the screen size of {serial}"))?;
    stats.shell_commands += 1;
    let rotation = match run_shell(device, serial, "dumpsys window displays") {
        Ok(out) if out.status == 0 => parse::rotation(&out.text()),
        _ => None,
    };
    let rotation = rotation.unwrap_or_else(|| {
        log::debug!(
            "{serial}: no rotation in `dumpsys window displays`; assuming the natural orientation"
        );
        Rotation::R0
    });
    Ok(PhoneInfo {
        serial: serial.to_string(),
        sdk,
        release: parse::getprop_value(lines[1]).unwrap_or("?").to_string(),
        model: parse::getprop_value(lines[2]).unwrap_or("").to_string(),
        abi: parse::getprop_value(lines[3]).unwrap_or("").to_string(),
        display,
        rotation,
    })
}

/// API level from which `cmd input tap` exists and `input` no longer starts a JVM (Android 12).
pub const STREAM_MIN_SDK: u32 = 31;
/// Last API level whose SELinux policy lets the shell user write `/dev/input` (Android 9).
pub const EVDEV_MAX_SDK: u32 = 28;

/// The touchscreen from `getevent -lp`, if the shell user may write it.
fn writable_touchscreen(
    device: &mut ADBServerDevice,
    info: &PhoneInfo,
    stats: &mut AdbStats,
) -> Result<Result<Touchscreen, String>> {
    stats.shell_commands += 1;
    let out = run_shell(device, &info.serial, "getevent -lp")?;
    let Some(touch) = parse::touchscreen(&parse::getevent_devices(&out.text())) else {
        return Ok(Err("`getevent -lp` lists no multi-touch screen".into()));
    };
    stats.shell_commands += 1;
    // Opening for append writes nothing; it fails exactly when SELinux or permissions forbid
    // writes (Android 10+ for the shell user).
    let test = run_shell(device, &info.serial, &format!(": >> {}", touch.path))?;
    if test.status != 0 {
        return Ok(Err(format!(
            "the shell user may not write {} (Android 10+ forbids it)",
            touch.path
        )));
    }
    Ok(Ok(touch))
}

/// Picks the fastest method the phone allows apart from the injector, or checks the one asked
/// for.
fn choose_method(
    device: &mut ADBServerDevice,
    info: &PhoneInfo,
    asked: Option<InputKind>,
    stats: &mut AdbStats,
) -> Result<InputMethod> {
    let evdev = |touch: Touchscreen| {
        InputMethod::Evdev(Box::new(EvdevTarget {
            touchscreen: touch,
            layout: EventLayout::for_abi(&info.abi),
            screen: info.screen(),
            rotation: info.rotation,
            first_tracking_id: 1 + (std::process::id() as i32 & 0x3ff),
        }))
    };
    let android = format!("Android {} (API {})", info.release, info.sdk);
    match asked {
        Some(InputKind::Tap) => Ok(InputMethod::Tap),
        Some(InputKind::Batch) => Ok(InputMethod::Batch),
        Some(InputKind::Stream) if info.sdk < STREAM_MIN_SDK => bail!(
            "--input stream needs Android 12 or newer (`cmd input tap`); {} runs {android}: use --input batch",
            info.serial
        ),
        Some(InputKind::Stream) => Ok(InputMethod::Stream),
        Some(InputKind::Evdev) => match writable_touchscreen(device, info, stats)? {
            Ok(touch) => Ok(evdev(touch)),
            Err(why) => bail!(
                "--input evdev is not possible on {} ({android}): {why}; use --input {}",
                info.serial,
                if info.sdk >= STREAM_MIN_SDK {
                    "stream"
                } else {
                    "batch"
                }
            ),
        },
        // The injector is decided on before (`inject::choose`); here it has been ruled out.
        None | Some(InputKind::Inject) => {
            if info.sdk <= EVDEV_MAX_SDK {
                match writable_touchscreen(device, info, stats)? {
                    Ok(touch) => return Ok(evdev(touch)),
                    Err(why) => log::info!("{}: no raw touch input: {why}", info.serial),
                }
            }
            Ok(if info.sdk >= STREAM_MIN_SDK {
                InputMethod::Stream
            } else {
                InputMethod::Batch
            })
        }
    }
}

/// `evdev /dev/input/event1 (protocol B, 24-byte events, printf)`, `inject (InputManagerGlobal)`,
/// `stream`, ...
fn describe(
    method: &InputMethod,
    writer: EvdevWriter,
    injector: Option<&inject::Injector>,
) -> String {
    match method {
        InputMethod::Inject => format!(
            "inject ({})",
            injector.map_or("not started", |i| crate::device::inject::short_manager(
                i.manager()
            ))
        ),
        InputMethod::Evdev(t) => format!(
            "evdev {} (protocol {}, {}-byte events, {})",
            t.touchscreen.path,
            if t.touchscreen.protocol_b() { "B" } else { "A" },
            t.layout.record_len(),
            match writer {
                EvdevWriter::PrintfLines => "printf",
                EvdevWriter::RawStream => "dd stream",
            }
        ),
        other => other.kind().to_string(),
    }
}

impl Device for AdbDevice {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        self.stats.screenshots += 1;
        let img = match self.screenshot_as(self.screenshot_mode) {
            Ok(img) => img,
            Err(raw_err) if self.screenshot_mode == ScreenshotMode::Raw => {
                log::info!("raw screencap failed ({raw_err:#}); trying PNG");
                let img = self
                    .screenshot_as(ScreenshotMode::Png)
                    .map_err(|png_err| anyhow!("{raw_err:#}; PNG fallback: {png_err:#}"))?;
                self.screenshot_mode = ScreenshotMode::Png;
                img
            }
            Err(e) => return Err(e),
        };
        let frame = Size::new(img.width(), img.height());
        if frame != self.info.screen() {
            // Rotated since we probed, or a `wm size` override the frame does not follow: taps
            // are given in the frame's pixels, so the frame is the truth.
            log::info!(
                "{}: screenshot is {frame}, expected {}; re-reading rotation",
                self.info.serial,
                self.info.screen()
            );
            let rotation = self
                .shell("dumpsys window displays")
                .ok()
                .and_then(|o| parse::rotation(&o.text()));
            if let Some(r) = rotation {
                self.info.rotation = r;
            }
            if let InputMethod::Evdev(t) = &mut self.method {
                t.rotation = self.info.rotation;
                t.screen = frame;
            }
        }
        Ok(img)
    }

    fn screen_size(&mut self) -> Result<Size> {
        Ok(match &self.method {
            InputMethod::Evdev(t) => t.screen,
            _ => self.info.screen(),
        })
    }

    fn tap_all(&mut self, taps: &[Point]) -> Result<()> {
        if taps.is_empty() {
            return Ok(());
        }
        self.tap_all_with_method(taps)
    }

    fn input_description(&self) -> String {
        describe(&self.method, self.evdev_writer, self.injector.as_ref())
    }

    fn pacing(&self) -> Option<Pacing> {
        Some(self.pacing)
    }

    fn set_pacing(&mut self, pacing: Pacing) {
        self.pacing = pacing;
    }
}

impl AdbDevice {
    /// `tap_all` with the current method (which a refused injection may change on the way).
    fn tap_all_with_method(&mut self, taps: &[Point]) -> Result<()> {
        let screen = self.screen_size()?;
        if let Some(p) = taps
            .iter()
            .find(|p| p.x >= screen.width || p.y >= screen.height)
        {
            bail!(
                "refusing to tap at ({}, {}): outside the {screen} screen of {}",
                p.x,
                p.y,
                self.info.serial
            );
        }
        match (&self.method, self.evdev_writer) {
            (InputMethod::Inject, _) => self.tap_injected(taps)?,
            (InputMethod::Evdev(target), EvdevWriter::RawStream) => {
                let target = (**target).clone();
                self.run_raw_stream(&target, taps)?
            }
            (InputMethod::Tap | InputMethod::Batch, _) => {
                for line in self
                    .method
                    .encode(taps, &self.pacing)
                    .map_err(|e: EncodeError| anyhow!("{e}"))?
                {
                    let out = self.shell(&line)?;
                    let text = format!("{}{}", out.text(), String::from_utf8_lossy(&out.stderr));
                    if text.contains("INJECT_EVENTS") {
                        bail!(
                            "{} refused to inject taps (INJECT_EVENTS): on Xiaomi/MIUI enable \"USB debugging (Security settings)\" in Developer options",
                            self.info.serial
                        );
                    }
                    if out.status != 0 {
                        bail!(
                            "`{}` failed on {} (exit {}): {}",
                            short(&line),
                            self.info.serial,
                            out.status,
                            out.diagnostics()
                        );
                    }
                }
            }
            (InputMethod::Stream | InputMethod::Evdev(_), _) => {
                let lines = self
                    .method
                    .encode(taps, &self.pacing)
                    .map_err(|e: EncodeError| anyhow!("{e}"))?;
                self.run_streamed(&lines)?
            }
        }
        if let InputMethod::Evdev(t) = &mut self.method {
            t.first_tracking_id = t.first_tracking_id.wrapping_add(taps.len() as i32) & 0x7fff_ffff;
        }
        self.stats.taps += taps.len() as u64;
        Ok(())
    }
}

/// Lines a long-lived shell keeps queued ahead of the one running: enough to hide the link's
/// latency, few enough that a failure leaves little already committed.
const STREAM_WINDOW: usize = 4;

/// A `Read` fed from a channel: the long-lived shell's stdin. EOF when the sender is dropped.
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

/// The long-lived shell's stdout: forwards chunks, and signals on `Drop` that adb_client's copy
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

/// One long-lived `exec:` session on its own thread and its own `ADBServerDevice`: either `sh`
/// fed command lines, each acknowledged by a status marker, or a raw sink (`dd of=NODE`) fed bytes.
struct ShellSession {
    serial: String,
    /// `sh` reading command lines (ended with `exit`), as opposed to a raw byte sink.
    interactive: bool,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    closed: bool,
    thread: Option<JoinHandle<()>>,
}

impl ShellSession {
    fn open(addr: SocketAddrV4, serial: &str, command: &str) -> Result<ShellSession> {
        let interactive = command == "sh";
        let command = command.to_string();
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>();
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let writer = SignallingWriter {
            tx: out_tx,
            done: done.clone(),
        };
        let serial_owned = serial.to_string();
        let thread = std::thread::Builder::new()
            .name(format!("adb-shell-{serial}"))
            .spawn(move || {
                let mut device = ADBServerDevice::new(serial_owned.clone(), Some(addr));
                let mut reader = ChannelReader {
                    rx: in_rx,
                    buf: Vec::new(),
                    pos: 0,
                };
                if let Err(e) = device.exec(&command, &mut reader, Box::new(writer)) {
                    log::debug!("{serial_owned}: `{command}` session ended: {e}");
                }
                // `exec` returns when our input ends, before the output has arrived; dropping
                // `device` now would cut it off. Wait until the copy thread drops the writer.
                // A raw sink never ends by itself (exec: has no half-close): give the bytes
                // already sent a moment to drain, then close.
                let patience = Duration::from_millis(if interactive { 10_000 } else { 300 });
                let (lock, cvar) = &*done;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let _ = cvar.wait_timeout_while(guard, patience, |d| !*d);
            })
            .context("cannot start the shell session thread")?;
        Ok(ShellSession {
            serial: serial.to_string(),
            interactive,
            input: Some(in_tx),
            output: out_rx,
            pending: Vec::new(),
            closed: false,
            thread: Some(thread),
        })
    }

    fn is_closed(&self) -> bool {
        self.closed
    }

    /// Sends raw bytes (raw sink sessions).
    fn write_raw(&mut self, bytes: &[u8]) -> Result<()> {
        self.check_alive()?;
        let sent = self
            .input
            .as_ref()
            .is_some_and(|tx| tx.send(bytes.to_vec()).is_ok());
        if !sent {
            self.closed = true;
            bail!(
                "the touch event stream on {} has ended: check `adb devices`, then retry",
                self.serial
            );
        }
        Ok(())
    }

    /// Fails when the session has ended (the raw sink died, or the device went away), with
    /// whatever it printed.
    fn check_alive(&mut self) -> Result<()> {
        loop {
            match self.output.try_recv() {
                Ok(chunk) => self.pending.extend_from_slice(&chunk),
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.closed = true;
                    let said = String::from_utf8_lossy(&self.pending)
                        .trim()
                        .chars()
                        .take(300)
                        .collect::<String>();
                    bail!(
                        "the touch event stream on {} has ended{}: check `adb devices`, then retry",
                        self.serial,
                        if said.is_empty() {
                            String::new()
                        } else {
                            format!(" ({said})")
                        }
                    );
                }
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let sent = self.input.as_ref().is_some_and(|tx| {
            tx.send(format!("{}\n", parse::with_status_marker(line)).into_bytes())
                .is_ok()
        });
        if !sent {
            self.closed = true;
            bail!(
                "the shell session on {} has ended: check `adb devices`, then retry",
                self.serial
            );
        }
        Ok(())
    }

    /// The next complete output line, waiting at most `timeout`.
    fn next_line(&mut self, timeout: Duration) -> Result<Vec<u8>, RecvTimeoutError> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(nl) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=nl).collect();
                return Ok(line);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = self.output.recv_timeout(left)?;
            self.pending.extend_from_slice(&chunk);
        }
    }

    /// Runs `lines` in order, keeping a few queued ahead, and returns when the phone has
    /// acknowledged the last one. Stops at the first failure.
    fn run(&mut self, lines: &[String], per_line: Duration) -> Result<()> {
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
                    if status != 0 || chatter.contains("INJECT_EVENTS") {
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
        if let Some(tx) = self.input.take()
            && self.interactive
        {
            let _ = tx.send(b"exit\n".to_vec());
        }
        // Wait (bounded) for the shell to end so the session does not outlive us.
        if !self.closed && self.interactive {
            let deadline = Instant::now() + Duration::from_secs(2);
            while self
                .output
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .is_ok()
            {}
        }
        if let Some(t) = self.thread.take()
            && t.is_finished()
        {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(serial: &str, state: &str) -> ListedDevice {
        ListedDevice {
            serial: serial.into(),
            state: state.into(),
            model: String::new(),
        }
    }

    #[test]
    fn server_address_comes_from_flags_then_environment_then_default() {
        assert_eq!(
            server_address(None, None, None).unwrap(),
            SocketAddrV4::new(Ipv4Addr::LOCALHOST, 5037)
        );
        assert_eq!(
            server_address(None, None, Some("15037")).unwrap().port(),
            15037
        );
        assert_eq!(
            server_address(None, Some(6000), Some("15037"))
                .unwrap()
                .port(),
            6000
        );
        assert_eq!(
            server_address(Some("10.0.0.2"), None, None).unwrap(),
            "10.0.0.2:5037".parse().unwrap()
        );
        assert_eq!(
            server_address(Some("localhost"), Some(1), None)
                .unwrap()
                .ip(),
            &Ipv4Addr::LOCALHOST
        );
        let err = server_address(None, None, Some("abc"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ANDROID_ADB_SERVER_PORT") && err.contains("-P"),
            "{err}"
        );
    }

    #[test]
    fn the_only_device_is_chosen_and_others_need_a_serial() {
        assert_eq!(
            choose_device(&[listed("abc", "device")], None).unwrap(),
            "abc"
        );
        let two = [listed("abc", "device"), listed("127.0.0.1:55551", "device")];
        let err = choose_device(&two, None).unwrap_err().to_string();
        assert_eq!(
            err,
            "2 devices attached: abc (device), 127.0.0.1:55551 (device); pass -s SERIAL to pick one"
        );
        assert_eq!(
            choose_device(&two, Some("127.0.0.1:55551")).unwrap(),
            "127.0.0.1:55551"
        );
        let err = choose_device(&two, Some("xyz")).unwrap_err().to_string();
        assert!(
            err.starts_with("device xyz not found; attached: abc"),
            "{err}"
        );
    }

    #[test]
    fn no_device_and_unready_devices_say_what_to_do() {
        assert_eq!(
            choose_device(&[], None).unwrap_err().to_string(),
            NO_DEVICE_HINT
        );
        assert!(
            choose_device(&[], Some("abc"))
                .unwrap_err()
                .to_string()
                .contains("sudoku-agent sim")
        );
        let err = choose_device(&[listed("abc", "unauthorized")], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("Allow USB debugging"), "{err}");
        let err = choose_device(&[listed("abc", "offline")], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("adb reconnect"), "{err}");
    }

    #[test]
    fn long_commands_are_shortened_in_messages() {
        assert_eq!(short("input tap 1 2"), "input tap 1 2");
        let long = "x".repeat(200);
        assert_eq!(short(&long).len(), 80);
    }
}
