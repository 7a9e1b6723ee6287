//! Bad screenshot files and out-of-range flags through the real binary (issue 34 item 8): each
//! ends with exit code 2 and one line saying what the file or the flag is and what to pass.

use crate::support;
use std::path::{Path, PathBuf};

/// A real 64x64 PNG, as the image crate writes it.
fn small_png() -> Vec<u8> {
    let mut png = Vec::new();
    image::RgbaImage::from_fn(64, 64, |x, y| {
        image::Rgba([x as u8 * 4, y as u8 * 4, 9, 255])
    })
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .unwrap();
    png
}

/// Every command that takes a screenshot file, given `file` (scratch files go to `dir`).
fn commands_on(file: &Path, dir: &Path) -> Vec<Vec<String>> {
    let f = file.display().to_string();
    let out = |name: &str| dir.join(name).display().to_string();
    [
        vec!["read", "--image", &f],
        vec!["calibrate", "--image", &f, "--out", &out("c.toml")],
        vec!["visualize", "--gif", &out("s.gif"), "--image", &f],
        vec!["play", "--device", &format!("file:{f}")],
        vec!["read", "--device", &format!("file:{f}")],
    ]
    .iter()
    .map(|c| c.iter().map(|s| s.to_string()).collect())
    .collect()
}

#[test]
fn a_huge_a_truncated_or_a_random_file_exits_2_with_one_line_saying_what_it_is() {
    let dir = support::temp_dir("bad-screenshots");
    let png = small_png();
    // The header says 2^31 x 2^31 (its checksum no longer matches: the size is refused first).
    let mut huge = png.clone();
    huge[16..24].copy_from_slice(&[0x80, 0, 0, 0, 0x80, 0, 0, 0]);
    let noise: Vec<u8> = (0..2000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let cases: [(&str, &[u8], String); 3] = [
        (
            "huge.png",
            &huge,
            "is a PNG image of 2147483648x2147483648 pixels, larger than any phone screen".into(),
        ),
        (
            "cut.png",
            &png[..png.len() / 2],
            format!(
                "is a PNG image cut short (the file ends after {} bytes",
                png.len() / 2
            ),
        ),
        (
            "noise.png",
            &noise,
            "is not a PNG or JPEG image (its first bytes are 00 9e 3c da".into(),
        ),
    ];
    for (name, bytes, says) in cases {
        let path: PathBuf = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        for args in commands_on(&path, &dir) {
            let (code, _, err) = support::outcome(support::agent().args(&args));
            assert_eq!(code, 2, "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.starts_with(&format!("error: {} {says}", path.display()))
                    && err
                        .trim_end()
                        .ends_with("`adb exec-out screencap -p > shot.png`"),
                "{args:?}: {err}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_flag_out_of_its_range_exits_2_saying_what_it_is_and_what_to_pass() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["visualize", "--check-every", "0"],
            "--check-every is the number of moves replayed between two reads of the screen: pass a whole number, 1 or more",
        ),
        (
            &["visualize", "--check-every", "-5"],
            "--check-every is the number of moves replayed",
        ),
        (
            &["devices", "-P", "0"],
            "-P/--adb-port is the port of the adb server (adb's default is 5037): pass a number from 1 to 65535",
        ),
        (&["devices", "-P", "65536"], "pass a number from 1 to 65535"),
        (
            &["play", "--wait", "-3"],
            "--wait is how long to wait for an ad or a dialog over the board to be closed: pass a number of seconds, 0 or more",
        ),
        (&["play", "--wait", "NaN"], "--wait is how long to wait"),
    ];
    for (args, says) in cases {
        let (code, _, err) = support::outcome(support::agent().args(args));
        assert_eq!(code, 2, "{args:?}: {err}");
        // One line from us; clap adds only its pointer to --help after a blank line.
        let mut lines = err.lines().filter(|l| !l.is_empty());
        let first = lines.next().unwrap_or_default();
        assert!(
            first.starts_with("error: invalid value") && first.contains(says),
            "{args:?}: {err}"
        );
        assert!(
            lines.all(|l| l.starts_with("For more information")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("ANDROID_ADB_SERVER_PORT"), "{args:?}: {err}");
    }
}
