//! The skills compiler as a plain library: every rule of the skill format
//! lives here, once. The proc macro, the build helper, `cargo skills` and
//! the run-time loader all call it; no front end re-implements a rule.
//!
//! ```
//! # let base = std::env::temp_dir().join("skills-compiler-doc");
//! # std::fs::create_dir_all(base.join("skills/hello")).unwrap();
//! # std::fs::write(base.join("skills/hello/SKILL.md"),
//! #     "---\nname: hello\ndescription: Greets the user.\n---\nSay hello.\n").unwrap();
//! use skills_compiler::{Config, compile};
//!
//! let compilation = compile(&base, &Config::default());
//! let skills = compilation.skills().expect("valid");
//! assert_eq!(skills.get("hello").unwrap().description(), "Greets the user.");
//! ```
//!
//! # The pipeline
//!
//! Each stage is a folder of `src/`, and imports only from the stages before
//! it (`tests/layers.rs` holds the code to that):
//!
//! 1. **read**: a skills root into [`SkillFiles`] (`discover`), and one
//!    skill's files into the document validation judges (`document`): their
//!    bytes into text with the frontmatter's fences (`frontmatter`), the
//!    frontmatter into a YAML tree with a span on every node (`yaml`),
//!    `lenient`'s repairs (`lenient`), the body's headings ([`markdown`]).
//! 2. **validate**: the document into the typed [`ir`], every problem a
//!    located [`Diagnostic`], parsing no file; the `lenient` profile's
//!    readings of fields in `validate/lenient.rs`.
//!    The IR's leaves are the runtime's own types (`skills_core`), and
//!    [`ir::present`] writes what the IR says to a model.
//! 3. **lint**: warnings on valid skills, one file per family, run by the
//!    pipeline on each skill and then on the set ([`similar_descriptions`],
//!    the budget gate).
//! 4. **emit** ([`emit`]): the IR lowered into `skills_core` tables, printed
//!    as Rust (`emit::codegen`), as JSON (`emit::json`), as the JSON Schema
//!    editors read (`emit::editor_schema`).
//!
//! Beside them: [`diagnostics`] (codes, the files they quote, renderers) and
//! the configuration ([`Config`], [`Overrides`]); and private wings over
//! the whole pipeline: the host budget models, the lock, the writer (the
//! IR back to text, `fmt`, fix-its), vendoring and trigger tests. Entry
//! points: [`compile`] (a root on disk), [`compile_path`] (what a command
//! line names), [`compile_files`] (skills held in memory).
//!
//! # The doors
//!
//! Each front end comes in through one door (`tests/doors.rs` holds them):
//! [`embed`] for builds (the macro and `skills-build`: one configure and
//! compile call, rebuild tracking, the stored expansion), and, with the
//! `ops` feature, `ops` for tools: the operations a front end runs (which
//! targets, `fix`, `fmt`, `new`, `budget`, `test`, `add`...), each
//! returning a value to print or a plan that `ops::apply` carries out,
//! every check before the first write, and the few types of the wings an
//! operation's caller names.
//!
//! Where a new key, rule, diagnostic, command or host goes, and the steps
//! for each, are in `docs/architecture.md` ("Adding a diagnostic" and
//! the sections beside it), which the layering tests hold to the code.

#![deny(missing_docs)]
// A `Diagnostic` is large (file, message, span, help, fix-it) and returned on
// cold paths only: boxing it everywhere would cost readability for nothing.
#![allow(clippy::result_large_err)]
// What is `pub` is reachable from the root: the curated API below is the API.
#![deny(unreachable_pub)]

// The pipeline, in order; each stage a folder, private, so that what front
// ends may use is the curated list below (and `unreachable_pub` keeps it so).
// A stage imports only from the stages before it and from the modules
// beside the pipeline (tests/layers.rs holds the code to that).
//
// 1. files to text and YAML trees;
mod read;
// 2. trees to the typed IR (with what the IR says to a model);
pub mod ir;
mod validate;
// 3. warnings on valid skills;
mod lint;
// 4. the IR to the runtime's tables, Rust, JSON;
pub mod emit;

// Beside the pipeline: diagnostics (with the files they quote) and the
// configuration below every stage; the host budget models, which the lints
// use, and the lock, which the build verifies (both private: `ops` names
// the few types a front end needs); rebuild tracking for the front ends,
// with the macro's stored expansion (public through `embed`).
mod budget;
mod config;
pub mod diagnostics;
mod lock;
#[cfg(feature = "ops")]
pub mod ops;
mod parallel;
mod pipeline;
#[cfg(feature = "signing")]
pub mod signing;
// The wings only front ends that run operations need, behind `ops`: the
// macro, the build helper and the loader do not compile them.
#[cfg(feature = "ops")]
mod routing;
#[cfg(feature = "ops")]
mod vendoring;
#[cfg(feature = "ops")]
mod write;

pub use budget::BudgetConfig;
pub use config::{
    CatalogLocation, Config, DEFAULT_EXCLUDE, DEFAULT_MAX_FILES, DEFAULT_MAX_SET_BYTES,
    DEFAULT_MAX_SKILL_BYTES, DEFAULT_MAX_SKILLS, Keep, OptionError, OptionValue, Overrides,
    Profile, Ratio, RequireSignatures, TestConfig, configuring_workspace_manifest, option_keys,
};
pub use diagnostics::source::{SourceFile, Sources};
pub use diagnostics::{Code, Diagnostic, Severity};
pub use lint::similar_descriptions;
pub use pipeline::{
    Compilation, InvalidSkill, Run, Tally, compile, compile_files, compile_looked_up,
    compile_looked_up_in, compile_path, compile_skill,
};
pub use pipeline::{again, embed};
pub use read::collection;
pub use read::conventional;
pub use read::discover::{
    SkillFiles, SkillPath, discover, discover_one, discover_skill, discover_skill_in, display_path,
    skill_dir_of,
};
pub use read::files::{
    Listing, MAX_DEPTH as MAX_FILE_DEPTH, SkillDir, SkillFile, SkipReason, Skipped,
};
#[cfg(feature = "invocation")]
pub use read::invocation::{Invocation, Unusable};
pub use read::lenient::MAX_QUOTED_LINES;
pub use read::markdown;
pub use read::shared::Shared;
pub use validate::keys;
