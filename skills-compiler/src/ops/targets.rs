//! Which skills an operation works on: explicit paths, or the workspace
//! packages that have skills, found through `cargo metadata`, the roots
//! their sources name and their configuration, as their builds see them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::Error;
use crate::config::{Config, Overrides, Profile};
use crate::diagnostics::Diagnostic;
use crate::pipeline::{Compilation, Run, compile, compile_looked_up_in};
use crate::read::discover::{
    SkillFiles, SkillPath, discover, discover_skill_in, display_path, skill_dir_of,
};
use crate::read::sources::roots_named_in_sources;

/// What the person selected, beyond the paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only this package of the workspace.
    pub package: Option<String>,
    /// This rule set instead of each package's.
    pub profile: Option<Profile>,
}

/// One place to compile: a crate directory and its configuration, with paths
/// relative to the current directory.
#[derive(Debug, Clone)]
pub struct Target {
    /// The rules, with the root (`dir`) relative to the current directory.
    pub config: Config,
    /// A single skill (a directory with SKILL.md, or a `.md` file) rather
    /// than a root, as looked up.
    pub skill: Option<SkillPath>,
    /// A root the workspace's configuration names that lies outside the
    /// workspace: the build reads it, the commands that write do not touch
    /// it unless it is named on the command line.
    pub outside_workspace: bool,
    /// What the run's targets share: the `.gitignore` rules of a folder
    /// that holds many of them, read once.
    pub shared: Arc<Run>,
}

/// A package's manifest that does not configure: its name, and where in
/// its `Cargo.toml` when the diagnostic knows (`app: app/Cargo.toml:9:22:
/// invalid [package.metadata.skills]: ...`).
fn configuration_error(name: &str, dir: &Path, diagnostic: &Diagnostic) -> Error {
    let at = match &diagnostic.span {
        Some(span) => format!(
            "{}:{}:{}: ",
            display_path(&relative_to_cwd(dir).join("Cargo.toml")),
            span.start.line,
            span.start.column
        ),
        None => String::new(),
    };
    Error::Usage(format!("{name}: {at}{}", diagnostic.message))
}

/// The operations that write refuse a configured root outside the workspace
/// (`dir = "../.."` would have `fmt` rewrite another repository's skills).
pub fn refuse_outside_workspace(targets: &[Target], verb: &str) -> Result<(), Error> {
    match targets.iter().find(|target| target.outside_workspace) {
        Some(target) => Err(Error::Usage(format!(
            "the skills root `{}` is outside the workspace, and `{verb}` writes only inside it; \
             name the directory on the command line to {verb} it anyway",
            target.config.dir.display()
        ))),
        None => Ok(()),
    }
}

impl Target {
    /// The same root (after resolving `..` and links) under the same rules.
    fn same_as(&self, other: &Target) -> bool {
        let canonical =
            |dir: &Path| std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let rules = |config: &Config| Config {
            dir: PathBuf::new(),
            ..config.clone()
        };
        let skill = |target: &Target| target.skill.as_ref().map(|s| s.path().to_path_buf());
        skill(self) == skill(other)
            && canonical(&self.config.dir) == canonical(&other.config.dir)
            && rules(&self.config) == rules(&other.config)
    }

    /// The skill files of this target, as discovery finds them; discovery's
    /// own problems go to `problems`.
    pub fn files(&self, problems: &mut Vec<Diagnostic>) -> Vec<SkillFiles> {
        let base = Path::new(".");
        match &self.skill {
            Some(skill) => {
                discover_skill_in(self.shared.read(), base, skill, &self.config, problems)
                    .into_iter()
                    .collect()
            }
            None => discover(base, &self.config, problems),
        }
    }

    /// This target compiled.
    pub fn compile(&self) -> Compilation {
        let base = Path::new(".");
        match &self.skill {
            Some(skill) => compile_looked_up_in(&self.shared, base, skill, &self.config),
            None => compile(base, &self.config),
        }
    }

    /// [`compile`](Self::compile) of a single skill with one of its files
    /// as an editor holds it; a root is compiled from disk.
    pub fn compile_with_text(&self, text: crate::pipeline::Unsaved<'_>) -> Compilation {
        let base = Path::new(".");
        match &self.skill {
            Some(skill) => {
                crate::pipeline::compile_with_text(&self.shared, base, skill, &self.config, text)
            }
            None => compile(base, &self.config),
        }
    }
}

/// The diagnostics of `compilation` a person reads: a vendored skill's
/// warnings in one line each (W027) unless `verbose`.
pub fn reported(compilation: &Compilation, verbose: bool) -> std::borrow::Cow<'_, [Diagnostic]> {
    if verbose || compilation.vendored.is_empty() {
        compilation.diagnostics.as_slice().into()
    } else {
        compilation.summarised().into()
    }
}

/// The targets for `paths` (empty: the workspace's packages with skills).
pub fn targets(
    selection: &Selection,
    paths: &[PathBuf],
    overrides: &Overrides,
) -> Result<Vec<Target>, Error> {
    targets_and_skipped(selection, paths, overrides).map(|(targets, _)| targets)
}

/// The same, with a note for each package that uses skills but was skipped
/// because it names no root that could be found: `check` prints them.
pub fn targets_and_skipped(
    selection: &Selection,
    paths: &[PathBuf],
    overrides: &Overrides,
) -> Result<(Vec<Target>, Vec<String>), Error> {
    let overrides = Overrides {
        profile: selection.profile.or(overrides.profile),
        ..overrides.clone()
    };
    let shared = Arc::new(Run::default());
    if !paths.is_empty() {
        // `skills/a/SKILL.md` means the skill `skills/a`, for every command.
        let paths: Vec<PathBuf> = paths.iter().map(|path| skill_dir_of(path)).collect();
        let paths = paths.as_slice();
        // Each path with the configuration of the package that owns it, as
        // the build of that package sees it.
        // Many paths usually share a few owners: find and load each once.
        let facts: Vec<PathFacts> =
            crate::parallel::map_in_order(paths.iter().collect(), |path| PathFacts::of(path));
        let mut owners = Owners::default();
        let mut configs: std::collections::HashMap<PathBuf, Config> = Default::default();
        let targets = paths
            .iter()
            .zip(&facts)
            .map(|(path, facts)| {
                let owner = owners.of(path, facts).unwrap_or_else(|| PathBuf::from("."));
                if !configs.contains_key(&owner) {
                    let config = Config::load(&owner, overrides.clone())
                        .map_err(|d| Error::Usage(d.message))?;
                    configs.insert(owner.clone(), config);
                }
                Ok(path_target(path, &facts.skill, &configs[&owner], &shared))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        return Ok((targets, Vec::new()));
    }
    let packages = packages()?;
    let mut targets = Vec::new();
    let mut skipped = Vec::new();
    for package in &packages {
        if selection
            .package
            .as_ref()
            .is_some_and(|name| name != &package.name)
        {
            continue;
        }
        let config = Config::load(&package.dir, overrides.clone())
            .map_err(|d| configuration_error(&package.name, &package.dir, &d))?;
        // The build's rule, so that the CLI never works on a root the build refuses.
        config.check_relative_root(&package.dir).map_err(|d| {
            Error::Usage(format!(
                "package `{}`: {}{}",
                package.name,
                d.message,
                d.help.map(|help| format!("; {help}")).unwrap_or_default()
            ))
        })?;
        let relative = relative_to_cwd(&package.dir);
        // The roots the package's sources name, else the configured one.
        let named = if package.uses_skills {
            roots_named_in_sources(&package.dir)
        } else {
            Vec::new()
        };
        let explicit = selection.package.is_some() || package.configured;
        // A literal in the macro or the build script overrides the configured
        // `dir`, and the macro's options the manifest's, as in the build; a
        // flag given here comes first.
        let roots: Vec<(PathBuf, Config)> = if !named.is_empty() {
            let mut roots = Vec::new();
            for root in named {
                let config = if root.overrides == Overrides::default() {
                    config.clone()
                } else {
                    let options = overrides.clone().over(root.overrides);
                    Config::load(&package.dir, options)
                        .map_err(|d| configuration_error(&package.name, &package.dir, &d))?
                };
                roots.push((root.dir, config));
            }
            roots
        } else if explicit || package.dir.join(&config.dir).is_dir() {
            vec![(config.dir.clone(), config.clone())]
        } else {
            if package.uses_skills {
                skipped.push(format!(
                    "note: package `{}` depends on `skills` but names no skills root (no `[package.metadata.skills]`, no `{}` directory, no `include_skills!(\"...\")` or `skills_build` call with a literal path): skipped",
                    package.name,
                    config.dir.display()
                ));
            }
            continue;
        };
        for (root, config) in roots {
            let outside_workspace = !inside(&package.dir.join(&root), &package.workspace_root);
            let target = Target {
                config: Config {
                    dir: relative.join(&root),
                    ..config
                },
                skill: None,
                outside_workspace,
                shared: Arc::clone(&shared),
            };
            // Two packages compiling the same root with the same rules: check it once.
            if !targets.iter().any(|t: &Target| t.same_as(&target)) {
                targets.push(target);
            }
        }
    }
    if let Some(name) = &selection.package
        && targets.is_empty()
    {
        return Err(Error::Usage(format!(
            "package `{name}` is not in this workspace"
        )));
    }
    if targets.is_empty() && packages.is_empty() {
        // Not in a cargo project: the current directory's `skills`.
        let config =
            Config::load(Path::new("."), overrides).map_err(|d| Error::Usage(d.message))?;
        targets.push(Target {
            config,
            skill: None,
            outside_workspace: false,
            shared,
        });
    }
    Ok((targets, skipped))
}

/// What finding a path's owner and target needs to know about the path
/// itself: two or three system calls, made for every path on every core (a
/// collection on one command line has thousands). The look-up is handed on
/// to the compiler, which does not repeat it.
struct PathFacts {
    skill: SkillPath,
    /// A root (not a skill) that has a `Cargo.toml` with a `[package]`.
    is_package: bool,
}

impl PathFacts {
    fn of(path: &Path) -> Self {
        let skill = SkillPath::look_up(Path::new("."), path);
        // A skill is built by the package whose skills root holds it, even
        // when its directory is a crate of its own (a helper it ships): its
        // owner is looked for from its parent up.
        let is_package = !skill.is_skill() && is_package(path);
        PathFacts { skill, is_package }
    }
}

/// A path with a SKILL.md (or a `.md` file) is one skill; anything else a root.
fn path_target(path: &Path, skill: &SkillPath, config: &Config, shared: &Arc<Run>) -> Target {
    Target {
        shared: Arc::clone(shared),
        config: Config {
            dir: path.to_path_buf(),
            ..config.clone()
        },
        skill: skill.is_skill().then(|| skill.clone()),
        outside_workspace: false,
    }
}

/// Whether `path` (resolved, `..` and links followed) lies in `root`.
fn inside(path: &Path, root: &Path) -> bool {
    let resolve = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    resolve(path).starts_with(resolve(root))
}

/// The package that owns each path: the directory of the nearest
/// `Cargo.toml` with a `[package]` at or above it, remembered per directory.
#[derive(Default)]
struct Owners {
    /// Directory (canonical) to its owner, already relative to the current
    /// directory, so that each directory is probed for a `Cargo.toml` and
    /// each owner made relative once.
    known: std::collections::HashMap<PathBuf, Option<PathBuf>>,
    /// Each parent directory as given to the owner of its entries that are
    /// neither links nor packages: most paths of a collection are found here.
    by_parent: std::collections::HashMap<PathBuf, Option<PathBuf>>,
    /// Paths as given to their resolved form.
    resolved: std::collections::HashMap<PathBuf, PathBuf>,
}

impl Owners {
    fn of(&mut self, path: &Path, facts: &PathFacts) -> Option<PathBuf> {
        let is_link = facts.skill.is_symlink()?;
        let parent = path
            .parent()
            .filter(|parent| !is_link && !facts.is_package && !parent.as_os_str().is_empty());
        if let Some(owner) = parent.and_then(|parent| self.by_parent.get(parent)) {
            return owner.clone();
        }
        let owner = self.search(path, is_link, facts.is_package);
        if let Some(parent) = parent {
            self.by_parent.insert(parent.to_path_buf(), owner.clone());
        }
        owner
    }

    /// The nearest package at or above `path` (a link or not, as looked
    /// up), after resolving it.
    fn search(&mut self, path: &Path, is_link: bool, owns_itself: bool) -> Option<PathBuf> {
        let start = self.resolve_known(path, is_link)?;
        if owns_itself {
            return Some(relative_to_cwd(&start));
        }
        let mut visited = Vec::new();
        let mut found = None;
        for dir in start.ancestors().skip(1) {
            if let Some(known) = self.known.get(dir) {
                found = known.clone();
                break;
            }
            visited.push(dir.to_path_buf());
            if is_package(dir) {
                found = Some(relative_to_cwd(dir));
                break;
            }
        }
        for dir in visited {
            self.known.insert(dir, found.clone());
        }
        found
    }

    /// `fs::canonicalize(path)`, from its parent's resolution when it is not
    /// a link: the paths of a collection share their ancestors, and
    /// `canonicalize` costs a `readlink` per component.
    fn resolve(&mut self, path: &Path) -> Option<PathBuf> {
        if let Some(resolved) = self.resolved.get(path) {
            return Some(resolved.clone());
        }
        // `parent/name`, not `path`: `a/.` would follow a link named `a`.
        let is_link = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => std::fs::symlink_metadata(parent.join(name))
                .ok()?
                .is_symlink(),
            _ => true,
        };
        let resolved = self.resolve_known(path, is_link)?;
        self.resolved.insert(path.to_path_buf(), resolved.clone());
        Some(resolved)
    }

    /// `resolve` for a path whose last component is known to be a link or
    /// not (a path of the command line was looked up already).
    fn resolve_known(&mut self, path: &Path, is_link: bool) -> Option<PathBuf> {
        match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) if !is_link && !parent.as_os_str().is_empty() => {
                Some(self.resolve(parent)?.join(name))
            }
            _ => std::fs::canonicalize(path).ok(),
        }
    }
}

/// Whether `dir` has a `Cargo.toml` with a `[package]` (a virtual
/// workspace's manifest has none).
pub(crate) fn is_package(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()
        .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
        .is_some_and(|manifest| manifest.contains_key("package"))
}

/// A package of the workspace, as `cargo metadata` lists it.
pub struct Package {
    /// Its name.
    pub name: String,
    /// The folder of its `Cargo.toml`.
    pub dir: PathBuf,
    /// Has `[package.metadata.skills]`.
    pub configured: bool,
    /// Depends on the `skills` runtime crate with its macro, or builds with
    /// `skills-build` (so its sources may name skills roots).
    pub uses_skills: bool,
    /// The root of the workspace the package is in.
    pub workspace_root: PathBuf,
}

/// The workspace's packages, or none outside a cargo project.
pub fn packages() -> Result<Vec<Package>, Error> {
    let metadata = match cargo_metadata::MetadataCommand::new().no_deps().exec() {
        Ok(metadata) => metadata,
        Err(cargo_metadata::Error::CargoMetadata { stderr })
            if stderr.contains("could not find `Cargo.toml`") =>
        {
            return Ok(Vec::new());
        }
        Err(error) => return Err(Error::Io(format!("cargo metadata failed: {error}"))),
    };
    let mut packages: Vec<Package> = metadata
        .workspace_packages()
        .into_iter()
        .map(|package| Package {
            name: package.name.to_string(),
            dir: package
                .manifest_path
                .parent()
                .map(|p| p.as_std_path().to_path_buf())
                .unwrap_or_default(),
            configured: package.metadata.get("skills").is_some(),
            workspace_root: metadata.workspace_root.as_std_path().to_path_buf(),
            uses_skills: package.dependencies.iter().any(|d| {
                (d.name == "skills-runtime"
                    && (d.uses_default_features || d.features.iter().any(|f| f == "macros")))
                    || d.name == "skills-build"
            }),
        })
        .collect();
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(packages)
}

/// `dir` relative to the current directory when it is inside it; as is otherwise.
pub(crate) fn relative_to_cwd(dir: &Path) -> PathBuf {
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .unwrap_or_default();
    let dir_canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match dir_canonical.strip_prefix(&cwd) {
        Ok(relative) if relative.as_os_str().is_empty() => PathBuf::from("."),
        Ok(relative) => relative.to_path_buf(),
        Err(_) => dir.to_path_buf(),
    }
}

/// The skills named (all when none is), each name a skill of the set.
pub fn named_in<'s>(
    set: &'s crate::ir::SkillSet,
    names: &[String],
) -> Result<Vec<&'s crate::ir::Skill>, Error> {
    if set.skills.is_empty() {
        return Err(Error::Usage(
            "no skills were found: name a skills root with --from".to_owned(),
        ));
    }
    if names.is_empty() {
        return Ok(set.skills.iter().map(|skill| &**skill).collect());
    }
    names
        .iter()
        .map(|name| {
            set.get(name).ok_or_else(|| {
                let known = set.skills.iter().map(|s| s.name());
                let hint = match skills_core::closest(name, known.clone()) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("the skills are: {}", known.collect::<Vec<_>>().join(", ")),
                };
                Error::Usage(format!(
                    "there is no skill named `{}`; {hint}",
                    skills_core::printable(name)
                ))
            })
        })
        .collect()
}

/// Every skill folder below each of `paths` (a path that is a skill stays
/// itself), with a warning for each search that stopped at its limits. A
/// path with none stays as it is: checked as a root, it is the error that
/// says nothing was found there.
pub fn nested_skills(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut expanded = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        if SkillPath::look_up(Path::new("."), path).is_skill() {
            expanded.push(path.clone());
            continue;
        }
        let nested = crate::read::collection::skill_dirs(path);
        if nested.truncated {
            warnings.push(format!(
                "the search below `{}` stopped at {} levels or {} folders: skills beyond them were not checked",
                display_path(path),
                crate::read::collection::MAX_DEPTH,
                crate::read::collection::MAX_FOLDERS
            ));
        }
        if nested.skills.is_empty() {
            expanded.push(path.clone());
        }
        expanded.extend(nested.skills.into_iter().map(|skill| skill.path));
    }
    (expanded, warnings)
}
