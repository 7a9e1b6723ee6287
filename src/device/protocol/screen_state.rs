//! Whether the phone's screen is on, dark or showing the lock screen, from what Android prints:
//! `dumpsys power` (the wakefulness, else the display power state) and `dumpsys window policy`
//! (the keyguard). Pure parsing; the adb device runs [`COMMAND`]. Anything not understood reads
//! as [`ScreenState::On`]: a phone whose dumpsys we cannot read is never blocked (a dark
//! screenshot is still caught by its pixels, `device::is_black`).
//!
//! The fields are the ones Appium's adb lock management reads (appium-adb `lockmgmt`:
//! `mShowingLockscreen`/`mDreamingLockscreen`, `KeyguardStateMonitor mIsShowing` with
//! `mInputRestricted`, `screenState=SCREEN_STATE_OFF`, `mWakefulness`/`getWakefulnessLocked()`),
//! plus the `KeyguardServiceDelegate` block AOSP's `PhoneWindowManager` prints from Android 6 on.

/// One shell command for both dumps, split at [`SEPARATOR`] (one round trip per check).
pub const COMMAND: &str = "dumpsys power; echo __sudoku_agent_window__; dumpsys window policy";
/// The line between the two dumps in the output of [`COMMAND`].
pub const SEPARATOR: &str = "__sudoku_agent_window__";

/// What the phone's screen shows, as far as what a run must do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenState {
    /// Awake and not locked (or not understood: never block a phone we cannot read).
    On,
    /// Asleep, dozing (always-on display) or dreaming (screen saver): wake it.
    Off,
    /// Awake with the lock screen in front: only the user can unlock it.
    Locked,
}

/// The state from the output of [`COMMAND`]; text without the separator is read as the power
/// dump alone.
pub fn from_output(text: &str) -> ScreenState {
    let (power, window) = match text.split_once(SEPARATOR) {
        Some((power, window)) => (power, window),
        None => (text, ""),
    };
    screen_state(power, window)
}

/// The state from `dumpsys power` and `dumpsys window policy`: dark first (a lock screen behind
/// a dark screen is seen once it is woken), then the keyguard.
pub fn screen_state(power: &str, window: &str) -> ScreenState {
    if screen_off(power).unwrap_or(false) || window_says_off(window) {
        ScreenState::Off
    } else if keyguard_showing(window) {
        ScreenState::Locked
    } else {
        ScreenState::On
    }
}

/// Whether `dumpsys power` says the screen is dark; `None` when it says neither. The
/// wakefulness wins (`mWakefulness=` up to Android 11, `mWakefulnessRaw=` from 12, Samsung's
/// `getWakefulnessLocked()=`, some ROMs print its number: 0 asleep, 1 awake, 2 dreaming,
/// 3 dozing, `PowerManagerInternal.WAKEFULNESS_*`), else `Display Power: state=`.
pub fn screen_off(power: &str) -> Option<bool> {
    const KEYS: [&str; 3] = ["mWakefulness", "mWakefulnessRaw", "getWakefulnessLocked()"];
    let wakefulness = power.lines().find_map(|line| {
        let (key, value) = line.trim().split_once('=')?;
        KEYS.contains(&key).then(|| value.trim())
    });
    if let Some(value) = wakefulness {
        match value {
            "Awake" | "1" => return Some(false),
            "Asleep" | "Dozing" | "Dreaming" | "0" | "2" | "3" => return Some(true),
            _ => {}
        }
    }
    let display = power
        .lines()
        .find_map(|line| line.trim().strip_prefix("Display Power: state="))?;
    match display.trim() {
        s if s.starts_with("ON") => Some(false),
        s if s == "OFF" || s.starts_with("DOZE") => Some(true),
        _ => None,
    }
}

/// The keyguard's own record of a dark screen (`screenState=SCREEN_STATE_OFF`).
fn window_says_off(window: &str) -> bool {
    tokens(window).any(|t| t == "screenState=SCREEN_STATE_OFF")
}

/// Whether `dumpsys window policy` shows the lock screen in front. An occluded keyguard (an
/// app shown over it) is not in front: the foreground check deals with that app.
pub fn keyguard_showing(window: &str) -> bool {
    let delegate = block(window, "KeyguardServiceDelegate");
    let monitor = block(window, "KeyguardStateMonitor");
    let occluded = tokens(window).any(|t| t == "mKeyguardOccluded=true")
        || delegate.iter().any(|l| l == &"occluded=true");
    if occluded {
        return false;
    }
    // Older policy dumps put these on shared lines: `mShowingDream=false mDreamingLockscreen=true`.
    let flagged = tokens(window).any(|t| {
        matches!(
            t,
            "mShowingLockscreen=true" | "mDreamingLockscreen=true" | "isStatusBarKeyguard=true"
        )
    });
    // Line-exact, so `showingAndNotOccluded=true` (true even when unlocked) never counts.
    let delegate_showing = delegate.iter().any(|l| l == &"showing=true");
    let monitor_showing = monitor.iter().any(|l| l == &"mIsShowing=true")
        && monitor.iter().any(|l| l == &"mInputRestricted=true");
    flagged || delegate_showing || monitor_showing
}

/// Whitespace-separated words of `text`.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace()
}

/// The trimmed lines indented under the first line that is exactly `header` (with an optional
/// trailing ` state:` or `:`), up to the first line indented no deeper than it.
fn block<'a>(text: &'a str, header: &str) -> Vec<&'a str> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut lines = text.lines();
    let Some(head) = lines.by_ref().find(|l| {
        let t = l.trim().trim_end_matches(':');
        t == header || t.strip_suffix(" state") == Some(header)
    }) else {
        return Vec::new();
    };
    let depth = indent(head);
    lines
        .take_while(|l| l.trim().is_empty() || indent(l) > depth)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dumpsys power` of an awake Android 9 phone (the lines around the wakefulness).
    const POWER_9_AWAKE: &str = "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  Settings power_manager_constants:\n    no_cached_wake_locks=true\n  mDirty=0x0\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mBatteryLevel=87\n  mDisplayReady=true\n  mHoldingWakeLockSuspendBlocker=true\n  mHoldingDisplaySuspendBlocker=true\n\nDisplay Power: state=ON\n";
    /// The same phone asleep.
    const POWER_9_ASLEEP: &str = "Power Manager State:\n  mDirty=0x0\n  mWakefulness=Asleep\n  mWakefulnessChanging=false\n  mIsPowered=false\n\nDisplay Power: state=OFF\n";
    /// An always-on display (Android 12+ prints the raw wakefulness).
    const POWER_13_DOZING: &str = "Power Manager State:\n  mDirty=0x0\n  mWakefulnessRaw=Dozing\n  mWakefulnessChanging=false\n  mIsPowered=false\n\nDisplay Power: state=DOZE_SUSPEND\n";

    /// `dumpsys window policy` of an unlocked Android 9 phone (its keyguard lines).
    const POLICY_9_UNLOCKED: &str = "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mAwake=truemScreenOnEarly=true mScreenOnFully=true\n    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n    mShowingDream=false mDreamingLockscreen=false mDreamingSleepToken=null\n    mStatusBar=Window{78e4362 u0 StatusBar} isStatusBarKeyguard=false\n    mTopIsFullscreen=false mKeyguardOccluded=false\n    KeyguardServiceDelegate\n      showing=false\n      showingAndNotOccluded=true\n      inputRestricted=false\n      occluded=false\n      secure=false\n      dreaming=false\n      systemIsReady=true\n      deviceHasKeyguard=true\n      enabled=true\n      offReason=0\n      currentUser=-10000\n      bootCompleted=true\n      screenState=SCREEN_STATE_ON\n      interactiveState=INTERACTIVE_STATE_WAKING\n      KeyguardStateMonitor\n        mIsShowing=false\n        mSimSecure=false\n        mInputRestricted=false\n        mTrusted=false\n        mCurrentUserId=0\n    Looper state:\n";
    /// The same phone at its lock screen.
    const POLICY_9_LOCKED: &str = "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mShowingDream=false mDreamingLockscreen=true mDreamingSleepToken=null\n    mStatusBar=Window{78e4362 u0 StatusBar} isStatusBarKeyguard=true\n    mTopIsFullscreen=false mKeyguardOccluded=false\n    KeyguardServiceDelegate\n      showing=true\n      showingAndNotOccluded=true\n      inputRestricted=true\n      occluded=false\n      secure=true\n      screenState=SCREEN_STATE_ON\n      interactiveState=INTERACTIVE_STATE_AWAKE\n      KeyguardStateMonitor\n        mIsShowing=true\n        mSimSecure=false\n        mInputRestricted=true\n        mTrusted=false\n        mCurrentUserId=0\n";
    /// Android 13: the keyguard only in its delegate and monitor blocks.
    const POLICY_13_LOCKED: &str = "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mSafeMode=false mSystemReady=true mSystemBooted=true\n    KeyguardServiceDelegate\n      showing=true\n      showingAndNotOccluded=true\n      inputRestricted=true\n      occluded=false\n      secure=true\n      dreaming=false\n      screenState=SCREEN_STATE_ON\n      interactiveState=INTERACTIVE_STATE_AWAKE\n      KeyguardStateMonitor\n        mIsShowing=true\n        mSimSecure=false\n        mInputRestricted=true\n        mTrusted=false\n        mCurrentUserId=0\n";
    /// Android 6: the policy's own `mShowingLockscreen`.
    const POLICY_6_LOCKED: &str = "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mShowingLockscreen=true mShowingDream=false mDreamingLockscreen=false\n    mStatusBar=Window{2a1b3c u0 StatusBar} isStatusBarKeyguard=true\n";
    /// HyperOS/MIUI: `KeyguardServiceDelegate state:` header.
    const POLICY_HYPEROS_LOCKED: &str = "KeyguardServiceDelegate\n  showing=true\n  showingAndNotOccluded=true\n  screenState=SCREEN_STATE_ON\n  interactiveState=INTERACTIVE_STATE_AWAKE\n  KeyguardStateMonitor\n    mIsShowing=true\n";

    #[test]
    fn an_awake_unlocked_android_9_phone_is_on() {
        assert_eq!(screen_off(POWER_9_AWAKE), Some(false));
        assert!(!keyguard_showing(POLICY_9_UNLOCKED));
        assert_eq!(
            screen_state(POWER_9_AWAKE, POLICY_9_UNLOCKED),
            ScreenState::On
        );
    }

    #[test]
    fn asleep_dozing_and_dreaming_phones_are_off_even_in_front_of_a_lock_screen() {
        assert_eq!(
            screen_state(POWER_9_ASLEEP, POLICY_9_LOCKED),
            ScreenState::Off
        );
        assert_eq!(screen_state(POWER_13_DOZING, ""), ScreenState::Off);
        assert_eq!(
            screen_state("  mWakefulness=Dreaming\n", ""),
            ScreenState::Off
        );
    }

    #[test]
    fn samsungs_wakefulness_line_and_its_numeric_form_are_read() {
        assert_eq!(screen_off("  getWakefulnessLocked()=Awake\n"), Some(false));
        assert_eq!(screen_off("  getWakefulnessLocked()=Asleep\n"), Some(true));
        assert_eq!(screen_off("getWakefulnessLocked()=1\r\n"), Some(false));
        assert_eq!(screen_off("getWakefulnessLocked()=3\r\n"), Some(true));
    }

    #[test]
    fn without_a_wakefulness_the_display_power_state_decides() {
        assert_eq!(screen_off("Display Power: state=OFF\n"), Some(true));
        assert_eq!(screen_off("Display Power: state=DOZE\n"), Some(true));
        assert_eq!(screen_off("Display Power: state=ON\n"), Some(false));
        assert_eq!(screen_off("Display Power: state=VR\n"), None);
    }

    #[test]
    fn lock_screens_of_android_6_9_13_and_hyperos_are_locked() {
        for policy in [
            POLICY_6_LOCKED,
            POLICY_9_LOCKED,
            POLICY_13_LOCKED,
            POLICY_HYPEROS_LOCKED,
        ] {
            assert_eq!(
                screen_state(POWER_9_AWAKE, policy),
                ScreenState::Locked,
                "{policy}"
            );
        }
    }

    #[test]
    fn showing_and_not_occluded_alone_is_not_a_lock_screen() {
        let text = "    KeyguardServiceDelegate\n      showing=false\n      showingAndNotOccluded=true\n      occluded=false\n";
        assert!(!keyguard_showing(text));
    }

    #[test]
    fn an_app_shown_over_the_keyguard_is_not_a_lock_screen() {
        let occluded = POLICY_13_LOCKED.replace("occluded=false", "occluded=true");
        assert!(!keyguard_showing(&occluded));
        let policy = "    mTopIsFullscreen=true mKeyguardOccluded=true\n    mStatusBar=Window{1 u0 StatusBar} isStatusBarKeyguard=true\n";
        assert!(!keyguard_showing(policy));
    }

    #[test]
    fn the_monitor_counts_only_with_input_restricted_as_appium_reads_it() {
        let swipe_only =
            "      KeyguardStateMonitor\n        mIsShowing=true\n        mInputRestricted=false\n";
        assert!(!keyguard_showing(swipe_only));
        let restricted = swipe_only.replace("mInputRestricted=false", "mInputRestricted=true");
        assert!(keyguard_showing(&restricted));
    }

    #[test]
    fn the_keyguards_screen_off_record_reads_as_off() {
        let policy = POLICY_9_UNLOCKED.replace("SCREEN_STATE_ON", "SCREEN_STATE_OFF");
        assert_eq!(screen_state("", &policy), ScreenState::Off);
    }

    #[test]
    fn dumps_we_cannot_read_leave_the_phone_on() {
        assert_eq!(
            screen_state(
                "Can't find service: power\n",
                "Can't find service: window\n"
            ),
            ScreenState::On
        );
        assert_eq!(screen_state("", ""), ScreenState::On);
        assert_eq!(screen_off("  mWakefulness=Sideways\n"), None);
    }

    #[test]
    fn the_combined_command_output_is_split_at_its_separator() {
        let text = format!("{POWER_9_AWAKE}{SEPARATOR}\n{POLICY_13_LOCKED}");
        assert_eq!(from_output(&text), ScreenState::Locked);
        assert_eq!(from_output(POWER_9_ASLEEP), ScreenState::Off);
        assert!(COMMAND.contains(SEPARATOR));
    }
}
