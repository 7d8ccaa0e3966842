//! Discovery: which entries of a skills root are skills, read with bounded memory.

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::config::{Config, Profile};
use crate::diagnostics::{Code, Diagnostic};
use crate::read::collection;
use crate::read::files::{self, Exclude, SkillDir};
use crate::read::gitignore::GitRules;
use crate::read::layout::{SKILL_FILE, TOOLS_FILE, is_ignored_root_entry};
use crate::read::open::{fill, open_regular_with_metadata};
use crate::read::shared::Shared;

/// The files of one skill as discovery found them.
#[derive(Debug, Clone)]
pub struct SkillFiles {
    /// The skill file, relative to the crate root.
    pub path: String,
    /// The name the skill's `name` must match: its directory, or a flat file's stem.
    pub directory: String,
    /// The skill file's bytes.
    pub bytes: Vec<u8>,
    /// A sidecar `tools.yaml`: its path and bytes.
    pub tools_yaml: Option<(String, Vec<u8>)>,
    /// The skill's directory and its other files; `None` for a flat
    /// `<name>.md` skill and for skills held in memory.
    pub dir: Option<SkillDir>,
}

/// Finds the skills under `base/config.dir`, sorted by entry name. Problems
/// with the layout are pushed to `diagnostics`; skills that can be read are returned.
pub fn discover(
    base: &Path,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<SkillFiles> {
    let shared = Shared::default();
    let Some(root) = Root::open(base, config, &shared, diagnostics) else {
        return Vec::new();
    };
    root.read_all(|files| files, diagnostics)
}

/// A skills root opened for discovery: its entries listed, the rules that
/// leave files out compiled. Each entry is then read on its own
/// ([`Root::read_entry`]), so that a root compiled again after a change
/// reads only the entries that changed.
pub(crate) struct Root<'a> {
    walker: Walker<'a>,
    entries: Vec<Entry>,
}

impl<'a> Root<'a> {
    /// Lists `base/config.dir`; `None`, with the error pushed, when it
    /// cannot be read or its `exclude` globs are invalid.
    pub(crate) fn open(
        base: &Path,
        config: &'a Config,
        shared: &'a Shared,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Root<'a>> {
        let root = base.join(&config.dir);
        let root_display = display_path(&config.dir);
        let entries = match read_dir_sorted(&root) {
            Ok(entries) => entries,
            Err(error) => {
                let message = if root.exists() {
                    format!("the skills root `{root_display}` cannot be read: {error}")
                } else {
                    format!("the skills root `{root_display}` does not exist")
                };
                diagnostics.push(
                    Diagnostic::error(Code::RootMissing, &root_display, message)
                        .with_help("create the directory, or set `dir` in [package.metadata.skills] (paths are relative to Cargo.toml)"),
                );
                return None;
            }
        };
        let walker = Walker::new(config, root, root_display, shared, diagnostics)?;
        let entries = entries
            .into_iter()
            .filter(|child| !is_ignored_root_entry(&child.name))
            .map(Entry)
            .collect();
        Some(Root { walker, entries })
    }

    /// The entries that can hold skills, sorted by name.
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every entry read, on every core with the `parallel` feature, and
    /// each of its skills handed to `each` on the thread that read it, in
    /// the entries' order (nested skills after their parent); the
    /// problems met, with the root's own when no skill was found, are
    /// pushed to `diagnostics`.
    pub(crate) fn read_all<T: Send>(
        &self,
        each: impl Fn(SkillFiles) -> T + Sync + Send,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<T> {
        let read = crate::parallel::map_in_order(self.entries.iter().collect(), |entry| {
            let (files, problems) = self.read_entry(entry);
            let skills: Vec<T> = files.into_iter().map(&each).collect();
            (skills, problems)
        });
        let mut found = Vec::new();
        let mut problems = Vec::new();
        for (skills, entry_problems) in read {
            found.extend(skills);
            problems.extend(entry_problems);
        }
        self.none_found(found.len(), &mut problems);
        diagnostics.extend(problems);
        found
    }

    /// The skills of one entry, its nested skills after it, and the
    /// problems met reading them.
    pub(crate) fn read_entry(&self, entry: &Entry) -> (Vec<SkillFiles>, Vec<Diagnostic>) {
        let Entry(child) = entry;
        let mut problems = Vec::new();
        let mut files: Vec<SkillFiles> = self
            .walker
            .entry(
                &child.name,
                child.kind(),
                Expected::RootEntry,
                &mut problems,
            )
            .into_iter()
            .collect();
        // Each skill's nested skills follow it, found as it is read.
        let mut at = 0;
        while let Some(parent) = files.get(at) {
            let nested = self.walker.nested_in(parent, &mut problems);
            files.extend(nested);
            at += 1;
        }
        (files, problems)
    }

    /// The root's problems once its `found` skills are counted: a root
    /// without one is an error (S518) that names the folders without a
    /// SKILL.md in place of their own warnings.
    pub(crate) fn none_found(&self, found: usize, problems: &mut Vec<Diagnostic>) {
        if found == 0 && !problems.iter().any(Diagnostic::is_error) {
            problems.retain(|d| d.code != Code::DirectoryWithoutSkill);
            problems.push(no_skill_found(&self.walker.root, &self.walker.root_display));
        }
    }
}

/// An entry of a skills root: a folder or a flat `.md` file that may be a skill.
pub(crate) struct Entry(Child);

impl Entry {
    /// Its name in the root.
    pub(crate) fn name(&self) -> &str {
        &self.0.name
    }

    /// Whether it is a symlink (to another entry: links out of the root
    /// are refused), or may be one.
    pub(crate) fn is_symlink(&self) -> bool {
        self.0.is_symlink()
    }
}

/// The error for a root that holds no skill at all: what it holds, and
/// where the nearest skills are, so that a root given a level too high (a
/// collection of collections) is not passed as checked.
pub(crate) fn no_skill_found(root: &Path, display: &str) -> Diagnostic {
    let nested = collection::nearest(root);
    let mut message = format!("no skill found in `{display}`");
    let folders = &nested.folders_without_skill;
    match folders.len() {
        0 => message.push_str(": it holds no folder with a SKILL.md"),
        n => {
            let shown: Vec<String> = folders.iter().take(3).map(|f| format!("`{f}`")).collect();
            let more = if n > 3 {
                format!(" and {} more", n - 3)
            } else {
                String::new()
            };
            let folders = if n == 1 { "folder" } else { "folders" };
            message.push_str(&format!(
                ": it holds {n} {folders} without a SKILL.md ({}{more})",
                shown.join(", ")
            ));
        }
    }
    let Some(first) = nested.skills.first() else {
        let help = if nested.truncated {
            "no SKILL.md in the first folders searched below it either"
        } else {
            "and no SKILL.md below it either"
        };
        return Diagnostic::error(Code::NoSkills, display, format!("{message}, {help}"))
            .with_help("a skills root holds one folder per skill, each with a SKILL.md: create one with `cargo skills new NAME`, or name the folder that holds the skills");
    };
    let others = nested.skills.len() - 1;
    let also = match others {
        0 => String::new(),
        n => format!(", and {n} more at that depth"),
    };
    // As the user named the root: `display` joined with the path below it.
    let below = first.path.strip_prefix(root).unwrap_or(&first.path);
    let shown = |path: &Path| display_path(&Path::new(display).join(path));
    let nearest = shown(&below.join(SKILL_FILE));
    let holder = shown(below.parent().unwrap_or(Path::new("")));
    Diagnostic::error(
        Code::NoSkills,
        display,
        format!(
            "{message}; the nearest skill is {} down (`{nearest}`{also})",
            match first.depth {
                1 => "1 folder".to_owned(),
                n => format!("{n} folders"),
            }
        ),
    )
    .with_help(format!(
        "a skills root holds one folder per skill: name the folder that holds them (`{holder}`), \
         or check every nested collection with `cargo skills check --recursive {display}`"
    ))
}

/// Reads the one skill at `base/path` (a skill directory or a flat `.md`
/// file), as discovery would inside its parent directory.
pub fn discover_one(
    base: &Path,
    path: &Path,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SkillFiles> {
    discover_skill(base, &SkillPath::look_up(base, path), config, diagnostics)
}

/// [`discover_one`] for a path already looked up: what the look-up found
/// is not looked up again.
pub fn discover_skill(
    base: &Path,
    skill: &SkillPath,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SkillFiles> {
    discover_skill_in(&Shared::default(), base, skill, config, diagnostics)
}

/// [`discover_skill`] with what the run's other skills read already:
/// their root's `.gitignore` rules and the compiled `exclude` patterns.
pub fn discover_skill_in(
    shared: &Shared,
    base: &Path,
    skill: &SkillPath,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SkillFiles> {
    let path = skill.path.as_path();
    let display = display_path(path);
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        diagnostics.push(not_found(&display));
        return None;
    };
    let kind = match skill.known_kind() {
        Ok(kind) => kind,
        Err(()) => {
            diagnostics.push(not_found(&display));
            return None;
        }
    };
    let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let walker = Walker::new(
        config,
        base.join(&parent),
        display_path(&parent),
        shared,
        diagnostics,
    )?;
    walker.entry(&name, kind, Expected::Skill, diagnostics)
}

/// What the caller takes an entry to be, which decides what a directory
/// without SKILL.md is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// An entry of a skills root: perhaps a skill (W001, a warning, if not).
    RootEntry,
    /// A path named as one skill: it must be one (W001 as an error).
    Skill,
}

/// A path to check as one skill, looked up once: `lstat` of it and, for a
/// directory, of its SKILL.md. A command line's paths are looked up on every
/// core to find which are skills and who owns them; compiling them with
/// `compile_looked_up` then does not look again (on a large
/// collection, checking is mostly system calls).
#[derive(Debug, Clone)]
pub struct SkillPath {
    path: PathBuf,
    /// The path's own type; the error's kind when it cannot be looked up.
    entry: Result<fs::FileType, std::io::ErrorKind>,
    is_skill: bool,
}

impl SkillPath {
    /// Looks up `base/path`; `path` is kept as given, for display.
    pub fn look_up(base: &Path, path: &Path) -> Self {
        let full = base.join(path);
        // `parent/name`, not `path`: `a/.` would follow a link named `a`.
        let entry_path = match (full.parent(), full.file_name()) {
            (Some(parent), Some(name)) => parent.join(name),
            _ => full.clone(),
        };
        let entry = fs::symlink_metadata(&entry_path)
            .map(|m| m.file_type())
            .map_err(|e| e.kind());
        let skill_md = match entry {
            Ok(kind) if kind.is_dir() => SkillMd::probed(probe(&full.join(SKILL_FILE))),
            _ => SkillMd::Unknown,
        };
        // A skill file that is a link, or a directory that is one, is
        // followed. A directory is never a flat skill file, whatever its
        // name (`design.md/` holding skills of its own).
        let is_dir = match entry {
            Ok(kind) if kind.is_symlink() => full.is_dir(),
            Ok(kind) => kind.is_dir(),
            Err(_) => false,
        };
        // A folder whose skill file is misnamed (`skill.md`) is a skill all
        // the same, so that every command says S502 of it, as a check of
        // its root does, and none reads `skill.md` as a flat skill.
        let is_skill = (path.extension().is_some_and(|e| e == "md") && !is_dir)
            || match skill_md {
                SkillMd::Found(found) if !found.is_symlink => found.is_file,
                SkillMd::Missing => holds_misnamed_skill_file(&full),
                _ => full.join(SKILL_FILE).is_file(),
            };
        SkillPath {
            path: path.to_path_buf(),
            entry,
            is_skill,
        }
    }

    /// The path looked up, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the path is a symlink; `None` when it cannot be looked up.
    pub fn is_symlink(&self) -> Option<bool> {
        self.entry.ok().map(|kind| kind.is_symlink())
    }

    /// A directory with a SKILL.md, or a `.md` file: one skill, not a root.
    pub fn is_skill(&self) -> bool {
        self.is_skill
    }

    /// The path's kind, when it is not a link, so that the walker need not
    /// look it up again; `Err` when the path is not there.
    fn known_kind(&self) -> Result<Option<Kind>, ()> {
        match self.entry {
            Err(std::io::ErrorKind::NotFound) => Err(()),
            // Other errors surface when the file is read.
            Err(_) => Ok(Some(Kind::File)),
            Ok(kind) if kind.is_symlink() => Ok(None),
            Ok(kind) => Ok(Some(Kind::of(kind))),
        }
    }
}

/// What a look-up of a directory's SKILL.md said.
#[derive(Debug, Clone, Copy)]
enum SkillMd {
    /// Not looked up, or the look-up failed.
    Unknown,
    /// Looked up: there is none.
    Missing,
    Found(Found),
}

impl SkillMd {
    fn probed(result: std::io::Result<Option<Found>>) -> SkillMd {
        match result {
            Ok(Some(found)) => SkillMd::Found(found),
            Ok(None) => SkillMd::Missing,
            Err(_) => SkillMd::Unknown,
        }
    }
}

struct Walker<'a> {
    config: &'a Config,
    exclude: std::sync::Arc<Exclude>,
    root: PathBuf,
    /// Resolved on the first symlink: most roots have none, and resolving
    /// costs a system call per path component.
    canonical_root: std::sync::OnceLock<PathBuf>,
    /// The `.gitignore` rules in force at the root: read once, on the first
    /// skill, and carried down to each.
    git_rules: std::sync::OnceLock<std::sync::Arc<Option<GitRules>>>,
    root_display: String,
    /// What the run's other walkers read already (the same root's rules).
    shared: &'a Shared,
}

impl<'a> Walker<'a> {
    /// `None` when the configuration's `exclude` is invalid (reported).
    fn new(
        config: &'a Config,
        root: PathBuf,
        root_display: String,
        shared: &'a Shared,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Self> {
        let exclude = (shared.exclude(config))
            .map_err(|diagnostic| diagnostics.push(diagnostic))
            .ok()?;
        Some(Walker {
            config,
            exclude,
            root,
            canonical_root: std::sync::OnceLock::new(),
            git_rules: std::sync::OnceLock::new(),
            root_display,
            shared,
        })
    }

    fn git_rules(&self) -> Option<&GitRules> {
        let rules = (self.git_rules).get_or_init(|| self.shared.git_rules(&self.root));
        rules.as_ref().as_ref()
    }

    fn canonical_root(&self) -> &Path {
        self.canonical_root
            .get_or_init(|| fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone()))
    }

    /// The skill at `name` in the root, if it is one. `kind` is what the
    /// root's listing or the caller's look-up already found.
    fn entry(
        &self,
        name: &str,
        kind: Option<Kind>,
        expected: Expected,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<SkillFiles> {
        let path = self.root.join(name);
        let display = match self.root_display.as_str() {
            "." => name.to_owned(),
            root => format!("{root}/{name}"),
        };
        // A name of the root's own entries, whose kind the caller knows,
        // is not a link; a nested skill's path (`a/forms`) may go through
        // one to its parent.
        let linked = kind.is_none() || name.contains('/');
        let kind = match kind {
            Some(kind) => Ok(kind),
            None => self.entry_kind(&path, &display),
        };
        let is_dir = match kind {
            Ok(kind) => kind == Kind::Directory,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                return None;
            }
        };
        if is_dir {
            return self.directory(&path, name, &display, linked, expected, diagnostics);
        }
        let stem = name.strip_suffix(".md")?;
        if self.config.profile == Profile::Portable {
            diagnostics.push(
                Diagnostic::error(
                    Code::FlatLayout,
                    &display,
                    format!(
                        "`{name}` is a flat skill file, which the Agent Skills layout does not have"
                    ),
                )
                .with_help(format!(
                    "move it to `{}/{stem}/SKILL.md`",
                    self.root_display
                )),
            );
            return None;
        }
        let bytes = self.read(&path, &display, diagnostics)?;
        Some(SkillFiles {
            path: display,
            directory: stem.to_owned(),
            bytes,
            tools_yaml: None,
            dir: None,
        })
    }

    /// The skill directory `dir`, `name` in the root; `linked` when a
    /// symlink may lie on the way to it from the root.
    fn directory(
        &self,
        dir: &Path,
        name: &str,
        display: &str,
        linked: bool,
        expected: Expected,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<SkillFiles> {
        let listed = match files::Listed::read(dir) {
            Ok(listed) => listed,
            Err(error) => {
                diagnostics.push(cannot_read_directory(display, &error));
                return None;
            }
        };
        let layout = Layout::of(&listed);
        let Some(skill_file) = layout.skill_md else {
            diagnostics.push(without_skill_file(dir, name, display, expected));
            return None;
        };
        let skill_display = format!("{display}/{SKILL_FILE}");
        let skill_path = dir.join(SKILL_FILE);
        if skill_file.is_symlink
            && let Err(diagnostic) = self.link_inside_root(&skill_path, &skill_display)
        {
            diagnostics.push(diagnostic);
            return None;
        }
        let bytes = self.read(&skill_path, &skill_display, diagnostics)?;
        let tools_yaml = if let Some(tools_file) = layout.tools_yaml {
            let tools_display = format!("{display}/{TOOLS_FILE}");
            let tools_path = dir.join(TOOLS_FILE);
            if tools_file.is_symlink
                && let Err(diagnostic) = self.link_inside_root(&tools_path, &tools_display)
            {
                diagnostics.push(diagnostic);
                return None;
            }
            Some((
                tools_display.clone(),
                self.read(&tools_path, &tools_display, diagnostics)?,
            ))
        } else {
            None
        };
        let git = self.git_rules().and_then(|rules| match linked {
            true => rules.for_skill(dir),
            false => Some(rules.for_skill_named(name)),
        });
        let listed_dir = files::ListedDir {
            path: dir,
            display,
            listed,
        };
        let listing = files::read(
            listed_dir,
            bytes.len() as u64,
            self.config,
            &self.exclude,
            git,
            diagnostics,
        );
        Some(SkillFiles {
            path: skill_display,
            directory: name.rsplit('/').next().unwrap_or(name).to_owned(),
            bytes,
            tools_yaml,
            dir: Some(SkillDir {
                path: display.to_owned(),
                root: self.root_display.clone(),
                root_on_disk: self.root.clone(),
                on_disk: dir.to_path_buf(),
                listing,
            }),
        })
    }

    /// The skills nested in `parent`'s directory (SEP-2640: a folder below
    /// a skill that has a SKILL.md of its own), each read as a skill whose
    /// path from the root goes through its parent's. A folder reached
    /// through a symlink is left as its parent's skip: a link back up to
    /// the parent would otherwise be a skill inside itself.
    fn nested_in(&self, parent: &SkillFiles, diagnostics: &mut Vec<Diagnostic>) -> Vec<SkillFiles> {
        let Some(dir) = &parent.dir else {
            return Vec::new();
        };
        let in_root = match self.root_display.as_str() {
            "." => dir.path.as_str(),
            root => dir
                .path
                .strip_prefix(root)
                .and_then(|rest| rest.strip_prefix('/'))
                .unwrap_or(&dir.path),
        };
        dir.listing
            .skipped
            .iter()
            .filter(|skipped| skipped.reason == files::SkipReason::NestedSkill)
            .filter(|skipped| {
                let folder = skipped.path.trim_end_matches('/');
                fs::symlink_metadata(dir.on_disk.join(folder)).is_ok_and(|m| m.is_dir())
            })
            .filter_map(|skipped| {
                let name = format!("{in_root}/{}", skipped.path.trim_end_matches('/'));
                self.entry(&name, Some(Kind::Directory), Expected::Skill, diagnostics)
            })
            .collect()
    }

    /// Whether `path` is a directory, following a symlink only when its
    /// target stays inside the root. One `lstat` answers for the common
    /// case: checking a collection is mostly system calls.
    fn entry_kind(&self, path: &Path, display: &str) -> Result<Kind, Diagnostic> {
        match fs::symlink_metadata(path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Err(not_found(display)),
            // Other errors surface when the file is read.
            Err(_) => Ok(Kind::File),
            Ok(metadata) if !metadata.file_type().is_symlink() => {
                Ok(Kind::of(metadata.file_type()))
            }
            Ok(_) => {
                let target = self.link_inside_root(path, display)?;
                Ok(fs::metadata(target).map_or(Kind::File, |m| Kind::of(m.file_type())))
            }
        }
    }

    /// The target of the symlink `path`, when it stays inside the root.
    fn link_inside_root(&self, path: &Path, display: &str) -> Result<PathBuf, Diagnostic> {
        match fs::canonicalize(path) {
            Ok(target) if target.starts_with(self.canonical_root()) => Ok(target),
            Ok(_) => Err(Diagnostic::error(
                Code::SymlinkEscape,
                display,
                format!("`{display}` is a symlink that leads outside the skills root"),
            )
            .with_help("copy the skill into the root, or point the link at a target inside it")),
            Err(error) => Err(Diagnostic::error(
                Code::SymlinkEscape,
                display,
                format!("`{display}` is a symlink that cannot be followed: {error}"),
            )
            .with_help("fix or remove the link")),
        }
    }

    /// Reads at most what the document limit allows, so a huge file costs
    /// no memory: the length the handle's `fstat` gives, in one `read` (the
    /// file as it was then, with no last `read` to see its end), or one
    /// byte past the limit.
    fn read(
        &self,
        path: &Path,
        display: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Vec<u8>> {
        let limit = self.config.max_document_bytes();
        let result = open_regular_with_metadata(path).and_then(|(mut file, metadata)| {
            let mut bytes = vec![0; metadata.len().min(limit + 1) as usize];
            fill(&mut file, &mut bytes, metadata.len())?;
            Ok(bytes)
        });
        match result {
            Ok(bytes) if bytes.len() as u64 > limit => {
                diagnostics.push(
                    Diagnostic::error(
                        Code::DocumentTooLarge,
                        display,
                        format!(
                            "the file is larger than {} bytes; the limit is {} characters",
                            limit, self.config.max_document_chars
                        ),
                    )
                    .with_help(
                        "move detail into files under `references/`, or raise `max_document_chars`",
                    ),
                );
                None
            }
            Ok(bytes) => Some(bytes),
            Err(error) => {
                diagnostics.push(Diagnostic::error(
                    Code::Io,
                    display,
                    format!("cannot read the file: {error}"),
                ));
                None
            }
        }
    }
}

/// What an entry of a root is, after following a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Directory,
    File,
}

impl Kind {
    fn of(file_type: fs::FileType) -> Kind {
        if file_type.is_dir() {
            Kind::Directory
        } else {
            Kind::File
        }
    }
}

/// An entry of a directory listing, with its type when the listing gave
/// it (most file systems do): then a root's entries cost no `lstat`.
struct Child {
    name: String,
    file_type: Option<fs::FileType>,
}

impl Child {
    /// When the type is unknown, the link check runs: erring towards it is safe.
    fn is_symlink(&self) -> bool {
        self.file_type.is_none_or(|t| t.is_symlink())
    }

    /// The kind, when the listing says and the entry is not a link.
    fn kind(&self) -> Option<Kind> {
        self.file_type.filter(|t| !t.is_symlink()).map(Kind::of)
    }
}

fn read_dir_sorted(dir: &Path) -> std::io::Result<Vec<Child>> {
    let mut children = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        children.push(Child {
            // Names that are not UTF-8 cannot be skill names; keep them visible in messages.
            name: entry.file_name().to_string_lossy().into_owned(),
            file_type: entry.file_type().ok(),
        });
    }
    children.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(children)
}

/// Whether a skill directory has its two files, and what is known of each.
struct Layout {
    skill_md: Option<Found>,
    tools_yaml: Option<Found>,
}

/// A file found in a skill directory.
#[derive(Debug, Clone, Copy)]
struct Found {
    is_symlink: bool,
    is_file: bool,
}

impl Layout {
    /// What the skill directory's listing says of its two files. The walk
    /// of the skill's files starts from the same listing, so knowing them
    /// costs no look-up (a probe for a `tools.yaml` that most skills do not
    /// have was a system call a skill); and only a listing tells `SKILL.md`
    /// from `skill.md` where the disk folds case.
    fn of(listed: &files::Listed) -> Layout {
        let found = |name: &str| {
            let entry = listed.get(name)?;
            Some(Found {
                is_symlink: entry.file_type.is_none_or(|t| t.is_symlink()),
                is_file: entry.file_type.is_some_and(|t| t.is_file()),
            })
        };
        let skill_md = found(SKILL_FILE);
        Layout {
            skill_md,
            tools_yaml: skill_md.and_then(|_| found(TOOLS_FILE)),
        }
    }
}

/// The skill folder a path names, for every command that takes one: a path
/// to a folder's skill file (in any case: `skill.md` names its folder, to be
/// told it is misnamed) stands for the folder; a folder with no name of its
/// own (`.`, `..`) is `<path>/../<name>`, so that its name is known; any other
/// path is itself.
///
/// ```
/// use std::path::Path;
/// assert_eq!(
///     skills_compiler::skill_dir_of(Path::new("no/such/SKILL.md")),
///     Path::new("no/such/SKILL.md"),
/// );
/// ```
pub fn skill_dir_of(path: &Path) -> PathBuf {
    if path.file_name().is_none()
        && let Ok(canonical) = fs::canonicalize(path)
        && canonical.join(SKILL_FILE).is_file()
        && let Some(name) = canonical.file_name()
    {
        return path.join("..").join(name);
    }
    let names_skill_file = path
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.eq_ignore_ascii_case(SKILL_FILE));
    match path.parent() {
        Some(parent) if names_skill_file && path.is_file() => {
            if parent.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                parent.to_path_buf()
            }
        }
        _ => path.to_path_buf(),
    }
}

/// Whether `dir` is a skill whose file is misnamed: it holds `SKILL.md` in
/// another case, and no folder of it is a skill (a root that holds skills
/// and a stray `skill.md` stays a root, as discovery reads it).
fn holds_misnamed_skill_file(dir: &Path) -> bool {
    read_dir_sorted(dir).is_ok_and(|children| {
        children
            .iter()
            .any(|child| child.name != SKILL_FILE && child.name.eq_ignore_ascii_case(SKILL_FILE))
            && !children
                .iter()
                .any(|child| dir.join(&child.name).join(SKILL_FILE).is_file())
    })
}

/// Whether `path` exists, and what one `lstat` says of it.
fn probe(path: &Path) -> std::io::Result<Option<Found>> {
    match fs::symlink_metadata(path) {
        Ok(metadata) => Ok(Some(Found {
            is_symlink: metadata.file_type().is_symlink(),
            is_file: metadata.is_file(),
        })),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// Why a directory without `SKILL.md` is not a skill: a file whose name
/// differs only in case (an error: it works on macOS and fails on Linux),
/// or nothing (a warning in a root, an error where a skill was expected).
fn without_skill_file(dir: &Path, name: &str, display: &str, expected: Expected) -> Diagnostic {
    let children = match read_dir_sorted(dir) {
        Ok(children) => children,
        Err(error) => return cannot_read_directory(display, &error),
    };
    match children
        .iter()
        .map(|c| &c.name)
        .find(|c| c.eq_ignore_ascii_case(SKILL_FILE))
    {
        Some(wrong) => Diagnostic::error(Code::FileNameCase, format!("{display}/{wrong}"), format!("the skill file is named `{wrong}`; it must be `SKILL.md`"))
            .with_help(format!("rename it: `git mv {display}/{wrong} {display}/SKILL.md` (it works on macOS and fails on Linux)"))
            .with_rename(format!("{display}/SKILL.md"), "rename the skill file"),
        None if expected == Expected::Skill => Diagnostic::error(Code::DirectoryWithoutSkill, display, format!("missing required file: `{display}/SKILL.md`"))
            .with_help("a skill is a directory with a SKILL.md file"),
        None => Diagnostic::warning(Code::DirectoryWithoutSkill, display, format!("`{name}` has no SKILL.md, so it is not a skill"))
            .with_help("add a SKILL.md, or move the directory out of the skills root"),
    }
}

fn cannot_read_directory(display: &str, error: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::Io,
        display,
        format!("cannot read the directory: {error}"),
    )
}

/// The error for a path to check that is not there.
fn not_found(display: &str) -> Diagnostic {
    Diagnostic::error(
        Code::RootMissing,
        display,
        format!("`{display}` does not exist"),
    )
}

/// A relative path with forward slashes, as shown in diagnostics and generated code.
pub fn display_path(path: &Path) -> String {
    // Most paths are already in that form: checked, they are not split into
    // components (a check of a collection shows thousands of them).
    match path.to_str().filter(|text| is_displayed_as_is(text)) {
        Some(text) => text.to_owned(),
        None => display_by_components(path),
    }
}

/// `display_path`'s rule: the path's components, `.` left out, joined by `/`.
fn display_by_components(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/").replace("//", "/")
    }
}

/// Whether `display_path` would give `text` back: `/`-separated, with no
/// empty or `.` component and no trailing separator.
fn is_displayed_as_is(text: &str) -> bool {
    std::path::MAIN_SEPARATOR == '/'
        && !text.is_empty()
        && text != "."
        && !text.starts_with("./")
        && !text.ends_with('/')
        && !text.ends_with("/.")
        && !text.contains("//")
        && !text.contains("/./")
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Any path of `/`, `.`, `..`, names and empty components (leading,
        /// doubled, trailing) displays as splitting it into components does.
        #[test]
        fn the_shortcut_displays_as_components_do(
            parts in proptest::collection::vec("|\\.|\\.\\.|a|é b|SKILL\\.md", 0..6),
        ) {
            let text = parts.join("/");
            let path = Path::new(&text);
            proptest::prop_assert_eq!(display_path(path), display_by_components(path));
        }
    }
}
