//! Why an operation stopped, as every front end reports it.

/// Why an operation stopped before doing anything (or put back what it
/// had done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The command line or the configuration is wrong: the message says
    /// what to change.
    Usage(String),
    /// A file could not be read or written, a process could not run; the
    /// message names what failed.
    Io(String),
    /// What was asked for breaks the format's rules (a name, a tool), as
    /// the compiler says it; nothing was written. A usage error.
    Rejected {
        /// The compiler's diagnostics, without a location.
        diagnostics: Vec<crate::diagnostics::Diagnostic>,
        /// What became of the request.
        outcome: String,
    },
    /// What was asked for is wrong in files the front end quotes (a case
    /// file, a record): each diagnostic at its place in `sources`, then
    /// what became of the request. A usage error.
    Located {
        /// Every diagnostic, warnings too, in the order found.
        diagnostics: Vec<crate::diagnostics::Diagnostic>,
        /// The files they point into.
        sources: crate::diagnostics::source::Sources,
        /// What became of the request.
        outcome: String,
    },
    /// The skills are invalid; their diagnostics were handed back with
    /// the operation's result.
    Invalid,
    /// The work was done, and what it found fails the run: each finding as
    /// a line of its own, then the outcome (exit 1).
    Unmet {
        /// One line a finding (`stale: case ...`).
        said: Vec<String>,
        /// What failed, and what to do.
        outcome: String,
    },
    /// The plan cannot be carried out whole: each problem, then what
    /// became of the files.
    Refused {
        /// Each problem found, all of them.
        problems: Vec<String>,
        /// What happened (nothing was written) and what to do.
        outcome: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Usage(message) | Error::Io(message) => f.write_str(message),
            Error::Invalid => f.write_str("the skills are invalid"),
            Error::Rejected {
                diagnostics,
                outcome,
            }
            | Error::Located {
                diagnostics,
                outcome,
                ..
            } => {
                for diagnostic in diagnostics {
                    writeln!(f, "{}", diagnostic.message)?;
                }
                f.write_str(outcome)
            }
            Error::Unmet { said, outcome } => {
                for line in said {
                    writeln!(f, "{line}")?;
                }
                f.write_str(outcome)
            }
            Error::Refused { problems, outcome } => {
                for problem in problems {
                    writeln!(f, "{problem}")?;
                }
                f.write_str(outcome)
            }
        }
    }
}

impl std::error::Error for Error {}
