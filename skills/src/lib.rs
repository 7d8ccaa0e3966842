//! Agent skills compiled into your binary.
//!
//! `include_skills!("skills")` (or `skills-build` in a build script) validates
//! a skills directory while your crate compiles and expands to static tables:
//! nothing is parsed at run time (the name index and the catalogs are built
//! once, on first use). This crate holds the types those
//! tables are made of, the typed tool-call errors, and the helpers the
//! generated code uses to build HTTP requests with correct escaping.
//!
//! ```text
//! mod agent_skills {
//!     skills::include_skills!("skills");
//! }
//!
//! use skills::TypedCall; // parse a call, build its request
//!
//! let set: &skills::SkillSet = &agent_skills::SKILLS;
//! let skill = set.get("github-issues").unwrap();
//! print!("{}", set.catalog());
//! let call = agent_skills::github_issues::ToolCall::parse("create_issue", r#"{"repo": "a/b", "title": "Hi"}"#)?;
//! let request = call.request()?; // an http::Request<Vec<u8>>
//! ```
//!
//! Tool calls are checked by one interpreter over static schema tables
//! ([`Schema`]) and requests are built by one function over static endpoint
//! tables, so generated code stays small and skills loaded at run time obey
//! the same rules: [`Tool::parse`] gives an untyped [`Call`] with the same
//! checks and the same request as the typed `ToolCall`.
//!
//! The same types serve skills loaded at run time (`skills::loader`, feature
//! `loader`), sets merged from several layers ([`Layers`]), and tool calls read
//! straight from model API responses ([`model`]).

mod layers;
#[cfg(feature = "loader")]
pub mod loader;
pub mod model;
mod set;
pub mod toolset;
mod typed;
mod typed_call;

#[doc(hidden)]
pub mod __private;

pub use layers::{Layers, Merged, Shadowed};
pub use set::{Iter, SkillSet, available_skills};
/// The tables, the checker and the request builder: one definition, shared
/// with the compiler (`skills-core`).
pub use skills_core::{
    Bytes, Call, Checks, CompiledSkill, Endpoint, Existing, File, Hints, Kind, List, MAX_DEPTH,
    Method, Node, Policy, Property, Protocol, RequestError, Schema, Section, Skill, Str, Tool,
    ToolCallError, Version, base64, check_origin, definitions, is_file_path,
};
pub use toolset::Toolset;
pub use typed_call::TypedCall;

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
