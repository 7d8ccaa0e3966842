//! The one sequence a build front end runs to embed a skills root in a
//! crate: the package's configuration with the caller's options, the root
//! held inside the crate, the compilation, and copies of the files made
//! now for the crate to embed. `include_skills!` and `skills-build` both
//! call it, so that the macro, `track`'s stored expansion and the
//! `Builder` cannot drift apart.
//!
//! ```
//! # let base = std::env::temp_dir().join("skills-compiler-embed-doc");
//! # std::fs::create_dir_all(base.join("skills/hello")).unwrap();
//! # std::fs::write(base.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
//! # std::fs::write(base.join("skills/hello/SKILL.md"),
//! #     "---\nname: hello\ndescription: Greets the user.\n---\nSay hello.\n").unwrap();
//! use skills_compiler::{Overrides, embed};
//!
//! let embedding = embed::configure(&base, Overrides::default());
//! assert!(embedding.problem().is_none());
//! let embedded = embedding.compile(&base, None);
//! assert!(embedded.compilation.skills().is_some());
//! ```

use std::path::Path;

// What else a build front end needs: rebuild tracking (the files and
// variables a build depends on) and the macro's stored expansion.
pub mod expansion_cache;
pub mod tracking;

use super::compile::{Compilation, compile};
use crate::config::{Config, Overrides};
use crate::diagnostics::Diagnostic;
use crate::emit::snapshot;

/// A crate's configuration for embedding, and what is wrong with it.
#[derive(Debug, Clone)]
pub struct Embedding {
    /// The configuration to compile with: the manifest's with the caller's
    /// options, or the options alone when the manifest is invalid (so that
    /// the macro can still emit the valid skills beside its error).
    pub config: Config,
    /// `[package.metadata.skills]` could not be read.
    pub manifest_problem: Option<Diagnostic>,
    /// The root is not a relative path inside the crate (the output would
    /// differ between checkouts).
    pub root_problem: Option<Diagnostic>,
}

/// What [`Embedding::compile`] made.
#[derive(Debug)]
pub struct Embedded {
    /// The root compiled; with an `out_dir`, its files point at the copies.
    pub compilation: Compilation,
    /// Files that could not be copied to `out_dir` (one vanished or
    /// changed while it was copied): the crate must not embed the set.
    pub copy_problems: Vec<Diagnostic>,
}

/// The configuration of the crate at `manifest_dir` with `overrides`, every
/// problem with it kept for the front end to report where it reports.
pub fn configure(manifest_dir: &Path, overrides: Overrides) -> Embedding {
    let (config, manifest_problem) = match Config::load(manifest_dir, overrides.clone()) {
        Ok(config) => (config, None),
        Err(diagnostic) => (Config::from_overrides(overrides), Some(diagnostic)),
    };
    let root_problem = config.check_relative_root(manifest_dir).err();
    Embedding {
        config,
        manifest_problem,
        root_problem,
    }
}

impl Embedding {
    /// The first problem with the configuration, when there is one.
    pub fn problem(&self) -> Option<&Diagnostic> {
        self.manifest_problem
            .as_ref()
            .or(self.root_problem.as_ref())
    }

    /// Compiles the root; when it is valid and `out_dir` is given, copies
    /// its files there and points the set at the copies, so that what
    /// rustc embeds later is what was checked now.
    pub fn compile(&self, manifest_dir: &Path, out_dir: Option<&Path>) -> Embedded {
        let mut compilation = compile(manifest_dir, &self.config);
        let copy_problems = match out_dir {
            Some(out_dir) if !compilation.has_errors() => {
                snapshot::copy_into(&mut compilation.valid, out_dir).err()
            }
            _ => None,
        };
        Embedded {
            compilation,
            copy_problems: copy_problems.unwrap_or_default(),
        }
    }
}
