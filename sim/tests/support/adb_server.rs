//! A private `adb` server for each test (or benchmark): started on a free port with
//! `adb -P PORT start-server`, shared by the helpers of one test, and killed with
//! `adb -P PORT kill-server` when the last user drops it (also when a test fails). Several
//! engineers run tests on this machine at once, so no fixed ports.
//!
//! One server per test, not per test binary: Debian's adb 29.0.6 crashes at times when a
//! phone's transport is torn down while other phones on the same server are busy (measured by
//! a stress run: 1 death in about 300 phone drops with 4 threads on one server, none in 1,303
//! with one at a time), and a crash used to fail every test on the shared server.

#![allow(dead_code)]

use std::cell::RefCell;
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Weak};

pub struct AdbServer {
    port: u16,
}

thread_local! {
    // libtest runs each test on a thread of its own: this is the test's server.
    static SHARED: RefCell<Weak<AdbServer>> = const { RefCell::new(Weak::new()) };
}

/// Where a crashed server is recorded, under the target's tmp dir (`.ci/run` reads it).
pub const CRASH_LOG: &str = "adb-server-crashes.log";

/// This test's private server, started on first use (and again if it died).
pub fn shared() -> Arc<AdbServer> {
    SHARED.with(|slot| {
        if let Some(server) = slot.borrow().upgrade() {
            if server.is_listening() {
                return server;
            }
            eprintln!(
                "this test's adb server on port {} is gone (crashed?): starting another",
                server.port
            );
        }
        let server = Arc::new(AdbServer::start());
        *slot.borrow_mut() = Arc::downgrade(&server);
        server
    })
}

impl AdbServer {
    /// Starts a server on a free port (never 5037, never the emulator range 5555-5585).
    pub fn start() -> AdbServer {
        // The port is free when picked, but a phone of a test running alongside may take it
        // before the server binds it: then try another.
        for _ in 0..5 {
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
            let server = AdbServer { port };
            if status.success() && server.is_listening() {
                return server;
            }
            std::mem::forget(server);
        }
        panic!("adb start-server failed five times on free ports");
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

    /// `adb connect SERIAL` for a simulated phone of this process, which then disconnects
    /// itself from this server when dropped.
    pub fn connect_sim<S: sudoku_sim::Screen + 'static>(&self, sim: &sudoku_sim::SimServer<S>) {
        self.connect(&sim.serial());
        sim.remember_adb_server(self.addr());
    }

    /// `adb connect SERIAL`, asserting that it worked. Phones join and leave a server one at a
    /// time (see `sudoku_sim::lock_adb_server`: adb 29.0.6 crashes otherwise).
    pub fn connect(&self, serial: &str) {
        let _turn = sudoku_sim::lock_adb_server(self.addr());
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
