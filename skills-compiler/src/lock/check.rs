//! The lock applied to a skills root: where its `skills-lock.json` is,
//! each skill's [`Status`], and the diagnostics that a build with
//! `locked = true` and `cargo skills check --locked` report.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};
use crate::lock::cache::HashCache;
use crate::lock::file::{Entry, LOCK_FILE, LockFile};
use crate::lock::offsets::entry_offsets;
use crate::lock::verify::{Status, verify_cached};
use crate::read::discover::display_path;

/// A lock file larger than this is refused unread (its skills would
/// number in the hundreds of thousands).
const MAX_LOCK_BYTES: u64 = 16 * 1024 * 1024;

/// The lock of the skills root `root` (relative to `base`): the nearest
/// `skills-lock.json` in the folders above the root, up to the first that
/// holds a `Cargo.toml` or a `.git` (a package or a repository: a lock
/// beyond it belongs to another project). The path is relative to `base`
/// as `root` is, for display.
pub(crate) fn find(base: &Path, root: &Path) -> Option<PathBuf> {
    let mut folder = parent_of(root);
    // Bounded: a path has finitely many ancestors, but `..` adds one each
    // round; stop where the file system ends.
    for _ in 0..64 {
        let on_disk = base.join(&folder);
        if on_disk.join(LOCK_FILE).is_file() {
            return Some(folder.join(LOCK_FILE));
        }
        let boundary = on_disk.join("Cargo.toml").is_file() || on_disk.join(".git").exists();
        if boundary || std::fs::canonicalize(&on_disk).is_ok_and(|d| d.parent().is_none()) {
            return None;
        }
        folder = parent_of(&folder);
    }
    None
}

/// Where a new lock for `root` goes: the folder of the package or
/// repository that holds the root (as [`find`] looks), else the root's parent.
pub(crate) fn place_for(base: &Path, root: &Path) -> PathBuf {
    let mut folder = parent_of(root);
    for _ in 0..64 {
        let on_disk = base.join(&folder);
        if on_disk.join("Cargo.toml").is_file() || on_disk.join(".git").exists() {
            return folder.join(LOCK_FILE);
        }
        if std::fs::canonicalize(&on_disk).is_ok_and(|d| d.parent().is_none()) {
            break;
        }
        folder = parent_of(&folder);
    }
    parent_of(root).join(LOCK_FILE)
}

/// The folder above `path`, written relatively: `a/b` to `a`, `a` to ``,
/// `` to `..`, `..` to `../..`.
fn parent_of(path: &Path) -> PathBuf {
    let is_up = |p: &Path| {
        p.components()
            .all(|c| matches!(c, std::path::Component::ParentDir))
    };
    if path.as_os_str().is_empty() || path == Path::new(".") || is_up(path) {
        return path.join("..");
    }
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// A lock read from disk, with its text for locating entries.
#[derive(Debug, Clone)]
pub(crate) struct ReadLock {
    /// The lock.
    pub lock: LockFile,
    /// Its text, for diagnostics that point into it.
    pub source: SourceFile,
    /// Where each entry's key starts in that text.
    pub offsets: HashMap<String, usize>,
}

/// The locks a run read, by path: a command line of many skills of one
/// root checks each against the same lock, which is read and parsed once
/// (once per skill made `check --locked` over 2,500 named skills take
/// minutes).
#[derive(Debug, Default)]
pub(crate) struct ReadLocks(
    std::sync::Mutex<HashMap<PathBuf, std::sync::Arc<Result<ReadLock, Diagnostic>>>>,
);

impl ReadLocks {
    /// The lock at `path` (relative to `base`), read on the first ask.
    fn get(&self, base: &Path, path: &Path) -> std::sync::Arc<Result<ReadLock, Diagnostic>> {
        let key = base.join(path);
        if let Some(known) = self
            .0
            .lock()
            .ok()
            .and_then(|known| known.get(&key).cloned())
        {
            return known;
        }
        let read = std::sync::Arc::new(read(base, path));
        match self.0.lock() {
            Ok(mut known) => known.entry(key).or_insert(read).clone(),
            Err(_) => read,
        }
    }
}

/// Reads the lock at `path` (relative to `base`).
pub(crate) fn read(base: &Path, path: &Path) -> Result<ReadLock, Diagnostic> {
    let display = display_path(path);
    let io = |error: std::io::Error| {
        Diagnostic::error(
            Code::LockFile,
            &display,
            format!("cannot read `{display}`: {error}"),
        )
    };
    let file = crate::read::open::open_regular(&base.join(path)).map_err(io)?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_LOCK_BYTES + 1),
        &mut bytes,
    )
    .map_err(io)?;
    if bytes.len() as u64 > MAX_LOCK_BYTES {
        return Err(Diagnostic::error(
            Code::LockFile,
            &display,
            format!("`{display}` is larger than {MAX_LOCK_BYTES} bytes"),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        Diagnostic::error(
            Code::LockFile,
            &display,
            format!("`{display}` is not UTF-8"),
        )
    })?;
    let lock = LockFile::parse(&text, &display)?;
    Ok(ReadLock {
        lock,
        offsets: entry_offsets(&text),
        source: SourceFile::new(display, text),
    })
}

/// One skill against the lock.
#[derive(Debug)]
pub(crate) struct Checked {
    /// Its entry's name (its folder's).
    pub name: String,
    /// What it is against its entry, or why that cannot be said.
    pub status: Result<Status, String>,
    /// Where it was verified, as paths show (`skills/pdf`, or an agent's
    /// folder `.claude/skills/pdf`); for a missing skill, the root's.
    pub folder: String,
    /// For a missing skill, every folder it was looked for in.
    pub looked: Vec<String>,
}

/// The folders a locked skill `name` is looked for in, in order: the
/// package's skills root, then the agents' folders Vercel's CLI installs
/// into (`.agents/skills`, `.claude/skills`, `.codex/skills`) beside the
/// lock, which is the project's. Relative to the compilation's base.
fn places(root: &Path, lock_dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut places = vec![root.join(name)];
    for dir in crate::read::conventional::DIRS {
        let place = lock_dir.join(dir).join(name);
        if !places.contains(&place) {
            places.push(place);
        }
    }
    places
}

/// Each skill of the root against the lock, sorted by name: every locked
/// skill (with [`Scope::Found`], only those of `present`), verified where
/// it is (the root, else an agent's folder), and every folder of `present`
/// (the skills discovery found, by folder name) that the lock does not
/// name. `lock_path` is the lock's, relative to `base` as `root` is.
pub(crate) fn statuses(
    base: &Path,
    root: &Path,
    lock_path: &Path,
    lock: &LockFile,
    present: &[String],
    scope: Scope,
) -> Vec<Checked> {
    let lock_dir = lock_path.parent().unwrap_or(Path::new(""));
    let mut cache = HashCache::of_build();
    let wanted: std::collections::BTreeSet<&str> = present.iter().map(String::as_str).collect();
    // A check of the skills found verifies their entries only: verifying
    // the whole lock for each of them made `check --locked` over every
    // skill named on the command line quadratic.
    let entries: Vec<(&str, Entry)> = match scope {
        Scope::Root => lock.entries().collect(),
        Scope::Found => wanted
            .iter()
            .filter_map(|name| Some((*name, lock.get(name)?)))
            .collect(),
    };
    let mut out: Vec<Checked> = entries
        .into_iter()
        .map(|(name, entry)| {
            // Every key names a folder: the lock refuses others when read.
            let places = places(root, lock_dir, name);
            let found = places
                .iter()
                .find(|place| std::fs::symlink_metadata(base.join(place)).is_ok());
            match found {
                Some(place) => Checked {
                    name: name.to_owned(),
                    status: verify_cached(&base.join(place), &entry, &mut cache)
                        .map_err(|e| e.to_string()),
                    folder: display_path(place),
                    looked: Vec::new(),
                },
                None => Checked {
                    name: name.to_owned(),
                    status: Ok(Status::Missing),
                    folder: display_path(&places[0]),
                    looked: places.iter().map(|p| display_path(p)).collect(),
                },
            }
        })
        .collect();
    cache.keep();
    for name in present {
        if lock.get(name).is_none() {
            out.push(Checked {
                name: name.clone(),
                status: Ok(Status::Unlocked),
                folder: display_path(&root.join(name)),
                looked: Vec::new(),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// What a lock check covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The whole root: every locked skill, and every skill found.
    Root,
    /// Only the skills found (one named on a command line, or loaded
    /// alone): the root's other entries are not this check's business.
    Found,
}

/// The diagnostics of a root (`config.dir`) under `locked = true`, and the
/// lock's text when a diagnostic quotes it. `present` is the skills
/// discovery found, as their folders show in diagnostics (`skills/pdf`).
pub(crate) fn check(
    locks: &ReadLocks,
    base: &Path,
    config: &Config,
    present: &[String],
    scope: Scope,
) -> (Vec<Diagnostic>, Option<SourceFile>) {
    let root = &config.dir;
    let root_display = display_path(root);
    let Some(path) = config.lock_file.clone().or_else(|| find(base, root)) else {
        let place = display_path(&place_for(base, root));
        let diagnostic = Diagnostic::error(
            Code::LockFile,
            &root_display,
            format!("`locked` is on, and there is no `{LOCK_FILE}` for `{root_display}` (looked for `{place}`)"),
        )
        .with_help("write one for the skills as they are with `cargo skills lock`, or add skills with `cargo skills add SOURCE`");
        return (vec![diagnostic], None);
    };
    let read = locks.get(base, &path);
    let read = match read.as_ref() {
        Ok(read) => read,
        Err(diagnostic) => return (vec![diagnostic.clone()], None),
    };
    // A nested skill (`skills/pdf/forms`) is locked as files of the skill
    // it is nested in: the lock, as other tools write it, has an entry per
    // folder of the root.
    let names: Vec<String> = present
        .iter()
        .filter_map(|folder| match folder.rsplit_once('/') {
            Some((parent, name)) if parent == root_display => Some(name.to_owned()),
            Some(_) => None,
            None => Some(folder.clone()),
        })
        .collect();
    let mut diagnostics = Vec::new();
    for checked in statuses(base, root, &path, &read.lock, &names, scope) {
        if let Some(diagnostic) = diagnostic(read, &checked) {
            diagnostics.push(diagnostic);
        }
    }
    let quoted = diagnostics.iter().any(|d| d.file == read.source.path());
    (diagnostics, quoted.then(|| read.source.clone()))
}

fn diagnostic(read: &ReadLock, checked: &Checked) -> Option<Diagnostic> {
    let name = checked.name.as_str();
    let folder = checked.folder.as_str();
    let status = checked.status.clone();
    let lock = read.source.path();
    let at_entry_with = |code: Code, message: String| {
        let located = match read.offsets.get(name) {
            Some(&start) => Diagnostic::at(
                code,
                &read.source,
                start..start + serde_json::to_string(name).map_or(0, |key| key.len()),
                message,
            ),
            None => Diagnostic::error(code, lock, message),
        };
        // Shown at the lock's entry, counted against the skill.
        located.of_skill(folder)
    };
    let at_entry = |message: String| at_entry_with(Code::LockMismatch, message);
    // "Differs from the lock" offers both ways out, in these words: a
    // restore is `sync`, a move to upstream is `update` (which re-locks).
    // Keeping the edit of a vendored skill makes its entry a local copy
    // (no commit holds the edited bytes): the help says so before it is done.
    let vendored = read
        .lock
        .get(name)
        .is_some_and(|entry| entry.source_type() != Some(crate::lock::file::source_type::LOCAL));
    let update = if vendored {
        format!(
            "restore what was locked with `cargo skills sync {name}`, or move to upstream's newest with `cargo skills update {name}`; to keep the edit as your own, `cargo skills lock {name}` records it as a local copy (the entry then names no commit or signer, and `update` no longer follows upstream)"
        )
    } else {
        format!(
            "restore what was locked with `cargo skills sync {name}` (from the folder the entry names), or keep the edit with `cargo skills lock {name}`"
        )
    };
    Some(match status {
        Ok(Status::Matches) if read.lock.get(name).is_some_and(|e| e.files().is_none()) => {
            at_entry_with(Code::LockEntryWithoutFiles, format!(
                "`{folder}` matches its entry in `{lock}` by `computedHash` only: the entry has no per-file lines (Vercel's CLI writes none), so a lost execute bit is not seen"
            ))
            .with_severity(crate::diagnostics::Severity::Warning)
            .with_help(format!(
                "record each file's mode and digest with `cargo skills lock {name}` (it keeps the entry's source)"
            ))
        }
        Ok(Status::Matches) => return None,
        Ok(Status::Modified { changed }) if changed.is_empty() => at_entry(format!(
            "`{folder}` differs from its entry in `{lock}`: its files do not hash to the recorded `computedHash` (the entry names no files, so which differ is not known)"
        ))
        .with_help(update),
        Ok(Status::Modified { changed }) => {
            let shown: Vec<String> = changed.iter().take(8).map(ToString::to_string).collect();
            let more = match changed.len() {
                n if n > 8 => format!(" and {} more", n - 8),
                _ => String::new(),
            };
            at_entry(format!(
                "`{folder}` differs from its entry in `{lock}`: {}{more}",
                shown.join(", ")
            ))
            .with_help(update)
        }
        Ok(Status::Missing) => {
            let elsewhere: Vec<String> = checked
                .looked
                .iter()
                .skip(1)
                .map(|place| format!("`{place}`"))
                .collect();
            let nor = match elsewhere.as_slice() {
                [] => String::new(),
                places => format!(", nor is it in an agent's folder ({})", places.join(", ")),
            };
            at_entry(format!(
                "`{name}` is locked in `{lock}`, and `{folder}` does not exist{nor}"
            ))
        }
        .with_help(format!(
            "restore what was locked with `cargo skills sync {name}`, or move to upstream's newest with `cargo skills update {name}`; drop it with `cargo skills remove {name}`"
        )),
        Ok(Status::Unlocked) => Diagnostic::error(
            Code::LockMismatch,
            folder,
            format!("`{folder}` is not in `{lock}`"),
        )
        .with_help(format!(
            "record it as it is with `cargo skills lock {name}`, or add it from where it came from with `cargo skills add SOURCE`"
        )),
        Err(error) => at_entry(format!("`{folder}` cannot be checked against `{lock}`: {error}")),
    })
}
