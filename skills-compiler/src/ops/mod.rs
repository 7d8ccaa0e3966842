//! The operations a front end runs, as cargo's `ops` are to its commands:
//! each decides what to do and returns a value a front end prints, and the
//! ones that write return a [`Plan`] that [`apply`] carries out. A front
//! end (the CLI, an editor, a bot) parses its input, calls one operation,
//! and prints; it holds no rule of its own.
//!
//! ```no_run
//! use skills_compiler::ops::{self, Guards, Selection};
//!
//! let targets = ops::targets(&Selection::default(), &["skills".into()], &Default::default())?;
//! let fixes = ops::fix::plan(&targets, None);
//! for change in &fixes.plan.changes {
//!     print!("{}", ops::diff(change));
//! }
//! let applied = ops::apply(&fixes.plan, Guards::default())?;
//! println!("{} files written", applied.written.len());
//! # Ok::<(), ops::Error>(())
//! ```
//!
//! One file per operation; beside them, what they share: the targets
//! ([`targets`](mod@targets)), the plan ([`Plan`]), carrying it out
//! ([`apply`](mod@apply)) and writing one file whole ([`files`]).

pub mod apply;
pub mod budget;
pub mod compat;
pub mod export;
pub mod files;
pub mod fix;
pub mod fmt;
pub mod inspect;
pub mod install;
pub mod new;
mod plan;
pub mod targets;
pub mod trigger;
pub mod vendor;

pub use apply::{Applied, Guards, apply};
pub use plan::{Change, Plan, Rename, diff};
pub use targets::{Selection, Target, targets};

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
    /// The skills are invalid; their diagnostics were handed back with
    /// the operation's result.
    Invalid,
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
            } => {
                for diagnostic in diagnostics {
                    writeln!(f, "{}", diagnostic.message)?;
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
