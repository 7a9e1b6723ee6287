//! The fake adbd's wire protocol: the 24-byte message codec, the CNXN handshake (no AUTH, no
//! STLS), byte-sum checksums, stop-and-wait WRTE/OKAY flow control per stream, shell protocol v2
//! packets, and the parsing of the service strings hosts OPEN. Every TCP connection gets its own
//! thread and one send lock (messages of different streams never interleave); every stream runs
//! its service on its own thread. What a service *does* lives behind the `Services` trait; this
//! module only moves bytes, byte-exact with `adb` 29.0.6 and adb_client 3.2.3
//! (see `notes/adb-protocol.md` section 3).

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub const A_CNXN: u32 = 0x4e58_4e43;
pub const A_AUTH: u32 = 0x4854_5541;
pub const A_OPEN: u32 = 0x4e45_504f;
pub const A_OKAY: u32 = 0x5941_4b4f;
pub const A_CLSE: u32 = 0x4553_4c43;
pub const A_WRTE: u32 = 0x4554_5257;
pub const A_STLS: u32 = 0x534c_5453;

pub const A_VERSION_MIN: u32 = 0x0100_0000;
/// From this version on, neither side sends payload checksums.
pub const A_VERSION_SKIP_CHECKSUM: u32 = 0x0100_0001;
/// Largest payload we accept and announce (adb's MAX_PAYLOAD).
pub const MAX_PAYLOAD: usize = 1 << 20;
pub const HEADER_SIZE: usize = 24;

/// Features announced in our banner: `shell_v2` and `cmd` make both hosts use shell protocol v2.
/// `delayed_ack` is deliberately absent: classic stop-and-wait applies.
pub const FEATURES: &str = "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,fixed_push_symlink_timestamp,abb_exec,remount_shell";

/// One protocol message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub command: u32,
    pub arg0: u32,
    pub arg1: u32,
    pub payload: Vec<u8>,
}

/// Why a message could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error("connection closed")]
    Closed,
    #[error("bad magic {magic:#010x} for command {command:#010x}")]
    BadMagic { command: u32, magic: u32 },
    #[error("payload of {0} bytes exceeds the {MAX_PAYLOAD}-byte limit")]
    TooLong(usize),
    #[error("payload checksum {got:#x}, expected {expected:#x}")]
    BadChecksum { expected: u32, got: u32 },
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// The payload checksum adb calls "crc32": the unsigned sum of all payload bytes.
pub fn checksum(data: &[u8]) -> u32 {
    data.iter().fold(0u32, |sum, &b| sum.wrapping_add(b as u32))
}

impl Message {
    pub fn new(command: u32, arg0: u32, arg1: u32, payload: impl Into<Vec<u8>>) -> Self {
        Message {
            command,
            arg0,
            arg1,
            payload: payload.into(),
        }
    }

    /// Header and payload in one buffer, so that one `write()` sends the whole message (two
    /// writes would make the peer's delayed ACK stall every small message).
    pub fn encode(&self, with_checksum: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_SIZE + self.payload.len());
        let check = if with_checksum {
            checksum(&self.payload)
        } else {
            0
        };
        for word in [
            self.command,
            self.arg0,
            self.arg1,
            self.payload.len() as u32,
            check,
            self.command ^ 0xffff_ffff,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.payload);
        out
    }

    /// Reads one message. `verify_checksum` is true while the negotiated version still carries
    /// checksums (before CNXN, and with adb_client, which announces 0x01000000).
    pub fn read_from(r: &mut impl Read, verify_checksum: bool) -> Result<Message, WireError> {
        let mut header = [0u8; HEADER_SIZE];
        read_exact_or_closed(r, &mut header)?;
        let word = |i: usize| u32::from_le_bytes(header[i * 4..i * 4 + 4].try_into().unwrap());
        let (command, arg0, arg1, len, check, magic) =
            (word(0), word(1), word(2), word(3), word(4), word(5));
        if magic != command ^ 0xffff_ffff {
            return Err(WireError::BadMagic { command, magic });
        }
        let len = len as usize;
        if len > MAX_PAYLOAD {
            return Err(WireError::TooLong(len));
        }
        let mut payload = vec![0u8; len];
        read_exact_or_closed(r, &mut payload)?;
        if verify_checksum && checksum(&payload) != check {
            return Err(WireError::BadChecksum {
                expected: checksum(&payload),
                got: check,
            });
        }
        Ok(Message {
            command,
            arg0,
            arg1,
            payload,
        })
    }
}

fn read_exact_or_closed(r: &mut impl Read, buf: &mut [u8]) -> Result<(), WireError> {
    match r.read_exact(buf) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(WireError::Closed),
        Err(e) => Err(WireError::Io(e)),
    }
}

/// Shell protocol v2 packet ids.
pub mod packet {
    pub const STDIN: u8 = 0;
    pub const STDOUT: u8 = 1;
    pub const STDERR: u8 = 2;
    pub const EXIT: u8 = 3;
    pub const CLOSE_STDIN: u8 = 4;
    pub const WINDOW_SIZE: u8 = 5;
}

/// One shell v2 packet: `[id u8][len u32 LE][data]`.
pub fn shell_packet(id: u8, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(5 + data.len());
    out.push(id);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    out
}

/// Splits a byte stream into shell v2 packets; packets need not align with WRTE payloads.
#[derive(Debug, Default)]
pub struct PacketDecoder {
    buf: Vec<u8>,
}

impl PacketDecoder {
    /// Adds bytes and returns every packet completed by them.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
        self.buf.extend_from_slice(bytes);
        let mut packets = Vec::new();
        loop {
            if self.buf.len() < 5 {
                break;
            }
            let len = u32::from_le_bytes(self.buf[1..5].try_into().unwrap()) as usize;
            if self.buf.len() < 5 + len {
                break;
            }
            let data = self.buf[5..5 + len].to_vec();
            packets.push((self.buf[0], data));
            self.buf.drain(..5 + len);
        }
        packets
    }
}

/// A service as the host names it in OPEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Service {
    /// `shell[,args]:command`; `v2` when the args list it; `pty` when they ask for one, or by
    /// default for an empty command (an interactive login). An empty command is interactive.
    Shell {
        v2: bool,
        pty: bool,
        command: String,
    },
    /// `exec:command`: raw bytes both ways, no exit status.
    Exec(String),
    /// `framebuffer:`: header plus raw pixels.
    Framebuffer,
    /// Anything else (refused with CLSE).
    Other(String),
}

impl Service {
    /// Parses an OPEN payload (trailing NULs stripped).
    pub fn parse(open: &[u8]) -> Service {
        let end = open.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        let text = String::from_utf8_lossy(&open[..end]).into_owned();
        if let Some(command) = text.strip_prefix("exec:") {
            return Service::Exec(command.to_string());
        }
        if text == "framebuffer:" {
            return Service::Framebuffer;
        }
        if let Some(rest) = text.strip_prefix("shell")
            && let Some((args, command)) = rest.split_once(':')
            && (args.is_empty() || args.starts_with(','))
        {
            let has = |flag: &str| args.split(',').any(|a| a == flag);
            let pty = has("pty") || (command.is_empty() && !has("raw"));
            return Service::Shell {
                v2: has("v2"),
                pty,
                command: command.to_string(),
            };
        }
        Service::Other(text)
    }
}

/// What the device does with a stream. `accepts` is asked on OPEN (false -> CLSE); `serve` then
/// runs on the stream's own thread and the stream is closed when it returns.
pub trait Services: Send + Sync + 'static {
    /// The device's CNXN banner (`device::ro.product.name=..;features=..`).
    fn banner(&self) -> String;
    fn accepts(&self, service: &Service) -> bool;
    fn serve(&self, service: Service, stream: &mut Stream);
    /// Serves a quick request that needs no input from the host right on the connection's
    /// thread, returning the whole reply (sent in WRTEs as the host acknowledges them, then CLSE).
    /// `None` sends it to `serve` on a thread of its own. Saves a thread hop per short command.
    fn serve_inline(&self, _service: &Service) -> Option<Inline> {
        None
    }
}

/// The outcome of `Services::serve_inline`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Reply(Vec<u8>),
    /// The device vanished while serving: drop the connection without a reply.
    Vanished,
}

/// The state one TCP connection shares between its reader thread and its stream threads.
struct Connection {
    /// The send lock: one whole message per `write_all`.
    writer: Mutex<TcpStream>,
    max_payload: AtomicUsize,
    send_checksum: AtomicBool,
    streams: Mutex<HashMap<u32, StreamSlot>>,
    next_id: AtomicU32,
    /// The device's freeze switch (shared by all its connections): see `AdbdRemote::freeze`.
    frozen: Arc<AtomicBool>,
}

/// The reader thread's handle on one open stream.
struct StreamSlot {
    remote: u32,
    acks: Sender<()>,
    input: Sender<Vec<u8>>,
    /// An inline reply still to send, one chunk per host OKAY (see `Services::serve_inline`).
    outbox: Option<std::collections::VecDeque<Vec<u8>>>,
}

impl Connection {
    fn send(&self, msg: &Message) -> io::Result<()> {
        if self.frozen.load(Ordering::SeqCst) {
            // A frozen phone says nothing, yet keeps the connection open.
            return Ok(());
        }
        let bytes = msg.encode(self.send_checksum.load(Ordering::Relaxed));
        self.writer.lock().unwrap().write_all(&bytes)
    }

    fn shutdown(&self) {
        let _ = self.writer.lock().unwrap().shutdown(Shutdown::Both);
    }
}

/// One open stream, as its service sees it: a byte pipe to the host.
pub struct Stream {
    conn: Arc<Connection>,
    local: u32,
    remote: u32,
    acks: Receiver<()>,
    input: Receiver<Vec<u8>>,
    closed: bool,
}

impl Stream {
    /// Sends `data` in WRTEs no larger than the host's maxdata, each acknowledged before the
    /// next. Fails when the host closed the stream or the connection.
    pub fn write(&mut self, data: &[u8]) -> io::Result<()> {
        let max = self.conn.max_payload.load(Ordering::Relaxed).max(1);
        for chunk in data.chunks(max) {
            self.conn
                .send(&Message::new(A_WRTE, self.local, self.remote, chunk))?;
            self.acks
                .recv()
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stream closed by host"))?;
        }
        Ok(())
    }

    /// The next WRTE payload from the host; `None` once it closed the stream.
    pub fn read_chunk(&mut self) -> Option<Vec<u8>> {
        self.input.recv().ok()
    }

    /// Drops the whole TCP connection at once, like a cable pulled mid-command.
    pub fn drop_connection(&self) {
        self.conn.shutdown();
    }

    /// Sends CLSE (once), unless the host closed the stream first.
    pub fn close(&mut self) {
        if self.closed {
            return;
        }
        self.closed = true;
        let still_open = self.conn.streams.lock().unwrap().remove(&self.local);
        if still_open.is_some() {
            let _ = self
                .conn
                .send(&Message::new(A_CLSE, self.local, self.remote, Vec::new()));
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.close();
    }
}

/// The listening fake adbd: accepts connections until stopped or made to vanish.
pub struct Adbd {
    port: u16,
    shared: Arc<Listening>,
    accept_thread: Option<JoinHandle<()>>,
}

struct Listening {
    stopped: AtomicBool,
    frozen: Arc<AtomicBool>,
    connections: Mutex<Vec<Arc<Connection>>>,
}

impl Adbd {
    /// Serves `services` on `listener` (already bound, normally on 127.0.0.1).
    pub fn serve(listener: TcpListener, services: Arc<dyn Services>) -> io::Result<Adbd> {
        let port = listener.local_addr()?.port();
        let shared = Arc::new(Listening {
            stopped: AtomicBool::new(false),
            frozen: Arc::new(AtomicBool::new(false)),
            connections: Mutex::new(Vec::new()),
        });
        let accepting = shared.clone();
        let accept_thread = std::thread::Builder::new()
            .name(format!("adbd-accept-{port}"))
            .spawn(move || accept_loop(listener, accepting, services))?;
        Ok(Adbd {
            port,
            shared,
            accept_thread: Some(accept_thread),
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Closes every connection and stops listening: to the host, the device has vanished.
    pub fn vanish(&self) {
        self.remote().vanish();
    }

    /// A handle that can make the device vanish from another thread.
    pub fn remote(&self) -> AdbdRemote {
        AdbdRemote {
            port: self.port,
            shared: self.shared.clone(),
        }
    }

    /// Stops the device and waits for the accept thread to end.
    pub fn stop(&mut self) {
        self.vanish();
        if let Some(t) = self.accept_thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Adbd {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Makes a running `Adbd` vanish (see `Adbd::vanish`).
#[derive(Clone)]
pub struct AdbdRemote {
    port: u16,
    shared: Arc<Listening>,
}

impl AdbdRemote {
    /// Freezes the device: from now on it reads and ignores everything the host sends and
    /// answers nothing, while every connection stays open (a hung phone, not a pulled cable).
    pub fn freeze(&self) {
        self.shared.frozen.store(true, Ordering::SeqCst);
    }

    pub fn is_frozen(&self) -> bool {
        self.shared.frozen.load(Ordering::SeqCst)
    }

    pub fn vanish(&self) {
        if self.shared.stopped.swap(true, Ordering::SeqCst) {
            return;
        }
        // Wake the blocking accept so the listener is dropped (the port then refuses).
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        for conn in self.shared.connections.lock().unwrap().drain(..) {
            conn.shutdown();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Listening>, services: Arc<dyn Services>) {
    for incoming in listener.incoming() {
        if shared.stopped.load(Ordering::SeqCst) {
            break;
        }
        let Ok(tcp) = incoming else { continue };
        let _ = tcp.set_nodelay(true);
        let Ok(writer) = tcp.try_clone() else {
            continue;
        };
        let conn = Arc::new(Connection {
            writer: Mutex::new(writer),
            max_payload: AtomicUsize::new(4096),
            send_checksum: AtomicBool::new(true),
            streams: Mutex::new(HashMap::new()),
            next_id: AtomicU32::new(1),
            frozen: shared.frozen.clone(),
        });
        shared.connections.lock().unwrap().push(conn.clone());
        let services = services.clone();
        let registry = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("adbd-conn".into())
            .spawn(move || {
                if let Err(e) = run_connection(tcp, &conn, &services) {
                    log::debug!("adbd connection ended: {e}");
                }
                conn.shutdown();
                // Dropping the slots unblocks every stream thread still waiting on the host.
                conn.streams.lock().unwrap().clear();
                registry
                    .connections
                    .lock()
                    .unwrap()
                    .retain(|c| !Arc::ptr_eq(c, &conn));
            });
        if spawned.is_err() {
            log::warn!("adbd: could not start a connection thread");
        }
    }
}

fn run_connection(
    tcp: TcpStream,
    conn: &Arc<Connection>,
    services: &Arc<dyn Services>,
) -> Result<(), WireError> {
    let mut reader = io::BufReader::with_capacity(64 * 1024, tcp);
    let mut verify_checksum = true;
    let mut connected = false;
    loop {
        let msg = Message::read_from(&mut reader, verify_checksum)?;
        if conn.frozen.load(Ordering::SeqCst) {
            continue;
        }
        match msg.command {
            A_CNXN => {
                let version = msg.arg0.min(A_VERSION_SKIP_CHECKSUM);
                let skip = version >= A_VERSION_SKIP_CHECKSUM;
                verify_checksum = !skip;
                conn.max_payload
                    .store((msg.arg1 as usize).clamp(1, MAX_PAYLOAD), Ordering::Relaxed);
                // The CNXN itself always carries the sum, which every host accepts.
                conn.send_checksum.store(true, Ordering::Relaxed);
                let mut banner = services.banner().into_bytes();
                banner.push(0);
                conn.send(&Message::new(
                    A_CNXN,
                    A_VERSION_SKIP_CHECKSUM,
                    MAX_PAYLOAD as u32,
                    banner,
                ))?;
                conn.send_checksum.store(!skip, Ordering::Relaxed);
                connected = true;
            }
            A_OPEN if connected => open_stream(conn, services, msg)?,
            A_OKAY => {
                let mut streams = conn.streams.lock().unwrap();
                let Some(slot) = streams.get_mut(&msg.arg1) else {
                    continue;
                };
                let remote = slot.remote;
                match slot.outbox.as_mut().map(|o| o.pop_front()) {
                    None => {
                        let _ = slot.acks.send(());
                    }
                    Some(Some(chunk)) => {
                        drop(streams);
                        conn.send(&Message::new(A_WRTE, msg.arg1, remote, chunk))?;
                    }
                    Some(None) => {
                        streams.remove(&msg.arg1);
                        drop(streams);
                        conn.send(&Message::new(A_CLSE, msg.arg1, remote, Vec::new()))?;
                    }
                }
            }
            A_WRTE => {
                let remote = {
                    let streams = conn.streams.lock().unwrap();
                    streams.get(&msg.arg1).map(|slot| {
                        let _ = slot.input.send(msg.payload);
                        slot.remote
                    })
                };
                if let Some(remote) = remote {
                    conn.send(&Message::new(A_OKAY, msg.arg1, remote, Vec::new()))?;
                }
            }
            A_CLSE => {
                conn.streams.lock().unwrap().remove(&msg.arg1);
            }
            // AUTH is never asked for, STLS never offered; anything else is ignored like adbd.
            _ => {}
        }
    }
}

fn open_stream(
    conn: &Arc<Connection>,
    services: &Arc<dyn Services>,
    msg: Message,
) -> Result<(), WireError> {
    let remote = msg.arg0;
    let service = Service::parse(&msg.payload);
    if remote == 0 || !services.accepts(&service) {
        log::debug!("adbd: refused service {service:?}");
        conn.send(&Message::new(A_CLSE, 0, remote, Vec::new()))?;
        return Ok(());
    }
    log::debug!("adbd: OPEN {service:?}");
    let local = conn.next_id.fetch_add(1, Ordering::Relaxed);
    let (ack_tx, ack_rx) = mpsc::channel();
    let (in_tx, in_rx) = mpsc::channel();
    // The stream's slot, holding the inline reply still to send when there is one.
    let register = |outbox| {
        let slot = StreamSlot {
            remote,
            acks: ack_tx,
            input: in_tx,
            outbox,
        };
        conn.streams.lock().unwrap().insert(local, slot);
    };
    if let Some(inline) = services.serve_inline(&service) {
        let Inline::Reply(reply) = inline else {
            conn.shutdown();
            return Err(WireError::Closed);
        };
        conn.send(&Message::new(A_OKAY, local, remote, Vec::new()))?;
        let max = conn.max_payload.load(Ordering::Relaxed).max(1);
        let mut outbox: std::collections::VecDeque<Vec<u8>> =
            reply.chunks(max).map(<[u8]>::to_vec).collect();
        let Some(first) = outbox.pop_front() else {
            conn.send(&Message::new(A_CLSE, local, remote, Vec::new()))?;
            return Ok(());
        };
        register(Some(outbox));
        conn.send(&Message::new(A_WRTE, local, remote, first))?;
        return Ok(());
    }
    register(None);
    conn.send(&Message::new(A_OKAY, local, remote, Vec::new()))?;
    let mut stream = Stream {
        conn: conn.clone(),
        local,
        remote,
        acks: ack_rx,
        input: in_rx,
        closed: false,
    };
    let services = services.clone();
    std::thread::Builder::new()
        .name(format!("adbd-stream-{local}"))
        .spawn(move || {
            services.serve(service, &mut stream);
            stream.close();
        })
        .map_err(WireError::Io)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adb_client_cnxn_encodes_byte_exact() {
        let msg = Message::new(A_CNXN, 0x0100_0000, 0x0010_0000, &b"host::adb_client\0"[..]);
        let bytes = msg.encode(true);
        assert_eq!(
            &bytes[..24],
            &[
                0x43, 0x4e, 0x58, 0x4e, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x10, 0x00, 0x11, 0x00,
                0x00, 0x00, 0x37, 0x06, 0x00, 0x00, 0xbc, 0xb1, 0xa7, 0xb1
            ]
        );
        assert_eq!(&bytes[24..], b"host::adb_client\0");
        let back = Message::read_from(&mut &bytes[..], true).unwrap();
        assert_eq!(back, msg);
    }

    #[test]
    fn checksum_is_skipped_when_asked_and_verified_otherwise() {
        let msg = Message::new(A_WRTE, 1, 2, &b"hi"[..]);
        let bytes = msg.encode(false);
        assert_eq!(&bytes[16..20], &[0, 0, 0, 0]);
        assert!(Message::read_from(&mut &bytes[..], false).is_ok());
        assert!(matches!(
            Message::read_from(&mut &bytes[..], true),
            Err(WireError::BadChecksum { .. })
        ));
    }

    #[test]
    fn bad_magic_and_oversized_payloads_are_rejected() {
        let mut bytes = Message::new(A_OKAY, 1, 2, Vec::new()).encode(true);
        bytes[20] ^= 1;
        assert!(matches!(
            Message::read_from(&mut &bytes[..], true),
            Err(WireError::BadMagic { .. })
        ));
        let mut bytes = Message::new(A_WRTE, 1, 2, Vec::new()).encode(true);
        bytes[12..16].copy_from_slice(&((MAX_PAYLOAD as u32) + 1).to_le_bytes());
        assert!(matches!(
            Message::read_from(&mut &bytes[..], true),
            Err(WireError::TooLong(_))
        ));
        assert!(matches!(
            Message::read_from(&mut &bytes[..3], true),
            Err(WireError::Closed)
        ));
    }

    #[test]
    fn shell_v2_packets_match_the_documented_bytes() {
        assert_eq!(
            shell_packet(packet::STDOUT, b"hi\n"),
            [0x01, 0x03, 0, 0, 0, 0x68, 0x69, 0x0a]
        );
        assert_eq!(shell_packet(packet::EXIT, &[0]), [0x03, 0x01, 0, 0, 0, 0]);
    }

    #[test]
    fn packet_decoder_reassembles_packets_split_across_writes() {
        let mut stream = shell_packet(packet::STDIN, b"input tap 1 2\n");
        stream.extend(shell_packet(packet::CLOSE_STDIN, b""));
        let mut d = PacketDecoder::default();
        let mut got = Vec::new();
        for piece in stream.chunks(3) {
            got.extend(d.push(piece));
        }
        assert_eq!(
            got,
            vec![
                (packet::STDIN, b"input tap 1 2\n".to_vec()),
                (packet::CLOSE_STDIN, Vec::new())
            ]
        );
    }

    #[test]
    fn services_are_parsed_from_the_open_string() {
        let shell = |v2, pty, command: &str| Service::Shell {
            v2,
            pty,
            command: command.into(),
        };
        let opens: [(&[u8], Service); 8] = [
            (
                b"shell,v2,TERM=xterm,raw:echo hi\0",
                shell(true, false, "echo hi"),
            ),
            (
                b"shell:input tap 1 2\0",
                shell(false, false, "input tap 1 2"),
            ),
            (b"shell,TERM=xterm,raw:\0", shell(false, false, "")),
            (
                b"shell,v2,TERM=xterm-256color,pty:\0",
                shell(true, true, ""),
            ),
            (
                b"exec:screencap '-p'\0",
                Service::Exec("screencap '-p'".into()),
            ),
            (b"framebuffer:\0", Service::Framebuffer),
            (b"sync:\0", Service::Other("sync:".into())),
            (b"shellfish:x", Service::Other("shellfish:x".into())),
        ];
        for (open, service) in opens {
            assert_eq!(Service::parse(open), service);
        }
    }

    /// Answers `exec:N` with N bytes of `x`; refuses everything else.
    struct Bytes;

    impl Services for Bytes {
        fn banner(&self) -> String {
            "device::ro.product.name=t;features=shell_v2".into()
        }
        fn accepts(&self, service: &Service) -> bool {
            matches!(service, Service::Exec(_))
        }
        fn serve(&self, service: Service, stream: &mut Stream) {
            if let Service::Exec(n) = service {
                let _ = stream.write(&vec![b'x'; n.parse().unwrap()]);
            }
        }
    }

    fn host() -> (Adbd, TcpStream) {
        let adbd = Adbd::serve(TcpListener::bind("127.0.0.1:0").unwrap(), Arc::new(Bytes)).unwrap();
        let tcp = TcpStream::connect(("127.0.0.1", adbd.port())).unwrap();
        tcp.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        (adbd, tcp)
    }

    fn send(tcp: &mut TcpStream, msg: Message) {
        tcp.write_all(&msg.encode(true)).unwrap();
    }

    fn recv(tcp: &mut TcpStream) -> Message {
        Message::read_from(tcp, false).unwrap()
    }

    /// The host's CNXN (`version`, `max_data`, `banner`), and the device's answer to it.
    fn handshake(tcp: &mut TcpStream, version: u32, max_data: u32, banner: &[u8]) -> Message {
        send(tcp, Message::new(A_CNXN, version, max_data, banner));
        recv(tcp)
    }

    #[test]
    fn the_device_answers_cnxn_then_serves_with_stop_and_wait_within_maxdata() {
        let (_adbd, mut tcp) = host();
        let cnxn = handshake(&mut tcp, A_VERSION_MIN, 4096, b"host::t\0");
        assert_eq!(
            (cnxn.command, cnxn.arg0, cnxn.arg1),
            (A_CNXN, A_VERSION_SKIP_CHECKSUM, 1 << 20)
        );
        assert!(cnxn.payload.starts_with(b"device::"));

        send(&mut tcp, Message::new(A_OPEN, 7, 0, &b"exec:10000\0"[..]));
        let okay = recv(&mut tcp);
        assert_eq!((okay.command, okay.arg1), (A_OKAY, 7));
        let local = okay.arg0;
        let mut got = 0;
        loop {
            let m = recv(&mut tcp);
            if m.command == A_CLSE {
                assert_eq!((m.arg0, m.arg1), (local, 7));
                break;
            }
            assert_eq!((m.command, m.arg0, m.arg1), (A_WRTE, local, 7));
            assert!(m.payload.len() <= 4096);
            got += m.payload.len();
            // Nothing more may arrive before our OKAY.
            tcp.set_read_timeout(Some(std::time::Duration::from_millis(50)))
                .unwrap();
            let mut probe = [0u8; 1];
            assert!(
                tcp.peek(&mut probe).is_err(),
                "a second WRTE came before OKAY"
            );
            tcp.set_read_timeout(Some(std::time::Duration::from_secs(5)))
                .unwrap();
            send(&mut tcp, Message::new(A_OKAY, 7, local, Vec::new()));
        }
        assert_eq!(got, 10000);
    }

    #[test]
    fn an_unknown_service_is_refused_with_clse() {
        let (_adbd, mut tcp) = host();
        handshake(&mut tcp, A_VERSION_SKIP_CHECKSUM, 1 << 20, b"host::\0");
        send(&mut tcp, Message::new(A_OPEN, 3, 0, &b"sync:\0"[..]));
        let m = recv(&mut tcp);
        assert_eq!((m.command, m.arg0, m.arg1), (A_CLSE, 0, 3));
    }

    #[test]
    fn vanish_closes_connections_and_the_port() {
        let (adbd, mut tcp) = host();
        handshake(&mut tcp, A_VERSION_MIN, 4096, b"host::\0");
        adbd.vanish();
        assert!(matches!(
            Message::read_from(&mut tcp, false),
            Err(WireError::Closed | WireError::Io(_))
        ));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(TcpStream::connect(("127.0.0.1", adbd.port())).is_err());
    }

    #[test]
    fn a_frozen_device_keeps_the_connection_open_and_answers_nothing() {
        let (adbd, mut tcp) = host();
        handshake(&mut tcp, A_VERSION_MIN, 4096, b"host::\0");
        adbd.remote().freeze();
        send(
            &mut tcp,
            Message::new(A_OPEN, 1, 0, &b"shell:echo hi\0"[..]),
        );
        tcp.set_read_timeout(Some(std::time::Duration::from_millis(300)))
            .unwrap();
        let mut byte = [0u8; 1];
        let err = std::io::Read::read(&mut tcp, &mut byte).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
            "a frozen device should stay silent with the socket open, got {err}"
        );
        assert!(adbd.remote().is_frozen());
    }
}
