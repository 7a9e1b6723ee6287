//! Which input method a phone gets: the injector when it starts (or `--input inject`), else the
//! fastest method its Android version and permissions allow (raw events where the shell user may
//! write the touchscreen, `cmd input` from Android 12, `input` before), or a check that the
//! method asked for can work there.

use super::injector::Injector;
use super::phone_info::PhoneInfo;
use super::shell::run_shell;
use super::stats::AdbStats;
use crate::device::protocol::input::{EvdevTarget, EventLayout, InputMethod};
use crate::device::protocol::input_kind::InputKind;
use crate::device::protocol::parse::{self, Touchscreen};
use anyhow::{Result, anyhow, bail};
use std::net::SocketAddrV4;

/// The input method for `asked` (`None` = auto) and, for `inject`, its running session. Auto
/// prefers the injector when it starts and answers, else the fastest other method (saying why
/// under `-v`); `--input inject` fails when it cannot start.
pub(super) fn choose(
    server: SocketAddrV4,
    info: &PhoneInfo,
    asked: Option<InputKind>,
    stats: &mut AdbStats,
) -> Result<(InputMethod, Option<Injector>)> {
    let serial = &info.serial;
    match asked {
        Some(InputKind::Inject) => {
            let injector = Injector::start(server, serial, stats).map_err(|e| {
                anyhow!(
                    "--input inject is not possible on {serial} (Android {}): the injector did not start: {e:#}; use --input auto",
                    info.release
                )
            })?;
            Ok((InputMethod::Inject, Some(injector)))
        }
        None => match Injector::start(server, serial, stats) {
            Ok(injector) => Ok((InputMethod::Inject, Some(injector))),
            Err(e) => {
                log::info!(
                    "{serial}: the injector did not start ({e:#}); using another input method"
                );
                Ok((choose_method(server, info, None, stats)?, None))
            }
        },
        other => Ok((choose_method(server, info, other, stats)?, None)),
    }
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
    let node = crate::device::protocol::shell_line::quote(&touch.path);
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
