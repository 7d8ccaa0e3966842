//! The loader: a root read, checked and lowered into a [`SkillSet`].

use std::fmt;
use std::path::{Path, PathBuf};

use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::emit::lower;
use skills_compiler::{Compilation, Config, Sources, ir};

use skills_compiler::{Diagnostic, InvalidSkill, Overrides, Profile};

use crate::set::SkillSet;

/// Loads skills directories with a profile and limits. The defaults are the
/// build's: profile `extended`, at most 64 skills (no count in `lenient`), documents of at most
/// 200,000 characters.
#[derive(Debug, Clone)]
pub struct Loader {
    config: Config,
    skip_invalid: bool,
}

impl Default for Loader {
    fn default() -> Self {
        Loader::new()
    }
}

impl Loader {
    /// A loader with the build's defaults.
    pub fn new() -> Loader {
        Loader {
            config: Config::default(),
            skip_invalid: false,
        }
    }

    /// Leave out each invalid skill instead of refusing the root, as the
    /// Agent Plugins specification says a host does: the valid skills load,
    /// and [`Loaded::skipped`] holds every skill left out with all its
    /// diagnostics. An error of the set as a whole (a limit, a root that
    /// cannot be read) still refuses it. Off by default: a set you ship
    /// should load whole, and the build refuses any invalid skill.
    ///
    /// ```no_run
    /// use skills::loader::Loader;
    ///
    /// let loaded = Loader::new().skip_invalid(true).load("/home/me/.claude/skills")?;
    /// eprint!("{}", loaded.render_skipped());
    /// # Ok::<(), skills::loader::LoadError>(())
    /// ```
    pub fn skip_invalid(mut self, skip: bool) -> Loader {
        self.skip_invalid = skip;
        self
    }

    /// Which rules apply: `portable`, `extended` (default) or `lenient`.
    pub fn profile(mut self, profile: Profile) -> Loader {
        self.config.profile = profile;
        self
    }

    /// Refuse drift: every skill of the root must be what the lock at
    /// `lock_file` (a `skills-lock.json`, as `cargo skills add` and
    /// Vercel's `skills` CLI write it) recorded, byte for byte; a skill
    /// that differs, is missing or is not locked fails the load with
    /// S520, as a build with `locked = true` fails. The same check as the
    /// build's, in the same compiler.
    ///
    /// ```no_run
    /// use skills::loader::Loader;
    ///
    /// let loaded = Loader::new()
    ///     .locked("project/skills-lock.json")
    ///     .load("project/.claude/skills")?;
    /// # Ok::<(), skills::loader::LoadError>(())
    /// ```
    pub fn locked(mut self, lock_file: impl AsRef<Path>) -> Loader {
        self.config.locked = true;
        self.config.lock_file = Some(lock_file.as_ref().to_path_buf());
        self
    }

    /// Verify signed skills (`skill.oms.sig`, OpenSSF Model Signing) against
    /// the root certificates in the PEM file `anchors` (call again for
    /// more files): a skill whose files are not the ones signed (S524) or
    /// whose signer does not chain to an anchor (S525) fails the load, as a
    /// build with `trust` fails; an unsigned skill is a warning (S527),
    /// unless [`require_signatures`](Loader::require_signatures). Offline:
    /// no revocation is fetched.
    ///
    /// ```no_run
    /// use skills::loader::Loader;
    ///
    /// let loaded = Loader::new()
    ///     .trust("certs/vendor.pem")
    ///     .require_signatures()
    ///     .load("project/.claude/skills")?;
    /// # Ok::<(), skills::loader::LoadError>(())
    /// ```
    #[cfg(feature = "trust")]
    pub fn trust(mut self, anchors: impl AsRef<Path>) -> Loader {
        self.config.trust.push(anchors.as_ref().to_path_buf());
        self
    }

    /// Every skill must be signed, and verify ([`trust`](Loader::trust)):
    /// an unsigned skill fails the load (S527).
    #[cfg(feature = "trust")]
    pub fn require_signatures(mut self) -> Loader {
        self.config.require_signatures = skills_compiler::RequireSignatures::All;
        self
    }

    /// Every skill the root's lock records from a source must be signed,
    /// and verify; the root's own skills may be unsigned (a warning):
    /// `require_signatures = "vendored"`.
    #[cfg(feature = "trust")]
    pub fn require_vendored_signatures(mut self) -> Loader {
        self.config.require_signatures = skills_compiler::RequireSignatures::Vendored;
        self
    }

    /// Any option of `[package.metadata.skills]` (limits, `deny_warnings`,
    /// ...), from the compiler's one option table: a new option is a new
    /// field there, not a new method here.
    ///
    /// ```
    /// use skills::loader::{Loader, Overrides};
    ///
    /// let loader = Loader::new().overrides(Overrides {
    ///     max_skills: Some(200),
    ///     deny_warnings: Some(true),
    ///     ..Overrides::default()
    /// });
    /// ```
    pub fn overrides(mut self, overrides: Overrides) -> Loader {
        self.config = self.config.with(overrides);
        self
    }

    /// The configuration every load starts from.
    pub(crate) fn config(&self) -> &Config {
        &self.config
    }

    /// Loads every skill under `root`. Paths in skills and diagnostics are
    /// `root` joined with the skill's path, as given.
    pub fn load(&self, root: impl AsRef<Path>) -> Result<Loaded, LoadError> {
        let config = Config {
            dir: root.as_ref().to_path_buf(),
            ..self.config.clone()
        };
        let compilation = skills_compiler::compile(Path::new(""), &config);
        self.loaded(compilation, root.as_ref())
    }

    /// The compilation as a set: whole, or without its invalid skills.
    fn loaded(&self, compilation: Compilation, root: &Path) -> Result<Loaded, LoadError> {
        self.loaded_with(compilation, root, set)
    }

    /// [`Loader::loaded`], with the valid skills made a set by `set`.
    pub(crate) fn loaded_with(
        &self,
        compilation: Compilation,
        root: &Path,
        set: impl FnOnce(&ir::SkillSet) -> Result<SkillSet, Vec<Diagnostic>>,
    ) -> Result<Loaded, LoadError> {
        if !self.skip_invalid {
            return Loaded::from_compilation(compilation, Vec::new(), set);
        }
        match compilation.skip_invalid(root) {
            Ok((kept, skipped)) => Loaded::from_compilation(kept, skipped, set),
            Err(whole) => Loaded::from_compilation(whole, Vec::new(), set),
        }
    }
}

impl Loader {
    /// Loads one skill: a directory with `SKILL.md`, or a flat `.md` file,
    /// as `cargo skills check DIR` reads it.
    pub fn load_skill(&self, path: impl AsRef<Path>) -> Result<Loaded, LoadError> {
        let compilation =
            skills_compiler::compile_skill(Path::new(""), path.as_ref(), &self.config);
        self.loaded(compilation, path.as_ref())
    }
}

impl Loader {
    /// Loads what `path` names: one skill (a directory with `SKILL.md`, or a
    /// flat `.md` file) or a skills root, decided as `cargo skills check
    /// PATH` decides it.
    pub fn load_path(&self, path: impl AsRef<Path>) -> Result<Loaded, LoadError> {
        let compilation = skills_compiler::compile_path(Path::new(""), path.as_ref(), &self.config);
        self.loaded(compilation, path.as_ref())
    }
}

/// A valid set, with the warnings met on the way (in `lenient`, what was assumed).
#[derive(Debug)]
pub struct Loaded {
    set: SkillSet,
    warnings: Vec<Diagnostic>,
    skipped: Vec<InvalidSkill>,
    sources: Sources,
}

impl Loaded {
    fn from_compilation(
        compilation: Compilation,
        skipped: Vec<InvalidSkill>,
        set: impl FnOnce(&ir::SkillSet) -> Result<SkillSet, Vec<Diagnostic>>,
    ) -> Result<Loaded, LoadError> {
        if compilation.has_errors() {
            return Err(LoadError {
                diagnostics: compilation.diagnostics,
                sources: compilation.sources,
            });
        }
        match set(&compilation.valid) {
            Ok(set) => Ok(Loaded {
                set,
                warnings: compilation.diagnostics,
                skipped,
                sources: compilation.sources,
            }),
            Err(unreadable) => {
                let mut diagnostics = compilation.diagnostics;
                diagnostics.extend(unreadable);
                Err(LoadError {
                    diagnostics,
                    sources: compilation.sources,
                })
            }
        }
    }

    /// The skills loaded.
    pub fn set(&self) -> &SkillSet {
        &self.set
    }

    /// The skills loaded, taken.
    pub fn into_set(self) -> SkillSet {
        self.set
    }

    /// The skills and the warnings, taken.
    pub(crate) fn into_parts(self) -> (SkillSet, Vec<Diagnostic>) {
        (self.set, self.warnings)
    }

    /// The warnings of the skills loaded.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The warnings rustc-style, with snippets, one after another.
    pub fn render_warnings(&self) -> String {
        render_all(&self.warnings, &self.sources)
    }

    /// The skills left out by [`Loader::skip_invalid`], in path order, each
    /// with every diagnostic of its files. Empty otherwise.
    pub fn skipped(&self) -> &[InvalidSkill] {
        &self.skipped
    }

    /// Each skipped skill's diagnostics rustc-style, then a line that says
    /// it was skipped and why: what a host prints on stderr.
    pub fn render_skipped(&self) -> String {
        self.skipped
            .iter()
            .map(|skip| {
                let errors = skip.diagnostics.iter().filter(|d| d.is_error()).count();
                format!(
                    "{}warning: skipped {}: {errors} error{}\n",
                    render_all(&skip.diagnostics, &self.sources),
                    skills_core::printable(&skip.path),
                    if errors == 1 { "" } else { "s" }
                )
            })
            .collect()
    }
}

/// Why a root did not load: every diagnostic (errors and warnings), sorted
/// by file and position, with the files needed to show them.
///
/// Its `Debug` is its `Display` (the diagnostics rendered), so that
/// `Loader::load(..).expect(..)`, the first thing an application writes,
/// prints what to fix and never the files' text.
pub struct LoadError {
    diagnostics: Vec<Diagnostic>,
    sources: Sources,
}

impl LoadError {
    /// Every diagnostic, errors and warnings, sorted by file and place.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// Every diagnostic rustc-style, with snippets (as `cargo skills check` prints them).
    pub fn render(&self) -> String {
        render_all(&self.diagnostics, &self.sources)
    }

    /// One `file:line:col: severity[code]: message` line per diagnostic.
    pub fn render_short(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| render::short(d) + "\n")
            .collect()
    }

    /// One JSON object per line, as `cargo skills check --message-format json`.
    pub fn render_json(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| render::json(d, &self.sources) + "\n")
            .collect()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())?;
        let errors = self.errors().count();
        write!(
            f,
            "could not load the skills: {errors} error{}",
            if errors == 1 { "" } else { "s" }
        )
    }
}

impl fmt::Debug for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LoadError:\n")?;
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for LoadError {}

fn render_all(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    diagnostics
        .iter()
        .map(|d| render::human(d, sources, Color::Never) + "\n\n")
        .collect()
}

/// The conventional skills directories that exist, nearest first: for the
/// working directory and each folder above it up to its repository (the
/// first with a `.git`) or `home`, `.agents/skills`, `.claude/skills` and
/// `.codex/skills`; then the same three under `home`. Only directories
/// owned by the user or by root are listed: a world-writable ancestor's
/// skills never come before the user's. Nothing is loaded: the
/// application chooses which to use, and says which it used.
pub fn conventional_roots(working_dir: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    skills_compiler::conventional::roots(working_dir, home)
}

/// [`conventional_roots`] of the current directory and `$HOME`.
pub fn conventional_roots_here() -> Vec<PathBuf> {
    let working_dir = std::env::current_dir().unwrap_or_default();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    conventional_roots(&working_dir, home.as_deref())
}

/// The valid skills as a set: lowered by the compiler into the runtime's
/// own types, which the set takes as they are, with every file read as it
/// was listed (an unreadable or changed file fails the load, S508).
fn set(valid: &ir::SkillSet) -> Result<SkillSet, Vec<Diagnostic>> {
    lower::set(valid).map(SkillSet::owned)
}
