//! The handset's own tests, and the dot screen the device layer's tests drive.

/// A tiny screen for the device layer's own tests: white, with a black dot at every tap.
pub(crate) mod test_screen {
    use super::*;

    pub struct DotScreen {
        pub size: Size,
        pub taps: Vec<Point>,
    }

    impl DotScreen {
        pub fn new(width: u32, height: u32) -> Self {
            DotScreen {
                size: Size::new(width, height),
                taps: Vec::new(),
            }
        }
    }

    impl Screen for DotScreen {
        fn size(&self) -> Size {
            self.size
        }
        fn render(&mut self) -> RgbaImage {
            let mut img = RgbaImage::from_pixel(
                self.size.width,
                self.size.height,
                image::Rgba([255, 255, 255, 255]),
            );
            for p in &self.taps {
                img.put_pixel(p.x, p.y, image::Rgba([0, 0, 0, 255]));
            }
            img
        }
        fn tap(&mut self, at: Point) {
            self.taps.push(at);
        }
    }

    pub fn handset(preset: &str) -> (Arc<Mutex<DotScreen>>, Handset) {
        let screen = Arc::new(Mutex::new(DotScreen::new(1080, 2340)));
        let config = HandsetConfig {
            latency: Latency::named(preset).unwrap(),
            ..HandsetConfig::default()
        };
        let h = Handset::new(screen.clone(), config);
        (screen, h)
    }
}

use super::*;
use test_screen::handset;

#[test]
fn raw_touchscreen_records_become_taps_on_the_screen() {
    let (screen, h) = handset("android9");
    let records: Vec<u8> = touch::tap_events(Point::new(200, 300), h.size(), 1)
        .into_iter()
        .flat_map(|e| e.to_record())
        .collect();
    h.write_input(touch::TOUCHSCREEN, &records).unwrap();
    assert_eq!(screen.lock().unwrap().taps, vec![Point::new(200, 300)]);
    assert_eq!(h.taps()[0].source, TapSource::RawEvents);
}

#[test]
fn android12_refuses_input_device_writes() {
    let (_, h) = handset("android12");
    let rec = EvdevEvent::new(0, 0, 0).to_record();
    assert_eq!(
        h.write_input(touch::TOUCHSCREEN, &rec),
        Err(InputWriteError::PermissionDenied)
    );
}

#[test]
fn a_partial_record_is_an_invalid_argument() {
    let (_, h) = handset("android9");
    assert_eq!(
        h.write_input(touch::TOUCHSCREEN, &[0; 10]),
        Err(InputWriteError::InvalidArgument)
    );
    assert_eq!(
        h.write_input(touch::TOUCHSCREEN, &[0; 30]),
        Err(InputWriteError::InvalidArgument)
    );
}

#[test]
fn the_clock_charges_input_commands_and_screenshots_per_preset() {
    let (_, h) = handset("android9");
    h.input_command().unwrap();
    h.tap(Point::new(1, 1), TapSource::InputTap).unwrap();
    let after_tap = h.clock();
    assert!(after_tap >= Duration::from_millis(300) && after_tap < Duration::from_millis(317));
    h.screencap(true).unwrap();
    assert_eq!(h.clock() - after_tap, Duration::from_millis(700));
    let (_, fast) = handset("instant");
    fast.input_command().unwrap();
    fast.tap(Point::new(1, 1), TapSource::InputTap).unwrap();
    fast.screencap(true).unwrap();
    assert_eq!(fast.clock(), Duration::ZERO);
}

#[test]
fn raw_screencap_has_a_16_byte_header_and_rgba_rows() {
    let (_, h) = handset("instant");
    let raw = h.screencap(false).unwrap();
    assert_eq!(raw.len(), 16 + 1080 * 2340 * 4);
    assert_eq!(
        &raw[..16],
        &[0x38, 4, 0, 0, 0x24, 9, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    );
}

#[test]
fn framebuffer_reply_has_the_v2_header_adb_client_decodes() {
    let (_, h) = handset("instant");
    let fb = h.framebuffer().unwrap();
    let words: Vec<u32> = fb[..56]
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(
        words,
        vec![
            2,
            32,
            1,
            1080 * 2340 * 4,
            1080,
            2340,
            0,
            8,
            16,
            8,
            8,
            8,
            24,
            8
        ]
    );
    assert_eq!(fb.len(), 56 + 1080 * 2340 * 4);
}

#[test]
fn the_png_is_re_rendered_only_after_a_tap() {
    let (_, h) = handset("instant");
    let a = h.frame_png();
    let b = h.frame_png();
    assert!(Arc::ptr_eq(&a, &b));
    h.tap(Point::new(5, 5), TapSource::InputTap).unwrap();
    let c = h.frame_png();
    assert!(!Arc::ptr_eq(&a, &c));
    let decoded = image::load_from_memory(&c).unwrap().to_rgba8();
    assert_eq!(decoded.get_pixel(5, 5).0, [0, 0, 0, 255]);
}

#[test]
fn the_drop_fault_fires_on_the_command_after_the_nth() {
    let screen = Arc::new(Mutex::new(test_screen::DotScreen::new(10, 10)));
    let h = Handset::new(
        screen,
        HandsetConfig {
            drop_after: Some(2),
            ..HandsetConfig::default()
        },
    );
    let fired = Arc::new(AtomicBool::new(false));
    let flag = fired.clone();
    h.set_on_vanish(move || flag.store(true, Ordering::SeqCst));
    assert!(h.begin_command_line("a").is_ok());
    assert!(h.begin_command_line("b").is_ok());
    assert_eq!(h.begin_command_line("c"), Err(Gone));
    assert!(fired.load(Ordering::SeqCst));
    assert_eq!(h.begin_command_line("d"), Err(Gone));
}
