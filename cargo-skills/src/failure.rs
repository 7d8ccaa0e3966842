//! Why a command did not succeed, and so its exit code.

use skills_compiler::ops;

use crate::output::shown;

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

/// An operation's refusal, printed as it comes (each problem an `error:`
/// line), with its exit code.
impl From<ops::Error> for Failure {
    fn from(error: ops::Error) -> Self {
        match error {
            ops::Error::Usage(message) => Failure::Usage(message),
            ops::Error::Io(message) => Failure::Io(message),
            ops::Error::Invalid => Failure::Invalid,
            // Without a location: nothing was written.
            ops::Error::Rejected {
                diagnostics,
                outcome,
            } => {
                for error in diagnostics {
                    let (severity, code) = (error.severity.as_str(), error.code.as_str());
                    anstream::eprintln!("{severity}[{code}]: {}", error.message);
                    if let Some(help) = &error.help {
                        anstream::eprintln!("  = help: {help}");
                    }
                }
                Failure::Usage(outcome)
            }
            ops::Error::Located {
                diagnostics,
                sources,
                outcome,
            } => {
                let color = crate::output::stderr_color();
                for diagnostic in &diagnostics {
                    let rendered =
                        skills_compiler::diagnostics::render::human(diagnostic, &sources, color);
                    anstream::eprintln!("{rendered}\n");
                }
                Failure::Usage(outcome)
            }
            ops::Error::Unmet { said, outcome } => {
                for line in &said {
                    anstream::eprintln!("{line}");
                }
                anstream::eprintln!("error: {outcome}");
                Failure::Invalid
            }
            ops::Error::Refused { problems, outcome } => {
                for problem in problems.iter().chain([&outcome]) {
                    anstream::eprintln!("error: {}", shown(problem));
                }
                Failure::Invalid
            }
        }
    }
}

/// Vendoring's refusals, as the operations say them.
impl From<skills_compiler::ops::vendor::VendorError> for Failure {
    fn from(error: skills_compiler::ops::vendor::VendorError) -> Self {
        ops::Error::from(error).into()
    }
}
