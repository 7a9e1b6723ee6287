//! What a phone is (Android version, model, screen, rotation) and which input method suits it,
//! learned with a few shell commands before anything is tapped.

use super::device::{AdbStats, EvdevWriter};
use super::shell::run_shell;
use crate::device::input::{EvdevTarget, EventLayout, InputKind, InputMethod};
use crate::device::parse::{self, DisplaySize, Rotation, Touchscreen};
use crate::geometry::Size;
use anyhow::{Context, Result, bail};
use std::net::SocketAddrV4;

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

/// Reads what the tap methods need: version, model, ABI, screen size and rotation.
pub(super) fn probe(server: SocketAddrV4, serial: &str, stats: &mut AdbStats) -> Result<PhoneInfo> {
    stats.shell_commands += 1;
    let out = run_shell(
        server,
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
    let rotation = match run_shell(server, serial, "dumpsys window displays") {
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
pub(super) fn writable_touchscreen(
    server: SocketAddrV4,
    info: &PhoneInfo,
    stats: &mut AdbStats,
) -> Result<Result<Touchscreen, String>> {
    stats.shell_commands += 1;
    let out = run_shell(server, &info.serial, "getevent -lp")?;
    let Some(touch) = parse::touchscreen(&parse::getevent_devices(&out.text())) else {
        return Ok(Err("`getevent -lp` lists no multi-touch screen".into()));
    };
    stats.shell_commands += 1;
    // Opening for append writes nothing; it fails exactly when SELinux or permissions forbid
    // writes (Android 10+ for the shell user).
    let node = crate::device::shell_quote::quote(&touch.path);
    let test = run_shell(server, &info.serial, &format!(": >> {node}"))?;
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
pub(super) fn choose_method(
    server: SocketAddrV4,
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
        Some(InputKind::Evdev) => match writable_touchscreen(server, info, stats)? {
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
                match writable_touchscreen(server, info, stats)? {
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

/// `evdev /dev/input/event1 (protocol B, 24-byte events, printf)`, `stream`, ...
pub fn describe(method: &InputMethod, writer: EvdevWriter) -> String {
    match method {
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
