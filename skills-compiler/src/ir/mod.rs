//! The typed intermediate representation: what the code generator consumes.
//!
//! Everything here has been validated. Names are checked types, templates are
//! parsed into parts, schemas are resolved into a type tree, and each tool's
//! policy is decided. Skills are sorted by name.

pub mod present;
mod skill;
pub(crate) mod table;

pub use skill::*;

/// The leaves of the IR are the runtime's own types: what the compiler
/// checks is what the runtime holds.
pub use crate::read::files::{SkillFile, SkipReason, Skipped};
pub use skills_core::{
    Checks, Endpoint, Hints, Json, Kind, List, Method, Part, Policy, Protocol, Section, Str,
    Version,
};
