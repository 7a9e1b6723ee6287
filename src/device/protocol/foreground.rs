//! Which app is on screen, from what Android prints: the package of the focused window
//! (`dumpsys window windows`: `mCurrentFocus=Window{hash u0 package/activity}`, `mFocusedApp=`)
//! or of the resumed activity (`dumpsys activity activities`: `mResumedActivity:`,
//! `ResumedActivity:`). Pure parsing; the adb device runs the commands.

/// The commands to ask, in order: the focused window first (answers on every Android version
/// we know), then the resumed activity.
pub const COMMANDS: [&str; 2] = ["dumpsys window windows", "dumpsys activity activities"];

/// The package of the app in front, when `dumpsys` names one. A focus line naming a system
/// window (`StatusBar`, `null`) gives nothing: the next line or command may tell.
pub fn focused_package(dumpsys: &str) -> Option<String> {
    const KEYS: [&str; 4] = [
        "mCurrentFocus=",
        "mFocusedApp=",
        "mResumedActivity:",
        "ResumedActivity:",
    ];
    KEYS.iter().find_map(|key| {
        dumpsys
            .lines()
            .filter_map(|line| line.trim().strip_prefix(key))
            .find_map(package_in)
    })
}

/// `package` of the first `package/activity` word in `text` (braces stripped).
fn package_in(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || c == '{' || c == '}')
        .filter_map(|word| word.split_once('/').map(|(p, _)| p))
        .find(|p| is_package(p))
        .map(str::to_string)
}

/// An Android package name: dot-separated segments of letters, digits and underscores, each
/// starting with a letter, at least two segments.
fn is_package(name: &str) -> bool {
    let segments: Vec<&str> = name.split('.').collect();
    segments.len() >= 2
        && segments.iter().all(|s| {
            s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_focused_window_names_the_package() {
        let text = "WINDOW MANAGER WINDOWS (dumpsys window windows)\n  Window #2 Window{e5f6a7b u0 com.example.sudoku/com.example.sudoku.MainActivity}:\n  mCurrentFocus=Window{e5f6a7b u0 com.example.sudoku/com.example.sudoku.MainActivity}\n  mFocusedApp=ActivityRecord{4d3c2b1 u0 com.example.sudoku/.MainActivity t12}\n";
        assert_eq!(focused_package(text).as_deref(), Some("com.example.sudoku"));
    }

    #[test]
    fn a_system_window_in_focus_falls_back_to_the_focused_app() {
        let text = "  mCurrentFocus=Window{a2b3c4d u0 StatusBar}\n  mFocusedApp=AppWindowToken{9f u0 ActivityRecord{4d3c2b1 u0 com.brain.sudoku/.Game t7}}\n";
        assert_eq!(focused_package(text).as_deref(), Some("com.brain.sudoku"));
        assert_eq!(focused_package("  mCurrentFocus=null\n"), None);
    }

    #[test]
    fn the_resumed_activity_names_the_package_in_old_and_new_forms() {
        let old = "    mResumedActivity: ActivityRecord{4d3c2b1 u0 app.sim.sudokufree/.MainActivity t12}\n";
        assert_eq!(focused_package(old).as_deref(), Some("app.sim.sudokufree"));
        let new =
            "  ResumedActivity: ActivityRecord{4d3c2b1 u0 org.games.su_doku/org.games.A t3}\n";
        assert_eq!(focused_package(new).as_deref(), Some("org.games.su_doku"));
        assert_eq!(focused_package("Can't find service: window\n"), None);
    }
}
