//! A private `adb` server for one test or benchmark binary: started on a free port with
//! `adb -P PORT start-server`, shared by the tests that run at the same time, and killed with
//! `adb -P PORT kill-server` when the last user drops it (also when a test fails). Several
//! engineers run tests on this machine at once, so no fixed ports.

#![allow(dead_code)]

use std::net::{Ipv4Addr, SocketAddrV4, TcpListener};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex, Weak};

pub struct AdbServer {
    port: u16,
}

static SHARED: Mutex<Weak<AdbServer>> = Mutex::new(Weak::new());

/// Where a crashed server is recorded, under the target's tmp dir (`.ci/run` reads it).
pub const CRASH_LOG: &str = "adb-server-crashes.log";

/// The running private server, started if no test holds one or if it died (adb 29.0.6 can
/// crash when a phone's connection drops; the tests that do that use servers of their own, and
/// this keeps a crash from failing every test that starts after it).
pub fn shared() -> Arc<AdbServer> {
    let mut slot = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(server) = slot.upgrade() {
        if server.is_listening() {
            return server;
        }
        eprintln!(
            "the shared adb server on port {} is gone (crashed?): starting another",
            server.port
        );
    }
    let server = Arc::new(AdbServer::start());
    *slot = Arc::downgrade(&server);
    server
}

impl AdbServer {
    /// Starts a server on a free port (never 5037, never the emulator range 5555-5585).
    pub fn start() -> AdbServer {
        let port = loop {
            let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .expect("bind a free port")
                .local_addr()
                .unwrap()
                .port();
            if port != 5037 && !(5555..=5585).contains(&port) {
                break port;
            }
        };
        // The daemon would inherit piped stdio and keep it open: give it none.
        let status = Command::new("adb")
            .args(["-P", &port.to_string(), "start-server"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run adb (Debian package `adb`)");
        assert!(status.success(), "adb start-server failed");
        AdbServer { port }
    }

    /// Whether the server still accepts connections.
    pub fn is_listening(&self) -> bool {
        std::net::TcpStream::connect_timeout(&self.addr().into(), std::time::Duration::from_secs(2))
            .is_ok()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Where adb_client should talk to this server.
    pub fn addr(&self) -> SocketAddrV4 {
        SocketAddrV4::new(Ipv4Addr::LOCALHOST, self.port)
    }

    /// `adb -P PORT` with stdin closed.
    pub fn command(&self) -> Command {
        let mut c = Command::new("adb");
        c.args(["-P", &self.port.to_string()]).stdin(Stdio::null());
        c
    }

    /// Runs `adb -P PORT ARGS...` to completion.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().expect("run adb")
    }

    /// `adb connect SERIAL`, asserting that it worked.
    pub fn connect(&self, serial: &str) {
        // The server may still hold an offline transport of an earlier phone on this port (it
        // keeps retrying a lost TCP device), and `connect` would then say "already connected"
        // while the new phone stays offline: the phone just bound the port, so drop it first,
        // and wait until the server has removed it (it does so on its own thread, a moment
        // later: a `connect` before that finds the old one, which then vanishes).
        let gone = |out: &Output| String::from_utf8_lossy(&out.stderr).contains("not found");
        if self.run(&["disconnect", serial]).status.success() {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
            while !gone(&self.device(serial, &["get-state"]))
                && std::time::Instant::now() < deadline
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        let out = self.run(&["connect", serial]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("connected to {serial}")),
            "adb connect {serial}: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // `adb connect` answers once the socket is open, before the handshake ends: a command
        // sent at once can fail with "device offline", more often on a loaded machine. A
        // transport that vanished meanwhile is connected again.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut last_connect = std::time::Instant::now();
        loop {
            let state = self.device(serial, &["get-state"]);
            if String::from_utf8_lossy(&state.stdout).trim() == "device" {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{serial} never came online: {}",
                String::from_utf8_lossy(&state.stderr)
            );
            if gone(&state) && last_connect.elapsed() > std::time::Duration::from_millis(200) {
                let _ = self.run(&["connect", serial]);
                last_connect = std::time::Instant::now();
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// `adb -s SERIAL ARGS...`.
    pub fn device(&self, serial: &str, args: &[&str]) -> Output {
        self.command()
            .arg("-s")
            .arg(serial)
            .args(args)
            .output()
            .expect("run adb")
    }
}

impl Drop for AdbServer {
    fn drop(&mut self) {
        // Said in the failing test's output, where `.ci/run` looks for it: a test that failed
        // because adb itself crashed is run once more (nothing of ours to fix).
        if !self.is_listening() {
            let line = format!(
                "ADB SERVER DIED: the adb server on port {} stopped while tests used it \
                 (adb 29.0.6 crashes at times: see `dmesg | grep adb`)",
                self.port
            );
            eprintln!("{line}");
            let log = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(CRASH_LOG);
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .and_then(|mut f| {
                    std::io::Write::write_all(&mut f, format!("{line}\n").as_bytes())
                });
        }
        let _ = Command::new("adb")
            .args(["-P", &self.port.to_string(), "kill-server"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
