//! What a phone is (Android version, maker, model, CPU ABI, screen size and rotation), learned with
//! two shell commands before anything is tapped. Which input method suits it is `input_choice`.

use super::shell::run_shell;
use super::stats::AdbStats;
use crate::device::protocol::parse::{self, DisplaySize, Rotation};
use crate::device::protocol::refusal::Maker;
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
    /// `ro.product.manufacturer`, e.g. `Xiaomi` (may be empty).
    pub manufacturer: String,
    /// `ro.product.brand`, e.g. `Redmi` (may be empty).
    pub brand: String,
    /// `ro.product.cpu.abi`, e.g. `arm64-v8a`.
    pub abi: String,
    pub display: DisplaySize,
    pub rotation: Rotation,
}

impl PhoneInfo {
    /// Who made it, as far as the advice for refused input goes.
    pub fn maker(&self) -> Maker {
        Maker::of(&self.manufacturer, &self.brand)
    }

    /// Screen size in the current orientation.
    pub fn screen(&self) -> Size {
        self.rotation.apply(self.display.effective())
    }
}

/// Reads what the tap methods need: version, model, ABI, screen size and rotation.
pub(super) fn read_phone_info(
    server: SocketAddrV4,
    serial: &str,
    stats: &mut AdbStats,
) -> Result<PhoneInfo> {
    stats.shell_commands += 1;
    let out = run_shell(
        server,
        serial,
        "getprop ro.build.version.sdk; getprop ro.build.version.release; getprop ro.product.model; getprop ro.product.cpu.abi; getprop ro.product.manufacturer; getprop ro.product.brand; wm size",
    )?;
    let text = out.text();
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    if lines.len() < 7 {
        bail!(
            "unexpected answer from {serial} to getprop/wm size: {:?}",
            text.trim()
        );
    }
    let sdk = parse::sdk_level(lines[0])
        .with_context(|| format!("reading the Android version of {serial}"))?;
    let display = parse::wm_size(&lines[6..].join("\n"))
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
        manufacturer: parse::getprop_value(lines[4]).unwrap_or("").to_string(),
        brand: parse::getprop_value(lines[5]).unwrap_or("").to_string(),
        display,
        rotation,
    })
}
