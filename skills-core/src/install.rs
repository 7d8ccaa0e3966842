//! Installing skills into an agent's folder (`.claude/skills`,
//! `.agents/skills`, any directory), from the tables a binary compiled or a
//! loader read: each skill's directory as it is, bytes and execute bits
//! exact, with a record of what was installed beside it.
//!
//! Before anything is written, each target is one of five [`State`]s, known
//! exactly from that record ([`MANIFEST`], per-file SHA-256 and execute
//! bits), never guessed:
//!
//! | state | the target | by default |
//! |---|---|---|
//! | `missing` | is not there | installed |
//! | `up to date` | holds what this install would write | left alone |
//! | `outdated` | holds an earlier version we installed, unchanged since | updated |
//! | `edited` | holds what we installed, changed since | left alone |
//! | `foreign` | is not ours (no record), or not a folder | left alone |
//!
//! `force` writes over *edited* and *foreign* too. A skill is written whole
//! under a hidden name beside its target and swapped into place in one
//! step (Linux: `renameat2(RENAME_EXCHANGE)`; elsewhere two renames), so an
//! interrupted install leaves each skill old or new, never mixed. Nothing
//! is written through a symlink: a target that is one is *foreign*, and
//! `force` replaces the link itself, never what it points to.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use crate::file::{executable_on_disk, is_file_path, sha256_hex};
use crate::skill::Skill;

/// The record of an install, inside the installed skill's directory
/// (hidden: skill readers skip it).
pub const MANIFEST: &str = ".skills-install.json";

/// The most bytes of a record read: a record is a few hundred bytes a file.
const MAX_MANIFEST_BYTES: u64 = 4 * 1024 * 1024;

/// The conventional skills folders of one host, and where they are said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Host {
    /// The name `--to` takes.
    pub name: &'static str,
    /// The folder in a project, relative to its root.
    pub project: &'static str,
    /// The folder for every project, relative to the home directory.
    pub global: &'static str,
    /// Where the host documents them.
    pub source: &'static str,
}

/// Refuses a host's project folder (`.agents/skills`, relative to `base`)
/// reached through a symlink: a committed `.agents -> ../../.claude` would
/// have an install write into the user's own folder, or anywhere, while
/// it says `.agents/skills`. Each component that exists must be a real
/// folder; the ones that do not exist yet are made by the install.
///
/// ```
/// let base = std::env::temp_dir();
/// assert!(skills_core::install::project_folder(&base, ".agents/skills").is_ok());
/// ```
pub fn project_folder(base: &Path, relative: &str) -> io::Result<PathBuf> {
    let mut folder = base.to_path_buf();
    for part in relative.split('/') {
        folder.push(part);
        match std::fs::symlink_metadata(&folder) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&folder)
                    .map(|t| t.display().to_string())
                    .unwrap_or_default();
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "`{}` is a symlink (to `{target}`): an install into `{relative}` would write wherever it leads; replace it with a folder, or name the folder you mean with `--to DIR`",
                        folder.strip_prefix(base).unwrap_or(&folder).display()
                    ),
                ));
            }
            Ok(metadata) if !metadata.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "`{}` is not a folder",
                        folder.strip_prefix(base).unwrap_or(&folder).display()
                    ),
                ));
            }
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => break,
            Err(error) => return Err(error),
        }
    }
    Ok(base.join(relative))
}

/// The hosts' folders, in one table.
pub const HOSTS: &[Host] = &[
    Host {
        name: "claude",
        project: ".claude/skills",
        global: ".claude/skills",
        source: "https://code.claude.com/docs/en/skills (Claude Code: where skills load)",
    },
    Host {
        name: "codex",
        project: ".agents/skills",
        global: ".agents/skills",
        source: "https://developers.openai.com/codex/skills (Codex reads the Agent Skills folders)",
    },
    Host {
        name: "agents",
        project: ".agents/skills",
        global: ".agents/skills",
        source: "https://agentskills.io (the agent-neutral folders Codex, Cursor, Copilot and Gemini CLI read)",
    },
];

/// What is at a skill's target before the install.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// Nothing.
    Missing,
    /// What this install would write.
    UpToDate,
    /// An earlier version this tool installed, unchanged since.
    Outdated,
    /// What this tool installed, changed since.
    Edited,
    /// Not this tool's: no record, or not a folder.
    Foreign,
}

impl State {
    /// As the table prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Missing => "missing",
            State::UpToDate => "up to date",
            State::Outdated => "outdated",
            State::Edited => "edited",
            State::Foreign => "foreign",
        }
    }
}

/// How to install.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Install {
    /// Also write over *edited* and *foreign* targets.
    pub force: bool,
    /// Only say what would be done.
    pub dry_run: bool,
}

/// One skill's target, its state, and whether it is (or would be) written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The skill.
    pub skill: String,
    /// Its directory in the folder.
    pub target: PathBuf,
    /// What was there.
    pub state: State,
    /// Whether this install writes it.
    pub written: bool,
}

/// Installs `skills` into `dir`: the state of each target, decided first
/// for all of them, then the writes. The result says, per skill, what was
/// there and whether it was written (under `dry_run`, would be).
///
/// An error stops the install at that skill; the skills before it are
/// installed, whole, and none is left half written.
pub fn install<'a>(
    dir: &Path,
    skills: impl IntoIterator<Item = &'a Skill>,
    how: Install,
) -> io::Result<Vec<Installed>> {
    let skills: Vec<&Skill> = skills.into_iter().collect();
    let mut planned = Vec::with_capacity(skills.len());
    // Each skill's record is made once (it hashes every file): the state
    // is decided against it, and the install writes it.
    let mut records = Vec::with_capacity(skills.len());
    for skill in &skills {
        let target = target_of(dir, skill.name())?;
        let record = record_of(skill);
        let state = state(&target, &record)?;
        records.push(record);
        let written = match state {
            State::Missing | State::Outdated => true,
            State::UpToDate => false,
            State::Edited | State::Foreign => how.force,
        };
        planned.push(Installed {
            skill: skill.name().to_owned(),
            target,
            state,
            written,
        });
    }
    if how.dry_run {
        return Ok(planned);
    }
    if planned.iter().any(|p| p.written) {
        std::fs::create_dir_all(dir)?;
    }
    for ((skill, plan), record) in skills.iter().zip(&planned).zip(&records) {
        if plan.written {
            write_skill(dir, skill, record, &plan.target)?;
        }
    }
    Ok(planned)
}

/// What an install of `skill` records: each file with its digest and
/// execute bit, `SKILL.md` included.
fn record_of(skill: &Skill) -> Record {
    let mut files = BTreeMap::new();
    files.insert(
        Skill::FILE.to_owned(),
        (sha256_hex(skill.source().as_bytes()), false),
    );
    for file in skill.files() {
        files.insert(
            file.path().to_owned(),
            (file.sha256_hex().to_owned(), file.is_executable()),
        );
    }
    Record { files }
}

/// Each file of an installed skill: its SHA-256 and execute bit.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    files: BTreeMap<String, (String, bool)>,
}

impl Record {
    /// As the manifest holds it: sorted, one line a file, so that the same
    /// skill gives the same bytes.
    fn to_json(&self, skill: &str) -> String {
        let mut out = String::from("{\n");
        out.push_str(&format!(
            "  \"installed_by\": \"skills {}\",\n",
            env!("CARGO_PKG_VERSION")
        ));
        out.push_str(&format!(
            "  \"skill\": {},\n  \"files\": {{\n",
            serde_json::Value::String(skill.to_owned())
        ));
        let lines: Vec<String> = self
            .files
            .iter()
            .map(|(path, (sha256, executable))| {
                format!(
                    "    {}: {{\"sha256\": \"{sha256}\", \"executable\": {executable}}}",
                    serde_json::Value::String(path.clone())
                )
            })
            .collect();
        out.push_str(&lines.join(",\n"));
        out.push_str("\n  }\n}\n");
        out
    }

    fn from_json(text: &str) -> Option<Record> {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        let files = value.get("files")?.as_object()?;
        let mut record = BTreeMap::new();
        for (path, file) in files {
            let sha256 = file.get("sha256")?.as_str()?.to_owned();
            let executable = file.get("executable")?.as_bool()?;
            record.insert(path.clone(), (sha256, executable));
        }
        Some(Record { files: record })
    }
}

/// `dir/name`, refusing a name that is not one folder name.
fn target_of(dir: &Path, name: &str) -> io::Result<PathBuf> {
    if !is_file_path(name) || name.contains('/') || name.starts_with('.') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{name}` cannot be a folder name"),
        ));
    }
    Ok(dir.join(name))
}

/// The state of `target` against what an install would record.
fn state(target: &Path, wanted: &Record) -> io::Result<State> {
    let metadata = match std::fs::symlink_metadata(target) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(State::Missing),
        Err(error) => return Err(error),
        Ok(metadata) => metadata,
    };
    if !metadata.is_dir() {
        // A file in the way, or a symlink (never followed).
        return Ok(State::Foreign);
    }
    let Some(recorded) = read_record(target)? else {
        return Ok(State::Foreign);
    };
    if !matches_on_disk(target, &recorded.files)? {
        return Ok(State::Edited);
    }
    Ok(if &recorded == wanted {
        State::UpToDate
    } else {
        State::Outdated
    })
}

/// Whether the folder `dir` holds an install's record that lists exactly
/// `files` (path to SHA-256, the record itself aside): the record is then
/// what `install` wrote beside the files it wrote, and not a file of the
/// skill. A verifier leaves such a record out of a signed skill, and only
/// such a record: one added by hand to a skills root, or listing other
/// files, is a file like any other.
pub fn is_record_of(dir: &Path, files: &BTreeMap<String, String>) -> bool {
    let Ok(Some(record)) = read_record(dir) else {
        return false;
    };
    record.files.len() == files.len()
        && record
            .files
            .iter()
            .all(|(path, (sha256, _))| files.get(path) == Some(sha256))
}

/// The record in `target`, when there is a readable one.
fn read_record(target: &Path) -> io::Result<Option<Record>> {
    let path = target.join(MANIFEST);
    match std::fs::symlink_metadata(&path) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
        Ok(metadata) if !metadata.is_file() || metadata.len() > MAX_MANIFEST_BYTES => {
            return Ok(None);
        }
        Ok(_) => {}
    }
    let text = std::fs::read_to_string(&path)?;
    Ok(Record::from_json(&text))
}

/// Whether `target` holds exactly the files `recorded` lists (the record
/// aside), each with its digest and execute bit; `false` when it holds
/// anything that is not a folder or a regular file (a symlink, a pipe):
/// such a target is not what was installed. A path the record does not
/// list ends the look before anything is read, and a file is hashed as it
/// streams by: a 3 GB file dropped into a skill costs no 3 GB of memory.
fn matches_on_disk(target: &Path, recorded: &BTreeMap<String, (String, bool)>) -> io::Result<bool> {
    let mut seen = 0usize;
    let mut folders = vec![(target.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{prefix}{name}");
            let metadata = std::fs::symlink_metadata(entry.path())?;
            if metadata.is_dir() {
                folders.push((entry.path(), format!("{path}/")));
            } else if metadata.is_file() {
                if path == MANIFEST {
                    continue;
                }
                let Some((sha256, executable)) = recorded.get(&path) else {
                    return Ok(false);
                };
                if *executable != executable_on_disk(&metadata)
                    || *sha256 != crate::file::sha256_of_file(&entry.path())?
                {
                    return Ok(false);
                }
                seen += 1;
            } else {
                return Ok(false);
            }
        }
    }
    Ok(seen == recorded.len())
}

/// Writes `skill` whole beside `target`, with its record, and swaps it into
/// place; what was there is removed after.
fn write_skill(dir: &Path, skill: &Skill, record: &Record, target: &Path) -> io::Result<()> {
    let staging = dir.join(hidden(skill.name(), "new"));
    let written = (|| {
        std::fs::create_dir(&staging)?;
        stage(&staging, skill, record)?;
        swap_into_place(&staging, target, dir, skill.name())
    })();
    let _ = std::fs::remove_dir_all(&staging);
    written
}

/// Writes every file of `skill` and its record into the new, empty folder
/// `staging`. The paths were checked when the skill was read
/// (`Skill::file` paths never leave the folder); they are checked again.
fn stage(staging: &Path, skill: &Skill, record: &Record) -> io::Result<()> {
    let record = record.to_json(skill.name());
    let files = skill
        .files()
        .iter()
        .map(|file| (file.path(), file.bytes(), file.is_executable()))
        .chain([
            (Skill::FILE, skill.source().as_bytes(), false),
            (MANIFEST, record.as_bytes(), false),
        ]);
    // Each folder is made once: asking again costs a refused `mkdir` and a
    // `stat` per file.
    let mut made = std::collections::HashSet::from([staging.to_path_buf()]);
    for (path, bytes, executable) in files {
        if !is_file_path(path) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{path}` is not a relative path inside the skill directory"),
            ));
        }
        let target = path
            .split('/')
            .fold(staging.to_path_buf(), |p, c| p.join(c));
        if let Some(parent) = target.parent()
            && !made.contains(parent)
        {
            std::fs::create_dir_all(parent)?;
            made.insert(parent.to_path_buf());
        }
        crate::write_out::write_file(&target, bytes, executable, false)?;
    }
    Ok(())
}

/// Puts the directory `new` at `target`: a rename when nothing is there;
/// otherwise an exchange in one step, then the old one removed.
fn swap_into_place(new: &Path, target: &Path, dir: &Path, name: &str) -> io::Result<()> {
    match std::fs::symlink_metadata(target) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return std::fs::rename(new, target);
        }
        Err(error) => return Err(error),
        Ok(metadata) if !metadata.is_dir() => {
            // A file or a symlink in the way (forced): the link itself goes,
            // never what it points to.
            std::fs::remove_file(target)?;
            return std::fs::rename(new, target);
        }
        Ok(_) => {}
    }
    let old = dir.join(hidden(name, "old"));
    exchange(new, target, &old)?;
    // After the exchange, `new` holds the old directory.
    let removed = if std::fs::symlink_metadata(&old).is_ok() {
        std::fs::remove_dir_all(&old)
    } else {
        std::fs::remove_dir_all(new)
    };
    removed.or_else(|error| {
        if error.kind() == io::ErrorKind::NotFound {
            Ok(())
        } else {
            Err(error)
        }
    })
}

/// Exchanges the directories `new` and `target` atomically (Linux), or
/// moves `target` to `old` and `new` to `target` (elsewhere).
fn exchange(new: &Path, target: &Path, old: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let from = std::ffi::CString::new(new.as_os_str().as_bytes())?;
        let to = std::ffi::CString::new(target.as_os_str().as_bytes())?;
        // SAFETY: two NUL-terminated paths that live across the call.
        let done = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if done == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        // A file system without the exchange: the two renames below.
        if !matches!(error.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
            return Err(error);
        }
    }
    std::fs::rename(target, old)?;
    std::fs::rename(new, target)
}

/// A hidden name beside a skill's target, unique to this install.
fn hidden(name: &str, what: &str) -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    format!(
        ".{name}.install-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )
}
