//! `--device` values: which kind of phone to open, as plain data (`app` does the opening).

use std::path::PathBuf;

/// `adb[:SERIAL]` | `sim[:SKIN]` | `file:PNG`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum DeviceSpec {
    /// A phone through the adb server; `None` = `-s`, `ANDROID_SERIAL` or the only one attached.
    #[default]
    Adb,
    /// A phone through the adb server, chosen by serial.
    AdbSerial(String),
    /// The simulated phone, in-process, with an optional skin name.
    Sim(Option<String>),
    /// A screenshot file: screenshots return it, taps are recorded, nothing is touched.
    File(PathBuf),
}

impl std::str::FromStr for DeviceSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, arg) = match s.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (s, None),
        };
        let usage = || {
            format!(
                "'{s}' is not a device: use adb, adb:SERIAL, sim, sim:SKIN or file:SCREENSHOT.png"
            )
        };
        match (kind, arg) {
            ("adb", None) => Ok(DeviceSpec::Adb),
            // Serials of network devices contain a colon themselves (`127.0.0.1:5555`).
            ("adb", Some(serial)) if !serial.is_empty() => {
                Ok(DeviceSpec::AdbSerial(serial.to_string()))
            }
            ("sim", None) => Ok(DeviceSpec::Sim(None)),
            ("sim", Some(skin)) if !skin.is_empty() => Ok(DeviceSpec::Sim(Some(skin.to_string()))),
            ("file", Some(path)) if !path.is_empty() => Ok(DeviceSpec::File(PathBuf::from(path))),
            _ => Err(usage()),
        }
    }
}

impl std::fmt::Display for DeviceSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceSpec::Adb => f.write_str("adb"),
            DeviceSpec::AdbSerial(s) => write!(f, "adb:{s}"),
            DeviceSpec::Sim(None) => f.write_str("sim"),
            DeviceSpec::Sim(Some(skin)) => write!(f, "sim:{skin}"),
            DeviceSpec::File(p) => write!(f, "file:{}", p.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_specs_parse_and_print_back() {
        for (text, spec) in [
            ("adb", DeviceSpec::Adb),
            (
                "adb:127.0.0.1:55551",
                DeviceSpec::AdbSerial("127.0.0.1:55551".into()),
            ),
            ("sim", DeviceSpec::Sim(None)),
            ("sim:dark", DeviceSpec::Sim(Some("dark".into()))),
            (
                "file:shots/a b.png",
                DeviceSpec::File("shots/a b.png".into()),
            ),
        ] {
            assert_eq!(text.parse::<DeviceSpec>(), Ok(spec.clone()));
            assert_eq!(spec.to_string(), text);
        }
    }

    #[test]
    fn bad_device_specs_say_what_is_accepted() {
        for bad in ["", "phone", "file", "file:", "adb:", "usb:123"] {
            let err = bad.parse::<DeviceSpec>().unwrap_err();
            assert!(err.contains("adb:SERIAL"), "{bad}: {err}");
        }
    }
}
