//! A real phone through the adb server, with `adb_client` 3.2.3 as the transport: I/O only, the
//! parsing and encoding live in `device::protocol`. This adapter owns the workarounds for
//! adb_client's known problems (`../shared/notes/adb-protocol.md`) so nothing above it has to
//! know:
//!
//! * `shell_command` returns no exit status: every command whose status matters ends in
//!   `; echo __rc=$?`, and a missing marker means the device went away mid-command.
//! * `ADBServer` spawns `adb start-server` (ignoring our port) on every call: we start the server
//!   ourselves with `adb -P PORT start-server` and hand `ADBServer` a no-op program to spawn.
//! * `exec`/`shell` return before their output has arrived and lose it if the same
//!   `ADBServerDevice` is used again: the long-lived shell of the `stream` and `evdev` methods
//!   runs on its own thread with its own `ADBServerDevice`, and completion is the output writer
//!   being dropped.
//! * `shell_command` and the server's listing block with no timeout: each runs on a worker
//!   thread under a deadline (`deadline`), so a phone that stops answering is an error in
//!   seconds, not a hang.
//! * Screenshots use raw `screencap` through `shell_command` (binary-safe with shell v2), not
//!   adb_client's framebuffer decoder, which ignores the pixel format.
//!
//! `server` finds or starts the adb server and picks the phone; `phone_info` learns what the phone
//! is (Android version, screen, rotation); `input_choice` picks the input method that suits it,
//! starting the on-device `injector` when it can; `shell` runs commands and long-lived shell
//! sessions; `stats` counts what they cost; `device` is the `Device` built on them.

mod deadline;
mod device;
mod injector;
mod input_choice;
mod phone_info;
mod server;
mod shell;
mod stats;

pub use deadline::{ADB_TIMEOUT, adb_timeout};
pub use device::{AdbDevice, EvdevWriter, InputProbe, ScreenshotMode, describe};
pub use input_choice::{EVDEV_MAX_SDK, STREAM_MIN_SDK};
pub use phone_info::PhoneInfo;
pub use server::{
    AdbOptions, AdbServer, AdbServerGone, DEFAULT_SERVER_PORT, ListedDevice, NO_DEVICE_HINT,
    choose_device, find_on_path, server_address,
};
pub use stats::AdbStats;
