//! `screenshot`: the current screen saved as a PNG.

use super::open::{adb_options, open_device};
use crate::cli::ScreenshotArgs;
use crate::device::adb::{AdbDevice, ScreenshotMode};
use crate::device::{Device, DeviceSpec};
use anyhow::{Context, Result};
use std::process::ExitCode;
use std::time::Instant;

/// `screenshot`: save the current screen as a PNG.
pub(super) fn run(args: ScreenshotArgs) -> Result<ExitCode> {
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
    errln!(
        "saved {} ({}x{}) in {} ms",
        args.output.display(),
        img.width(),
        img.height(),
        started.elapsed().as_millis()
    );
    Ok(ExitCode::SUCCESS)
}
