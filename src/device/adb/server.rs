//! The adb server: its address from flags and environment, starting it on our port when none
//! runs, listing phones and choosing the one to use.

use crate::device::InputKind;
use adb_client::server::{ADBServer, DeviceState};
use anyhow::{Context, Result, anyhow, bail};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Port of the adb server when neither `-P` nor `ANDROID_ADB_SERVER_PORT` says otherwise.
pub const DEFAULT_SERVER_PORT: u16 = 5037;

/// The one-line advice for "there is no phone".
pub const NO_DEVICE_HINT: &str = "no device attached: plug a phone in with USB debugging on, or run `adb connect HOST:PORT`, or start the simulated phone with `sudoku-agent sim`";

/// How to reach the adb server and which phone to use; the CLI fills it from -H/-P/-s/--input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdbOptions {
    /// Server host; `None` = 127.0.0.1.
    pub host: Option<String>,
    /// Server port; `None` = `ANDROID_ADB_SERVER_PORT` or 5037.
    pub port: Option<u16>,
    /// Device serial; `None` = `ANDROID_SERIAL` or the only device attached.
    pub serial: Option<String>,
    /// Input method; `None` = chosen by probing the phone.
    pub input: Option<InputKind>,
    /// The `adb` program used to start a server; `None` = `adb` on `PATH`.
    pub adb_program: Option<PathBuf>,
}

/// The server address from `-H`/`-P`, else `ANDROID_ADB_SERVER_PORT` (given as `env_port`), else
/// 127.0.0.1:5037.
pub fn server_address(
    host: Option<&str>,
    port: Option<u16>,
    env_port: Option<&str>,
) -> Result<SocketAddrV4> {
    let port = match (port, env_port.map(str::trim).filter(|p| !p.is_empty())) {
        (Some(p), _) => p,
        (None, Some(p)) => p.parse().map_err(|_| {
            anyhow!("ANDROID_ADB_SERVER_PORT={p:?} is not a port number: unset it or pass -P PORT")
        })?,
        (None, None) => DEFAULT_SERVER_PORT,
    };
    let host = host.unwrap_or("127.0.0.1");
    if let Ok(ip) = host.parse::<Ipv4Addr>() {
        return Ok(SocketAddrV4::new(ip, port));
    }
    (host, port)
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve adb server host {host:?}: check -H"))?
        .find_map(|a| match a {
            SocketAddr::V4(v4) => Some(v4),
            SocketAddr::V6(_) => None,
        })
        .ok_or_else(|| {
            anyhow!("adb server host {host:?} has no IPv4 address: pass -H with an IPv4 address")
        })
}

/// One line of `adb devices`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedDevice {
    pub serial: String,
    /// `device`, `offline`, `unauthorized`, ...
    pub state: String,
    /// From `adb devices -l` (may be empty).
    pub model: String,
}

/// Picks the phone to use: `wanted` (from -s or `ANDROID_SERIAL`) or the only one attached, and
/// says exactly what to do when that is impossible.
pub fn choose_device(devices: &[ListedDevice], wanted: Option<&str>) -> Result<String> {
    let listing = || {
        devices
            .iter()
            .map(|d| format!("{} ({})", d.serial, d.state))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let chosen = match wanted {
        Some(serial) => devices.iter().find(|d| d.serial == serial).ok_or_else(|| {
            if devices.is_empty() {
                anyhow!("device {serial} not found: {NO_DEVICE_HINT}")
            } else {
                anyhow!(
                    "device {serial} not found; attached: {}; pass one of these with -s",
                    listing()
                )
            }
        })?,
        None => match devices {
            [] => bail!(NO_DEVICE_HINT),
            [only] => only,
            _ => bail!(
                "{} devices attached: {}; pass -s SERIAL to pick one",
                devices.len(),
                listing()
            ),
        },
    };
    match chosen.state.as_str() {
        "device" => Ok(chosen.serial.clone()),
        "unauthorized" => bail!(
            "device {} is unauthorized: unlock the phone and accept the \"Allow USB debugging\" prompt, then retry",
            chosen.serial
        ),
        "offline" => bail!(
            "device {} is offline: run `adb reconnect` (or unplug and plug it in again, or `adb connect` it again)",
            chosen.serial
        ),
        other => bail!(
            "device {} is in state '{other}', not ready for commands: wait for it to boot into Android",
            chosen.serial
        ),
    }
}

/// Finds a program on `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A program that does nothing, handed to `ADBServer` so that its own `adb start-server`
/// (which ignores our port) never runs: we start the server ourselves.
fn no_op_program() -> String {
    ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .find(|p| std::path::Path::new(p).is_file())
        .map(str::to_string)
        .or_else(|| find_on_path("true").map(|p| p.display().to_string()))
        .unwrap_or_else(|| "true".into())
}

/// The adb server: reachable at `addr`, started by us when it was not running.
#[derive(Debug, Clone)]
pub struct AdbServer {
    pub addr: SocketAddrV4,
}

impl AdbServer {
    /// Connects to the server of `options`, starting one (`adb -P PORT start-server`, as `adb`
    /// itself does) when the address is local and nothing listens there.
    pub fn connect(options: &AdbOptions) -> Result<AdbServer> {
        let env_port = std::env::var("ANDROID_ADB_SERVER_PORT").ok();
        let addr = server_address(options.host.as_deref(), options.port, env_port.as_deref())?;
        if TcpStream::connect_timeout(&SocketAddr::V4(addr), Duration::from_secs(2)).is_ok() {
            return Ok(AdbServer { addr });
        }
        if !(addr.ip().is_loopback() || addr.ip().is_unspecified()) {
            bail!(
                "no adb server answers at {addr}: start one there (`adb -a -P {} server nodaemon`) or drop -H to use a local one",
                addr.port()
            );
        }
        let adb = match &options.adb_program {
            Some(p) => p.clone(),
            None => find_on_path("adb").ok_or_else(|| {
                anyhow!(
                    "no adb server runs on port {} and adb was not found on PATH: install it with `apt-get install adb` (or Android platform-tools), or pass -H/-P of a running server",
                    addr.port()
                )
            })?,
        };
        log::info!(
            "starting the adb server: {} -P {} start-server",
            adb.display(),
            addr.port()
        );
        let out = std::process::Command::new(&adb)
            .args(["-P", &addr.port().to_string(), "start-server"])
            .stdin(std::process::Stdio::null())
            .output()
            .with_context(|| format!("cannot run {}", adb.display()))?;
        if !out.status.success() {
            bail!(
                "`{} -P {} start-server` failed: {}",
                adb.display(),
                addr.port(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&SocketAddr::V4(addr), Duration::from_secs(1)).is_err() {
            if Instant::now() > deadline {
                bail!(
                    "started the adb server but nothing answers at {addr}: see `adb -P {} server nodaemon` for why",
                    addr.port()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(AdbServer { addr })
    }

    /// Whether the server still takes connections: false when its port refuses them (the
    /// server was killed or crashed), which tells a stopped server from a vanished phone.
    pub fn answers(&self) -> bool {
        match TcpStream::connect_timeout(&SocketAddr::V4(self.addr), Duration::from_secs(1)) {
            Ok(_) => true,
            Err(e) => e.kind() != std::io::ErrorKind::ConnectionRefused,
        }
    }

    fn client(&self) -> ADBServer {
        ADBServer::new_from_path(self.addr, Some(no_op_program()))
    }

    /// `adb devices -l`, waiting at most the adb deadline for the server's answer.
    pub fn devices(&self) -> Result<Vec<ListedDevice>> {
        let server = self.clone();
        super::deadline::within(
            super::deadline::adb_timeout(),
            &format!("`adb devices` at {}", self.addr),
            move || server.devices_now(),
        )?
    }

    fn devices_now(&self) -> Result<Vec<ListedDevice>> {
        let mut client = self.client();
        let listed = match client.devices_long() {
            Ok(long) => long
                .into_iter()
                .map(|d| ListedDevice {
                    serial: d.identifier,
                    state: d.state.to_string(),
                    model: if d.model == "Unk" {
                        String::new()
                    } else {
                        d.model
                    },
                })
                .collect(),
            // `devices -l` lines vary between adb versions; the short listing always parses.
            Err(e) => {
                log::debug!("adb devices -l failed ({e}); using adb devices");
                client
                    .devices()
                    .with_context(|| {
                        format!("cannot list devices from the adb server at {}", self.addr)
                    })?
                    .into_iter()
                    .map(|d| ListedDevice {
                        serial: d.identifier,
                        state: if d.state == DeviceState::Device {
                            "device".into()
                        } else {
                            d.state.to_string()
                        },
                        model: String::new(),
                    })
                    .collect()
            }
        };
        Ok(listed)
    }
}

/// The adb server stopped answering (connection refused on its port) while the phone was in
/// use: not the phone's fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct AdbServerGone {
    pub addr: SocketAddrV4,
}

impl AdbServerGone {
    fn message(&self) -> String {
        let port = self.addr.port();
        let start = if port == DEFAULT_SERVER_PORT {
            "adb start-server".to_string()
        } else {
            format!("adb -P {port} start-server")
        };
        format!(
            "the adb server at {} stopped (connection refused on its port): start it with `{start}`, then run again",
            self.addr
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_server_names_the_command_that_starts_it_on_its_port() {
        let default = AdbServerGone {
            addr: "127.0.0.1:5037".parse().unwrap(),
        };
        assert!(default.to_string().contains("`adb start-server`"));
        let other = AdbServerGone {
            addr: "127.0.0.1:15037".parse().unwrap(),
        };
        assert!(other.to_string().contains("`adb -P 15037 start-server`"));
        assert!(other.to_string().contains("connection refused"));
    }

    fn listed(serial: &str, state: &str) -> ListedDevice {
        ListedDevice {
            serial: serial.into(),
            state: state.into(),
            model: String::new(),
        }
    }

    #[test]
    fn server_address_comes_from_flags_then_environment_then_default() {
        assert_eq!(
            server_address(None, None, None).unwrap(),
            SocketAddrV4::new(Ipv4Addr::LOCALHOST, 5037)
        );
        assert_eq!(
            server_address(None, None, Some("15037")).unwrap().port(),
            15037
        );
        assert_eq!(
            server_address(None, Some(6000), Some("15037"))
                .unwrap()
                .port(),
            6000
        );
        assert_eq!(
            server_address(Some("10.0.0.2"), None, None).unwrap(),
            "10.0.0.2:5037".parse().unwrap()
        );
        assert_eq!(
            server_address(Some("localhost"), Some(1), None)
                .unwrap()
                .ip(),
            &Ipv4Addr::LOCALHOST
        );
        let err = server_address(None, None, Some("abc"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ANDROID_ADB_SERVER_PORT") && err.contains("-P"),
            "{err}"
        );
    }

    #[test]
    fn the_only_device_is_chosen_and_others_need_a_serial() {
        assert_eq!(
            choose_device(&[listed("abc", "device")], None).unwrap(),
            "abc"
        );
        let two = [listed("abc", "device"), listed("127.0.0.1:55551", "device")];
        let err = choose_device(&two, None).unwrap_err().to_string();
        assert_eq!(
            err,
            "2 devices attached: abc (device), 127.0.0.1:55551 (device); pass -s SERIAL to pick one"
        );
        assert_eq!(
            choose_device(&two, Some("127.0.0.1:55551")).unwrap(),
            "127.0.0.1:55551"
        );
        let err = choose_device(&two, Some("xyz")).unwrap_err().to_string();
        assert!(
            err.starts_with("device xyz not found; attached: abc"),
            "{err}"
        );
    }

    #[test]
    fn no_device_and_unready_devices_say_what_to_do() {
        assert_eq!(
            choose_device(&[], None).unwrap_err().to_string(),
            NO_DEVICE_HINT
        );
        assert!(
            choose_device(&[], Some("abc"))
                .unwrap_err()
                .to_string()
                .contains("sudoku-agent sim")
        );
        let err = choose_device(&[listed("abc", "unauthorized")], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("Allow USB debugging"), "{err}");
        let err = choose_device(&[listed("abc", "offline")], None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("adb reconnect"), "{err}");
    }
}
