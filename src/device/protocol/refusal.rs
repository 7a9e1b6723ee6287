//! Android refusing injected input, from what it prints, and what to turn on for each maker.
//! Pure: the adb device decides when to look, this says whether a text is a refusal and what
//! advice fits the phone (`ro.product.manufacturer` and `ro.product.brand`).
//!
//! What a refusal looks like (the shell user has lost INJECT_EVENTS):
//! * Android 10 `input keyevent` on a Xiaomi (DeviceFarmer/STFService.apk#144):
//!   `java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission`
//! * Android 13 on a POCO or Xiaomi 13 Pro (Genymobile/scrcpy#3824, #3764): `Caused by:
//!   java.lang.SecurityException: Injecting input events requires the caller (or the source of
//!   the instrumentation, if any) to have the INJECT_EVENTS permission.`
//! * `cmd input` from Android 12 prints `Exception occurred while executing 'tap':` before it.

/// Whether `text` (a command's stdout and stderr, or the injector's line) is Android refusing
/// injected input.
pub fn is_input_refusal(text: &str) -> bool {
    text.contains("INJECT_EVENTS")
        || (text.contains("SecurityException") && text.to_ascii_lowercase().contains("inject"))
}

/// The phone makers whose own setting lets USB debugging inject input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Maker {
    /// Xiaomi, Redmi, POCO (MIUI, HyperOS).
    Xiaomi,
    /// OPPO, realme, OnePlus (ColorOS, realme UI, OxygenOS).
    Oppo,
    /// Any other: the advice names both known settings.
    Other,
}

impl Maker {
    /// The maker from `ro.product.manufacturer` and `ro.product.brand` (either may be empty).
    pub fn of(manufacturer: &str, brand: &str) -> Maker {
        let names = [manufacturer, brand].map(|s| s.trim().to_ascii_lowercase());
        let is = |list: &[&str]| names.iter().any(|n| list.contains(&n.as_str()));
        if is(&["xiaomi", "redmi", "poco"]) {
            Maker::Xiaomi
        } else if is(&["oppo", "realme", "oneplus"]) {
            Maker::Oppo
        } else {
            Maker::Other
        }
    }
}

/// What to turn on so the phone takes injected taps, as the end of one line.
///
/// * Xiaomi, Redmi, POCO: Developer options > "USB debugging (Security settings)", then a
///   reboot (scrcpy's README prerequisites and FAQ; Genymobile/scrcpy#70, #3975, #5032;
///   wangshub/wechat_jump_game#139: MIUI split it off "USB debugging" and it limits simulated
///   touches).
/// * OPPO, realme, OnePlus: Developer options > "Disable permission monitoring", then USB
///   debugging off and on again (appium/appium-desktop#1265 on a Realme C3, RikkaApps/Shizuku#374
///   on a realme GT 2 Pro, joaomgcd/Tasker-Permissions#21 on a OnePlus: it takes effect only
///   after USB debugging is re-enabled); newer ColorOS replaced it with "Disable system
///   optimization" (RikkaApps/websites#7174, OnePlus 15, ColorOS 16).
///
/// Huawei, Honor and vivo phones refuse too (an Honor in badabing2005/PixelFlasher#137), but no
/// setting that fixes it for input is on record, so they get the general advice.
pub fn advice(maker: Maker) -> String {
    const XIAOMI: &str = "in Developer options turn on \"USB debugging (Security settings)\" (Xiaomi, Redmi and POCO phones need it to simulate input) and reboot the phone";
    const OPPO: &str = "in Developer options turn on \"Disable permission monitoring\" (\"Disable system optimization\" on newer ColorOS), then turn USB debugging off and on again";
    match maker {
        Maker::Xiaomi => format!("{XIAOMI}, then run again"),
        Maker::Oppo => format!("{OPPO}, then run again"),
        Maker::Other => "in Developer options turn on the setting that lets USB debugging simulate input (\"USB debugging (Security settings)\" on Xiaomi, Redmi and POCO; \"Disable permission monitoring\" on OPPO, realme and OnePlus), reboot the phone, then run again".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_of_android_10_and_13_and_cmd_input_are_recognised() {
        let android10 = "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n\tat android.os.Parcel.createException(Parcel.java:2075)\n";
        let android13 = "Caused by: java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.\n";
        let cmd_input = "Exception occurred while executing 'tap':\njava.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n";
        for text in [android10, android13, cmd_input] {
            assert!(is_input_refusal(text), "{text}");
        }
    }

    #[test]
    fn other_failures_are_not_refusals() {
        assert!(!is_input_refusal(
            "Error: Invalid arguments for command: tap\n"
        ));
        assert!(!is_input_refusal(
            "java.lang.SecurityException: uid 2000 does not have android.permission.WRITE_SECURE_SETTINGS.\n"
        ));
        assert!(!is_input_refusal(""));
    }

    #[test]
    fn the_maker_comes_from_the_manufacturer_or_the_brand() {
        assert_eq!(Maker::of("Xiaomi", "Redmi"), Maker::Xiaomi);
        assert_eq!(Maker::of("Xiaomi", "POCO"), Maker::Xiaomi);
        assert_eq!(Maker::of("", "poco"), Maker::Xiaomi);
        assert_eq!(Maker::of("OPPO", "OPPO"), Maker::Oppo);
        assert_eq!(Maker::of("realme", "realme"), Maker::Oppo);
        assert_eq!(Maker::of("OnePlus", "OnePlus"), Maker::Oppo);
        assert_eq!(Maker::of("samsung", "samsung"), Maker::Other);
        assert_eq!(Maker::of("", ""), Maker::Other);
    }

    #[test]
    fn each_makers_advice_names_its_setting_and_the_general_one_names_both() {
        assert!(advice(Maker::Xiaomi).contains("\"USB debugging (Security settings)\""));
        assert!(!advice(Maker::Xiaomi).contains("permission monitoring"));
        assert!(advice(Maker::Oppo).contains("\"Disable permission monitoring\""));
        let other = advice(Maker::Other);
        assert!(
            other.contains("\"USB debugging (Security settings)\""),
            "{other}"
        );
        assert!(
            other.contains("\"Disable permission monitoring\""),
            "{other}"
        );
        assert!(other.ends_with("then run again"));
    }
}
