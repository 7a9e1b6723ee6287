//! The one place that picks implementations: which `Device` the options name (a phone through the
//! adb server, a PNG file, the simulated phone in-process or served through the adb server) and
//! with which input method. The `sim` subcommand serves its phone through `SimSetup` here.

use crate::cli::{DeviceArgs, SimPhoneArgs};
use crate::device::adb::{AdbDevice, AdbOptions};
use crate::device::file::FileDevice;
use crate::device::{Device, DeviceSpec};
use anyhow::{Result, bail};
use image::RgbaImage;
#[cfg(not(feature = "sim"))]
pub(super) use simulated::ABSENT as NO_SIM;
pub(super) use simulated::SimSession;
#[cfg(feature = "sim")]
pub(super) use simulated::SimSetup;
use std::path::Path;

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
        DeviceSpec::Sim(skin) => simulated::open_in_process(skin.as_deref())?,
    })
}

/// The phone for `play` and `visualize`: `--device sim[:SKIN]` is served through the adb server
/// like a phone on a cable (its session goes into `session`, which the caller must declare
/// before the device so that the device closes first); anything else is `open_device`.
pub(super) fn open_phone(
    args: &DeviceArgs,
    sim: &SimPhoneArgs,
    session: &mut Option<SimSession>,
) -> Result<Box<dyn Device>> {
    match &args.device {
        DeviceSpec::Sim(skin) => {
            let (device, opened) = simulated::open_through_adb(skin.as_deref(), sim, args)?;
            *session = opened;
            Ok(device)
        }
        _ => open_device(args),
    }
}

/// Loads a screenshot file; its errors are one line already (what the file is, what to pass).
pub(super) fn load_screenshot(path: &Path) -> Result<RgbaImage> {
    crate::device::file::read_screenshot(path)
}

/// The simulated phone (the `sim` feature): the only code of the agent that names the
/// `sudoku_sim` crate.
#[cfg(feature = "sim")]
mod simulated {
    use crate::cli::{DeviceArgs, SimPhoneArgs};
    use crate::device::Device;
    use crate::device::adb::AdbOptions;
    use crate::device::sim::SimDevice;
    use crate::device::sim_adb::{AdbSim, NoAdb};
    use crate::geometry::Size;
    use anyhow::{Context, Result, anyhow};
    use sudoku_sim::faults::Faults;
    use sudoku_sim::{Latency, SimConfig, SimServer, Skin, SudokuApp, puzzles};

    /// The in-process simulated phone showing the built-in "easy" puzzle on a 1080x2340 screen.
    pub(in crate::app) fn open_in_process(skin: Option<&str>) -> Result<Box<dyn Device>> {
        let name = skin.unwrap_or(Skin::names()[0]);
        let skin = Skin::named(name).with_context(|| {
            format!(
                "the simulated phone has no skin '{name}': use one of {}",
                Skin::names().join(", ")
            )
        })?;
        let puzzle = puzzles::named("easy")
            .and_then(puzzles::parse)
            .context("the built-in puzzle 'easy' is missing")?;
        Ok(Box::new(SimDevice::new(SudokuApp::new(
            puzzle,
            skin,
            sudoku_sim::Size::new(1080, 2340),
        )?)))
    }

    /// A running simulated phone served through the adb server, with its latency preset's name.
    pub(in crate::app) type SimSession = (AdbSim, &'static str);

    /// The simulated phone that `sim` and `--device sim` options describe, checked once.
    pub(in crate::app) struct SimSetup {
        puzzle: sudoku_sim::Board,
        skin: Skin,
        size: Size,
        latency: Latency,
        faults: Faults,
    }

    impl SimSetup {
        /// `flag` is how the options are spelled in messages (`--` or `--sim-`).
        pub(in crate::app) fn parse(
            puzzle: &str,
            skin: &str,
            size: Size,
            latency: &str,
            faults: &[String],
            flag: &str,
        ) -> Result<SimSetup> {
            let text = puzzles::named(puzzle).unwrap_or(puzzle);
            let board = puzzles::parse(text).ok_or_else(|| {
                let names: Vec<&str> = puzzles::builtin().iter().map(|(n, _)| *n).collect();
                anyhow!(
                    "{flag}puzzle '{puzzle}' is neither 81 digits (with . or 0 for empty cells) nor a built-in puzzle ({})",
                    names.join(", ")
                )
            })?;
            let skin = Skin::named(skin).ok_or_else(|| {
                anyhow!(
                    "the simulated phone has no skin '{skin}': use one of {}",
                    Skin::names().join(", ")
                )
            })?;
            Ok(SimSetup {
                puzzle: board,
                skin,
                size,
                latency: latency
                    .parse()
                    .map_err(|e: String| anyhow!("{flag}latency: {e}"))?,
                faults: faults
                    .join(",")
                    .parse()
                    .map_err(|e: String| anyhow!("{flag}faults: {e}"))?,
            })
        }

        /// A fresh phone showing the puzzle, with the app-side faults switched on.
        fn phone(&self) -> Result<SudokuApp> {
            let mut phone = SudokuApp::new(self.puzzle, self.skin.clone(), self.size.into())?;
            self.faults
                .apply(&mut phone)
                .map_err(|e| anyhow!("the simulated phone's faults: {e}"))?;
            Ok(phone)
        }

        /// `sim`: the phone served on 127.0.0.1 (`port`, else any free one), with its latency
        /// preset's name.
        pub(in crate::app) fn serve(
            &self,
            port: Option<u16>,
            realtime: bool,
        ) -> Result<(SimServer<SudokuApp>, &'static str)> {
            let server = SimServer::start(
                self.phone()?,
                SimConfig {
                    port,
                    latency: self.latency.clone(),
                    realtime,
                    drop_after: self.faults.drop_after,
                },
            )?;
            Ok((server, self.latency.name))
        }
    }

    /// `--device sim[:SKIN]` for play: the simulated phone served on 127.0.0.1 and opened through
    /// the adb server (started if none runs), like a phone on a cable; in-process, with a warning,
    /// when adb is not installed. Returns the device and the running session with its preset.
    #[allow(clippy::type_complexity)]
    pub(in crate::app) fn open_through_adb(
        skin: Option<&str>,
        sim: &SimPhoneArgs,
        args: &DeviceArgs,
    ) -> Result<(Box<dyn Device>, Option<SimSession>)> {
        let setup = SimSetup::parse(
            &sim.sim_puzzle,
            skin.unwrap_or(Skin::names()[0]),
            sim.sim_size,
            &sim.sim_latency,
            &sim.sim_faults,
            "--sim-",
        )?;
        let (latency, faults) = (setup.latency.clone(), setup.faults);
        let phone = || setup.phone();
        let preset = latency.name;
        let config = SimConfig {
            port: None,
            latency,
            realtime: false,
            drop_after: faults.drop_after,
        };
        let options = AdbOptions {
            serial: None,
            ..super::adb_options(args)?
        };
        match AdbSim::start(phone()?, config, &options) {
            Ok(session) => {
                let device = session.open_device(args.input.kind())?;
                log::info!(
                    "simulated phone {} through the adb server at {}",
                    session.sim().serial(),
                    session.adb_server().addr
                );
                Ok((Box::new(device), Some((session, preset))))
            }
            Err(e) if e.chain().any(|c| c.is::<NoAdb>()) => {
                errln!("warning: {NoAdb}");
                Ok((Box::new(SimDevice::new(phone()?)), None))
            }
            Err(e) => Err(e.context("cannot start the simulated phone behind the adb server")),
        }
    }
}

/// Stands in for the simulated phone in a build without the `sim` feature: the command line is
/// the same, and asking for the simulated phone says how to get it instead of failing to compile.
#[cfg(not(feature = "sim"))]
mod simulated {
    use crate::cli::{DeviceArgs, SimPhoneArgs};
    use crate::device::Device;
    use anyhow::{Result, bail};
    use std::time::Duration;

    pub(in crate::app) const ABSENT: &str = "this build has no simulated phone: rebuild with the default features \
         (cargo build --release) or use a real phone (--device adb)";

    /// Never made: without the simulated phone there is no session to report on.
    pub(in crate::app) enum NoSimSession {}

    impl NoSimSession {
        pub(in crate::app) fn clock(&self) -> Duration {
            match *self {}
        }
    }

    pub(in crate::app) type SimSession = (NoSimSession, &'static str);

    pub(in crate::app) fn open_in_process(_skin: Option<&str>) -> Result<Box<dyn Device>> {
        bail!(ABSENT)
    }

    pub(in crate::app) fn open_through_adb(
        _skin: Option<&str>,
        _sim: &SimPhoneArgs,
        _args: &DeviceArgs,
    ) -> Result<(Box<dyn Device>, Option<SimSession>)> {
        bail!(ABSENT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{AdbServerArgs, InputArg};

    fn args(device: &str, serial: Option<&str>) -> DeviceArgs {
        DeviceArgs {
            device: device.parse().unwrap(),
            server: AdbServerArgs::default(),
            serial: serial.map(str::to_string),
            input: InputArg::Auto,
        }
    }

    #[test]
    fn device_sim_opens_the_simulated_phone_in_each_skin() {
        let mut phone = open_device(&args("sim:numfirst", None)).unwrap();
        assert_eq!(
            phone.screen_size().unwrap(),
            crate::geometry::Size::new(1080, 2340)
        );
        assert_eq!(phone.screenshot().unwrap().dimensions(), (1080, 2340));
        let err = open_device(&args("sim:nope", None))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("no skin 'nope'") && err.contains("light"),
            "{err}"
        );
    }

    #[test]
    fn serial_from_device_and_dash_s_must_agree() {
        assert_eq!(
            adb_options(&args("adb:abc", None))
                .unwrap()
                .serial
                .as_deref(),
            Some("abc")
        );
        assert_eq!(
            adb_options(&args("adb", Some("xyz")))
                .unwrap()
                .serial
                .as_deref(),
            Some("xyz")
        );
        assert!(adb_options(&args("adb:abc", Some("abc"))).is_ok());
        let err = adb_options(&args("adb:abc", Some("xyz")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("pass only one"), "{err}");
    }
}
