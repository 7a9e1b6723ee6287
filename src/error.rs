//! Errors that the stages return and the exit codes they map to. It sits below every stage, so
//! `play`, `visualize` and the command layer all import it and none imports another for it.

/// Marks an error as "the board could not be read or solved" (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BoardProblem(pub String);

/// Exit code for an error that reached `main`: 1 when the board could not be read or solved
/// (marked with `BoardProblem` in the chain), 2 for usage, device and I/O errors.
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<BoardProblem>()) {
        1
    } else {
        2
    }
}
