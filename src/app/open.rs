//! The one place that picks implementations: which `Device` the options name (a phone through the
//! adb server, a PNG file, the simulated phone) and with which input method.

use super::sim::{self, SimSession};
use crate::cli::{DeviceArgs, SimPhoneArgs};
use crate::device::adb::{AdbDevice, AdbOptions};
use crate::device::file::FileDevice;
use crate::device::{Device, DeviceSpec};
use anyhow::{Context, Result, bail};
use image::RgbaImage;
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
        DeviceSpec::Sim(skin) => sim::open_in_process(skin.as_deref())?,
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
            let (device, opened) = sim::open_through_adb(skin.as_deref(), sim, args)?;
            *session = opened;
            Ok(device)
        }
        _ => open_device(args),
    }
}

/// Loads a screenshot file.
pub(super) fn load_screenshot(path: &Path) -> Result<RgbaImage> {
    crate::device::file::read_screenshot(path)
        .with_context(|| format!("cannot open screenshot {}", path.display()))
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
