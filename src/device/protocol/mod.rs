//! What the phone and sudoku-agent say to each other, without the link that carries it: parsers
//! for what a phone prints (`parse`: screen size, rotation, touchscreen, raw screenshots, exit
//! status markers; `foreground`: the app in front; `screen_state`: screen on, off or locked;
//! `refusal`: Android refusing injected input, and the setting per maker), the input encodings
//! that turn taps into shell lines or raw events (`input`, with the shared `input_kind` and
//! `pacing`), the injector's line protocol (`injector`) and shell quoting (`shell_line`). Pure: no I/O anywhere below here, and
//! every function is tested byte for byte on literal inputs. The adb plumbing that sends and
//! receives these bytes is `device::adb`, kept apart as scrcpy keeps its parsers apart.

pub mod foreground;
pub mod injector;
pub mod input;
pub mod input_kind;
pub mod pacing;
pub mod parse;
pub mod refusal;
pub mod screen_state;
pub mod shell_line;
