//! Stands in for `sim.rs` in a build without the `sim` feature: the command line is the same, and
//! asking for the simulated phone says how to get it instead of failing to compile.

use crate::cli::{DeviceArgs, SimArgs, SimPhoneArgs};
use crate::device::Device;
use anyhow::{Result, bail};
use std::process::ExitCode;
use std::time::Duration;

const ABSENT: &str = "this build has no simulated phone: rebuild with the default features \
     (cargo build --release) or use a real phone (--device adb)";

/// Never made: without the simulated phone there is no session to report on.
pub(super) enum NoSimSession {}

impl NoSimSession {
    pub(super) fn clock(&self) -> Duration {
        match *self {}
    }
}

pub(super) type SimSession = (NoSimSession, &'static str);

pub(super) fn open_in_process(_skin: Option<&str>) -> Result<Box<dyn Device>> {
    bail!(ABSENT)
}

pub(super) fn open_through_adb(
    _skin: Option<&str>,
    _sim: &SimPhoneArgs,
    _args: &DeviceArgs,
) -> Result<(Box<dyn Device>, Option<SimSession>)> {
    bail!(ABSENT)
}

pub(super) fn run(_args: SimArgs) -> Result<ExitCode> {
    bail!(ABSENT)
}
