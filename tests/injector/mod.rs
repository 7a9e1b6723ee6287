//! The on-device injector (injector/), checked without a phone: the committed dex is exactly what
//! its smali source assembles to, and that dex, converted to a JVM jar by Debian's `enjarify`, runs
//! on the host JVM against stub `android.*` classes (injector/stubs/) that log every platform call
//! to stderr. The tests compare the protocol answers on stdout and the injected events exactly.
//!
//! Needs `smali` (libsmali-java), `enjarify`, `java` and `javac` (default-jdk-headless). Without
//! them the tests say so and pass, except under CI (`CI` set), where a missing tool is a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// Android's MotionEvent.getAction() values, as the stubs print them.
const DOWN: u32 = 0;
const UP: u32 = 1;
const MOVE: u32 = 2;
const CANCEL: u32 = 3;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// Whether the tools these tests shell out to are installed; says which are missing (a panic under CI).
fn tools_present() -> bool {
    let mut missing: Vec<&str> = ["enjarify", "java", "javac"]
        .into_iter()
        .filter(|tool| !on_path(tool))
        .collect();
    if !on_path("smali") && !Path::new("/usr/share/java/smali.jar").is_file() {
        missing.push("smali");
    }
    if missing.is_empty() {
        return true;
    }
    let message = format!(
        "need {}: apt-get install -y libsmali-java enjarify default-jdk-headless",
        missing.join(", ")
    );
    if std::env::var_os("CI").is_some() {
        panic!("injector tests {message} (CI must run them)");
    }
    // Straight to stderr: the test harness captures eprintln! of passing tests.
    let _ = writeln!(std::io::stderr(), "SKIPPED injector tests: {message}");
    false
}

fn run(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} runs: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Built once per test binary: the injector as a jar, and the stub classes per Android generation.
struct Rig {
    dir: PathBuf,
    jar: PathBuf,
}

impl Rig {
    fn get() -> Option<&'static Rig> {
        static RIG: OnceLock<Option<Rig>> = OnceLock::new();
        RIG.get_or_init(|| tools_present().then(Rig::build))
            .as_ref()
    }

    fn build() -> Rig {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("injector-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let jar = dir.join("injector.jar");
        let mut enjarify = Command::new("enjarify");
        // Debian's wrapper takes the first python3 on PATH, which may lack Debian's packages.
        if Path::new("/usr/bin/python3").is_file() {
            enjarify.env("PYTHON", "/usr/bin/python3");
        }
        run(enjarify
            .arg("--force")
            .arg("--output")
            .arg(&jar)
            .arg(repo().join("injector/injector.dex")));
        for api in ["api13", "api14"] {
            let stubs = repo().join("injector/stubs");
            let mut sources = Vec::new();
            for root in [stubs.join("common"), stubs.join(api)] {
                java_files(&root, &mut sources);
            }
            run(Command::new("javac")
                .arg("-nowarn")
                .arg("-d")
                .arg(dir.join(api))
                .args(&sources));
        }
        Rig { dir, jar }
    }

    /// Runs the injector on `api`'s stubs with `input` on stdin and `props` as -D system properties.
    fn session(&self, api: &str, props: &[&str], input: &str) -> Session {
        let classpath = format!("{}:{}", self.jar.display(), self.dir.join(api).display());
        // The injector may exit before reading everything (a refusal): `fed` takes a broken pipe.
        let output = crate::support::fed(
            Command::new("java")
                .args(props.iter().map(|p| format!("-D{p}")))
                .arg("-cp")
                .arg(classpath)
                .arg("sudokuagent.Injector"),
            input,
        );
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        Session {
            code: output.status.code(),
            answers: text(&output.stdout).lines().map(str::to_owned).collect(),
            calls: text(&output.stderr).lines().map(str::to_owned).collect(),
        }
    }
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            java_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
}

struct Session {
    code: Option<i32>,
    /// The injector's stdout, line by line.
    answers: Vec<String>,
    /// Every platform call the stubs saw, in order (stderr).
    calls: Vec<String>,
}

impl Session {
    fn injected(&self) -> Vec<&str> {
        self.calls
            .iter()
            .filter(|l| l.starts_with("inject "))
            .map(String::as_str)
            .collect()
    }
}

/// The line the stubs print for one event injected the way `input tap` builds it.
fn event(manager: &str, action: u32, x: f32, y: f32, down: u64, time: u64) -> String {
    let pressure = if action == UP || action == CANCEL {
        0.0
    } else {
        1.0
    };
    format!(
        "inject {manager} mode=2 action={action} x={x:?} y={y:?} down={down} time={time} \
         pressure={pressure:?} size=1.0 meta=0 precision=1.0,1.0 device=0 edge=0 source=0x1002"
    )
}

/// Every platform call of a session that is one tap at (`x`, `y`) held `hold` ms through
/// `manager`, from the injector's first event at time 1000.
fn lone_tap(manager: &str, x: f32, y: f32, hold: u64) -> Vec<String> {
    vec![
        "prepareMainLooper".to_owned(),
        format!("getInstance {manager}"),
        event(manager, DOWN, x, y, 1000, 1000),
        format!("sleep {hold}"),
        event(manager, UP, x, y, 1000, 1000 + hold),
    ]
}

#[test]
fn assembling_the_smali_source_gives_exactly_the_committed_dex() {
    if Rig::get().is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("injector-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fresh = dir.join("injector.dex");
    run(Command::new(repo().join("injector/build.sh")).arg(&fresh));
    let committed = std::fs::read(repo().join("injector/injector.dex")).unwrap();
    assert!(
        std::fs::read(&fresh).unwrap() == committed,
        "injector/injector.dex is stale: run injector/build.sh and commit the result"
    );
}

#[test]
fn a_tap_on_android_13_is_a_down_and_an_up_through_input_manager_held_for_the_asked_time() {
    let Some(rig) = Rig::get() else { return };
    let s = rig.session("api13", &[], "tap 100 200 40\nsync 1\n");
    assert_eq!(
        s.answers,
        [
            "ready 1 android.hardware.input.InputManager",
            "ok",
            "sync 1"
        ]
    );
    assert_eq!(s.calls, lone_tap("InputManager", 100.0, 200.0, 40));
    assert_eq!(s.code, Some(0), "exits when stdin closes");
}

#[test]
fn on_android_14_the_injector_uses_input_manager_global_and_never_input_manager() {
    let Some(rig) = Rig::get() else { return };
    let s = rig.session("api14", &[], "tap 5 6\n");
    assert_eq!(
        s.answers,
        ["ready 1 android.hardware.input.InputManagerGlobal", "ok"]
    );
    assert_eq!(s.calls, lone_tap("InputManagerGlobal", 5.0, 6.0, 0));
    assert_eq!(s.code, Some(0));
}

#[test]
fn a_hold_is_one_gesture_whose_events_all_carry_the_time_of_its_down() {
    let Some(rig) = Rig::get() else { return };
    let s = rig.session(
        "api14",
        &[],
        "tap 1 1 10\ndown 10 20\nsleep 30\nmove 15 25\nup 15 26\ntap 7.5 8 0\n",
    );
    assert_eq!(s.answers[1..], ["ok", "ok", "ok", "ok", "ok", "ok"]);
    let m = "InputManagerGlobal";
    assert_eq!(
        s.injected(),
        [
            event(m, DOWN, 1.0, 1.0, 1000, 1000),
            event(m, UP, 1.0, 1.0, 1000, 1010),
            event(m, DOWN, 10.0, 20.0, 1010, 1010),
            event(m, MOVE, 15.0, 25.0, 1010, 1040),
            event(m, UP, 15.0, 26.0, 1010, 1040),
            event(m, DOWN, 7.5, 8.0, 1040, 1040),
            event(m, UP, 7.5, 8.0, 1040, 1040),
        ]
    );
}

#[test]
fn closing_stdin_with_a_finger_down_cancels_the_gesture_and_exits() {
    let Some(rig) = Rig::get() else { return };
    let s = rig.session("api13", &[], "down 3 4\nmove 5 6\n");
    assert_eq!(s.answers[1..], ["ok", "ok"]);
    let m = "InputManager";
    assert_eq!(
        s.injected(),
        [
            event(m, DOWN, 3.0, 4.0, 1000, 1000),
            event(m, MOVE, 5.0, 6.0, 1000, 1000),
            event(m, CANCEL, 5.0, 6.0, 1000, 1000),
        ]
    );
    assert_eq!(s.code, Some(0));
}

#[test]
fn malformed_or_out_of_order_commands_are_answered_bad_and_inject_nothing() {
    let Some(rig) = Rig::get() else { return };
    let input = "fly\nmove 1 2\nup 1 2\ntap x 2\ntap 1 2 -5\ntap 1\nsync\n\
                 sleep -1\nsleep\ndown 1 2\ndown 3 4\ntap 5 6\n";
    let s = rig.session("api13", &[], input);
    assert_eq!(
        s.answers[1..],
        [
            "bad unknown command: fly",
            "bad no touch is down: move 1 2",
            "bad no touch is down: up 1 2",
            "bad not a number: tap x 2",
            "bad negative hold: tap 1 2 -5",
            "bad wrong number of fields: tap 1",
            "bad wrong number of fields: sync",
            "bad negative sleep: sleep -1",
            "bad wrong number of fields: sleep",
            "ok",
            "bad a touch is already down: down 3 4",
            "bad a touch is already down: tap 5 6",
        ]
    );
    let m = "InputManager";
    assert_eq!(
        s.injected(),
        [
            event(m, DOWN, 1.0, 2.0, 1000, 1000),
            event(m, CANCEL, 1.0, 2.0, 1000, 1000),
        ],
        "only the one valid down, cancelled at the end"
    );
}

#[test]
fn a_refusal_is_one_line_saying_what_to_enable_and_the_injector_exits() {
    let Some(rig) = Rig::get() else { return };
    let s = rig.session("api14", &["stub.refuse=1"], "tap 1 2\ntap 3 4\nsync 9\n");
    assert_eq!(
        s.answers.len(),
        2,
        "ready, then the refusal only: {:?}",
        s.answers
    );
    let refusal = &s.answers[1];
    assert!(refusal.starts_with("refused "), "{refusal}");
    assert!(
        refusal.contains("INJECT_EVENTS"),
        "names the cause: {refusal}"
    );
    assert!(
        refusal.contains("\"USB debugging (Security settings)\"") && refusal.contains("reboot"),
        "says what to do: {refusal}"
    );
    assert!(s.injected().is_empty());
    assert_eq!(s.code, Some(2));
}

#[test]
fn an_event_android_does_not_deliver_is_reported_and_the_injector_keeps_going() {
    let Some(rig) = Rig::get() else { return };
    let s = rig.session("api13", &["stub.undelivered=1"], "tap 1 2\nsync 3\n");
    assert_eq!(
        s.answers[1..],
        [
            "fail Android did not deliver the event (injectInputEvent returned false)",
            "sync 3"
        ]
    );
    assert_eq!(
        s.injected().len(),
        1,
        "no UP after a DOWN that was not delivered"
    );
    assert_eq!(s.code, Some(0));
}

#[test]
fn without_an_input_manager_the_injector_says_so_in_one_line_and_exits() {
    let Some(rig) = Rig::get() else { return };
    // Only the injector on the class path: no android.hardware.input at all.
    let out = Command::new("java")
        .arg("-cp")
        .arg(&rig.jar)
        .arg("sudokuagent.Injector")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("error cannot reach Android's input manager: "),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
}
