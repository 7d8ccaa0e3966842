//! The pipeline from a root or a skill to a [`Compilation`]: discover,
//! read, validate and lint each skill, then the lints over the set, the
//! lint levels and the lock; what every front end calls, as [`compile`]
//! and its siblings.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::config::{Config, Keep};
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{self, Code, Diagnostic, Severity};
use crate::ir;
use crate::lint::{self, similar_descriptions};
use crate::lock;
use crate::read::discover::{Root, SkillFiles, SkillPath, discover_skill_in, display_path};
use crate::read::shared::Shared;
use crate::validate;

/// The outcome of compiling a skills root: the IR when there is no error, and
/// every diagnostic either way.
#[derive(Debug)]
pub struct Compilation {
    /// The skills that are valid on their own, sorted by name. With errors
    /// elsewhere they still give front ends stubs that keep user code compiling.
    pub valid: ir::SkillSet,
    /// Sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The files read, for rendering diagnostics with snippets.
    pub sources: Sources,
    /// Each skill checked, valid or not: its folder (or flat `.md` file) as
    /// paths in diagnostics show it, in discovery's order.
    pub checked: Vec<String>,
    /// The skills the root's lock records as vendored: each folder (as
    /// `checked` has it) and the upstream it came from.
    pub vendored: BTreeMap<String, String>,
}

/// What a check counted, each count saying what it counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Skills checked, valid or not.
    pub checked: usize,
    /// Skills without an error.
    pub valid: usize,
    /// Skills with at least one error.
    pub with_errors: usize,
    /// Skills with at least one warning (valid or not).
    pub with_warnings: usize,
    /// Errors, the skills' and the set's (a limit, a root without skills).
    pub errors: usize,
    /// Warnings, the skills' and the set's.
    pub warnings: usize,
}

impl Tally {
    /// A check's closing line: what was checked and what was found, each
    /// count named (issue 40: a bare "skills" count read as "checked" when
    /// it was not).
    pub fn summary(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        if self.errors == 0 {
            return format!(
                "ok: {} valid, {}",
                plural(self.valid, "skill"),
                plural(self.warnings, "warning")
            );
        }
        format!(
            "failed: {} checked, {} valid, {} with errors, {} with warnings; {}, {}",
            plural(self.checked, "skill"),
            self.valid,
            self.with_errors,
            self.with_warnings,
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )
    }

    /// The same as the closing object of `--message-format json`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "summary",
            "valid": self.errors == 0,
            "checked": self.checked,
            "valid_skills": self.valid,
            "with_errors": self.with_errors,
            "with_warnings": self.with_warnings,
            "errors": self.errors,
            "warnings": self.warnings,
        })
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.checked += other.checked;
        self.valid += other.valid;
        self.with_errors += other.with_errors;
        self.with_warnings += other.with_warnings;
        self.errors += other.errors;
        self.warnings += other.warnings;
    }
}

impl Compilation {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics as a person reads them: each vendored skill's
    /// warnings folded into one W027 that counts them by code (they are
    /// someone else's to fix, and would repeat on every command), errors
    /// and everything else as they are. `diagnostics` keeps every one, for
    /// `--verbose` and the machine formats.
    pub fn summarised(&self) -> Vec<Diagnostic> {
        super::vendored::summarise(&self.diagnostics, &self.vendored)
    }

    /// The counts of a check: skills by outcome, diagnostics by severity.
    /// A diagnostic belongs to the skill whose folder holds its file.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally {
            checked: self.checked.len(),
            ..Tally::default()
        };
        // The first skill checked whose folder holds the file: the file's
        // path and each folder above it, looked up by path (a scan of the
        // skills for each diagnostic was 3% of the instructions of a check
        // of 5,000 skills with 250 warnings).
        let mut index: std::collections::HashMap<&str, usize> = Default::default();
        for (at, skill) in self.checked.iter().enumerate() {
            index.entry(skill.as_str()).or_insert(at);
        }
        let owner = |file: &str| {
            let folders = file.match_indices('/').map(|(at, _)| &file[..at]);
            std::iter::once(file)
                .chain(folders)
                .filter_map(|path| index.get(path).copied())
                .min()
        };
        let mut errors = vec![false; self.checked.len()];
        let mut warnings = vec![false; self.checked.len()];
        for diagnostic in &self.diagnostics {
            let (count, marks) = match diagnostic.severity {
                Severity::Error => (&mut tally.errors, &mut errors),
                Severity::Warning => (&mut tally.warnings, &mut warnings),
            };
            *count += 1;
            if let Some(skill) = owner(diagnostic.owner_file()) {
                marks[skill] = true;
            }
        }
        tally.with_errors = errors.iter().filter(|&&e| e).count();
        tally.valid = tally.checked - tally.with_errors;
        tally.with_warnings = warnings.iter().filter(|&&w| w).count();
        tally
    }

    /// Adds what the lock says of the root (`locked = true`): each skill
    /// that differs from its entry, is missing or is not locked (S520);
    /// with [`Scope::Found`](lock::check::Scope), of the skills compiled only.
    pub(crate) fn check_lock(
        &mut self,
        locks: &lock::check::ReadLocks,
        base: &Path,
        config: &Config,
        scope: lock::check::Scope,
    ) {
        let (found, source) = lock::check::check(locks, base, config, &self.checked, scope);
        if let Some(source) = source {
            self.sources.insert(source);
        }
        self.diagnostics.extend(found);
        diagnostics::sort(&mut self.diagnostics);
    }

    /// Adds what the signatures say of the skills checked (`trust`,
    /// `require_signatures`): S524 to S528.
    /// Each verified skill is then held to its signature
    /// ([`signatures::hold`](super::signatures::hold)).
    pub(crate) fn check_signatures(&mut self, base: &Path, config: &Config) {
        let vendored = |folder: &str| {
            self.vendored.contains_key(folder)
                || config.require_signatures == crate::config::RequireSignatures::Vendored
                    && super::vendored::Vendored::records(base, config, folder)
        };
        let checked = super::signatures::check(base, config, &self.checked, &vendored);
        for source in checked.sources {
            self.sources.insert(source);
        }
        self.diagnostics.extend(checked.diagnostics);
        let whole_text = config.keep != Keep::Checks;
        for (folder, signed) in &checked.signed {
            let skill = (self.valid.skills.iter_mut()).find(|s| s.dir.as_deref() == Some(folder));
            if let Some(skill) = skill {
                let skill = Arc::make_mut(skill);
                let held = super::signatures::hold(skill, signed, whole_text);
                self.diagnostics.extend(held);
            }
        }
        diagnostics::sort(&mut self.diagnostics);
    }

    /// The compiled set, when there is no error at all.
    pub fn skills(&self) -> Option<&ir::SkillSet> {
        (!self.has_errors()).then_some(&self.valid)
    }

    /// The compiled set, when there is no error at all.
    pub fn into_skills(self) -> Option<ir::SkillSet> {
        (!self.has_errors()).then_some(self.valid)
    }

    /// The Agent Plugins rule for skills a user installs: an invalid skill
    /// is left out, with every diagnostic of its files, and the rest stay.
    /// A skill is a folder (or flat `.md` file) directly under `root`, the
    /// `config.dir` this compiled; an error in it makes it invalid. An error
    /// that belongs to no skill (the root itself, a limit of the set) is
    /// the set's: then `Err`, the compilation as it was. The compilation
    /// returned has no error; its warnings are those of the skills kept
    /// and of the set.
    pub fn skip_invalid(
        self,
        root: &Path,
    ) -> Result<(Compilation, Vec<InvalidSkill>), Compilation> {
        let root = display_path(root);
        let skill_of = |file: &str| skill_of(&root, file);
        if self
            .diagnostics
            .iter()
            .any(|d| d.is_error() && skill_of(d.owner_file()).is_none())
        {
            return Err(self);
        }
        let invalid: std::collections::BTreeSet<String> = self
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .filter_map(|d| skill_of(d.owner_file()))
            .collect();
        let mut skipped: BTreeMap<String, Vec<Diagnostic>> = invalid
            .iter()
            .map(|path| (path.clone(), Vec::new()))
            .collect();
        let mut diagnostics = Vec::new();
        for diagnostic in self.diagnostics {
            match skill_of(diagnostic.owner_file()).and_then(|path| skipped.get_mut(&path)) {
                Some(list) => list.push(diagnostic),
                None => diagnostics.push(diagnostic),
            }
        }
        let mut valid = self.valid;
        valid
            .skills
            .retain(|skill| skill_of(skill.path()).is_none_or(|path| !invalid.contains(&path)));
        let mut checked = self.checked;
        checked.retain(|path| !invalid.contains(path));
        let kept = Compilation {
            valid,
            diagnostics,
            sources: self.sources,
            checked,
            vendored: self.vendored,
        };
        let skipped = skipped
            .into_iter()
            .map(|(path, diagnostics)| InvalidSkill { path, diagnostics })
            .collect();
        Ok((kept, skipped))
    }
}

/// Each skill's own lint levels (`metadata.skills-lints`), with the prefix
/// of its files; a value that does not parse was W018 and counts for nothing.
fn skill_lints<S: Borrow<ir::Skill>>(
    skills: &[S],
) -> Vec<(String, diagnostics::levels::LintLevels)> {
    skills
        .iter()
        .map(Borrow::borrow)
        .filter_map(|skill: &ir::Skill| {
            let (_, text) = skill
                .table
                .metadata
                .iter()
                .find(|(key, _)| key == "skills-lints")?;
            let levels = text.parse().ok()?;
            let prefix = match &skill.dir {
                Some(dir) => format!("{dir}/"),
                None => skill.path().to_owned(),
            };
            Some((prefix, levels))
        })
        .collect()
}

/// A skill left out for its errors ([`Compilation::skip_invalid`]).
#[derive(Debug, Clone)]
pub struct InvalidSkill {
    /// Its folder, or its flat `.md` file, as paths in diagnostics show it.
    pub path: String,
    /// Every diagnostic of its files, errors and warnings, in order.
    pub diagnostics: Vec<Diagnostic>,
}

/// The skill a file belongs to: `root/<entry>` for a file at or below an
/// entry of `root`; `None` for the root itself and anything outside it.
fn skill_of(root: &str, file: &str) -> Option<String> {
    let rest = match root {
        "" | "." => file.strip_prefix("./").unwrap_or(file),
        _ => file.strip_prefix(root)?.strip_prefix('/')?,
    };
    let entry = rest.split('/').next().filter(|entry| !entry.is_empty())?;
    Some(match root {
        "" | "." => entry.to_owned(),
        _ => format!("{root}/{entry}"),
    })
}

/// What the compilations of one run share: what reading found (`.gitignore`
/// rules, work trees) and the locks read. A command line of 2,500 skills of
/// one root reads their lock once, not once a skill.
#[derive(Debug, Default)]
pub struct Run {
    pub(crate) read: Shared,
    pub(crate) locks: lock::check::ReadLocks,
}

impl Run {
    /// What reading found so far.
    pub fn read(&self) -> &Shared {
        &self.read
    }
}

/// Compiles the skills root `config.dir` of the crate at `base`.
///
/// Paths in diagnostics and in the IR are `config.dir` joined with the
/// entries' names: relative to `base`, never absolute (unless `config.dir` is).
pub fn compile(base: &Path, config: &Config) -> Compilation {
    let mut diagnostics = Vec::new();
    let run = Run::default();
    let shared = &run.read;
    // Each skill is checked on the thread that read it, as soon as it is
    // read: its text is let go (`Keep::Checks`) before the thread reads
    // the next, so the allocator hands the same memory on instead of a
    // check holding every text of the root at once, as discovering every
    // skill before checking any did (BENCHMARKS.md, issue 44).
    let vendored = super::vendored::Vendored::of(base, config);
    let checked = match Root::open(base, config, shared, &mut diagnostics) {
        Some(root) => root.read_all(
            |files| check_in_root(files, config, vendored.as_ref()),
            &mut diagnostics,
        ),
        None => Vec::new(),
    };
    let mut compilation = assemble(checked, config, diagnostics);
    if config.locked {
        compilation.check_lock(&run.locks, base, config, lock::check::Scope::Root);
    }
    if super::signatures::wanted(config) {
        compilation.check_signatures(base, config);
    }
    compilation
}

/// Compiles one skill: `path` (relative to `base`) is a skill directory or a
/// flat `.md` file. `config.dir` is not used.
pub fn compile_skill(base: &Path, path: &Path, config: &Config) -> Compilation {
    compile_looked_up(base, &SkillPath::look_up(base, path), config)
}

/// Compiles what `path` (relative to `base`) names, as `cargo skills check
/// PATH` reads it: one skill when it is a directory with `SKILL.md` or a
/// flat `.md` file, else a skills root. Discovery decides, once, for every
/// front end.
pub fn compile_path(base: &Path, path: &Path, config: &Config) -> Compilation {
    let looked_up = SkillPath::look_up(base, path);
    if looked_up.is_skill() {
        return compile_looked_up(base, &looked_up, config);
    }
    let config = Config {
        dir: path.to_path_buf(),
        ..config.clone()
    };
    compile(base, &config)
}

/// [`compile_skill`] for a path already looked up (a command line's paths
/// are, to find their owners): what the look-up found is not looked up again.
pub fn compile_looked_up(base: &Path, skill: &SkillPath, config: &Config) -> Compilation {
    compile_looked_up_in(&Run::default(), base, skill, config)
}

/// [`compile_looked_up`] with what the run's other skills read already
/// ([`Shared`]): a command line of many skills in one folder reads that
/// folder's `.gitignore` rules once.
pub fn compile_looked_up_in(
    run: &Run,
    base: &Path,
    skill: &SkillPath,
    config: &Config,
) -> Compilation {
    compile_one_skill(run, base, skill, config, None)
}

/// [`compile_looked_up_in`] with the skill file's text as an editor holds
/// it, not as it is on disk: what the language server checks as the author
/// types. The sidecar, the lock and the skill's other files are read from
/// disk.
#[cfg(feature = "ops")]
pub(crate) fn compile_with_text(
    run: &Run,
    base: &Path,
    skill: &SkillPath,
    config: &Config,
    text: Unsaved<'_>,
) -> Compilation {
    compile_one_skill(run, base, skill, config, Some(text))
}

/// A file of a skill as an editor holds it, compiled in place of the
/// file on disk.
#[derive(Debug, Clone, Copy)]
// Only the ops face (an editor's documents) makes them.
#[cfg_attr(not(feature = "ops"), allow(dead_code, unreachable_pub))]
pub enum Unsaved<'a> {
    /// The skill file (`SKILL.md`, a flat `name.md`).
    SkillFile(&'a [u8]),
    /// Its sidecar `tools.yaml` (one not saved yet too).
    ToolsYaml(&'a [u8]),
}

fn compile_one_skill(
    run: &Run,
    base: &Path,
    skill: &SkillPath,
    config: &Config,
    text: Option<Unsaved<'_>>,
) -> Compilation {
    let mut diagnostics = Vec::new();
    let candidates = discover_skill_in(&run.read, base, skill, config, &mut diagnostics)
        .map(|mut files| {
            match text {
                Some(Unsaved::SkillFile(text)) => files.bytes = text.to_vec(),
                Some(Unsaved::ToolsYaml(text)) => {
                    let path = match (&files.tools_yaml, &files.dir) {
                        (Some((path, _)), _) => path.clone(),
                        (None, Some(dir)) => {
                            format!("{}/{}", dir.path, crate::read::layout::TOOLS_FILE)
                        }
                        (None, None) => return files,
                    };
                    files.tools_yaml = Some((path, text.to_vec()));
                }
                None => {}
            }
            files
        })
        .into_iter()
        .collect::<Vec<_>>();
    let root = Config {
        dir: skill
            .path()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
        ..config.clone()
    };
    // A skill its root's lock records as vendored is held to the vendored
    // rules on its own too, as `check` of the root holds it.
    let vendored = super::vendored::Vendored::of(base, &root);
    let checked = crate::parallel::map_in_order(candidates, |files| {
        check_in_root(files, config, vendored.as_ref())
    });
    let mut compilation = assemble(checked, config, diagnostics);
    // One skill is checked against its root's lock: its own entry only.
    if config.locked {
        compilation.check_lock(&run.locks, base, &root, lock::check::Scope::Found);
    }
    if super::signatures::wanted(config) {
        compilation.check_signatures(base, config);
    }
    compilation
}

/// Compiles skills held in memory as the files of one skills root: the
/// same pipeline as [`compile`] (limits, duplicates, lints over the set),
/// without reading a directory. Editors, formatters and tests use it.
pub fn compile_files(files: Vec<SkillFiles>, config: &Config) -> Compilation {
    finish(files, config, Vec::new())
}

/// One skill through [`compile_files`]: the skill when it is valid on its
/// own, and every diagnostic.
#[cfg(any(feature = "ops", test))]
pub(crate) fn compile_one(
    files: SkillFiles,
    config: &Config,
) -> (Option<ir::Skill>, Vec<Diagnostic>) {
    let compilation = compile_files(vec![files], config);
    (
        compilation
            .valid
            .skills
            .into_iter()
            .next()
            .map(Arc::unwrap_or_clone),
        compilation.diagnostics,
    )
}

fn finish(
    candidates: Vec<SkillFiles>,
    config: &Config,
    diagnostics: Vec<Diagnostic>,
) -> Compilation {
    let checked = crate::parallel::map_in_order(candidates, |files| check_one(files, config));
    assemble(checked, config, diagnostics)
}

/// One skill checked on its own, with what the set's checks need of it:
/// the unit a root compiled again keeps for each entry that did not change.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    /// Its folder (or flat `.md` file) as paths in diagnostics show it.
    path: String,
    /// The skill file's path and the name its folder gives it, which
    /// count for duplicates whether or not the skill is valid.
    file: String,
    directory: String,
    /// Shared with the compilations that keep it.
    skill: Option<Arc<ir::Skill>>,
    /// What the valid skill holds ([`ir::Skill::bytes`]), for the set's
    /// limit; 0 when it is not valid.
    bytes: u64,
    sources: Sources,
    diagnostics: Vec<Diagnostic>,
    /// The upstream of a skill the root's lock records.
    vendored_from: Option<String>,
}

impl Checked {
    /// The skill file's path, as the IR's `path` holds it.
    pub(crate) fn file(&self) -> &str {
        &self.file
    }
}

/// Validates and lints one skill as discovery found it.
/// Checks one skill of a root: with the vendored rules when the root's
/// lock records it (its diagnostics then name the upstream), else with the
/// package's.
pub(crate) fn check_in_root(
    files: SkillFiles,
    config: &Config,
    vendored: Option<&super::vendored::Vendored>,
) -> Checked {
    let Some((vendored, (rules, source))) = vendored.and_then(|v| Some((v, v.of_skill(&files)?)))
    else {
        return check_one(files, config);
    };
    let source = source.to_owned();
    let mut checked = check_one(files, rules);
    vendored.annotate(&checked.directory, &source, &mut checked.diagnostics);
    checked.vendored_from = Some(source);
    checked
}

pub(crate) fn check_one(files: SkillFiles, config: &Config) -> Checked {
    let path = match &files.dir {
        Some(dir) => dir.path.clone(),
        None => files.path.clone(),
    };
    let file = files.path.clone();
    let directory = files.directory.clone();
    let (skill, sources, diagnostics) = validate_one(files, config);
    let bytes = skill.as_ref().map_or(0, ir::Skill::bytes);
    let skill = skill.map(|mut skill| {
        if config.keep == Keep::Checks {
            skill.keep_head_only();
        }
        Arc::new(skill)
    });
    Checked {
        path,
        file,
        directory,
        skill,
        bytes,
        sources,
        diagnostics,
        vendored_from: None,
    }
}

/// The set's checks over skills checked one by one: the limits, duplicate
/// names, the lints over the set, the levels; `diagnostics` are the root's
/// own (discovery's), put at their levels here.
pub(crate) fn assemble(
    checked: Vec<Checked>,
    config: &Config,
    mut diagnostics: Vec<Diagnostic>,
) -> Compilation {
    let mut sources = Sources::default();
    let limit = config.skill_limit();
    let too_many = limit.is_some_and(|limit| checked.len() > limit);
    if let Some(limit) = limit.filter(|_| too_many) {
        diagnostics.push(
            Diagnostic::error(
                Code::TooManySkills,
                display_path(&config.dir),
                format!("{} skills found; the limit is {limit}", checked.len()),
            )
            .with_help("every skill's name and description is sent on every model turn: remove skills, or raise `max_skills`"),
        );
    }
    let mut paths = Vec::with_capacity(checked.len());
    // Every candidate counts, valid or not: `a.md` beside a broken
    // `a/SKILL.md` is a duplicate whatever else is wrong with either.
    let mut names: Vec<(String, String)> = Vec::with_capacity(checked.len() * 2);
    let mut skills = Vec::new();
    // Each skill's diagnostics are at their levels already (`validate_one`);
    // those of the root and of the set get theirs below.
    let mut of_skills = Vec::new();
    let mut bytes = 0u64;
    let mut vendored = BTreeMap::new();
    for one in checked {
        bytes = bytes.saturating_add(one.bytes);
        if let Some(source) = one.vendored_from {
            vendored.insert(one.path.clone(), source);
        }
        paths.push(one.path);
        names.push((one.directory, one.file));
        skills.extend(one.skill);
        sources.extend(one.sources);
        of_skills.extend(one.diagnostics);
    }
    // A lenient name may differ from its directory: valid skills count by name too.
    names.extend(
        skills
            .iter()
            .map(|skill| (skill.name().to_owned(), skill.path().to_owned())),
    );
    report_duplicates(&names, &mut diagnostics);
    diagnostics.extend(set_too_large(bytes, config));
    skills.sort_by(|a, b| a.name().cmp(b.name()));
    // A set over `max_skills` is refused already: its set lints (pairs of
    // descriptions, the budget) would only cost time and memory.
    if !too_many {
        diagnostics.extend(set_lints(&skills, config, &mut sources));
    }
    at_levels(&mut diagnostics, &skills, config);
    diagnostics.extend(of_skills);
    diagnostics::sort(&mut diagnostics);
    Compilation {
        valid: ir::SkillSet { skills },
        diagnostics,
        sources,
        checked: paths,
        vendored,
    }
}

/// Lints over the whole set (similar descriptions, the context budget). The
/// files they point at were let go after validation: they are rebuilt from
/// the skills so that renderers can quote them.
fn set_lints(skills: &[Arc<ir::Skill>], config: &Config, sources: &mut Sources) -> Vec<Diagnostic> {
    let mut found = similar_descriptions(skills);
    if let Some(budget) = &config.budget {
        found.extend(lint::budget(skills, budget));
    }
    for diagnostic in &found {
        if sources.get(&diagnostic.file).is_none()
            && let Some(skill) = skills.iter().find(|s| s.path() == diagnostic.file)
        {
            sources.insert(SourceFile::new(skill.path(), skill.source_text()));
        }
    }
    found
}

/// Puts `diagnostics` at the levels of the configuration and of `skills`'
/// own `metadata.skills-lints`: allowed lints go, denied ones are errors.
fn at_levels<S: Borrow<ir::Skill>>(
    diagnostics: &mut Vec<Diagnostic>,
    skills: &[S],
    config: &Config,
) {
    config
        .lints
        .apply(diagnostics, &skill_lints(skills), config.deny_warnings);
    if config.deny_warnings {
        diagnostics::deny_warnings(diagnostics);
    }
}

/// What validating one skill gives: the skill, the files read, the diagnostics.
type Validated = (Option<ir::Skill>, Sources, Vec<Diagnostic>);

fn validate_one(files: SkillFiles, config: &Config) -> Validated {
    let mut sources = Sources::default();
    let mut diagnostics = Vec::new();
    let document = crate::read::document::read(files, config, &mut sources, &mut diagnostics);
    let mut skill = document
        .and_then(|document| validate::skill(document, config, &mut sources, &mut diagnostics));
    // The lints of one skill read the file as validation parsed it.
    if let Some(skill) = &mut skill {
        lint::skill(skill, &mut sources, config, &mut diagnostics);
        // The texts its checks read are not kept with it.
        for file in &mut skill.files {
            file.forget_text();
        }
    }
    // The levels say here already which lint findings are errors: a skill
    // with an error in its files is not valid, whichever stage found it.
    at_levels(&mut diagnostics, skill.as_slice(), config);
    let skill = skill.filter(|_| !diagnostics.iter().any(Diagnostic::is_error));
    // Renderers quote only files with a diagnostic; the others' text is let go
    // at once, which keeps a check of thousands of skills small.
    if diagnostics.is_empty() {
        sources = Sources::default();
    }
    (skill, sources, diagnostics)
}

/// S522 when the valid skills' files together (`bytes`) pass
/// `max_set_bytes`, by their listed sizes: nothing is read for it, so a
/// loader or a server refuses the set before holding any of it.
fn set_too_large(bytes: u64, config: &Config) -> Option<Diagnostic> {
    (bytes > config.max_set_bytes).then(|| {
        Diagnostic::error(
            Code::SetTooLarge,
            display_path(&config.dir),
            format!(
                "the skills' files hold {bytes} bytes together; the limit is {}",
                config.max_set_bytes
            ),
        )
        .with_help("remove large files, add them to `exclude`, or raise `max_set_bytes`: every byte is compiled in, or held by a server")
    })
}

fn report_duplicates(names: &[(String, String)], diagnostics: &mut Vec<Diagnostic>) {
    let mut by_name: BTreeMap<&str, std::collections::BTreeSet<&str>> = BTreeMap::new();
    for (name, path) in names {
        by_name.entry(name.as_str()).or_default().insert(path);
    }
    for (name, paths) in by_name.into_iter().filter(|(_, paths)| paths.len() > 1) {
        let paths: Vec<&str> = paths.into_iter().collect();
        diagnostics.push(
            Diagnostic::error(
                Code::DuplicateSkill,
                paths[1],
                format!("two skills are named `{name}`: {}", paths.join(" and ")),
            )
            .with_help("remove or rename one of them"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The owner as a scan of the skills in order finds it: the first whose
    /// folder (or flat file) is the file or holds it.
    fn scanned_owner(checked: &[String], file: &str) -> Option<usize> {
        checked.iter().position(|skill| {
            file == skill
                || file
                    .strip_prefix(skill.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    }

    #[test]
    fn a_diagnostic_counts_for_the_first_skill_that_holds_its_file_as_a_scan_finds_it() {
        let checked: Vec<String> = [
            "skills/outer",
            "skills/outer/inner",
            "skills/a",
            "skills/ab",
            "skills/flat.md",
            "other/a",
        ]
        .map(String::from)
        .to_vec();
        let files = [
            "skills/outer/SKILL.md",
            "skills/outer/inner/SKILL.md",
            "skills/outer/inner/references/x.md",
            "skills/ab/SKILL.md",
            "skills/a",
            "skills/abc/SKILL.md",
            "skills/flat.md",
            "skills",
            "other/a/b/c/d.md",
            "",
        ];
        for (errors, warnings) in [(0, 0), (3, 0), (0, 4), (7, 3), (10, 10)] {
            let diagnostics: Vec<Diagnostic> = files
                .iter()
                .cycle()
                .take(errors)
                .map(|file| Diagnostic::error(Code::NameMismatch, *file, "e"))
                .chain(files.iter().rev().cycle().take(warnings).map(|file| {
                    Diagnostic::error(Code::NoWhenToUse, *file, "w")
                        .with_severity(Severity::Warning)
                }))
                .collect();
            let compilation = Compilation {
                valid: ir::SkillSet { skills: Vec::new() },
                diagnostics,
                sources: Sources::default(),
                checked: checked.clone(),
                vendored: BTreeMap::new(),
            };
            let mut with_errors = vec![false; checked.len()];
            let mut with_warnings = vec![false; checked.len()];
            for diagnostic in &compilation.diagnostics {
                if let Some(at) = scanned_owner(&checked, &diagnostic.file) {
                    match diagnostic.severity {
                        Severity::Error => with_errors[at] = true,
                        Severity::Warning => with_warnings[at] = true,
                    }
                }
            }
            let count = |marks: &[bool]| marks.iter().filter(|&&m| m).count();
            let tally = compilation.tally();
            assert_eq!(tally.with_errors, count(&with_errors), "{errors} errors");
            assert_eq!(
                tally.with_warnings,
                count(&with_warnings),
                "{warnings} warnings"
            );
            assert_eq!((tally.errors, tally.warnings), (errors, warnings));
            assert_eq!(tally.valid, checked.len() - count(&with_errors));
        }
    }
}
