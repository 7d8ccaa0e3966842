//! Agent skills compiled into your binary.
//!
//! `include_skills!("skills")` (or `skills-build` in a build script) checks
//! a skills directory while your crate compiles and expands to static
//! tables: nothing is parsed at run time. What an agent developer uses is at
//! the root:
//!
//! - [`SkillSet`], a [`Skill`], its [`Tool`]s and [`File`]s: the catalog, a
//!   skill's text, its tools' schemas;
//! - a model's tool call, three ways, one for each input:
//!   - typed: `ToolCall::parse(name, arguments)` of the skill's generated
//!     module, through [`TypedCall`];
//!   - untyped, by tool name across the set, from JSON text or a parsed
//!     value ([`Arguments`]): [`SkillSet::parse_call`], giving a [`Call`];
//!   - from a provider's API response: [`model::ToolUse::parse`];
//! - what a call may do ([`Policy`]) and its HTTP request
//!   ([`Call::request`]), with [`RequestError`] and [`ToolCallError`];
//! - the [`Toolset`] that lets a model open skills, and [`Layers`] of sets;
//! - skills loaded at run time: `skills::loader` (feature `loader`; with
//!   `parallel`, collections of 64 skills or more are read on every core).
//!
//! ```text
//! mod agent_skills {
//!     skills::include_skills!("skills");
//! }
//!
//! use skills::TypedCall; // parse a call, build its request
//!
//! let set: &skills::SkillSet = &agent_skills::SKILLS;
//! print!("{}", set.catalog());
//! let call = agent_skills::github_issues::ToolCall::parse("create_issue", r#"{"repo": "a/b", "title": "Hi"}"#)?;
//! let request = call.request()?; // an http::Request<Vec<u8>>
//! ```
//!
//! Tool calls are checked by one interpreter over the schema tables
//! ([`tables::Schema`]) and requests are built by one function over the
//! endpoint tables, so generated code stays small and skills loaded at run
//! time obey the same rules. The tables' own types are in [`tables`].

#![deny(missing_docs)]

mod generated;
mod host_error;
#[cfg(feature = "https")]
pub mod https;
mod layers;
#[cfg(feature = "loader")]
pub mod loader;
pub mod model;
#[cfg(feature = "response")]
pub mod response;
pub mod route;
#[cfg(all(feature = "scripts", unix))]
pub mod scripts;
mod set;
pub mod toolset;
mod typed;
mod typed_call;

#[doc(hidden)]
pub mod __private;

pub use layers::{Layers, Merged, Shadowed};
pub use set::{SkillSet, SubsetError};
pub use skills_core::install;
#[doc(hidden)]
pub use skills_core::present::available_skills;
/// `skill://` URIs (SEP-2640): the catalog's `<location>` and what the MCP
/// server serves, each segment percent-encoded.
pub use skills_core::uri;
/// The `.well-known/agent-skills` discovery index of a set and the
/// artifacts it points at: `well_known::Index::of(set.iter())`.
#[cfg(feature = "zip")]
pub use skills_core::well_known;
/// What an agent developer holds: a skill, its tools and files, a call and
/// what it may do, and the errors. One definition, shared with the compiler
/// (`skills-core`).
pub use skills_core::{
    Arguments, Call, CompiledSkill, File, Kind, Overwrite, Policy, RequestError, Skill, Tool,
    ToolCallError,
};
pub use toolset::Toolset;
pub use typed_call::TypedCall;

/// What the tables behind a [`Skill`] and a [`Tool`] hold: the schema nodes
/// the checker interprets, the endpoint templates, the sections, and the
/// small utilities over them. Generated code and tools that inspect a
/// skill's tables read them; an agent rarely needs them.
pub mod tables {
    pub use crate::set::Iter;
    pub use skills_core::{
        Bytes, Checks, Endpoint, Hints, List, MAX_DEPTH, Method, Node, Property, Protocol, Schema,
        Section, Str, Version, base64, check_origin, definitions, is_file_path,
    };
}

/// Re-exported so that users of the generated code need no `http` or
/// `serde_json` dependency of their own.
pub use http;
pub use serde_json;

/// Compiles a skills directory into static tables and typed tool calls.
///
/// `include_skills!("skills")` reads `<CARGO_MANIFEST_DIR>/skills`, validates
/// every skill with the same rules as `cargo skills check`, and expands to
/// `pub static SKILLS: skills::SkillSet` plus one module per skill. Options
/// override `[package.metadata.skills]`:
/// `include_skills!("skills", profile = "portable", max_skills = 100)`.
///
/// It asks for a build script that calls `skills_build::track("skills")`,
/// so that Cargo notices new and deleted skills. That build script also
/// stores the expansion, made when a skill or the manifest changes, and the
/// macro reads it back on the builds in between instead of compiling the
/// skills again (only with no options that change the manifest's
/// configuration, and only when no skill has a warning).
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! include_skills {
    ($($args:tt)*) => {
        $crate::__private::include_skills! { krate = $crate; $($args)* }
    };
}
