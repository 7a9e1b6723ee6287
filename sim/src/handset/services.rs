//! What the handset's system services answer about the phone: its properties (`getprop`), the
//! adb banner, and the `dumpsys` texts for windows, power, the keyguard policy and activities,
//! as real Android prints them, from the handset's state (awake, locked, the app in front).

use super::Handset;
use crate::geometry::Size;

const PRODUCT_NAME: &str = "simphone";
const PRODUCT_MODEL: &str = "SimPhone";
const PRODUCT_DEVICE: &str = "sim";

impl Handset {
    /// System properties (`getprop`), per preset.
    pub fn props(&self) -> Vec<(String, String)> {
        let l = &self.config.latency;
        let mut props = vec![
            ("ro.build.version.sdk", l.sdk.to_string()),
            ("ro.build.version.release", l.release.to_string()),
            (
                "ro.build.fingerprint",
                format!(
                    "sudoku-agent/simphone/sim:{}/SIM{}.1/1:user/release-keys",
                    l.release, l.sdk
                ),
            ),
            ("ro.build.type", "user".into()),
            ("ro.product.brand", "sudoku-agent".into()),
            ("ro.product.manufacturer", "sudoku-agent".into()),
            ("ro.product.model", PRODUCT_MODEL.into()),
            ("ro.product.name", PRODUCT_NAME.into()),
            ("ro.product.device", PRODUCT_DEVICE.into()),
            ("ro.product.cpu.abi", "arm64-v8a".into()),
            (
                "ro.product.cpu.abilist",
                "arm64-v8a,armeabi-v7a,armeabi".into(),
            ),
            ("ro.sf.lcd_density", self.density.to_string()),
            ("ro.secure", "1".into()),
            ("ro.debuggable", "0".into()),
            ("ro.adb.secure", "1".into()),
            ("sys.boot_completed", "1".into()),
            ("persist.sys.timezone", "UTC".into()),
        ];
        props.sort();
        props.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    pub fn prop(&self, key: &str) -> Option<String> {
        self.props()
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// `getprop` without arguments.
    pub fn all_props(&self) -> String {
        self.props()
            .iter()
            .map(|(k, v)| format!("[{k}]: [{v}]\n"))
            .collect()
    }

    /// The CNXN banner.
    pub fn banner(&self) -> String {
        format!(
            "device::ro.product.name={PRODUCT_NAME};ro.product.model={PRODUCT_MODEL};ro.product.device={PRODUCT_DEVICE};features={}",
            crate::adbd::FEATURES
        )
    }

    /// `dumpsys window`: the display section, with rotation as this Android version prints it
    /// (`mCurrentRotation=ROTATION_0` from Android 10, `mCurrentRotation=0` before).
    pub fn dumpsys_window(&self) -> String {
        let Size { width, height } = self.size;
        let d = self.density;
        let rotation = if self.config.latency.sdk >= 29 {
            "ROTATION_0"
        } else {
            "0"
        };
        format!(
            "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n    init={width}x{height} {d}dpi cur={width}x{height} app={width}x{height} rng={width}x{width}-{height}x{height}\n    deferred=false mLayoutNeeded=false\n  mLayoutSeq=42\n  mCurrentRotation={rotation}\n  mLastOrientation=1\n  mDisplayFrozen=false\n"
        )
    }

    /// `dumpsys power`: the lines that tell whether the screen is on, as Android prints them
    /// (`mWakefulness=Awake` or `Asleep`, `Display Power: state=ON` or `OFF`).
    pub fn dumpsys_power(&self) -> String {
        let awake = self.awake();
        let (wakefulness, display) = if awake {
            ("Awake", "ON")
        } else {
            ("Asleep", "OFF")
        };
        format!(
            "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness={wakefulness}\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mStayOn=false\n  mProximityPositive=false\n  mBootCompleted=true\n  mSystemReady=true\n  mHoldingDisplaySuspendBlocker={awake}\n\nDisplay Power: state={display}\n"
        )
    }

    /// `dumpsys window policy`: the keyguard's state as the window manager's policy prints it
    /// (`mShowingDream=false mDreamingLockscreen=...` and `isStatusBarKeyguard=...` up to Android
    /// 9, the `KeyguardServiceDelegate` block with `showing=...` from Android 10 on; both here).
    pub fn dumpsys_window_policy(&self) -> String {
        let locked = self.locked();
        let awake = self.awake();
        format!(
            "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mSafeMode=false mSystemReady=true mSystemBooted=true\n    mScreenOnEarly={awake} mScreenOnFully={awake}\n    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n    mShowingDream=false mDreamingLockscreen={locked} mDreamingSleepToken=null\n    isStatusBarKeyguard={locked} mKeyguardOccluded=false\n    KeyguardServiceDelegate\n      showing={locked}\n      showingAndNotOccluded={locked}\n      inputRestricted={locked}\n      occluded=false\n      secure=false\n      dreaming=false\n      systemIsReady=true\n      deviceHasKeyguard=true\n      enabled=true\n      interactiveState={}\n      screenState={}\n      currentUser=0\n",
            if awake {
                "INTERACTIVE_STATE_AWAKE"
            } else {
                "INTERACTIVE_STATE_SLEEP"
            },
            if awake {
                "SCREEN_STATE_ON"
            } else {
                "SCREEN_STATE_OFF"
            },
        )
    }

    /// `dumpsys window windows`: the window list ending with the focus lines, as Android prints
    /// them (`mCurrentFocus=Window{hash u0 package/activity}`, `mFocusedApp=ActivityRecord{...}`).
    pub fn dumpsys_windows(&self) -> String {
        let activity = self.screen.lock().unwrap().activity();
        // The keyguard has the focus while it shows (the shade window from Android 11).
        let focus = match (self.locked(), self.config.latency.sdk >= 30) {
            (true, true) => "NotificationShade".to_string(),
            (true, false) => "StatusBar".to_string(),
            (false, _) => activity.clone(),
        };
        format!(
            "WINDOW MANAGER WINDOWS (dumpsys window windows)\n  Window #0 Window{{7d1c2a9 u0 NavigationBar0}}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{{3f4e5d1 1204:u0a10112}}\n  Window #1 Window{{a2b3c4d u0 StatusBar}}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{{3f4e5d1 1204:u0a10112}}\n  Window #2 Window{{e5f6a7b u0 {activity}}}:\n    mDisplayId=0 rootTaskId=12 mSession=Session{{9c8b7a6 5120:u0a10245}}\n\n  mGlobalConfiguration={{1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h797dp 440dpi nrml port finger -keyb/v/h -nav/h}}\n  mHasPermanentDpad=false\n  mTopFocusedDisplayId=0\n  mCurrentFocus=Window{{e5f6a7b u0 {focus}}}\n  mFocusedApp=ActivityRecord{{4d3c2b1 u0 {activity} t12}}\n"
        )
    }

    /// `dumpsys activity activities`: the resumed activity lines (`mResumedActivity:` before
    /// Android 11, also `ResumedActivity:` from it).
    pub fn dumpsys_activities(&self) -> String {
        let activity = self.screen.lock().unwrap().activity();
        let resumed = if self.config.latency.sdk >= 30 {
            format!("  ResumedActivity: ActivityRecord{{4d3c2b1 u0 {activity} t12}}\n")
        } else {
            String::new()
        };
        format!(
            "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n  * Task{{6a5b4c3 #12 type=standard A=10245:{activity} U=0 visible=true}}\n    mResumedActivity: ActivityRecord{{4d3c2b1 u0 {activity} t12}}\n\n{resumed}"
        )
    }
}
