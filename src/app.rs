//! One function per subcommand, and the only place that chooses implementations (which device,
//! which strategy, which input method). Everything here wires pure stages together.

use crate::cli::{Cli, Command, DeviceArgs, DevicesArgs, ScreenshotArgs};
use crate::device::adb::{AdbDevice, AdbOptions, AdbServer, NO_DEVICE_HINT, ScreenshotMode};
use crate::device::file::FileDevice;
use crate::device::{Device, DeviceSpec};
use anyhow::{Context, Result, bail};
use std::process::ExitCode;
use std::time::Instant;

/// Starts `env_logger` at the level asked for with `-v`, unless `RUST_LOG` says otherwise.
pub fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .format_timestamp(None)
        .init();
}

/// Runs one subcommand; `Ok` carries the exit code for outcomes that are not errors.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Devices(args) => devices(args),
        Command::Screenshot(args) => screenshot(args),
    }
}

/// How to reach the adb server and which phone, from the device options.
pub fn adb_options(args: &DeviceArgs) -> Result<AdbOptions> {
    let serial = match (&args.device, &args.serial) {
        (DeviceSpec::AdbSerial(a), Some(b)) if a != b => {
            bail!("--device adb:{a} and -s {b} name different phones: pass only one")
        }
        (DeviceSpec::AdbSerial(a), _) => Some(a.clone()),
        (_, s) => s.clone(),
    };
    Ok(AdbOptions {
        host: args.server.host.clone(),
        port: args.server.port,
        serial,
        input: args.input.kind(),
        adb_program: None,
    })
}

/// Opens the phone the device options name: the one place that picks a `Device` implementation.
pub fn open_device(args: &DeviceArgs) -> Result<Box<dyn Device>> {
    Ok(match &args.device {
        DeviceSpec::Adb | DeviceSpec::AdbSerial(_) => {
            Box::new(AdbDevice::open(&adb_options(args)?)?)
        }
        DeviceSpec::File(path) => Box::new(FileDevice::open(path)?),
        DeviceSpec::Sim(_) => bail!(
            "--device sim needs the in-process simulated phone, which this build lacks: run `sudoku-agent sim` and use --device adb"
        ),
    })
}

/// `devices`: every phone the adb server knows, with what a user checks first.
fn devices(args: DevicesArgs) -> Result<ExitCode> {
    let options = AdbOptions {
        host: args.server.host,
        port: args.server.port,
        ..AdbOptions::default()
    };
    let server = AdbServer::connect(&options)?;
    let listed = server.devices()?;
    let mut rows = Vec::new();
    for d in &listed {
        let mut row = serde_json::json!({ "serial": d.serial, "state": d.state, "model": d.model });
        if d.state == "device" {
            match AdbDevice::open_serial(server.clone(), &d.serial, None) {
                Ok(mut phone) => {
                    let info = phone.info().clone();
                    row["model"] = info.model.clone().into();
                    row["android"] = info.release.clone().into();
                    row["sdk"] = info.sdk.into();
                    row["screen"] = phone.screen_size()?.to_string().into();
                    row["input"] = phone.input_description().into();
                }
                Err(e) => {
                    eprintln!("{}: {e:#}", d.serial);
                    row["error"] = format!("{e:#}").into();
                }
            }
        }
        rows.push(row);
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows));
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        eprintln!("{NO_DEVICE_HINT}");
        return Ok(ExitCode::SUCCESS);
    }
    let cell = |r: &serde_json::Value, k: &str| match &r[k] {
        serde_json::Value::String(s) if !s.is_empty() => s.clone(),
        serde_json::Value::Null => "-".to_string(),
        v if !v.is_string() => v.to_string(),
        _ => "-".to_string(),
    };
    let table: Vec<[String; 6]> = std::iter::once(
        ["SERIAL", "STATE", "MODEL", "ANDROID", "SCREEN", "INPUT"].map(String::from),
    )
    .chain(rows.iter().map(|r| {
        let android = match (&r["android"], &r["sdk"]) {
            (serde_json::Value::String(a), serde_json::Value::Number(n)) => {
                format!("{a} (API {n})")
            }
            _ => "-".into(),
        };
        [
            cell(r, "serial"),
            cell(r, "state"),
            cell(r, "model"),
            android,
            cell(r, "screen"),
            cell(r, "input"),
        ]
    }))
    .collect();
    let widths: Vec<usize> = (0..6)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in &table {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        println!("{}", line.join("  ").trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// `screenshot`: save the current screen as a PNG.
fn screenshot(args: ScreenshotArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let img = match &args.device.device {
        DeviceSpec::Adb | DeviceSpec::AdbSerial(_) => {
            let mut phone = AdbDevice::open(&adb_options(&args.device)?)?;
            if args.png {
                phone.set_screenshot_mode(ScreenshotMode::Png);
            }
            phone.screenshot()?
        }
        _ => open_device(&args.device)?.screenshot()?,
    };
    img.save_with_format(&args.output, image::ImageFormat::Png)
        .with_context(|| {
            format!(
                "cannot write {}: check the folder exists and is writable",
                args.output.display()
            )
        })?;
    eprintln!(
        "saved {} ({}x{}) in {} ms",
        args.output.display(),
        img.width(),
        img.height(),
        started.elapsed().as_millis()
    );
    Ok(ExitCode::SUCCESS)
}

/// Exit code for an error that reached `main`: 1 when the board could not be read or solved
/// (marked with `BoardProblem` in the chain), 2 for usage, device and I/O errors.
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<BoardProblem>()) {
        1
    } else {
        2
    }
}

/// Marks an error as "the board could not be read or solved" (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BoardProblem(pub String);
