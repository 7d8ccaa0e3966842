//! A skill's files: every regular file under its directory other than
//! SKILL.md, read with bounded memory, each skip recorded with its reason.

use std::fs;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::config::Config;
use crate::diagnostics::{Code, Diagnostic};
use crate::read::gitignore::{GITIGNORE, GitRules};
use crate::read::layout::SKILL_FILE;
use crate::read::open::{Identity, changed, fill, open_listed};

/// How many folders deep a skill's files may sit below its directory: deep
/// enough for any real layout, shallow enough that a symlink loop ends.
pub const MAX_DEPTH: usize = 16;

/// A skill directory as discovery read it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillDir {
    /// The directory, relative to the crate root: `skills/pdf`.
    pub path: String,
    /// The skills root the skill is in, as shown (`skills`), and where it
    /// is on disk: links that leave the skill are looked up there.
    pub root: String,
    /// The skills root on disk.
    pub root_on_disk: PathBuf,
    /// The skill directory on disk, where the files are read from (by the
    /// loader and the link checks; generated code includes them itself).
    pub on_disk: PathBuf,
    /// What the directory holds.
    pub listing: Listing,
}

impl SkillDir {
    /// For a skill nested in another skill's directory, the folders from
    /// the root to the one that holds it: `pdf` for `skills/pdf/forms` in
    /// the root `skills`. `None` for a skill directly in its root.
    pub fn prefix(&self) -> Option<&str> {
        let inside = match self.root.as_str() {
            "." => self.path.as_str(),
            root => self.path.strip_prefix(root)?.strip_prefix('/')?,
        };
        inside.rsplit_once('/').map(|(prefix, _)| prefix)
    }
}

/// What `read` finds in a skill directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every file but SKILL.md, sorted by path.
    pub files: Vec<SkillFile>,
    /// What was left out, and why, sorted by path.
    pub skipped: Vec<Skipped>,
    /// Every folder walked (`references`, `scripts/lib`), sorted by path.
    pub folders: Vec<String>,
}

/// One file of a skill, as listed: its bytes are read only by whoever
/// needs them (the loader; rustc, through `include_bytes!`), so that a
/// rebuild or a check does not read 16 MiB of fonts.
#[derive(Debug, Clone, Eq)]
pub struct SkillFile {
    /// Relative to the skill directory, `/`-separated: `references/api.md`.
    pub path: String,
    /// Its length when listed.
    pub len: u64,
    /// The owner's execute bit.
    pub executable: bool,
    /// The file it was when listed: it is read only if it is still that one.
    pub(crate) identity: Option<Identity>,
    /// The name of its copy in `OUT_DIR` (see `emit::snapshot`), which the
    /// generated code embeds; `None`: the file itself.
    pub(crate) snapshot: Option<String>,
    /// The SHA-256 (lower-case hex) its verified signature lists: every
    /// read that keeps its bytes ([`read_listed`]) checks them against it,
    /// so that what is embedded or served is what was verified, even if
    /// the file changed on disk after the check read it.
    pub(crate) signed: Option<String>,
    /// Its text, read once by whichever check asks first (the link check,
    /// the hidden-character lint): see [`SkillFile::text`].
    text: std::sync::OnceLock<Option<Box<str>>>,
}

impl SkillFile {
    /// The file's text, read from the skill directory `dir` as it was
    /// listed ([`read_listed_text`]) on the first call and kept for the
    /// next; `None` when it is not UTF-8 or cannot be read (whoever reads
    /// its bytes reports that). A check reads each file once, however many
    /// rules look into it.
    pub(crate) fn text(&self, dir: &Path) -> Option<&str> {
        self.text
            .get_or_init(|| {
                let text = read_listed_text(dir, self).ok().flatten();
                text.map(String::into_boxed_str)
            })
            .as_deref()
    }

    /// Lets the text read by [`SkillFile::text`] go: a compiled skill is
    /// kept (by a loader, a watch) long after its checks have read it.
    pub(crate) fn forget_text(&mut self) {
        self.text.take();
    }
}

/// Two listings of a file are the same file of a skill when its path,
/// length and execute bit are: where it lies on disk (its identity) and
/// where its copy went are not part of what the skill is.
impl PartialEq for SkillFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.len == other.len && self.executable == other.executable
    }
}

/// An entry of a skill directory that is not one of its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Relative to the skill directory; a folder ends with `/`.
    pub path: String,
    /// Why.
    pub reason: SkipReason,
}

/// Why an entry is not a file of the skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Its name starts with `.`.
    Hidden,
    /// It matches this `exclude` pattern.
    Excluded(String),
    /// A folder with its own SKILL.md: a skill of its own.
    NestedSkill,
    /// A named pipe, socket or device (W013).
    NotRegular,
    /// Its name is not UTF-8, so no path can name it (W013).
    NameNotUtf8,
    /// A backslash in its name: Windows reads it as a separator, and no
    /// `/`-separated path names it on every system (W013).
    Backslash,
    /// A folder reached again through a symlink: its files are listed once,
    /// under the path that reached it first.
    SameFolder(String),
    /// Git ignores it (this pattern, in this file): it was never committed.
    GitIgnored(String),
    /// A symlink to an entry of the skill that is left out for `why`: a
    /// visible name does not bring in what the rules leave out (W013).
    LinkTo {
        /// The entry it points at, relative to the skill directory.
        target: String,
        /// Why that entry is left out.
        why: Box<SkipReason>,
    },
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::Hidden => f.write_str("hidden (its name starts with `.`)"),
            SkipReason::Excluded(pattern) => write!(f, "excluded by `{pattern}`"),
            SkipReason::NestedSkill => f.write_str("a skill of its own (it has a SKILL.md)"),
            SkipReason::NotRegular => {
                f.write_str("not a regular file (a named pipe, socket or device)")
            }
            SkipReason::NameNotUtf8 => f.write_str("its name is not UTF-8"),
            SkipReason::SameFolder(first) => write!(f, "the same folder as `{first}`"),
            SkipReason::Backslash => {
                f.write_str("its name holds a backslash, which Windows reads as a separator")
            }
            SkipReason::GitIgnored(rule) => write!(f, "ignored by git ({rule})"),
            SkipReason::LinkTo { target, why } => {
                write!(f, "a symlink to `{target}`, which is {why}")
            }
        }
    }
}

/// The `exclude` patterns, compiled once per compilation.
#[derive(Debug, Clone)]
pub(crate) struct Exclude {
    patterns: Vec<String>,
    set: GlobSet,
}

impl Exclude {
    /// An invalid pattern is a configuration error (S510), located at the
    /// manifest: nothing is read until it is fixed.
    pub(crate) fn new(config: &Config) -> Result<Exclude, Diagnostic> {
        let mut builder = GlobSetBuilder::new();
        for pattern in &config.exclude {
            let glob = Glob::new(pattern).map_err(|error| {
                Diagnostic::error(
                    Code::Config,
                    "Cargo.toml",
                    format!(
                        "`exclude` pattern `{pattern}` is not a glob: {}",
                        error.kind()
                    ),
                )
                .with_help("write globs as `.gitignore` does: `*.pyc`, `node_modules`, `build/**`")
            })?;
            builder.add(glob);
        }
        let set = builder.build().map_err(|error| {
            Diagnostic::error(Code::Config, "Cargo.toml", format!("`exclude`: {error}"))
        })?;
        Ok(Exclude {
            patterns: config.exclude.clone(),
            set,
        })
    }

    /// The pattern that excludes `path` (relative to the skill directory):
    /// one that matches the whole path, or the entry's own name, so that
    /// `node_modules` leaves out the folder wherever it is.
    fn matching(&self, path: &str, name: &str) -> Option<&str> {
        let index = self
            .set
            .matches(path)
            .into_iter()
            .chain(self.set.matches(name))
            .min()?;
        Some(&self.patterns[index])
    }
}

/// A skill directory as discovery found it: where it is, how it is shown,
/// and its listing.
pub(crate) struct ListedDir<'a> {
    pub(crate) path: &'a Path,
    pub(crate) display: &'a str,
    pub(crate) listed: Listed,
}

/// Reads the files of the skill directory `dir`. `skill_md_len` counts
/// toward `max_skill_bytes`; `git` are the `.gitignore` rules in force at
/// `dir` (none outside a work tree). Problems go to `diagnostics`; what can
/// be read is returned either way.
pub(crate) fn read(
    dir: ListedDir<'_>,
    skill_md_len: u64,
    config: &Config,
    exclude: &Exclude,
    git: Option<GitRules>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Listing {
    let ListedDir {
        path: dir,
        display,
        listed,
    } = dir;
    let mut walk = Walk {
        config,
        exclude,
        display,
        canonical_dir: None,
        dir,
        files: Vec::new(),
        skipped: Vec::new(),
        folders: Vec::new(),
        count: 0,
        bytes: skill_md_len,
        too_deep: false,
        looped: false,
        entered: std::collections::HashMap::new(),
        on_the_way: Vec::new(),
        root: std::cell::OnceCell::new(),
        git,
        diagnostics,
    };
    walk.folder(dir, "", 0, None, listed);
    walk.report_limits();
    walk.report_case_collisions();
    let Walk {
        mut files,
        mut skipped,
        mut folders,
        ..
    } = walk;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    folders.sort();
    Listing {
        files,
        skipped,
        folders,
    }
}

struct Walk<'a> {
    config: &'a Config,
    exclude: &'a Exclude,
    display: &'a str,
    dir: &'a Path,
    /// Resolved on the first symlink, which most skills never have.
    canonical_dir: Option<PathBuf>,
    files: Vec<SkillFile>,
    skipped: Vec<Skipped>,
    folders: Vec<String>,
    /// Files and bytes found, including those past a limit (which are
    /// counted, not read, so that the diagnostic gives the real figure).
    count: usize,
    bytes: u64,
    too_deep: bool,
    /// A link back to a folder above it was reported (once a skill).
    looped: bool,
    /// Every folder entered, by identity, with the path it was first
    /// reached by: a folder is walked once however many links lead to it
    /// (three links to `.` made the walk exponential).
    entered: std::collections::HashMap<FolderId, String>,
    /// The folders being walked below the skill directory, outermost
    /// first: a link to one of them, or to the skill directory, loops.
    on_the_way: Vec<FolderId>,
    /// The skill directory's identity, looked up when the walk first meets
    /// a folder: most skills have none, and it cost them a `stat` each.
    root: std::cell::OnceCell<Option<FolderId>>,
    /// The `.gitignore` rules in force, when the skill is in a work tree.
    git: Option<GitRules>,
    diagnostics: &'a mut Vec<Diagnostic>,
}

/// What tells two paths to one folder apart from two folders: the device
/// and inode on Unix, the resolved path elsewhere.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum FolderId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

impl FolderId {
    /// The identity of the folder `folder` (the skill directory).
    fn of(folder: &Path) -> Option<FolderId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let metadata = fs::metadata(folder).ok()?;
            Some(FolderId::Inode(metadata.dev(), metadata.ino()))
        }
        #[cfg(not(unix))]
        {
            fs::canonicalize(folder).ok().map(FolderId::Path)
        }
    }

    /// The identity of the folder `folder`, which the walk's look-up of it
    /// found as `metadata`: on Unix that look-up is all it takes.
    #[cfg(unix)]
    fn of_entry(_folder: &Path, metadata: &fs::Metadata) -> Option<FolderId> {
        use std::os::unix::fs::MetadataExt;
        Some(FolderId::Inode(metadata.dev(), metadata.ino()))
    }

    /// The identity of the folder `folder`, looked up again: elsewhere a
    /// look-up's answer does not say which folder it is.
    #[cfg(not(unix))]
    fn of_entry(folder: &Path, _metadata: &fs::Metadata) -> Option<FolderId> {
        FolderId::of(folder)
    }
}

/// One entry of a folder's listing.
pub(crate) struct Entry {
    name: std::ffi::OsString,
    /// The type the listing gave (`None` when it gave none).
    pub(crate) file_type: Option<fs::FileType>,
    /// Holds the listed folder open, so that the entry's `lstat` is
    /// relative to it: one path component for the kernel to resolve, not
    /// the skill's whole path (a walk is mostly look-ups).
    listed: fs::DirEntry,
}

/// A folder's entries sorted by name (bytes). A skill directory is listed
/// once: discovery reads which of its two files it has from its listing,
/// and the walk of its files starts from it.
pub(crate) struct Listed(Vec<Entry>);

impl Listed {
    /// Lists the folder `dir`.
    pub(crate) fn read(dir: &Path) -> std::io::Result<Listed> {
        let mut entries = Vec::new();
        for listed in fs::read_dir(dir)? {
            let listed = listed?;
            entries.push(Entry {
                name: listed.file_name(),
                file_type: listed.file_type().ok(),
                listed,
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Listed(entries))
    }

    /// The entry named `name`, exactly (where the disk folds case too).
    pub(crate) fn get(&self, name: &str) -> Option<&Entry> {
        let at = (self.0)
            .binary_search_by(|entry| entry.name.as_os_str().cmp(std::ffi::OsStr::new(name)))
            .ok()?;
        Some(&self.0[at])
    }
}

impl Walk<'_> {
    /// Walks `folder` (`prefix` from the skill directory, `depth` below it),
    /// whose identity is `id` and whose entries are `entries`, unless the
    /// walk has been there already. `id` is `None` for the skill directory
    /// (see [`Walk::is_root`]) and for a folder whose identity is unknown.
    fn folder(
        &mut self,
        folder: &Path,
        prefix: &str,
        depth: usize,
        id: Option<FolderId>,
        entries: Listed,
    ) {
        if let Some(id) = &id {
            if self.on_the_way.contains(id) || self.is_root(id) {
                self.report_loop(prefix);
                return;
            }
            if let Some(first) = self.entered.get(id) {
                let reason = SkipReason::SameFolder(format!("{first}/"));
                self.skip(prefix.trim_end_matches('/').to_owned(), true, reason);
                return;
            }
            self.entered
                .insert(id.clone(), prefix.trim_end_matches('/').to_owned());
            self.on_the_way.push(id.clone());
        }
        // The listing says whether the folder has rules of its own: a
        // look-up for a `.gitignore` in every folder was a system call each.
        let entered_rules = entries.get(GITIGNORE).is_some()
            && self.git.as_mut().is_some_and(|git| git.enter(prefix));
        self.walk_folder(folder, prefix, depth, entries);
        if entered_rules && let Some(git) = &mut self.git {
            git.leave();
        }
        if id.is_some() {
            self.on_the_way.pop();
        }
    }

    /// Whether the folder `id` is the skill directory, looked up on the
    /// first question.
    fn is_root(&self, id: &FolderId) -> bool {
        self.root.get_or_init(|| FolderId::of(self.dir)).as_ref() == Some(id)
    }

    /// S521 for two files whose paths differ only in case, and for a
    /// `skill.md` beside `SKILL.md`: on a disk that folds case (macOS,
    /// Windows) one hides the other, and the one that was not checked wins.
    fn report_case_collisions(&mut self) {
        let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
        let mut found = Vec::new();
        for file in &self.files {
            // macOS stores names in one Unicode normalisation: `é` written
            // as one character and as `e` plus an accent are one name there.
            let folded: String =
                unicode_normalization::UnicodeNormalization::nfc(file.path.as_str())
                    .collect::<String>()
                    .to_lowercase();
            if !file.path.contains('/') && folded == SKILL_FILE.to_lowercase() {
                found.push((file.path.clone(), SKILL_FILE.to_owned()));
            } else if let Some(first) = seen.insert(folded, &file.path) {
                found.push((file.path.clone(), first.to_owned()));
            }
        }
        for (path, other) in found {
            let how = if path.to_lowercase() == other.to_lowercase() {
                "in case: on a disk that folds case (macOS, Windows) one replaces the other"
            } else {
                "in how their letters are encoded (Unicode NFC and NFD): macOS stores both as one name, so one replaces the other"
            };
            self.diagnostics.push(
                Diagnostic::error(
                    Code::CaseCollision,
                    format!("{}/{path}", self.display),
                    format!("`{path}` and `{other}` differ only {how}"),
                )
                .with_help("rename or remove one of them"),
            );
        }
    }

    /// S514 for a symlink back to a folder above it, once a skill.
    fn report_loop(&mut self, prefix: &str) {
        if self.looped {
            return;
        }
        self.looped = true;
        self.diagnostics.push(
            Diagnostic::error(
                Code::FilesTooDeep,
                format!("{}/{}", self.display, prefix.trim_end_matches('/')),
                format!(
                    "`{}` is a symlink that loops back to a folder above it",
                    prefix.trim_end_matches('/')
                ),
            )
            .with_help("remove the symlink, or point it at a folder that does not contain it"),
        );
    }

    /// Whether a limit was passed: the walk stops there (the figure in the
    /// diagnostic then says "more than").
    fn over_limits(&self) -> bool {
        self.count > self.config.max_files || self.bytes > self.config.max_skill_bytes
    }

    fn walk_folder(&mut self, folder: &Path, prefix: &str, depth: usize, entries: Listed) {
        if depth > MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::FilesTooDeep,
                        format!("{}/{}", self.display, prefix.trim_end_matches('/')),
                        format!("the skill's folders nest deeper than {MAX_DEPTH} levels"),
                    )
                    .with_help("flatten the folders, or remove the symlink that loops back"),
                );
            }
            return;
        }
        for entry in entries.0 {
            if self.over_limits() {
                return;
            }
            self.entry(folder, prefix, depth, entry);
        }
    }

    /// The entries of `folder` (`prefix` from the skill directory); none,
    /// reported, when it cannot be read.
    fn entries(&mut self, folder: &Path, prefix: &str) -> Listed {
        Listed::read(folder).unwrap_or_else(|error| {
            self.diagnostics.push(Diagnostic::error(
                Code::Io,
                format!("{}/{prefix}", self.display),
                format!("cannot read the directory: {error}"),
            ));
            Listed(Vec::new())
        })
    }

    fn entry(&mut self, folder: &Path, prefix: &str, depth: usize, entry: Entry) {
        let Entry {
            name,
            file_type,
            listed,
        } = entry;
        let full = folder.join(&name);
        let Some(name) = name.to_str() else {
            let path = format!("{prefix}{}", name.to_string_lossy());
            self.left_out(&path, SkipReason::NameNotUtf8);
            return;
        };
        let path = format!("{prefix}{name}");
        if depth == 0 && name == SKILL_FILE {
            return;
        }
        // Listed and never readable by a `/`-separated path on Windows, or
        // through a URI that decodes `%5C` (issue 40, item 19).
        if name.contains('\\') {
            self.left_out(&path, SkipReason::Backslash);
            return;
        }
        let is_dir = file_type.is_some_and(|t| t.is_dir());
        if let Some(reason) = self.left_out_by_rules(&path, name, is_dir) {
            self.skip(path, is_dir, reason);
            return;
        }
        let metadata = match file_type {
            // `lstat`, as `DirEntry::metadata` is.
            Some(t) if !t.is_symlink() => listed.metadata(),
            _ => match self.link_inside(&full, &path) {
                Ok((canonical, target)) => match self.link_target_left_out(&target) {
                    Some(reason) => {
                        self.left_out(&path, reason);
                        return;
                    }
                    // The resolved path, not followed again: the link may
                    // point elsewhere by now, and what is listed (and later
                    // read, by identity) must be what was checked.
                    None => fs::symlink_metadata(&canonical),
                },
                Err(diagnostic) => {
                    self.diagnostics.push(diagnostic);
                    return;
                }
            },
        };
        let metadata = match metadata {
            Ok(metadata) => metadata,
            Err(error) => {
                self.diagnostics.push(Diagnostic::error(
                    Code::Io,
                    format!("{}/{path}", self.display),
                    format!("cannot read the file: {error}"),
                ));
                return;
            }
        };
        if metadata.is_dir() {
            // Listed before it is known to be walked: its listing says
            // whether it holds a skill of its own, without a look-up more.
            let prefix = format!("{path}/");
            let entries = self.entries(&full, &prefix);
            if holds_skill_file(&full, &entries) {
                self.skip(path, true, SkipReason::NestedSkill);
            } else {
                let id = FolderId::of_entry(&full, &metadata);
                self.folder(&full, &prefix, depth + 1, id, entries);
                self.folders.push(path);
            }
        } else if metadata.is_file() {
            self.file(path, &metadata);
        } else {
            self.left_out(&path, SkipReason::NotRegular);
        }
    }

    /// Why the author's rules leave the entry `path` (named `name`) out:
    /// hidden, excluded, or ignored by git. Checked in that order, so the
    /// reason shown is the one the author can see in the name first.
    fn left_out_by_rules(&self, path: &str, name: &str, is_dir: bool) -> Option<SkipReason> {
        if name.starts_with('.') {
            return Some(SkipReason::Hidden);
        }
        if let Some(pattern) = self.exclude.matching(path, name) {
            return Some(SkipReason::Excluded(pattern.to_owned()));
        }
        let rule = self.git.as_ref()?.ignoring(path, is_dir)?;
        Some(SkipReason::GitIgnored(rule))
    }

    /// Why the target of a symlink (relative to the skill directory) is
    /// left out, if it is: the rules hold for every folder on its way, as
    /// they would have had the walk reached it by its own path.
    fn link_target_left_out(&self, target: &str) -> Option<SkipReason> {
        let parts: Vec<&str> = target.split('/').collect();
        (0..parts.len()).find_map(|end| {
            let path = parts[..=end].join("/");
            let is_dir = end + 1 < parts.len();
            let why = self.left_out_by_rules(&path, parts[end], is_dir)?;
            Some(SkipReason::LinkTo {
                target: target.to_owned(),
                why: Box::new(why),
            })
        })
    }

    fn file(&mut self, path: String, metadata: &fs::Metadata) {
        self.count += 1;
        self.bytes = self.bytes.saturating_add(metadata.len());
        if self.count > self.config.max_files || self.bytes > self.config.max_skill_bytes {
            return;
        }
        if has_other_names(metadata) {
            self.diagnostics.push(
                Diagnostic::warning(
                    Code::HardLink,
                    format!("{}/{path}", self.display),
                    format!("`{path}` is a hard link: the same file has another name, which may be outside the skill, and what is written there is what the skill ships"),
                )
                .with_help("copy the file into the skill instead (`cp --remove-destination`), or add it to `exclude`"),
            );
        }
        self.files.push(SkillFile {
            path,
            len: metadata.len(),
            executable: is_executable(metadata),
            identity: Identity::of(metadata),
            snapshot: None,
            signed: None,
            text: std::sync::OnceLock::new(),
        });
    }

    fn skip(&mut self, path: String, is_dir: bool, reason: SkipReason) {
        let path = if is_dir { path + "/" } else { path };
        self.skipped.push(Skipped { path, reason });
    }

    /// A skip that is not a choice of the author's: a warning too.
    fn left_out(&mut self, path: &str, reason: SkipReason) {
        self.diagnostics.push(
            Diagnostic::warning(
                Code::FileLeftOut,
                format!("{}/{path}", self.display),
                format!("`{path}` is not embedded: {reason}"),
            )
            .with_help("rename or remove it, or add it to `exclude`"),
        );
        self.skipped.push(Skipped {
            path: path.to_owned(),
            reason,
        });
    }

    /// A symlink is followed only when its target stays inside the skill
    /// directory: anything else would embed a file the skill does not ship.
    /// The target, resolved, and relative to the skill directory
    /// (`/`-separated).
    fn link_inside(&mut self, full: &Path, path: &str) -> Result<(PathBuf, String), Diagnostic> {
        let display = format!("{}/{path}", self.display);
        let dir = match &self.canonical_dir {
            Some(dir) => dir.clone(),
            None => {
                let dir = fs::canonicalize(self.dir).unwrap_or_else(|_| self.dir.to_path_buf());
                self.canonical_dir = Some(dir.clone());
                dir
            }
        };
        match fs::canonicalize(full) {
            Ok(target) if target.starts_with(&dir) => {
                let relative = target
                    .strip_prefix(&dir)
                    .unwrap_or(&target)
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                Ok((target, relative))
            }
            Ok(_) => Err(Diagnostic::error(
                Code::FileSymlinkEscape,
                &display,
                format!("`{display}` is a symlink that leads outside the skill directory"),
            )
            .with_help("copy the file into the skill, or point the link at a file inside it")),
            Err(error) => Err(Diagnostic::error(
                Code::FileSymlinkEscape,
                &display,
                format!("`{display}` is a symlink that cannot be followed: {error}"),
            )
            .with_help("fix or remove the link")),
        }
    }

    fn report_limits(&mut self) {
        if self.count > self.config.max_files {
            self.diagnostics.push(
                Diagnostic::error(
                    Code::TooManyFiles,
                    self.display,
                    format!(
                        "the skill has more than {0} files besides SKILL.md; the limit is {0} (the walk stopped there)",
                        self.config.max_files
                    ),
                )
                .with_help("remove files, add them to `exclude`, or raise `max_files`"),
            );
        }
        if self.bytes > self.config.max_skill_bytes {
            self.diagnostics.push(
                Diagnostic::error(
                    Code::SkillTooLarge,
                    self.display,
                    format!(
                        "the skill's files hold more than {0} bytes; the limit is {0} (the walk stopped at {1} bytes)",
                        self.config.max_skill_bytes, self.bytes
                    ),
                )
                .with_help("remove large files, add them to `exclude`, or raise `max_skill_bytes`"),
            );
        }
    }
}

/// Whether the file has more than one name (a hard link).
#[cfg(unix)]
fn has_other_names(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    metadata.nlink() > 1
}

#[cfg(not(unix))]
fn has_other_names(_: &fs::Metadata) -> bool {
    false
}

/// The exec bit's one rule is the runtime's: git's mode `100755`.
pub(crate) use skills_core::executable_on_disk as is_executable;

/// Whether the folder `dir`, listed as `entries`, has a skill file of its
/// own (a regular file, or a link to one): it is a nested skill.
fn holds_skill_file(dir: &Path, entries: &Listed) -> bool {
    let Some(skill_file) = entries.get(SKILL_FILE) else {
        return false;
    };
    match skill_file.file_type {
        Some(kind) if kind.is_file() => true,
        Some(kind) if kind.is_dir() => false,
        // A link, or a listing that gave no type: followed, as a read is.
        _ => dir.join(SKILL_FILE).is_file(),
    }
}

/// Reads the file `path` of the skill directory `dir` as it was listed:
/// its listed length, and an error when the length changed since (the
/// listing's bounds held for what it saw, and must hold for what is kept).
/// A file whose signature was verified must hash to what it lists.
pub(crate) fn read_listed(dir: &Path, file: &SkillFile) -> std::io::Result<Vec<u8>> {
    let mut handle = open_as_listed(dir, file)?;
    let mut bytes = vec![0; file.len as usize];
    fill(&mut handle, &mut bytes, file.len)?;
    if let Some(signed) = &file.signed
        && skills_core::sha256_hex(&bytes) != *signed
    {
        return Err(std::io::Error::other(
            "it changed after its signature was verified: what was verified is not what would be used",
        ));
    }
    Ok(bytes)
}

/// The file `path` of the skill directory `dir` as text, read as it was
/// listed (see [`read_listed`]); `None` when it is not UTF-8. A file whose
/// first 8 KiB are not UTF-8 is not read further: fonts, images and
/// archives cost a look, not a read (what checks text reads every file).
pub(crate) fn read_listed_text(dir: &Path, file: &SkillFile) -> std::io::Result<Option<String>> {
    const LOOK: u64 = 8 * 1024;
    let mut handle = open_as_listed(dir, file)?;
    let mut bytes = vec![0; file.len.min(LOOK) as usize];
    fill(&mut handle, &mut bytes, file.len)?;
    // An error with a length is a byte sequence UTF-8 never has; one
    // without is a character cut at the end of the look.
    if std::str::from_utf8(&bytes).is_err_and(|error| error.error_len().is_some()) {
        return Ok(None);
    }
    let looked = bytes.len();
    bytes.resize(file.len as usize, 0);
    fill(&mut handle, &mut bytes[looked..], file.len)?;
    Ok(String::from_utf8(bytes).ok())
}

/// The listed file, opened as the listing saw it. The handle's `fstat`,
/// which checks its identity, also says whether its length is still the
/// listed one, so that exactly that many bytes are read (a file that grew
/// after that `fstat` is read as it was) and no last `read` is spent to
/// see the end: that was a tenth of a check's system calls.
fn open_as_listed(dir: &Path, file: &SkillFile) -> std::io::Result<fs::File> {
    let full = file
        .path
        .split('/')
        .fold(dir.to_path_buf(), |p, c| p.join(c));
    let (handle, metadata) = open_listed(&full, file.identity)?;
    if metadata.len() != file.len {
        return Err(changed(file.len, &format!("{} now", metadata.len())));
    }
    Ok(handle)
}

/// The MIME type of `path` by its extension; `None` when unknown. Markdown
/// is `text/markdown` (RFC 7763), which is what hosts expect of a skill.
pub(crate) fn mime(path: &str) -> Option<String> {
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
    if matches!(extension.as_str(), "md" | "markdown") {
        return Some("text/markdown".to_owned());
    }
    mime_guess::from_ext(&extension)
        .first()
        .map(|mime| mime.essence_str().to_owned())
}
