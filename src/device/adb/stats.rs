//! What an `AdbDevice` has cost: counts of shell commands, sessions, streamed lines, screenshots
//! and taps, for benchmarks and `-v` output. A leaf every adb file may count into.

/// Counters for benchmarks and `-v` output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdbStats {
    /// `shell_command` calls (each one adb round trip).
    pub shell_commands: u64,
    /// Long-lived shell sessions opened.
    pub sessions: u64,
    /// Lines run in long-lived shells (pipelined, not one round trip each).
    pub stream_lines: u64,
    pub screenshots: u64,
    pub taps: u64,
}

impl AdbStats {
    /// Requests that waited for the phone's answer: one per shell command, one per session
    /// opened (lines in a session are pipelined).
    pub fn round_trips(&self) -> u64 {
        self.shell_commands + self.sessions
    }
}
