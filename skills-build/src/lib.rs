//! `build.rs` front end of the skills compiler.
//!
//! Two ways to use it:
//!
//! - [`compile`] (or a [`Builder`]) validates a skills directory and writes
//!   `$OUT_DIR/skills.rs`, the same items `include_skills!` expands to, which
//!   the crate includes with
//!   `include!(concat!(env!("OUT_DIR"), "/skills.rs"))`. On invalid skills
//!   every diagnostic is printed, one `cargo::error=` per line, and the build
//!   fails before rustc starts.
//! - [`track`] is for crates that use `include_skills!`: a proc macro
//!   re-expands when an embedded file changes, but on stable Rust it cannot
//!   see a *new* or *deleted* file. `track` makes Cargo re-run the build
//!   script when anything under the skills root changes and hands the crate a
//!   stamp of the root's contents, so the macro is expanded again.
//!
//! In `build.rs`:
//!
//! ```no_run
//! skills_build::compile("skills");
//! ```

#![deny(missing_docs)]

use std::fmt;
use std::path::{Path, PathBuf};

use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::embed::{self, expansion_cache, tracking};
use skills_compiler::{Diagnostic, Severity};

/// Compiles `dir` (relative to the crate's manifest directory) into
/// `$OUT_DIR/skills.rs` with the manifest's configuration, printing the
/// `cargo::` lines a build script needs. Failures are reported through
/// `cargo::error=`, which fails the build.
pub fn compile(dir: impl AsRef<Path>) {
    // Everything is already printed for Cargo; nothing is left to handle.
    let _ = Builder::new().root(dir).build();
}

/// Prints the `cargo::` lines that rebuild the crate when a skill is added,
/// edited or removed under `dir` (relative to the crate's manifest directory),
/// or when the manifest changes; `include_skills!(dir)` checks for them.
///
/// It also compiles the skills and stores the expansion in `OUT_DIR`, so
/// that the macro reads it back instead of compiling them on every build of
/// the crate (`skills_compiler::embed::expansion_cache`). Diagnostics are left to
/// the macro, which points them at its argument.
pub fn track(dir: impl AsRef<Path>) {
    println!("cargo::rerun-if-env-changed=CARGO_MANIFEST_DIR");
    let manifest_dir = env_path("CARGO_MANIFEST_DIR").unwrap_or_default();
    let dir = dir.as_ref();
    // One walk of the root for both: taken before the skills are read, so
    // that an edit during the compilation leaves a stamp that the macro's
    // does not match.
    let stamp = tracking::stamp_with_lock(&manifest_dir, dir);
    for line in stamped_lines(&manifest_dir, dir, stamp) {
        println!("{line}");
    }
    if let Some(out_dir) = env_path("OUT_DIR") {
        store_expansion(&out_dir, &manifest_dir, dir, stamp);
    }
}

/// The macro's expansion of `dir` with the manifest's configuration, stored
/// for it. A failure only costs the macro its shortcut, so it is a warning.
fn store_expansion(out_dir: &Path, manifest_dir: &Path, dir: &Path, stamp: u64) {
    let overrides = skills_compiler::Overrides {
        dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    // A bad configuration is the macro's to report, at its argument.
    let embedding = embed::configure(manifest_dir, overrides);
    if embedding.problem().is_some() {
        return;
    }
    // The stored expansion embeds copies made now (`snapshot`); a file
    // that cannot be copied is the macro's to report, when it compiles.
    let embedded = embedding.compile(manifest_dir, Some(out_dir));
    if !embedded.copy_problems.is_empty() {
        return;
    }
    let (config, compilation) = (&embedding.config, &embedded.compilation);
    if let Err(error) = expansion_cache::store(out_dir, config, stamp, compilation) {
        println!(
            "cargo::warning=skills: the expansion of `{}` was not stored ({error}); include_skills! compiles it instead",
            dir.display()
        );
    }
}

/// The lines [`track`] prints, for a crate at `manifest_dir`.
pub fn track_lines(manifest_dir: &Path, dir: &Path) -> Vec<String> {
    stamped_lines(
        manifest_dir,
        dir,
        tracking::stamp_with_lock(manifest_dir, dir),
    )
}

/// [`track_lines`] with the root's stamp already taken.
fn stamped_lines(manifest_dir: &Path, dir: &Path, stamp: u64) -> Vec<String> {
    let mut lines = vec![format!("cargo::rerun-if-changed={}", dir.display())];
    lines.extend(manifest_lines(manifest_dir));
    if let Some(lock) = tracking::lock_file(manifest_dir, dir) {
        lines.push(format!("cargo::rerun-if-changed={}", lock.display()));
    }
    for anchor in tracking::trust_files(manifest_dir) {
        lines.push(format!("cargo::rerun-if-changed={}", anchor.display()));
    }
    lines.push(format!(
        "cargo::rustc-env={}={stamp:016x}",
        tracking::env_name(dir)
    ));
    lines
}

/// The package's manifest and, when its `[workspace.metadata.skills]`
/// configures the package, the workspace's.
fn manifest_lines(manifest_dir: &Path) -> Vec<String> {
    let mut lines = vec!["cargo::rerun-if-changed=Cargo.toml".to_owned()];
    if let Some(workspace) = skills_compiler::configuring_workspace_manifest(manifest_dir) {
        lines.push(format!("cargo::rerun-if-changed={}", workspace.display()));
    }
    lines
}

/// Why a build produced no code.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The skills have errors; `rendered` is every diagnostic, rustc-style.
    Invalid {
        /// Every diagnostic, errors and warnings, in reporting order.
        diagnostics: Vec<Diagnostic>,
        /// The same, rendered as rustc renders its own.
        rendered: String,
    },
    /// `[package.metadata.skills]` is invalid.
    Config(Box<Diagnostic>),
    /// `CARGO_MANIFEST_DIR` or `OUT_DIR` is not set: not run by Cargo, and no
    /// directory given to the builder.
    Environment(&'static str),
    /// `crate_path` is not a Rust path such as `::skills`.
    CratePath(String),
    /// The output could not be written.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid { rendered, .. } => f.write_str(rendered),
            Error::Config(diagnostic) => f.write_str(&render::short(diagnostic)),
            Error::Environment(variable) => write!(
                f,
                "{variable} is not set: run from a build script, or tell the Builder"
            ),
            Error::CratePath(path) => write!(
                f,
                "`{path}` is not a crate path: use `::skills`, or the name of a renamed dependency"
            ),
            Error::Io(error) => write!(f, "cannot write the generated code: {error}"),
        }
    }
}

impl std::error::Error for Error {}

/// What a successful build produced.
#[derive(Debug)]
pub struct Output {
    /// The generated Rust, formatted.
    pub code: String,
    /// Where it was written (`None` from [`Builder::generate`]).
    pub path: Option<PathBuf>,
    /// Warnings, also printed as `cargo::warning=` by [`Builder::build`].
    pub warnings: Vec<Diagnostic>,
}

/// Configures a build; defaults come from `[package.metadata.skills]`.
///
/// ```no_run
/// // build.rs
/// skills_build::Builder::new()
///     .root("agent/skills")
///     .profile(skills_build::Profile::Portable)
///     .overrides(skills_build::Overrides {
///         deny_warnings: Some(true),
///         ..Default::default()
///     })
///     .output("agent_skills.rs")
///     .build()
///     .ok();
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    manifest_dir: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    overrides: Overrides,
    output: String,
    crate_path: String,
}

pub use skills_compiler::{Overrides, Profile};

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder with the manifest's configuration and the default root.
    pub fn new() -> Self {
        Builder {
            manifest_dir: None,
            out_dir: None,
            overrides: Overrides::default(),
            output: "skills.rs".to_owned(),
            crate_path: "::skills".to_owned(),
        }
    }

    /// The skills root, relative to the manifest directory (default: the
    /// configured `dir`, else `skills`).
    pub fn root(mut self, dir: impl AsRef<Path>) -> Self {
        self.overrides.dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The profile to hold the skills to, over the manifest's.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.overrides.profile = Some(profile);
        self
    }

    /// Any option of `[package.metadata.skills]` (limits, `deny_warnings`,
    /// `areas`, ...), from the compiler's one option table; these win over
    /// the manifest.
    ///
    /// ```no_run
    /// skills_build::Builder::new()
    ///     .overrides(skills_build::Overrides {
    ///         max_skills: Some(200),
    ///         ..Default::default()
    ///     })
    ///     .generate();
    /// ```
    pub fn overrides(mut self, overrides: Overrides) -> Self {
        self.overrides = overrides.over(std::mem::take(&mut self.overrides));
        self
    }

    /// The file name under `OUT_DIR` (default `skills.rs`).
    pub fn output(mut self, file_name: impl Into<String>) -> Self {
        self.output = file_name.into();
        self
    }

    /// The path of the `skills` crate in generated code (default `::skills`;
    /// set it when the dependency is renamed).
    pub fn crate_path(mut self, path: impl Into<String>) -> Self {
        self.crate_path = path.into();
        self
    }

    /// The crate's directory (default `CARGO_MANIFEST_DIR`).
    pub fn manifest_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.manifest_dir = Some(dir.into());
        self
    }

    /// Where to write (default `OUT_DIR`).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    fn manifest(&self) -> Result<PathBuf, Error> {
        self.manifest_dir
            .clone()
            .or_else(|| env_path("CARGO_MANIFEST_DIR"))
            .ok_or(Error::Environment("CARGO_MANIFEST_DIR"))
    }

    fn embedding(&self) -> Result<embed::Embedding, Error> {
        let embedding = embed::configure(&self.manifest()?, self.overrides.clone());
        match embedding.problem() {
            Some(problem) => Err(Error::Config(Box::new(problem.clone()))),
            None => Ok(embedding),
        }
    }

    /// Compiles and formats, printing nothing and writing nothing.
    pub fn generate(&self) -> Result<Output, Error> {
        self.generate_in(None)
    }

    /// [`generate`](Self::generate), embedding copies of the files written
    /// to `out_dir` (`skills_compiler::emit::snapshot`) when there is one: what
    /// rustc reads later is then what was checked now, whatever happens to
    /// the files' names meanwhile.
    fn generate_in(&self, out_dir: Option<&Path>) -> Result<Output, Error> {
        let manifest_dir = self.manifest()?;
        let embedding = self.embedding()?;
        let config = &embedding.config;
        let embedded = embedding.compile(&manifest_dir, out_dir);
        let mut compilation = embedded.compilation;
        compilation.diagnostics.extend(embedded.copy_problems);
        let warnings: Vec<Diagnostic> = compilation
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .cloned()
            .collect();
        let Some(set) = compilation.skills() else {
            let rendered = compilation
                .diagnostics
                .iter()
                .map(|d| render::human(d, &compilation.sources, Color::Never))
                .collect::<Vec<_>>()
                .join("\n");
            return Err(Error::Invalid {
                diagnostics: compilation.diagnostics,
                rendered,
            });
        };
        let krate: syn::Path = syn::parse_str(&self.crate_path)
            .map_err(|_| Error::CratePath(self.crate_path.clone()))?;
        let tokens = skills_compiler::emit::codegen::expand(set, &quote::quote!(#krate));
        // Written as the tokens print, not through prettyplease: parsing and
        // formatting a large expansion took a build script (unoptimised, as
        // Cargo builds them) longer than compiling the skills (BENCHMARKS.md,
        // issue 21). rustc reads it the same; `cargo expand` shows it formatted.
        let code = format!(
            "// @generated by skills-build from `{}`. Do not edit: edit the skills.\n\n{tokens}\n",
            skills_compiler::display_path(&config.dir),
        );
        Ok(Output {
            code,
            path: None,
            warnings,
        })
    }

    /// Compiles, writes `$OUT_DIR/<output>`, and prints the `cargo::` lines:
    /// rerun triggers always, then warnings, or one `cargo::error=` per line
    /// of every diagnostic (stale output is removed first, so a failed build
    /// never compiles old code).
    pub fn build(&self) -> Result<Output, Error> {
        println!("cargo::rerun-if-env-changed=CARGO_MANIFEST_DIR");
        println!("cargo::rerun-if-env-changed=OUT_DIR");
        // Before anything can fail, so that fixing the manifest re-runs the script.
        for line in manifest_lines(&self.manifest().unwrap_or_default()) {
            println!("{line}");
        }
        let result = self.build_quietly();
        match &result {
            Ok(output) => {
                for warning in &output.warnings {
                    println!("cargo::warning={}", render::short(warning));
                    for line in warning.help.iter().flat_map(|help| help.lines()) {
                        println!("cargo::warning=  help: {line}");
                    }
                }
            }
            Err(error) => {
                for line in error.to_string().lines() {
                    println!("cargo::error={line}");
                }
            }
        }
        result
    }

    fn build_quietly(&self) -> Result<Output, Error> {
        let config = self.embedding()?.config;
        println!("cargo::rerun-if-changed={}", config.dir.display());
        if let Some(lock) =
            skills_compiler::embed::tracking::lock_file(&self.manifest()?, &config.dir)
        {
            println!("cargo::rerun-if-changed={}", lock.display());
        }
        let out_dir = self
            .out_dir
            .clone()
            .or_else(|| env_path("OUT_DIR"))
            .ok_or(Error::Environment("OUT_DIR"))?;
        let path = out_dir.join(&self.output);
        match std::fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::Io(error));
            }
            _ => {}
        }
        let mut output = self.generate_in(Some(&out_dir))?;
        std::fs::write(&path, &output.code).map_err(Error::Io)?;
        output.path = Some(path);
        Ok(output)
    }
}

fn env_path(variable: &str) -> Option<PathBuf> {
    std::env::var_os(variable).map(PathBuf::from)
}
