//! The phone's shell (`/system/bin/sh`), as much of it as hosts use over ADB: shell-quoted
//! parsing (single and double quotes, backslashes, `#` comments), lists joined by `;`, newlines,
//! `&&` and `||`, pipes, redirections (`>`, `>>`, `<`, `2>&1`), `$?`, and the commands a phone
//! offers for screenshots and input: `screencap`, `input`, `cmd input`, `wm`, `getprop`,
//! `getevent`, `dumpsys window`, `sendevent`, and `cat`/`dd` into `/dev/input/eventN`, plus the few
//! tools hosts use around them (`echo`, `true`, `false`, `exit`, `sleep`, `sh`, `printf`). A
//! session reads further command lines from stdin when it is interactive (`shell:` with no
//! command, `exec:sh`), and a command such as `cat > /dev/input/event2` consumes the rest of
//! stdin, as on a phone. Device work goes to the `Handset`.
//!
//! This module runs parsed command lines (sessions, pipelines, redirections, dispatch); the
//! grammar is in `syntax`, the Android commands in `android`, the toybox tools in `toybox`, and
//! `printf` (the evdev writer's byte encoder) in `printf`.

mod android;
mod app_process;
mod printf;
mod syntax;
mod toybox;

pub use syntax::{
    Connector, ParseError, Pipeline, Redirect, Script, SimpleCommand, Word, WordPart, parse,
    runs_without_stdin,
};

use crate::handset::{Handset, InputWriteError};
use std::io;
use syntax::is_assignment;

// ---------------------------------------------------------------------------------------------
// Session I/O

/// Where a shell session reads stdin from and writes output to (an adbd stream, or a test).
pub trait ShellIo {
    /// The next chunk of stdin as the host wrote it; `None` at end of input.
    fn read_stdin(&mut self) -> Option<Vec<u8>>;
    /// Output on fd 1 (stdout) or 2 (stderr); may be buffered until `flush`.
    fn write_output(&mut self, fd: u8, data: &[u8]) -> io::Result<()>;
    /// Sends buffered output to the host.
    fn flush(&mut self) -> io::Result<()>;
    /// True for a terminal session (`adb shell` typed by a person): the shell shows a prompt.
    fn is_terminal(&self) -> bool {
        false
    }
}

/// The prompt of an interactive terminal session, as mksh on a phone shows it.
pub const PROMPT: &str = "simphone:/ $ ";

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Normal end (or `exit N`) with this status.
    Exit(i32),
    /// The device vanished (dropped-connection fault): send nothing more.
    Gone,
}

/// The session's stdin with what is left of a partly consumed chunk, so that a command line and
/// the raw bytes after it (for `dd`/`cat`) can arrive in the same write.
struct SessionInput<'a> {
    io: &'a mut dyn ShellIo,
    pending: Vec<u8>,
    pos: usize,
    eof: bool,
}

impl SessionInput<'_> {
    fn fill(&mut self) -> bool {
        while self.pos >= self.pending.len() {
            if self.eof {
                return false;
            }
            let _ = self.io.flush();
            match self.io.read_stdin() {
                Some(chunk) => {
                    self.pending = chunk;
                    self.pos = 0;
                }
                None => {
                    self.eof = true;
                    return false;
                }
            }
        }
        true
    }

    /// Up to `max` bytes of what is available now (pipe semantics: short reads happen).
    fn read(&mut self, max: usize) -> Option<Vec<u8>> {
        if !self.fill() {
            return None;
        }
        let end = (self.pos + max).min(self.pending.len());
        let out = self.pending[self.pos..end].to_vec();
        self.pos = end;
        Some(out)
    }

    /// One line without its newline; `None` at end of input with nothing read.
    fn read_line(&mut self) -> Option<String> {
        let mut line = Vec::new();
        loop {
            if !self.fill() {
                return (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned());
            }
            let rest = &self.pending[self.pos..];
            if let Some(i) = rest.iter().position(|&b| b == b'\n') {
                line.extend_from_slice(&rest[..i]);
                self.pos += i + 1;
                return Some(String::from_utf8_lossy(&line).into_owned());
            }
            line.extend_from_slice(rest);
            self.pos = self.pending.len();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Execution

/// Where one command's stdin comes from.
enum Stdin {
    Session,
    Buffer(Vec<u8>, usize),
    Empty,
}

/// Where one file descriptor's output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sink {
    Session(u8),
    Capture,
    Null,
    InputDevice(String),
    File { path: String },
}

/// A command asked the session to stop (`exit`) or the device vanished.
enum Flow {
    Exit(i32),
    Gone,
}

type CmdResult = Result<i32, Flow>;

/// One shell session on the handset.
pub struct Shell<'a> {
    handset: &'a Handset,
    input: SessionInput<'a>,
    status: i32,
}

const SH: &str = "/system/bin/sh";

impl<'a> Shell<'a> {
    pub fn new(handset: &'a Handset, io: &'a mut dyn ShellIo) -> Self {
        Shell {
            handset,
            input: SessionInput {
                io,
                pending: Vec::new(),
                pos: 0,
                eof: false,
            },
            status: 0,
        }
    }

    /// Runs `command` as `sh -c` would; an empty command reads command lines from stdin.
    pub fn run(&mut self, command: &str) -> Ending {
        let ending = if command.trim().is_empty() {
            self.interactive()
        } else {
            if self.handset.begin_command_line(command).is_err() {
                return Ending::Gone;
            }
            match self.run_text(command) {
                Ok(status) => Ending::Exit(status),
                Err(Flow::Exit(n)) => Ending::Exit(n),
                Err(Flow::Gone) => Ending::Gone,
            }
        };
        if ending != Ending::Gone {
            let _ = self.input.io.flush();
        }
        ending
    }

    /// Reads and runs command lines until end of input or `exit`.
    fn interactive(&mut self) -> Ending {
        let mut text = String::new();
        loop {
            if self.input.io.is_terminal() {
                let prompt = if text.is_empty() { PROMPT } else { "> " };
                let _ = self.input.io.write_output(1, prompt.as_bytes());
            }
            let Some(line) = self.input.read_line() else {
                break;
            };
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&line);
            if matches!(parse(&text), Err(ParseError::Incomplete)) {
                continue;
            }
            let current = std::mem::take(&mut text);
            if current.trim().is_empty() {
                continue;
            }
            if self.handset.begin_command_line(&current).is_err() {
                return Ending::Gone;
            }
            match self.run_text(&current) {
                Ok(status) => self.status = status,
                Err(Flow::Exit(n)) => return Ending::Exit(n),
                Err(Flow::Gone) => return Ending::Gone,
            }
            let _ = self.input.io.flush();
        }
        Ending::Exit(self.status)
    }

    fn run_text(&mut self, text: &str) -> CmdResult {
        let script = match parse(text) {
            Ok(s) => s,
            Err(e) => {
                let msg = format!("{SH}: {e}\n");
                let _ = self.input.io.write_output(2, msg.as_bytes());
                self.status = 2;
                return Ok(2);
            }
        };
        for (connector, pipeline) in script {
            let run = match connector {
                Connector::Then => true,
                Connector::And => self.status == 0,
                Connector::Or => self.status != 0,
            };
            if run {
                self.status = self.run_pipeline(&pipeline)?;
            }
        }
        Ok(self.status)
    }

    fn run_pipeline(&mut self, pipeline: &Pipeline) -> CmdResult {
        let mut stdin = Stdin::Session;
        let mut status = 0;
        for (i, command) in pipeline.iter().enumerate() {
            let last = i + 1 == pipeline.len();
            let mut ctx = Ctx {
                stdin: std::mem::replace(&mut stdin, Stdin::Empty),
                fds: [Sink::Session(1), Sink::Session(1), Sink::Session(2)],
                captured: Vec::new(),
                env: Vec::new(),
            };
            ctx.fds[0] = Sink::Null;
            if !last {
                ctx.fds[1] = Sink::Capture;
            }
            if i > 0 && matches!(ctx.stdin, Stdin::Session) {
                ctx.stdin = Stdin::Empty;
            }
            status = self.run_command(command, &mut ctx)?;
            stdin = Stdin::Buffer(std::mem::take(&mut ctx.captured), 0);
        }
        Ok(status)
    }

    fn run_command(&mut self, command: &SimpleCommand, ctx: &mut Ctx) -> CmdResult {
        let status = self.status;
        for r in &command.redirects {
            match r {
                Redirect::Out { fd, path, append } => {
                    let path = path.expand(status);
                    match self.open_for_writing(&path, *append) {
                        Ok(sink) => {
                            if let Some(slot) = ctx.fds.get_mut(*fd as usize) {
                                *slot = sink;
                            }
                        }
                        Err(reason) => {
                            self.err(ctx, &format!("{SH}: can't create {path}: {reason}\n"))?;
                            return Ok(1);
                        }
                    }
                }
                Redirect::In { path } => {
                    let path = path.expand(status);
                    match self.handset.read_file(&path) {
                        Some(data) => ctx.stdin = Stdin::Buffer(data, 0),
                        None if path == "/dev/null" => ctx.stdin = Stdin::Empty,
                        None => {
                            let msg =
                                format!("{SH}: can't open {path}: No such file or directory\n");
                            self.err(ctx, &msg)?;
                            return Ok(1);
                        }
                    }
                }
                Redirect::Dup { fd, to } => {
                    if let (Some(target), true) =
                        (ctx.fds.get(*to as usize).cloned(), (*fd as usize) < 3)
                    {
                        ctx.fds[*fd as usize] = target;
                    }
                }
            }
        }
        let mut args: Vec<String> = command.words.iter().map(|w| w.expand(status)).collect();
        // Leading `NAME=value` words set the command's environment (`CLASSPATH=... app_process`).
        let assignments = args.iter().take_while(|w| is_assignment(w)).count();
        ctx.env = args
            .drain(..assignments)
            .filter_map(|w| {
                w.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect();
        let Some(name) = args.first() else {
            return Ok(0);
        };
        let name = name.rsplit('/').next().unwrap_or(name).to_string();
        self.builtin(&name, &args[1..], ctx)
    }

    /// Opens a redirection target, truncating a file unless `append` (`>>`); `Err` carries the
    /// errno text.
    fn open_for_writing(&self, path: &str, append: bool) -> Result<Sink, &'static str> {
        if path == "/dev/null" {
            return Ok(Sink::Null);
        }
        if path.starts_with("/dev/input/") {
            return self
                .handset
                .check_input_writable(path)
                .map(|()| Sink::InputDevice(path.to_string()))
                .map_err(InputWriteError::errno_text);
        }
        if Handset::is_writable_path(path) {
            self.handset.write_file(path, &[], append);
            return Ok(Sink::File {
                path: path.to_string(),
            });
        }
        Err("Permission denied")
    }

    /// Writes to a file descriptor of the current command.
    fn write(&mut self, ctx: &mut Ctx, fd: u8, data: &[u8]) -> Result<Result<(), String>, Flow> {
        let sink = ctx.fds.get(fd as usize).cloned().unwrap_or(Sink::Null);
        Ok(match sink {
            Sink::Session(to) => {
                self.handset.send_to_host(data.len());
                self.input
                    .io
                    .write_output(to, data)
                    .map_err(|e| e.to_string())
            }
            Sink::Capture => {
                ctx.captured.extend_from_slice(data);
                Ok(())
            }
            Sink::Null => Ok(()),
            Sink::File { path } => {
                self.handset.write_file(&path, data, true);
                Ok(())
            }
            Sink::InputDevice(path) => match self.handset.write_input(&path, data) {
                Ok(()) => Ok(()),
                Err(InputWriteError::Gone) => return Err(Flow::Gone),
                Err(e) => Err(e.errno_text().to_string()),
            },
        })
    }

    fn out(&mut self, ctx: &mut Ctx, text: &str) -> Result<(), Flow> {
        self.write(ctx, 1, text.as_bytes()).map(|_| ())
    }

    fn err(&mut self, ctx: &mut Ctx, text: &str) -> Result<(), Flow> {
        self.write(ctx, 2, text.as_bytes()).map(|_| ())
    }

    /// Reads up to `max` bytes of the command's stdin.
    fn read_stdin(&mut self, ctx: &mut Ctx, max: usize) -> Option<Vec<u8>> {
        match &mut ctx.stdin {
            Stdin::Session => self.input.read(max),
            Stdin::Buffer(data, pos) => {
                if *pos >= data.len() {
                    return None;
                }
                let end = (*pos + max).min(data.len());
                let out = data[*pos..end].to_vec();
                *pos = end;
                Some(out)
            }
            Stdin::Empty => None,
        }
    }

    fn builtin(&mut self, name: &str, args: &[String], ctx: &mut Ctx) -> CmdResult {
        match name {
            "echo" => self.cmd_echo(args, ctx),
            "true" | ":" => Ok(0),
            "false" => Ok(1),
            "exit" => {
                let n = args
                    .first()
                    .and_then(|a| a.parse::<i32>().ok())
                    .unwrap_or(self.status);
                Err(Flow::Exit(n & 0xff))
            }
            "sleep" => self.cmd_sleep(args, ctx),
            "sh" => self.cmd_sh(args, ctx),
            "app_process" => self.cmd_app_process(args, ctx),
            "screencap" => self.cmd_screencap(args, ctx),
            "input" => self.cmd_input(args, ctx),
            "cmd" => match args.first().map(String::as_str) {
                Some("input") if !self.handset.latency().cmd_input => {
                    // Before Android 12 the input service has no shell command: Binder's default
                    // answer, status 0, nothing injected.
                    self.err(ctx, "No shell command implementation.\n")?;
                    Ok(0)
                }
                Some("input") => self.cmd_input(&args[1..], ctx),
                Some(service) => {
                    self.err(ctx, &format!("cmd: Can't find service: {service}\n"))?;
                    Ok(20)
                }
                None => {
                    self.err(
                        ctx,
                        "cmd: No service specified; use -l to list all services\n",
                    )?;
                    Ok(20)
                }
            },
            "wm" => self.cmd_wm(args, ctx),
            "getprop" => self.cmd_getprop(args, ctx),
            "getevent" => self.cmd_getevent(args, ctx),
            "dumpsys" => self.cmd_dumpsys(args, ctx),
            "sendevent" => self.cmd_sendevent(args, ctx),
            "cat" => self.cmd_cat(args, ctx),
            "head" => self.cmd_head(args, ctx),
            "tail" => self.cmd_tail(args, ctx),
            "dd" => self.cmd_dd(args, ctx),
            "printf" if self.handset.has_printf() => self.cmd_printf(args, ctx),
            _ => {
                self.err(ctx, &format!("{SH}: {name}: inaccessible or not found\n"))?;
                Ok(127)
            }
        }
    }

    fn cmd_sh(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        match args.first().map(String::as_str) {
            Some("-c") => {
                let Some(script) = args.get(1) else {
                    self.err(ctx, &format!("{SH}: -c: option requires an argument\n"))?;
                    return Ok(2);
                };
                match self.run_text(script) {
                    Ok(status) => Ok(status),
                    Err(Flow::Exit(n)) => Ok(n),
                    Err(Flow::Gone) => Err(Flow::Gone),
                }
            }
            None => {
                // A nested interactive shell on the same stdin: runs the remaining lines.
                match self.interactive() {
                    Ending::Exit(n) => Ok(n),
                    Ending::Gone => Err(Flow::Gone),
                }
            }
            Some(other) => {
                self.err(ctx, &format!("{SH}: {other}: inaccessible or not found\n"))?;
                Ok(127)
            }
        }
    }
}

/// One command's file descriptors, stdin and environment assignments.
struct Ctx {
    stdin: Stdin,
    fds: [Sink; 3],
    captured: Vec<u8>,
    env: Vec<(String, String)>,
}

#[cfg(test)]
mod phone_habits;
#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Point;
    use crate::touch;

    /// Stdin given as chunks; stdout and stderr collected separately.
    #[derive(Default)]
    pub(super) struct TestIo {
        pub(super) stdin: std::collections::VecDeque<Vec<u8>>,
        pub(super) stdout: Vec<u8>,
        pub(super) stderr: Vec<u8>,
    }

    impl ShellIo for TestIo {
        fn read_stdin(&mut self) -> Option<Vec<u8>> {
            self.stdin.pop_front()
        }
        fn write_output(&mut self, fd: u8, data: &[u8]) -> io::Result<()> {
            if fd == 2 {
                &mut self.stderr
            } else {
                &mut self.stdout
            }
            .extend_from_slice(data);
            Ok(())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    pub(super) fn run(
        preset: &str,
        command: &str,
        stdin: Vec<Vec<u8>>,
    ) -> (Ending, String, String, Vec<Point>) {
        let (screen, h) = test_screen::handset(preset);
        let mut io = TestIo {
            stdin: stdin.into(),
            ..TestIo::default()
        };
        let ending = Shell::new(&h, &mut io).run(command);
        let taps = screen.lock().unwrap().taps.clone();
        (
            ending,
            String::from_utf8_lossy(&io.stdout).into_owned(),
            String::from_utf8_lossy(&io.stderr).into_owned(),
            taps,
        )
    }

    use crate::handset::test_screen;

    fn records(points: &[Point]) -> Vec<u8> {
        let size = crate::geometry::Size::new(1080, 2340);
        points
            .iter()
            .enumerate()
            .flat_map(|(i, &p)| touch::tap_events(p, size, i as i32 + 1))
            .flat_map(|e| e.to_record())
            .collect()
    }

    #[test]
    fn status_markers_and_exit_codes_work_like_sh() {
        let (ending, out, err, taps) = run("instant", "input tap 10 20; echo __rc=$?", vec![]);
        assert_eq!(
            (ending, out.as_str(), err.as_str()),
            (Ending::Exit(0), "__rc=0\n", "")
        );
        assert_eq!(taps, vec![Point::new(10, 20)]);
        let (ending, _, err, _) = run("instant", "foo bar", vec![]);
        assert_eq!(ending, Ending::Exit(127));
        assert_eq!(err, "/system/bin/sh: foo: inaccessible or not found\n");
        assert_eq!(run("instant", "exit 3; echo no", vec![]).0, Ending::Exit(3));
        assert_eq!(run("instant", "false || echo x && true", vec![]).1, "x\n");
        assert_eq!(run("instant", "sleep 1e300; echo $?", vec![]).1, "1\n");
    }

    #[test]
    fn device_queries_answer_like_a_phone() {
        for (preset, command, answer) in [
            ("android9", "wm size", "Physical size: 1080x2340\n"),
            ("android9", "wm density", "Physical density: 440\n"),
            ("android9", "getprop ro.build.version.sdk", "28\n"),
            ("android12", "getprop ro.build.version.sdk", "31\n"),
            ("android12", "getprop no.such.prop", "\n"),
        ] {
            assert_eq!(
                run(preset, command, vec![]).1,
                answer,
                "{preset}: {command}"
            );
        }
        let rotation = |preset, command| {
            let out = run(preset, command, vec![]).1;
            let line = out.lines().find(|l| l.contains("mCurrentRotation"));
            line.map(|l| l.trim().to_string())
        };
        assert_eq!(
            rotation("android9", "dumpsys window displays").as_deref(),
            Some("mCurrentRotation=0")
        );
        assert_eq!(
            rotation("android12", "dumpsys window").as_deref(),
            Some("mCurrentRotation=ROTATION_0")
        );
        assert!(
            run("instant", "getevent -lp", vec![])
                .1
                .contains("ABS_MT_POSITION_Y")
        );
    }

    #[test]
    fn appending_redirections_keep_what_the_file_held() {
        let (_, out, _, _) = run(
            "instant",
            "echo a > /sdcard/f; echo b >> /sdcard/f; cat /sdcard/f; echo c > /sdcard/f; cat /sdcard/f",
            vec![],
        );
        assert_eq!(out, "a\nb\nc\n");
    }

    #[test]
    fn before_android12_cmd_input_has_no_shell_command_and_taps_nothing() {
        let (ending, _, err, taps) = run("android10", "cmd input tap 1 2", vec![]);
        assert_eq!(ending, Ending::Exit(0));
        assert_eq!(err, "No shell command implementation.\n");
        assert!(taps.is_empty());
        let (_, _, _, taps) = run("android10", "input tap 1 2", vec![]);
        assert_eq!(taps, vec![Point::new(1, 2)]);
    }

    #[test]
    fn a_phone_refusing_injection_fails_input_commands_with_the_security_exception() {
        let (screen, h) = test_screen::handset("android12");
        h.set_injection_refused(true);
        let mut io = TestIo::default();
        let ending = Shell::new(&h, &mut io).run("cmd input tap 1 2");
        assert_eq!(ending, Ending::Exit(255));
        assert!(String::from_utf8_lossy(&io.stderr).contains("INJECT_EVENTS permission"));
        assert!(screen.lock().unwrap().taps.is_empty());
        // Key events alike (what `devices` probes with: `input keyevent 0`).
        let mut io = TestIo::default();
        let ending = Shell::new(&h, &mut io).run("input keyevent 0");
        assert_eq!(ending, Ending::Exit(255));
        assert!(String::from_utf8_lossy(&io.stderr).contains("INJECT_EVENTS permission"));
    }

    #[test]
    fn input_paths_all_end_in_taps() {
        let (_, _, _, taps) = run(
            "instant",
            "cmd input tap 1 2\ninput touchscreen swipe 30 40 32 41 100\ninput motionevent DOWN 50 60; input motionevent UP 51 60\ninput swipe 0 0 500 500",
            vec![],
        );
        assert_eq!(
            taps,
            vec![Point::new(1, 2), Point::new(32, 41), Point::new(51, 60)]
        );
        let (ending, _, err, _) = run("instant", "input tap 1", vec![]);
        assert_eq!(ending, Ending::Exit(1));
        assert!(err.starts_with("Error: Invalid arguments for command: tap"));
    }

    #[test]
    fn sendevent_drives_the_touchscreen_in_decimal() {
        let size = crate::geometry::Size::new(1080, 2340);
        let script: String = touch::tap_events(Point::new(300, 400), size, 5)
            .iter()
            .map(|e| {
                format!(
                    "sendevent /dev/input/event2 {} {} {}\n",
                    e.kind, e.code, e.value
                )
            })
            .collect();
        let (ending, _, err, taps) = run("android9", &script, vec![]);
        assert_eq!((ending, err.as_str()), (Ending::Exit(0), ""));
        assert_eq!(taps, vec![Point::new(300, 400)]);
        let (ending, _, err, taps) = run("android12", &script, vec![]);
        assert_eq!(ending, Ending::Exit(1));
        assert!(err.starts_with("sendevent: /dev/input/event2: Permission denied\n"));
        assert!(taps.is_empty());
    }

    #[test]
    fn raw_records_piped_through_cat_or_dd_become_taps() {
        let data = records(&[Point::new(100, 200), Point::new(900, 2000)]);
        let (ending, _, _, taps) = run("android9", "cat > /dev/input/event2", vec![data.clone()]);
        assert_eq!(ending, Ending::Exit(0));
        assert_eq!(taps, vec![Point::new(100, 200), Point::new(900, 2000)]);
        // Arbitrary chunking is fine for dd, which re-blocks into whole records.
        let chunks: Vec<Vec<u8>> = data.chunks(7).map(<[u8]>::to_vec).collect();
        let (_, _, _, taps) = run(
            "android9",
            "dd of=/dev/input/event2 ibs=4096 obs=24 status=none",
            chunks.clone(),
        );
        assert_eq!(taps.len(), 2);
        // cat writes each chunk as it comes: a split record is EINVAL, as on a phone.
        let (ending, _, err, _) = run("android9", "cat > /dev/input/event2", chunks);
        assert_eq!(ending, Ending::Exit(1));
        assert_eq!(err, "cat: xwrite: Invalid argument\n");
        let (ending, _, err, taps) = run("android12", "cat > /dev/input/event2", vec![data]);
        assert_eq!(ending, Ending::Exit(1));
        assert_eq!(
            err,
            "/system/bin/sh: can't create /dev/input/event2: Permission denied\n"
        );
        assert!(taps.is_empty());
    }

    #[test]
    fn a_long_lived_shell_runs_lines_and_raw_blocks_from_stdin() {
        let mut stdin =
            b"input tap 5 6; echo __ok=$?\ndd of=/dev/input/event2 bs=24 count=22 status=none\n"
                .to_vec();
        stdin.extend(records(&[Point::new(7, 8), Point::new(9, 10)]));
        stdin.extend(b"echo 'done\n");
        let pieces = vec![
            stdin[..20].to_vec(),
            stdin[20..].to_vec(),
            b"'\nexit 4\n".to_vec(),
        ];
        let (ending, out, _, taps) = run("android9", "", pieces);
        assert_eq!(ending, Ending::Exit(4));
        assert_eq!(out, "__ok=0\ndone\n\n");
        assert_eq!(
            taps,
            vec![Point::new(5, 6), Point::new(7, 8), Point::new(9, 10)]
        );
    }

    #[test]
    fn screencap_writes_png_or_raw_to_stdout() {
        let (_, h) = test_screen::handset("instant");
        let mut io = TestIo::default();
        Shell::new(&h, &mut io).run("screencap -p");
        assert!(io.stdout.starts_with(b"\x89PNG\r\n\x1a\n"));
        let mut io = TestIo::default();
        Shell::new(&h, &mut io).run("screencap | dd bs=16 count=1 2>/dev/null");
        assert_eq!(io.stdout.len(), 16);
    }

    #[test]
    fn only_commands_that_never_read_stdin_run_without_it() {
        assert!(runs_without_stdin("input tap 1 2; echo __rc=$?"));
        assert!(runs_without_stdin("screencap -p"));
        assert!(!runs_without_stdin("cat > /dev/input/event2"));
        assert!(!runs_without_stdin("dumpsys window | cat"));
        assert!(!runs_without_stdin("/system/bin/sh"));
        assert!(!runs_without_stdin(
            "CLASSPATH=/data/local/tmp/i.dex app_process / a.B"
        ));
        assert!(runs_without_stdin("A=1 echo hi"));
        assert!(!runs_without_stdin("echo 'unfinished"));
        assert!(!runs_without_stdin(""));
    }

    #[test]
    fn printf_piped_into_dd_writes_raw_touch_records() {
        let data = records(&[Point::new(100, 200), Point::new(900, 2000)]);
        let escaped: String = data.iter().map(|b| format!("\\{b:03o}")).collect();
        let command = format!(
            "printf '{escaped}' | dd of=/dev/input/event2 ibs=4096 obs=24 2>/dev/null; echo __rc=$?"
        );
        let (ending, out, err, taps) = run("android9", &command, vec![]);
        assert_eq!(
            (ending, out.as_str(), err.as_str()),
            (Ending::Exit(0), "__rc=0\n", "")
        );
        assert_eq!(taps, vec![Point::new(100, 200), Point::new(900, 2000)]);
        // Into a pipe and out of the shell, every byte is kept.
        let (_, out, _, _) = run("instant", r"printf 'A\101\n'", vec![]);
        assert_eq!(out, "AA\n");
        let (ending, _, err, _) = run("instant", "printf", vec![]);
        assert_eq!(
            (ending, err.as_str()),
            (Ending::Exit(1), "printf: Needs 1 argument\n")
        );
    }

    #[test]
    fn rows_cut_from_a_raw_screencap_cost_the_capture_and_their_own_transfer_only() {
        use std::time::Duration;
        let (_, h) = test_screen::handset("android12");
        let mut io = TestIo::default();
        Shell::new(&h, &mut io).run("screencap");
        let whole = h.clock();
        let row = 1080 * 4;
        let (first, rows) = (300, 1000);
        let command = format!(
            "screencap | tail -c +{} | head -c {}",
            16 + first * row + 1,
            rows * row
        );
        let mut cut = TestIo::default();
        Shell::new(&h, &mut cut).run(&command);
        let part = h.clock() - whole;
        assert_eq!(cut.stdout.len(), rows * row);
        assert_eq!(
            cut.stdout[..],
            io.stdout[16 + first * row..16 + (first + rows) * row]
        );
        assert!(whole >= Duration::from_millis(249), "{whole:?}");
        assert!(
            part < Duration::from_millis(140) && part > Duration::from_millis(50),
            "{part:?}"
        );
        let (_, out, _, _) = run("instant", "echo abcdef | tail -c 3", vec![]);
        assert_eq!(out, "ef\n");
    }

    #[test]
    fn a_toolbox_without_printf_says_not_found() {
        let (_, h) = test_screen::handset("android9");
        h.set_printf(false);
        let mut io = TestIo::default();
        let ending = Shell::new(&h, &mut io).run(r"printf '\101\102'");
        assert_eq!(ending, Ending::Exit(127));
        assert!(io.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&io.stderr),
            "/system/bin/sh: printf: inaccessible or not found\n"
        );
    }
}
