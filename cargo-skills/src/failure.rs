//! Why a command did not succeed, and so its exit code.

/// Why a command did not succeed.
#[derive(Debug)]
pub enum Failure {
    /// The skills are invalid (exit 1); the diagnostics are already printed.
    Invalid,
    /// A usage error (exit 2): the command line or the configuration is
    /// wrong. The message says what to change.
    Usage(String),
    /// The work could not be done (exit 1): a file could not be read or
    /// written, a process could not be started. Nothing about the command
    /// line is wrong; the message names what failed.
    Io(String),
}
