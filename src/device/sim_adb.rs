//! The simulated phone reached through the real adb server, as `play --device sim` uses it: a
//! `SimServer` on a free 127.0.0.1 port, an adb server (started if none runs, as `adb` does),
//! `adb connect` to the phone, and an `AdbDevice` for its serial, so every screenshot and tap
//! travels the same path as with a phone on a cable. Dropping the session disconnects the phone
//! from the adb server and stops it.

use crate::device::InputKind;
use crate::device::adb::{AdbDevice, AdbOptions, AdbServer};
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::time::Duration;
use sudoku_sim::{SimConfig, SimServer, SudokuApp};

/// A simulated phone connected to an adb server.
pub struct AdbSim {
    sim: SimServer<SudokuApp>,
    adb: AdbServer,
}

/// Why the simulated phone cannot go through adb, when the answer is "adb is not installed".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "adb is not installed, so the simulated phone runs inside this process instead of through the adb server; install it with `apt-get install adb` (or Android platform-tools) to exercise the whole pipeline"
)]
pub struct NoAdb;

impl AdbSim {
    /// Serves `phone` on a free port and connects the adb server of `options` (host, port) to
    /// it. Fails with [`NoAdb`] in the chain when no server runs and `adb` is not on `PATH`.
    pub fn start(phone: SudokuApp, config: SimConfig, options: &AdbOptions) -> Result<AdbSim> {
        let adb = match AdbServer::connect(options) {
            Ok(adb) => adb,
            Err(e) if options.adb_program.is_none() && find_on_path("adb").is_none() => {
                return Err(anyhow::Error::new(NoAdb).context(format!("{e:#}")));
            }
            Err(e) => return Err(e),
        };
        let sim = SimServer::start(phone, config)?;
        sim.connect_adb_server(adb.addr)?;
        Ok(AdbSim { sim, adb })
    }

    /// Opens the phone through the adb server, probing it like any phone.
    pub fn open_device(&self, input: Option<InputKind>) -> Result<AdbDevice> {
        AdbDevice::open_serial(self.adb.clone(), &self.sim.serial(), input)
            .with_context(|| format!("cannot open the simulated phone {}", self.sim.serial()))
    }

    /// The running phone: its app state, taps, command log and virtual clock.
    pub fn sim(&self) -> &SimServer<SudokuApp> {
        &self.sim
    }

    pub fn adb_server(&self) -> &AdbServer {
        &self.adb
    }

    /// Device time spent so far on the phone's virtual clock.
    pub fn clock(&self) -> Duration {
        self.sim.clock()
    }
}

impl Drop for AdbSim {
    fn drop(&mut self) {
        // `adb disconnect SERIAL`, so the server does not keep retrying a phone that is gone.
        let mut client = adb_client::server::ADBServer::new_from_path(
            self.adb.addr,
            Some(find_on_path("true").map_or("true".into(), |p| p.display().to_string())),
        );
        if let Err(e) = client.disconnect_device(self.sim.addr()) {
            log::debug!("adb disconnect {}: {e}", self.sim.serial());
        }
        self.sim.stop();
    }
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}
