//! The phone's shell (`/system/bin/sh`), as much of it as hosts use over ADB: shell-quoted
//! parsing (single and double quotes, backslashes, `#` comments), lists joined by `;`, newlines,
//! `&&` and `||`, pipes, redirections (`>`, `>>`, `<`, `2>&1`), `$?`, and the commands a phone
//! offers for screenshots and input: `screencap`, `input`, `cmd input`, `wm`, `getprop`,
//! `getevent`, `dumpsys window`, `sendevent`, and `cat`/`dd` into `/dev/input/eventN`, plus small
//! tools (`echo`, `true`, `false`, `exit`, `sleep`, `sh`, `grep`, `head`, `tail`, `which`, `id`,
//! `ls`). A session reads further command lines from stdin when it is interactive (`shell:` with
//! no command, `exec:sh`), and a command such as `cat > /dev/input/event2` consumes the rest of
//! stdin, as on a phone. Device work goes to the `Handset`.

mod app_process;

use super::handset::{Gone, Handset, InputWriteError, TapSource};
use super::touch::{self, InputEvent};
use crate::geometry::Point;
use std::io;
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// Parsing

/// One piece of a word: literal text or the last exit status (`$?`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordPart {
    Text(String),
    Status,
}

/// A word before expansion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word(pub Vec<WordPart>);

impl Word {
    fn push_char(&mut self, c: char) {
        if let Some(WordPart::Text(t)) = self.0.last_mut() {
            t.push(c);
        } else {
            self.0.push(WordPart::Text(c.to_string()));
        }
    }

    /// The word with `$?` replaced by `status`.
    pub fn expand(&self, status: i32) -> String {
        self.0
            .iter()
            .map(|p| match p {
                WordPart::Text(t) => t.clone(),
                WordPart::Status => status.to_string(),
            })
            .collect()
    }
}

/// A redirection of one file descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirect {
    /// `[fd]> path` or `[fd]>> path`.
    Out { fd: u8, path: Word, append: bool },
    /// `< path`.
    In { path: Word },
    /// `[fd]>&to`.
    Dup { fd: u8, to: u8 },
}

/// A command name with its arguments and redirections.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

/// Commands joined by `|`.
pub type Pipeline = Vec<SimpleCommand>;

/// How a pipeline joins the previous one in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connector {
    /// `;`, newline or `&` (start of a list item).
    Then,
    And,
    Or,
}

/// A parsed script: pipelines in order, each with its connector.
pub type Script = Vec<(Connector, Pipeline)>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text ends inside a quote or after `|`, `&&`, `||` or a trailing backslash.
    #[error("unexpected end of input")]
    Incomplete,
    #[error("syntax error: '{0}' unexpected")]
    Unexpected(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(Word),
    Separator,
    And,
    Or,
    Pipe,
    RedirOut { fd: u8, append: bool },
    RedirIn,
    Dup { fd: u8, to: u8 },
}

fn tokenize(text: &str) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let mut word: Option<Word> = None;
    macro_rules! end_word {
        () => {
            if let Some(w) = word.take() {
                tokens.push(Token::Word(w));
            }
        };
    }
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' => end_word!(),
            '\n' | ';' => {
                end_word!();
                tokens.push(Token::Separator);
            }
            '#' if word.is_none() => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            '&' => {
                end_word!();
                if chars.peek() == Some(&'&') {
                    chars.next();
                    tokens.push(Token::And);
                } else {
                    tokens.push(Token::Separator);
                }
            }
            '|' => {
                end_word!();
                if chars.peek() == Some(&'|') {
                    chars.next();
                    tokens.push(Token::Or);
                } else {
                    tokens.push(Token::Pipe);
                }
            }
            '>' | '<' => {
                // A word made only of one digit right before the operator is its fd (`2>`).
                let fd = match &word {
                    Some(Word(parts)) => match parts.as_slice() {
                        [WordPart::Text(t)] if t.len() == 1 && t.as_bytes()[0].is_ascii_digit() => {
                            let fd = t.as_bytes()[0] - b'0';
                            word = None;
                            Some(fd)
                        }
                        _ => None,
                    },
                    None => None,
                };
                end_word!();
                if c == '<' {
                    tokens.push(Token::RedirIn);
                    continue;
                }
                let fd = fd.unwrap_or(1);
                if chars.peek() == Some(&'>') {
                    chars.next();
                    tokens.push(Token::RedirOut { fd, append: true });
                } else if chars.peek() == Some(&'&') {
                    chars.next();
                    let to = chars
                        .next()
                        .and_then(|d| d.to_digit(10))
                        .ok_or_else(|| ParseError::Unexpected(">&".into()))?;
                    tokens.push(Token::Dup { fd, to: to as u8 });
                } else {
                    tokens.push(Token::RedirOut { fd, append: false });
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(Word::default);
                if w.0.is_empty() {
                    w.0.push(WordPart::Text(String::new()));
                }
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push_char(c),
                        None => return Err(ParseError::Incomplete),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(Word::default);
                if w.0.is_empty() {
                    w.0.push(WordPart::Text(String::new()));
                }
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push_char(c),
                            Some('\n') => {}
                            Some(c) => {
                                w.push_char('\\');
                                w.push_char(c);
                            }
                            None => return Err(ParseError::Incomplete),
                        },
                        Some('$') if chars.peek() == Some(&'?') => {
                            chars.next();
                            w.0.push(WordPart::Status);
                        }
                        Some(c) => w.push_char(c),
                        None => return Err(ParseError::Incomplete),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(Word::default).push_char(c),
                None => return Err(ParseError::Incomplete),
            },
            '$' if chars.peek() == Some(&'?') => {
                chars.next();
                word.get_or_insert_with(Word::default)
                    .0
                    .push(WordPart::Status);
            }
            c => word.get_or_insert_with(Word::default).push_char(c),
        }
    }
    end_word!();
    Ok(tokens)
}

/// Parses shell text into a list of pipelines.
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let tokens = tokenize(text)?;
    let mut script = Script::new();
    let mut pipeline = Pipeline::new();
    let mut command = SimpleCommand::default();
    let mut connector = Connector::Then;
    let mut iter = tokens.into_iter().peekable();
    // Whether the text so far ends with an operator that needs something after it.
    let mut dangling = false;
    while let Some(tok) = iter.next() {
        match tok {
            Token::Word(w) => {
                command.words.push(w);
                dangling = false;
            }
            Token::RedirOut { fd, append } => match iter.next() {
                Some(Token::Word(path)) => {
                    command.redirects.push(Redirect::Out { fd, path, append })
                }
                None => return Err(ParseError::Unexpected("newline".into())),
                Some(_) => return Err(ParseError::Unexpected(">".into())),
            },
            Token::RedirIn => match iter.next() {
                Some(Token::Word(path)) => command.redirects.push(Redirect::In { path }),
                None => return Err(ParseError::Unexpected("newline".into())),
                Some(_) => return Err(ParseError::Unexpected("<".into())),
            },
            Token::Dup { fd, to } => command.redirects.push(Redirect::Dup { fd, to }),
            Token::Pipe => {
                if command.words.is_empty() {
                    return Err(ParseError::Unexpected("|".into()));
                }
                pipeline.push(std::mem::take(&mut command));
                dangling = true;
            }
            Token::Separator | Token::And | Token::Or => {
                if command.words.is_empty() && command.redirects.is_empty() {
                    if dangling || !matches!(tok, Token::Separator) {
                        return Err(ParseError::Unexpected(
                            match tok {
                                Token::And => "&&",
                                Token::Or => "||",
                                _ => ";",
                            }
                            .into(),
                        ));
                    }
                    continue;
                }
                pipeline.push(std::mem::take(&mut command));
                script.push((connector, std::mem::take(&mut pipeline)));
                connector = match tok {
                    Token::And => Connector::And,
                    Token::Or => Connector::Or,
                    _ => Connector::Then,
                };
                dangling = !matches!(tok, Token::Separator);
            }
        }
    }
    if !command.words.is_empty() || !command.redirects.is_empty() {
        pipeline.push(command);
        script.push((connector, pipeline));
    } else if dangling {
        return Err(ParseError::Incomplete);
    }
    Ok(script)
}

/// Commands that may read stdin (or start an interactive shell).
const STDIN_READERS: &[&str] = &["cat", "dd", "sh", "grep", "head", "tail", "app_process"];

/// Whether `text` can run without any input from the host: it parses, and no command in it may
/// read stdin. Such commands can be answered in one go.
pub fn runs_without_stdin(text: &str) -> bool {
    let Ok(script) = parse(text) else {
        return false;
    };
    !text.trim().is_empty()
        && script.iter().flat_map(|(_, p)| p).all(|command| {
            // The command name is the first word that is not a `NAME=value` assignment.
            let name = command
                .words
                .iter()
                .find(|w| !matches!(w.0.as_slice(), [WordPart::Text(t)] if is_assignment(t)));
            match name.map(|w| w.0.as_slice()) {
                Some([WordPart::Text(name)]) => {
                    let name = name.rsplit('/').next().unwrap_or(name);
                    !STDIN_READERS.contains(&name)
                }
                None => true,
                Some(_) => false,
            }
        })
}

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
            Sink::Session(to) => self
                .input
                .io
                .write_output(to, data)
                .map_err(|e| e.to_string()),
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
            "echo" => {
                let (newline, words) = match args.first().map(String::as_str) {
                    Some("-n") => (false, &args[1..]),
                    _ => (true, args),
                };
                let mut text = words.join(" ");
                if newline {
                    text.push('\n');
                }
                self.out(ctx, &text)?;
                Ok(0)
            }
            "true" | ":" => Ok(0),
            "false" => Ok(1),
            "exit" => {
                let n = args
                    .first()
                    .and_then(|a| a.parse::<i32>().ok())
                    .unwrap_or(self.status);
                Err(Flow::Exit(n & 0xff))
            }
            "sleep" => {
                let secs: Option<f64> = args.first().and_then(|a| a.parse().ok());
                match secs.and_then(|s| Duration::try_from_secs_f64(s).ok()) {
                    Some(d) => {
                        self.handset.sleep(d);
                        Ok(0)
                    }
                    None => {
                        self.err(ctx, "sleep: Need 1 argument\n")?;
                        Ok(1)
                    }
                }
            }
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
            "getprop" => {
                let text = match args.first() {
                    None => self.handset.all_props(),
                    Some(key) => {
                        let value = self
                            .handset
                            .prop(key)
                            .or_else(|| args.get(1).cloned())
                            .unwrap_or_default();
                        format!("{value}\n")
                    }
                };
                self.out(ctx, &text)?;
                Ok(0)
            }
            "getevent" => self.cmd_getevent(args, ctx),
            "dumpsys" => self.cmd_dumpsys(args, ctx),
            "sendevent" => self.cmd_sendevent(args, ctx),
            "cat" => self.cmd_cat(args, ctx),
            "dd" => self.cmd_dd(args, ctx),
            "printf" if self.handset.has_printf() => {
                let Some(format) = args.first() else {
                    self.err(ctx, "printf: Needs 1 argument\n")?;
                    return Ok(1);
                };
                let (bytes, errors) = printf_bytes(format, &args[1..]);
                // One write, like toybox's buffered stdout at exit: a pipe gets it whole.
                if let Err(e) = self.write(ctx, 1, &bytes)? {
                    self.err(ctx, &format!("printf: write: {e}\n"))?;
                    return Ok(1);
                }
                for e in &errors {
                    self.err(ctx, &format!("{e}\n"))?;
                }
                Ok(i32::from(!errors.is_empty()))
            }
            "grep" => self.cmd_grep(args, ctx),
            "head" | "tail" => self.cmd_head_tail(name, args, ctx),
            "which" => {
                let mut status = 0;
                for a in args {
                    if BUILTINS.contains(&a.as_str())
                        && (a != "printf" || self.handset.has_printf())
                    {
                        self.out(ctx, &format!("/system/bin/{a}\n"))?;
                    } else {
                        status = 1;
                    }
                }
                Ok(status)
            }
            "id" => {
                self.out(
                    ctx,
                    "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid) context=u:r:shell:s0\n",
                )?;
                Ok(0)
            }
            "ls" => {
                if args.iter().any(|a| a.trim_end_matches('/') == "/dev/input") {
                    let names: Vec<String> = touch::input_devices()
                        .iter()
                        .map(|d| d.path.trim_start_matches("/dev/input/").to_string())
                        .collect();
                    self.out(ctx, &format!("{}\n", names.join("\n")))?;
                    Ok(0)
                } else {
                    self.err(ctx, "ls: the simulated phone only lists /dev/input\n")?;
                    Ok(1)
                }
            }
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

    fn cmd_screencap(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut png = false;
        let mut file = None;
        let mut iter = args.iter();
        while let Some(a) = iter.next() {
            match a.as_str() {
                "-p" => png = true,
                "-d" => {
                    iter.next();
                }
                "-h" | "--help" => {
                    self.err(
                        ctx,
                        "usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n   -d: specify the physical display ID to capture\nIf FILENAME ends with .png it will be saved as a png.\nIf FILENAME is not given, the results will be printed to stdout.\n",
                    )?;
                    return Ok(1);
                }
                f => file = Some(f.to_string()),
            }
        }
        if let Some(f) = &file {
            png |= f.ends_with(".png");
        }
        let data = self.handset.screencap(png).map_err(|Gone| Flow::Gone)?;
        match file {
            None => {
                self.write(ctx, 1, &data)?.ok();
                Ok(0)
            }
            Some(path) if Handset::is_writable_path(&path) => {
                self.handset.write_file(&path, &data, false);
                Ok(0)
            }
            Some(path) => {
                self.err(
                    ctx,
                    &format!("Error opening file: {path} (Permission denied)\n"),
                )?;
                Ok(1)
            }
        }
    }

    fn cmd_input(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        // `input [<source>] [-d DISPLAY] <command> ...`
        let mut rest = args;
        if let Some(first) = rest.first()
            && INPUT_SOURCES.contains(&first.as_str())
        {
            rest = &rest[1..];
        }
        if rest.first().map(String::as_str) == Some("-d") {
            rest = rest.get(2..).unwrap_or(&[]);
        }
        let Some(command) = rest.first() else {
            self.err(ctx, INPUT_USAGE)?;
            return Ok(1);
        };
        let nums: Vec<Option<f32>> = rest[1..].iter().map(|a| a.parse::<f32>().ok()).collect();
        let point = |i: usize| -> Option<Point> {
            let x = nums.get(i).copied().flatten()?;
            let y = nums.get(i + 1).copied().flatten()?;
            (x >= 0.0 && y >= 0.0).then(|| Point::new(x as u32, y as u32))
        };
        let invalid = |this: &mut Self, ctx: &mut Ctx| -> CmdResult {
            this.err(
                ctx,
                &format!("Error: Invalid arguments for command: {command}\n{INPUT_USAGE}"),
            )?;
            Ok(1)
        };
        let h = self.handset;
        if h.injection_refused() && matches!(command.as_str(), "tap" | "swipe" | "motionevent") {
            // What `cmd input` prints for an exception (Android 12+), status 255.
            h.input_command().map_err(|Gone| Flow::Gone)?;
            self.err(
                ctx,
                &format!(
                    "Exception occurred while executing '{command}':\n{INJECT_EVENTS_REFUSAL}\n"
                ),
            )?;
            return Ok(255);
        }
        match command.as_str() {
            "tap" => {
                let Some(p) = point(0).filter(|_| nums.len() == 2) else {
                    return invalid(self, ctx);
                };
                h.input_command().map_err(|Gone| Flow::Gone)?;
                h.tap(p, TapSource::InputTap).map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            "swipe" => {
                let (Some(from), Some(to)) = (point(0), point(2)) else {
                    return invalid(self, ctx);
                };
                let ms = nums.get(4).copied().flatten().unwrap_or(300.0);
                // A swipe longer than a minute is a typo, not a gesture.
                let duration = Duration::try_from_secs_f32(ms / 1000.0)
                    .unwrap_or_default()
                    .min(Duration::from_secs(60));
                h.input_command().map_err(|Gone| Flow::Gone)?;
                h.swipe(from, to, duration).map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            "motionevent" => {
                let action = rest.get(1).map(|a| a.to_ascii_uppercase());
                let nums = &nums[1..];
                let p = match (
                    nums.first().copied().flatten(),
                    nums.get(1).copied().flatten(),
                ) {
                    (Some(x), Some(y)) if x >= 0.0 && y >= 0.0 => {
                        Some(Point::new(x as u32, y as u32))
                    }
                    _ => None,
                };
                let (Some(action), Some(p)) = (action, p) else {
                    return invalid(self, ctx);
                };
                if !matches!(action.as_str(), "DOWN" | "UP" | "MOVE" | "CANCEL") {
                    return invalid(self, ctx);
                }
                h.input_command().map_err(|Gone| Flow::Gone)?;
                h.motion(&action, p).map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            "keyevent" | "text" | "press" | "roll" | "keycombination" => {
                if rest.len() < 2 && command != "press" {
                    return invalid(self, ctx);
                }
                // Accepted and paid for; the sudoku app has no keyboard handling.
                h.input_command().map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            _ => {
                self.err(
                    ctx,
                    &format!("Error: Unknown command: {command}\n{INPUT_USAGE}"),
                )?;
                Ok(1)
            }
        }
    }

    fn cmd_wm(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let size = self.handset.size();
        match args.first().map(String::as_str) {
            Some("size") if args.len() == 1 => {
                self.out(
                    ctx,
                    &format!("Physical size: {}x{}\n", size.width, size.height),
                )?;
                Ok(0)
            }
            Some("density") if args.len() == 1 => {
                self.out(
                    ctx,
                    &format!("Physical density: {}\n", self.handset.density()),
                )?;
                Ok(0)
            }
            Some("size" | "density") if args.get(1).map(String::as_str) == Some("reset") => Ok(0),
            Some("size" | "density") => {
                self.err(ctx, "Error: the simulated display cannot be resized\n")?;
                Ok(1)
            }
            _ => {
                self.err(ctx, "usage: wm [size|density] ...\n")?;
                Ok(1)
            }
        }
    }

    fn cmd_getevent(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut labels = false;
        let mut list = false;
        let mut device = None;
        for a in args {
            if let Some(flags) = a.strip_prefix('-') {
                labels |= flags.contains('l');
                list |= flags.contains('p') || flags.contains('i');
            } else {
                device = Some(a.clone());
            }
        }
        if !list {
            // Streaming events would block until the host hangs up; no real finger ever
            // touches the simulated glass, so there is nothing to stream.
            self.err(
                ctx,
                "getevent: the simulated phone has no live events; use -p or -lp\n",
            )?;
            return Ok(1);
        }
        let devices: Vec<_> = touch::input_devices()
            .into_iter()
            .filter(|d| device.as_deref().is_none_or(|p| p == d.path))
            .collect();
        if devices.is_empty() {
            let path = device.unwrap_or_default();
            self.err(
                ctx,
                &format!("could not open {path}, No such file or directory\n"),
            )?;
            return Ok(1);
        }
        let text = touch::getevent_listing(&devices, labels);
        self.out(ctx, &text)?;
        Ok(0)
    }

    fn cmd_dumpsys(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        match args.first().map(String::as_str) {
            Some("window") => {
                let text = self.handset.dumpsys_window();
                self.out(ctx, &text)?;
                Ok(0)
            }
            Some(service) => {
                self.err(ctx, &format!("Can't find service: {service}\n"))?;
                Ok(0)
            }
            None => {
                self.err(ctx, "dumpsys: the simulated phone only dumps 'window'\n")?;
                Ok(1)
            }
        }
    }

    fn cmd_sendevent(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        if args.len() != 4 {
            self.err(ctx, "usage: sendevent DEVICE TYPE CODE VALUE\n")?;
            return Ok(1);
        }
        let h = self.handset;
        h.sendevent_process().map_err(|Gone| Flow::Gone)?;
        if let Err(e) = h.check_input_writable(&args[0]) {
            self.err(
                ctx,
                &format!("sendevent: {}: {}\n", args[0], e.errno_text()),
            )?;
            return Ok(1);
        }
        // toybox parses with atoi(): decimal only, hex silently becomes 0.
        let ev = InputEvent::new(atoi(&args[1]) as u16, atoi(&args[2]) as u16, atoi(&args[3]));
        match h.write_input(&args[0], &ev.to_record()) {
            Ok(()) => Ok(0),
            Err(InputWriteError::Gone) => Err(Flow::Gone),
            Err(e) => {
                self.err(ctx, &format!("sendevent: write: {}\n", e.errno_text()))?;
                Ok(1)
            }
        }
    }

    fn cmd_cat(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let files: Vec<&String> = args
            .iter()
            .filter(|a| !a.starts_with('-') || *a == "-")
            .collect();
        if files.is_empty() || files.iter().all(|f| *f == "-") {
            // Each chunk from stdin is one write(), as cat does with a pipe.
            while let Some(chunk) = self.read_stdin(ctx, 64 * 1024) {
                if let Err(e) = self.write(ctx, 1, &chunk)? {
                    self.err(ctx, &format!("cat: xwrite: {e}\n"))?;
                    return Ok(1);
                }
            }
            return Ok(0);
        }
        let mut status = 0;
        for f in files {
            match self.handset.read_file(f) {
                Some(data) => {
                    if let Err(e) = self.write(ctx, 1, &data)? {
                        self.err(ctx, &format!("cat: xwrite: {e}\n"))?;
                        return Ok(1);
                    }
                }
                None => {
                    self.err(ctx, &format!("cat: {f}: No such file or directory\n"))?;
                    status = 1;
                }
            }
        }
        Ok(status)
    }

    fn cmd_dd(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut ibs = 512usize;
        let mut obs = 512usize;
        let mut count: Option<u64> = None;
        let mut output: Option<String> = None;
        let mut input: Option<String> = None;
        let mut quiet = false;
        for a in args {
            let Some((key, value)) = a.split_once('=') else {
                self.err(ctx, &format!("dd: unknown argument '{a}'\n"))?;
                return Ok(1);
            };
            let size = parse_size(value);
            match (key, size) {
                ("bs", Some(n)) => (ibs, obs) = (n, n),
                ("ibs", Some(n)) => ibs = n,
                ("obs", Some(n)) => obs = n,
                ("count", Some(n)) => count = Some(n as u64),
                ("of", _) => output = Some(value.to_string()),
                ("if", _) => input = Some(value.to_string()),
                ("status", _) => quiet = value == "none",
                ("iflag" | "oflag" | "conv", _) => {}
                _ => {
                    self.err(ctx, &format!("dd: bad argument '{a}'\n"))?;
                    return Ok(1);
                }
            }
        }
        if let Some(path) = &output {
            match self.open_for_writing(path, false) {
                Ok(sink) => ctx.fds[1] = sink,
                Err(reason) => {
                    self.err(ctx, &format!("dd: {path}: {reason}\n"))?;
                    return Ok(1);
                }
            }
        }
        if let Some(path) = &input {
            match self.handset.read_file(path) {
                Some(data) => ctx.stdin = Stdin::Buffer(data, 0),
                None => {
                    self.err(ctx, &format!("dd: {path}: No such file or directory\n"))?;
                    return Ok(1);
                }
            }
        }
        // toybox dd: read ibs-sized blocks (short reads count as partial blocks, there is no
        // iflag=fullblock); with ibs == obs each block is written as read, otherwise output is
        // re-blocked into obs-sized writes.
        let (mut full_in, mut part_in, mut full_out, mut part_out, mut bytes) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut carry: Vec<u8> = Vec::new();
        let reblock = ibs != obs;
        let mut failed = None;
        while count.is_none_or(|c| full_in + part_in < c) {
            let Some(block) = self.read_stdin(ctx, ibs) else {
                break;
            };
            if block.len() == ibs {
                full_in += 1;
            } else {
                part_in += 1;
            }
            let writes: Vec<Vec<u8>> = if reblock {
                carry.extend_from_slice(&block);
                let whole = carry.len() / obs * obs;
                let out: Vec<Vec<u8>> = carry[..whole].chunks(obs).map(<[u8]>::to_vec).collect();
                carry.drain(..whole);
                out
            } else {
                vec![block]
            };
            for w in writes {
                match self.write(ctx, 1, &w)? {
                    Ok(()) => {
                        bytes += w.len() as u64;
                        if w.len() == obs {
                            full_out += 1;
                        } else {
                            part_out += 1;
                        }
                    }
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            if failed.is_some() {
                break;
            }
        }
        if failed.is_none() && !carry.is_empty() {
            match self.write(ctx, 1, &carry)? {
                Ok(()) => {
                    bytes += carry.len() as u64;
                    part_out += 1;
                }
                Err(e) => failed = Some(e),
            }
        }
        if let Some(e) = &failed {
            let target = output.as_deref().unwrap_or("stdout");
            self.err(ctx, &format!("dd: {target}: {e}\n"))?;
        }
        if !quiet {
            self.err(
                ctx,
                &format!(
                    "{full_in}+{part_in} records in\n{full_out}+{part_out} records out\n{bytes} bytes ({bytes} B) copied, 0.000 s, 0 B/s\n"
                ),
            )?;
        }
        Ok(if failed.is_some() { 1 } else { 0 })
    }

    fn cmd_grep(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let (mut invert, mut ignore_case, mut quiet, mut count_only) = (false, false, false, false);
        let mut pattern = None;
        let mut file = None;
        for a in args {
            match a.strip_prefix('-') {
                Some(flags) if pattern.is_none() && !flags.is_empty() => {
                    invert |= flags.contains('v');
                    ignore_case |= flags.contains('i');
                    quiet |= flags.contains('q');
                    count_only |= flags.contains('c');
                }
                _ if pattern.is_none() => pattern = Some(a.clone()),
                _ => file = Some(a.clone()),
            }
        }
        let Some(pattern) = pattern else {
            self.err(ctx, "usage: grep [-civq] PATTERN [FILE]\n")?;
            return Ok(2);
        };
        let data = match file {
            Some(f) => self.handset.read_file(&f).unwrap_or_default(),
            None => {
                let mut all = Vec::new();
                while let Some(chunk) = self.read_stdin(ctx, 64 * 1024) {
                    all.extend(chunk);
                }
                all
            }
        };
        let norm = |s: &str| {
            if ignore_case {
                s.to_lowercase()
            } else {
                s.to_string()
            }
        };
        // `-E 'a|b'` alternatives; other regex syntax is matched literally.
        let alternatives: Vec<String> = pattern.split('|').map(norm).collect();
        let text = String::from_utf8_lossy(&data);
        let mut matched = 0;
        let mut out = String::new();
        for line in text.lines() {
            let hit = alternatives.iter().any(|p| norm(line).contains(p.as_str()));
            if hit != invert {
                matched += 1;
                out.push_str(line);
                out.push('\n');
            }
        }
        if count_only {
            out = format!("{matched}\n");
        }
        if !quiet {
            self.out(ctx, &out)?;
        }
        Ok(if matched > 0 { 0 } else { 1 })
    }

    fn cmd_head_tail(&mut self, name: &str, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut bytes: Option<String> = None;
        let mut lines: Option<String> = None;
        let mut iter = args.iter();
        while let Some(a) = iter.next() {
            match a.as_str() {
                "-c" => bytes = iter.next().cloned(),
                // Old-style `head -3`.
                s if s.len() > 1 && s[1..].bytes().all(|b| b.is_ascii_digit()) => {
                    lines = Some(s[1..].to_string())
                }
                "-n" => lines = iter.next().cloned(),
                s if s.starts_with("-c") => bytes = Some(s[2..].to_string()),
                s if s.starts_with("-n") => lines = Some(s[2..].to_string()),
                _ => {}
            }
        }
        let mut data = Vec::new();
        while let Some(chunk) = self.read_stdin(ctx, 1 << 20) {
            data.extend(chunk);
        }
        let out: Vec<u8> = match (name, bytes, lines) {
            (_, Some(b), _) => {
                let from_start = b.starts_with('+');
                let n: usize = b.trim_start_matches('+').parse().unwrap_or(0);
                match (name, from_start) {
                    ("head", _) => data[..n.min(data.len())].to_vec(),
                    (_, true) => data[n.saturating_sub(1).min(data.len())..].to_vec(),
                    _ => data[data.len().saturating_sub(n)..].to_vec(),
                }
            }
            (_, None, l) => {
                let n: usize = l
                    .as_deref()
                    .unwrap_or("10")
                    .trim_start_matches('+')
                    .parse()
                    .unwrap_or(10);
                let text = String::from_utf8_lossy(&data);
                let all: Vec<&str> = text.lines().collect();
                let picked = if name == "head" {
                    &all[..n.min(all.len())]
                } else {
                    &all[all.len().saturating_sub(n)..]
                };
                picked
                    .iter()
                    .flat_map(|l| format!("{l}\n").into_bytes())
                    .collect()
            }
        };
        self.write(ctx, 1, &out)?.ok();
        Ok(0)
    }
}

/// One command's file descriptors, stdin and environment assignments.
struct Ctx {
    stdin: Stdin,
    fds: [Sink; 3],
    captured: Vec<u8>,
    env: Vec<(String, String)>,
}

/// `NAME=value` with a valid variable name: an assignment, not a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Commands this shell knows (for `which`).
const BUILTINS: &[&str] = &[
    "echo",
    "true",
    "false",
    "sleep",
    "sh",
    "screencap",
    "input",
    "cmd",
    "wm",
    "getprop",
    "getevent",
    "dumpsys",
    "sendevent",
    "app_process",
    "cat",
    "dd",
    "printf",
    "grep",
    "head",
    "tail",
    "which",
    "id",
    "ls",
];

const INPUT_SOURCES: &[&str] = &[
    "keyboard",
    "mouse",
    "joystick",
    "touchnavigation",
    "touchpad",
    "trackball",
    "dpad",
    "stylus",
    "gamepad",
    "touchscreen",
    "rotaryencoder",
];

const INPUT_USAGE: &str = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\nThe commands and default sources are:\n      text <string> (Default: touchscreen)\n      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n      tap <x> <y> (Default: touchscreen)\n      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)\n";

/// The SecurityException a phone that refuses injection throws (scrcpy #1865, MIUI).
const INJECT_EVENTS_REFUSAL: &str = "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission";

/// C `atoi`: optional sign and leading decimal digits; anything else ends the number.
fn atoi(s: &str) -> i32 {
    let s = s.trim_start();
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut n: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        n = (n * 10 + (b - b'0') as i64).min(i64::from(i32::MAX) + 1);
    }
    let n = if neg { -n } else { n };
    n.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// What toybox `printf FORMAT [ARG...]` writes, as raw bytes (octal escapes may make any byte),
/// and whether it stopped early on a bad number (exit status 1, after the rest of the output).
/// The format is reused while arguments remain, as POSIX asks.
fn printf_bytes(format: &str, args: &[String]) -> (Vec<u8>, Vec<String>) {
    let fmt = format.as_bytes();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut next = 0usize;
    loop {
        let mut i = 0;
        let mut used_arg = false;
        while i < fmt.len() {
            match fmt[i] {
                b'\\' => {
                    i += 1;
                    match escape(fmt, &mut i, false) {
                        Escape::Byte(b) => out.push(b),
                        Escape::Stop => return (out, errors),
                    }
                }
                b'%' if fmt.get(i + 1) == Some(&b'%') => {
                    out.push(b'%');
                    i += 2;
                }
                b'%' => {
                    let start = i;
                    i += 1;
                    let flags_start = i;
                    while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
                        i += 1;
                    }
                    let flags = &fmt[flags_start..i];
                    let num = |i: &mut usize| {
                        let s = *i;
                        while *i < fmt.len() && fmt[*i].is_ascii_digit() {
                            *i += 1;
                        }
                        std::str::from_utf8(&fmt[s..*i]).ok()?.parse::<usize>().ok()
                    };
                    let width = num(&mut i).unwrap_or(0);
                    let precision = if fmt.get(i) == Some(&b'.') {
                        i += 1;
                        Some(num(&mut i).unwrap_or(0))
                    } else {
                        None
                    };
                    let Some(&conv) = fmt.get(i) else {
                        errors.push(format!(
                            "printf: bad %: '{}'",
                            String::from_utf8_lossy(&fmt[start..])
                        ));
                        return (out, errors);
                    };
                    i += 1;
                    let arg = args.get(next).map(String::as_str);
                    if arg.is_some() {
                        next += 1;
                        used_arg = true;
                    }
                    let arg = arg.unwrap_or("");
                    let left = flags.contains(&b'-');
                    let zero = flags.contains(&b'0') && !left;
                    let body: Vec<u8> = match conv {
                        b's' => {
                            let b = arg.as_bytes();
                            b[..precision.unwrap_or(b.len()).min(b.len())].to_vec()
                        }
                        b'b' => {
                            let b = arg.as_bytes();
                            let mut j = 0;
                            let mut v = Vec::new();
                            while j < b.len() {
                                if b[j] == b'\\' {
                                    j += 1;
                                    match escape(b, &mut j, true) {
                                        Escape::Byte(x) => v.push(x),
                                        Escape::Stop => {
                                            out.extend(v);
                                            return (out, errors);
                                        }
                                    }
                                } else {
                                    v.push(b[j]);
                                    j += 1;
                                }
                            }
                            v
                        }
                        b'c' => arg.as_bytes().first().map(|&c| vec![c]).unwrap_or_default(),
                        b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => {
                            let n = match parse_printf_number(arg) {
                                Some(n) => n,
                                None => {
                                    errors.push(format!("printf: invalid number '{arg}'"));
                                    atoi(arg) as i64
                                }
                            };
                            let digits = match conv {
                                b'd' | b'i' => n.unsigned_abs().to_string(),
                                b'u' => (n as u64).to_string(),
                                b'x' => format!("{:x}", n as u64),
                                b'X' => format!("{:X}", n as u64),
                                _ => format!("{:o}", n as u64),
                            };
                            let sign = if matches!(conv, b'd' | b'i') && n < 0 {
                                "-"
                            } else if matches!(conv, b'd' | b'i') && flags.contains(&b'+') {
                                "+"
                            } else {
                                ""
                            };
                            if zero && sign.len() + digits.len() < width {
                                let pad = "0".repeat(width - sign.len() - digits.len());
                                format!("{sign}{pad}{digits}").into_bytes()
                            } else {
                                format!("{sign}{digits}").into_bytes()
                            }
                        }
                        other => {
                            errors.push(format!("printf: bad %{}", other as char));
                            return (out, errors);
                        }
                    };
                    let pad = width.saturating_sub(body.len());
                    if !left {
                        out.extend(std::iter::repeat_n(b' ', pad));
                    }
                    out.extend(&body);
                    if left {
                        out.extend(std::iter::repeat_n(b' ', pad));
                    }
                }
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        if !used_arg || next >= args.len() {
            return (out, errors);
        }
    }
}

/// One backslash escape, the backslash already consumed.
enum Escape {
    Byte(u8),
    /// `\c`: no more output.
    Stop,
}

/// Toybox's escapes: `\ooo` octal (1-3 digits; in `%b` arguments a leading `\0` may precede
/// them), `\xHH` hex, the C letters, and a backslash kept as is before anything else.
fn escape(s: &[u8], i: &mut usize, in_b: bool) -> Escape {
    let Some(&c) = s.get(*i) else {
        return Escape::Byte(b'\\');
    };
    if c == b'c' {
        return Escape::Stop;
    }
    let (base, mut len) = if c == b'x' {
        *i += 1;
        (16, 2)
    } else {
        if in_b && c == b'0' {
            *i += 1;
        }
        match s.get(*i) {
            Some(b'0'..=b'7') => (8, 3),
            _ if in_b && c == b'0' => return Escape::Byte(0),
            _ => (0, 0),
        }
    };
    if base == 0 {
        let letter = match c {
            b'\\' => b'\\',
            b'a' => 7,
            b'b' => 8,
            b'e' => 27,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            b'"' => b'"',
            b'\'' => b'\'',
            _ => return Escape::Byte(b'\\'),
        };
        *i += 1;
        return Escape::Byte(letter);
    }
    let mut value: u32 = 0;
    let mut digits = 0;
    while len > 0 {
        let Some(d) = s.get(*i).and_then(|&b| (b as char).to_digit(base)) else {
            break;
        };
        value = value * base + d;
        *i += 1;
        digits += 1;
        len -= 1;
    }
    if digits == 0 {
        // `\x` with no hex digit: printed as is.
        *i -= 1;
        return Escape::Byte(b'\\');
    }
    Escape::Byte(value as u8)
}

/// A printf number argument: decimal, 0x hex, leading-0 octal, or 'c (a character's code).
fn parse_printf_number(s: &str) -> Option<i64> {
    let t = s.trim_start();
    if let Some(rest) = t.strip_prefix('\'').or_else(|| t.strip_prefix('"')) {
        return Some(rest.bytes().next().map_or(0, i64::from));
    }
    if t.is_empty() {
        return Some(0);
    }
    let (neg, body) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let n = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i64::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -n } else { n })
}

/// dd sizes: `24`, `4k`, `1M`.
fn parse_size(s: &str) -> Option<usize> {
    let (num, mult) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1024),
        'm' | 'M' => (&s[..s.len() - 1], 1 << 20),
        _ => (s, 1),
    };
    num.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .and_then(|n| n.checked_mul(mult))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &Script) -> Vec<Vec<Vec<String>>> {
        script
            .iter()
            .map(|(_, p)| {
                p.iter()
                    .map(|c| c.words.iter().map(|w| w.expand(7)).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn quoting_follows_sh_rules() {
        let s = parse(r#"echo 'a b' "c $? d" e\ f 'it''s' "q\"x""#).unwrap();
        assert_eq!(
            words(&s),
            vec![vec![vec!["echo", "a b", "c 7 d", "e f", "its", "q\"x"]]]
        );
        assert_eq!(words(&parse("exec-out '-p'").unwrap())[0][0][1], "-p");
        assert_eq!(words(&parse("echo ''").unwrap())[0][0], vec!["echo", ""]);
    }

    #[test]
    fn lists_split_on_semicolons_newlines_and_logic_operators() {
        let s = parse("input tap 1 2; echo __rc=$?\ntrue && echo ok || echo no # comment").unwrap();
        let connectors: Vec<Connector> = s.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            connectors,
            vec![
                Connector::Then,
                Connector::Then,
                Connector::Then,
                Connector::And,
                Connector::Or
            ]
        );
        assert_eq!(words(&s)[1][0], vec!["echo", "__rc=7"]);
        assert_eq!(words(&s)[4][0], vec!["echo", "no"]);
    }

    #[test]
    fn pipes_and_redirections_are_parsed() {
        let s = parse("dumpsys window displays | grep mCurrentRotation 2>&1").unwrap();
        assert_eq!(s[0].1.len(), 2);
        assert_eq!(s[0].1[1].redirects, vec![Redirect::Dup { fd: 2, to: 1 }]);
        let s = parse("cat > /dev/input/event2").unwrap();
        assert_eq!(
            s[0].1[0].redirects,
            vec![Redirect::Out {
                fd: 1,
                path: Word(vec![WordPart::Text("/dev/input/event2".into())]),
                append: false
            }]
        );
        let s = parse("foo 2>/dev/null").unwrap();
        assert!(matches!(
            &s[0].1[0].redirects[0],
            Redirect::Out { fd: 2, .. }
        ));
    }

    #[test]
    fn unfinished_text_is_incomplete_and_stray_operators_are_errors() {
        assert_eq!(parse("echo 'abc"), Err(ParseError::Incomplete));
        assert_eq!(parse("echo a |"), Err(ParseError::Incomplete));
        assert_eq!(parse("echo a &&"), Err(ParseError::Incomplete));
        assert!(matches!(parse("| echo"), Err(ParseError::Unexpected(_))));
        assert!(matches!(parse("echo >"), Err(ParseError::Unexpected(_))));
        assert_eq!(parse(" ;; \n").unwrap(), Script::new());
    }

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

    use crate::sim::handset::test_screen;

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
        assert_eq!(
            run("android9", "wm size", vec![]).1,
            "Physical size: 1080x2340\n"
        );
        assert_eq!(
            run("android9", "wm density", vec![]).1,
            "Physical density: 440\n"
        );
        assert_eq!(
            run("android9", "getprop ro.build.version.sdk", vec![]).1,
            "28\n"
        );
        assert_eq!(
            run("android12", "getprop ro.build.version.sdk", vec![]).1,
            "31\n"
        );
        assert_eq!(run("android12", "getprop no.such.prop", vec![]).1, "\n");
        let rot9 = run(
            "android9",
            "dumpsys window displays | grep mCurrentRotation",
            vec![],
        )
        .1;
        assert_eq!(rot9.trim(), "mCurrentRotation=0");
        let rot12 = run(
            "android12",
            "dumpsys window | grep mCurrentRotation",
            vec![],
        )
        .1;
        assert_eq!(rot12.trim(), "mCurrentRotation=ROTATION_0");
        assert!(
            run("instant", "getevent -lp", vec![])
                .1
                .contains("ABS_MT_POSITION_Y")
        );
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
    fn a_phone_refusing_injection_fails_input_commands_with_the_security_exception() {
        let (screen, h) = test_screen::handset("android12");
        h.set_injection_refused(true);
        let mut io = TestIo::default();
        let ending = Shell::new(&h, &mut io).run("cmd input tap 1 2");
        assert_eq!(ending, Ending::Exit(255));
        assert!(String::from_utf8_lossy(&io.stderr).contains("INJECT_EVENTS permission"));
        assert!(screen.lock().unwrap().taps.is_empty());
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
        Shell::new(&h, &mut io).run("screencap | head -c 16");
        assert_eq!(io.stdout.len(), 16);
    }

    #[test]
    fn only_commands_that_never_read_stdin_run_without_it() {
        assert!(runs_without_stdin("input tap 1 2; echo __rc=$?"));
        assert!(runs_without_stdin("screencap -p"));
        assert!(!runs_without_stdin("cat > /dev/input/event2"));
        assert!(!runs_without_stdin("dumpsys window | grep Rotation"));
        assert!(!runs_without_stdin("/system/bin/sh"));
        assert!(!runs_without_stdin(
            "CLASSPATH=/data/local/tmp/i.dex app_process / a.B"
        ));
        assert!(runs_without_stdin("A=1 echo hi"));
        assert!(!runs_without_stdin("echo 'unfinished"));
        assert!(!runs_without_stdin(""));
    }

    fn printf(format: &str, args: &[&str]) -> (Vec<u8>, Vec<String>) {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        printf_bytes(format, &args)
    }

    #[test]
    fn printf_escapes_make_any_byte_like_toybox() {
        assert_eq!(printf(r"\101\102", &[]).0, b"AB");
        assert_eq!(printf(r"\000\377\12", &[]).0, [0, 255, 10]);
        // Three octal digits at most; a fourth is plain text.
        assert_eq!(printf(r"\1011", &[]).0, b"A1");
        assert_eq!(printf(r"a\nb\\c\td", &[]).0, b"a\nb\\c\td");
        assert_eq!(printf(r"\x41\xg", &[]).0, b"A\\xg");
        assert_eq!(
            printf(r"keep \q and stop\c here", &[]).0,
            b"keep \\q and stop"
        );
        assert_eq!(printf(r"100%%", &[]).0, b"100%");
    }

    #[test]
    fn printf_conversions_take_arguments_and_reuse_the_format() {
        assert_eq!(printf("%s=%d\n", &["a", "1", "b", "-2"]).0, b"a=1\nb=-2\n");
        assert_eq!(
            printf("[%5s|%-3s|%03d|%x|%o]", &["ab", "c", "7", "255", "8"]).0,
            b"[   ab|c  |007|ff|10]"
        );
        assert_eq!(printf("%s-%d.", &[]).0, b"-0.");
        assert_eq!(printf(r"%b|%c", &[r"x\0101\n", "hello"]).0, b"xA\n|h");
        let (out, errors) = printf("%d;", &["12", "nope"]);
        assert_eq!(out, b"12;0;");
        assert_eq!(errors, ["printf: invalid number 'nope'"]);
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
    fn a_toolbox_without_printf_says_not_found() {
        let (_, h) = test_screen::handset("android9");
        h.set_printf(false);
        let mut io = TestIo::default();
        let ending = Shell::new(&h, &mut io).run(r"printf '\101\102'; which printf");
        assert_eq!(ending, Ending::Exit(1));
        assert!(io.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&io.stderr),
            "/system/bin/sh: printf: inaccessible or not found\n"
        );
    }

    #[test]
    fn atoi_reads_decimal_only_like_toybox() {
        assert_eq!(atoi("57"), 57);
        assert_eq!(atoi("-1"), -1);
        assert_eq!(atoi("0x39"), 0);
        assert_eq!(atoi("ffffffff"), 0);
        assert_eq!(atoi("12abc"), 12);
    }

    #[test]
    fn dd_sizes_accept_suffixes() {
        assert_eq!(parse_size("24"), Some(24));
        assert_eq!(parse_size("4k"), Some(4096));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("99999999999999999M"), None);
    }
}
