//! The operations a front end runs, as cargo's `ops` are to its commands:
//! each decides what to do and returns a value a front end prints, and the
//! ones that write return a [`Plan`] that [`apply`](fn@apply) carries out. A front
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
pub mod check;
pub mod compat;
pub mod document;
mod error;
pub mod export;
pub mod files;
pub mod fix;
pub mod fmt;
pub mod inspect;
pub mod install;
mod moves;
pub mod new;
mod plan;
#[cfg(feature = "signing")]
pub mod sign;
pub mod targets;
pub mod trigger;
pub mod vendor;
pub mod views;

pub use apply::{Applied, Guards, apply};
pub use error::Error;
pub use plan::{Change, Move, Plan, Rename, diff};
pub use targets::{Selection, Target, targets};
