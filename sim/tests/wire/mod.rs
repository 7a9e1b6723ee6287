//! The fake adbd's wire protocol fed random and truncated input (issue 14): the message and
//! shell-packet decoders and the OPEN parser never panic, and a running simulated phone fed
//! random, corrupted and cut-off packets over TCP neither panics (no `adbd-*` thread dies) nor
//! stops answering a well-formed CNXN. 256 cases per property (`PROPTEST_CASES` to change).

use proptest::prelude::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Once, OnceLock};
use std::time::Duration;
use sudoku_sim::adbd::{
    A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION_MIN, A_VERSION_SKIP_CHECKSUM, A_WRTE, Message,
    PacketDecoder, Service, shell_packet,
};
use sudoku_sim::{SimConfig, SimServer, Size, Skin, SudokuApp, puzzles};

use crate::support::proptest_config::config;

/// Panics on the phone's own threads (`adbd-accept`, `adbd-conn`, `adbd-stream`), counted by a
/// panic hook: they would otherwise die silently while the test thread carries on.
static PHONE_PANICS: AtomicUsize = AtomicUsize::new(0);

fn watch_phone_threads() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("adbd"))
            {
                PHONE_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// One phone for every case of this binary.
fn phone_port() -> u16 {
    static PHONE: OnceLock<SimServer<SudokuApp>> = OnceLock::new();
    PHONE
        .get_or_init(|| {
            let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
            let app = SudokuApp::new(puzzle, Skin::default(), Size::new(720, 1280)).unwrap();
            SimServer::start(app, SimConfig::default()).unwrap()
        })
        .port()
}

fn cnxn(version: u32) -> Message {
    Message::new(A_CNXN, version, 4096, b"host::\0".to_vec())
}

/// A message the host could send, or nonsense, encoded with or without its checksum.
fn message() -> impl Strategy<Value = Vec<u8>> {
    let command = prop_oneof![
        Just(A_CNXN),
        Just(A_OPEN),
        Just(A_OKAY),
        Just(A_WRTE),
        Just(A_CLSE),
        any::<u32>()
    ];
    let service = prop_oneof![
        Just(b"shell:echo hi\0".to_vec()),
        Just(b"shell,v2,raw:getprop ro.build.version.sdk\0".to_vec()),
        Just(b"shell,v2,raw:\0".to_vec()),
        Just(b"exec:screencap\0".to_vec()),
        Just(b"exec:cat\0".to_vec()),
        Just(b"framebuffer:\0".to_vec()),
        Just(b"sync:\0".to_vec()),
        prop::collection::vec(any::<u8>(), 0..64),
    ];
    let payload = prop_oneof![
        service,
        prop::collection::vec(any::<u8>(), 0..64).prop_map(|d| shell_packet(0, &d)),
        prop::collection::vec(any::<u8>(), 0..300),
    ];
    (
        command,
        prop_oneof![Just(1u32), Just(0), any::<u32>()],
        prop_oneof![Just(1u32), Just(0), any::<u32>()],
        payload,
        any::<bool>(),
    )
        .prop_map(|(command, arg0, arg1, payload, checksum)| {
            Message::new(command, arg0, arg1, payload).encode(checksum)
        })
}

/// A session: usually a CNXN first, then messages, some bytes flipped, maybe cut anywhere.
fn session() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![
            Just(Some(A_VERSION_MIN)),
            Just(Some(A_VERSION_SKIP_CHECKSUM)),
            Just(None)
        ],
        prop::collection::vec(message(), 0..8),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        prop::option::of(any::<prop::sample::Index>()),
    )
        .prop_map(|(version, messages, flips, cut)| {
            let mut bytes = version.map_or(Vec::new(), |v| cnxn(v).encode(true));
            bytes.extend(messages.concat());
            if !bytes.is_empty() {
                for (at, b) in flips {
                    let i = at.index(bytes.len());
                    bytes[i] ^= b;
                }
                if let Some(cut) = cut {
                    bytes.truncate(cut.index(bytes.len()));
                }
            }
            bytes
        })
}

/// Connects, sends a CNXN and reads the phone's CNXN back.
fn phone_answers_cnxn(port: u16) -> bool {
    let Ok(mut tcp) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    tcp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    if tcp.write_all(&cnxn(A_VERSION_MIN).encode(true)).is_err() {
        return false;
    }
    matches!(Message::read_from(&mut tcp, true), Ok(m) if m.command == A_CNXN)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reading_a_message_from_any_bytes_never_panics(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        verify in any::<bool>()
    ) {
        let mut r = &bytes[..];
        while Message::read_from(&mut r, verify).is_ok() {}
    }

    #[test]
    fn encoded_messages_read_back_and_cut_ones_are_refused(
        bytes in message(),
        cut in any::<prop::sample::Index>()
    ) {
        let back = Message::read_from(&mut &bytes[..], false).unwrap();
        prop_assert_eq!(back.encode(false)[..16].to_vec(), bytes[..16].to_vec());
        let short = &bytes[..cut.index(bytes.len())];
        prop_assert!(Message::read_from(&mut &short[..], false).is_err());
    }

    #[test]
    fn shell_packets_split_anywhere_decode_whole_and_garbage_never_panics(
        packets in prop::collection::vec((0u8..6, prop::collection::vec(any::<u8>(), 0..40)), 0..6),
        split in any::<prop::sample::Index>(),
        garbage in prop::collection::vec(any::<u8>(), 0..64)
    ) {
        let stream: Vec<u8> = packets.iter().flat_map(|(id, d)| shell_packet(*id, d)).collect();
        let at = split.index(stream.len() + 1);
        let mut decoder = PacketDecoder::default();
        let mut got = decoder.push(&stream[..at]);
        got.extend(decoder.push(&stream[at..]));
        prop_assert_eq!(got, packets);
        let _ = PacketDecoder::default().push(&garbage);
        let _ = Service::parse(&garbage);
    }

    #[test]
    fn the_phone_survives_random_and_truncated_packets(bytes in session()) {
        watch_phone_threads();
        let port = phone_port();
        let mut tcp = TcpStream::connect(("127.0.0.1", port)).unwrap();
        tcp.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
        let _ = tcp.write_all(&bytes);
        let _ = tcp.shutdown(std::net::Shutdown::Write);
        // Drain what the phone answers until it closes or goes quiet; either is fine.
        let mut sink = [0u8; 4096];
        while matches!(tcp.read(&mut sink), Ok(n) if n > 0) {}
        drop(tcp);
        prop_assert!(phone_answers_cnxn(port), "the phone stopped answering CNXN");
        prop_assert_eq!(PHONE_PANICS.load(Ordering::SeqCst), 0, "a phone thread panicked");
    }
}
