//! Writing a skill directory out (`Skill::write_to`), for hosts that run a
//! skill's scripts from a path. Two rules make it safe in a folder the
//! host does not fully control:
//!
//! - **Everything is checked before anything is created.** A folder on the
//!   way that is a symlink, a file that is not a regular file, a file the
//!   host changed (under [`Overwrite::Refuse`]): each refuses the whole write,
//!   and nothing was created or written by then.
//! - **A new skill directory appears whole.** It is written beside, under
//!   a hidden name, and renamed into place: a failure (a full disk) leaves
//!   no half skill. In a directory that is already there, each file is
//!   written beside and renamed over the old one, so another name of the
//!   old file (a hard link, maybe outside) keeps its bytes and its mode: a
//!   mode is never changed in place.

use std::io;
use std::path::{Path, PathBuf};

use crate::file::{Overwrite, executable_on_disk, is_file_path};

/// One file to write: its path in the skill directory, bytes, execute bit.
pub(crate) struct Entry<'a> {
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub executable: bool,
}

/// Writes `entries` as the directory `dir/name`, as the module says.
pub(crate) fn skill_dir(
    dir: &Path,
    name: &str,
    entries: &[Entry<'_>],
    existing: Overwrite,
) -> io::Result<PathBuf> {
    if !is_file_path(name) || name.contains('/') {
        return Err(invalid(format!("`{name}` cannot be a directory name")));
    }
    if let Some(bad) = entries.iter().find(|entry| !is_file_path(entry.path)) {
        return Err(invalid(format!(
            "`{}` is not a relative path inside the skill directory",
            bad.path
        )));
    }
    std::fs::create_dir_all(dir)?;
    let skill_dir = dir.join(name);
    match std::fs::symlink_metadata(&skill_dir) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            write_new(dir, name, entries)?;
        }
        Ok(metadata) if metadata.is_dir() => {
            let plan = plan(&skill_dir, entries, existing)?;
            for (entry, target) in plan {
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                write_beside(&target, entry.bytes, entry.executable)?;
            }
        }
        Ok(_) => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("`{}` exists and is not a folder", skill_dir.display()),
            ));
        }
        Err(error) => return Err(error),
    }
    Ok(skill_dir)
}

/// A skill directory that is not there yet: written under a hidden name
/// beside it, then renamed into place in one step.
fn write_new(dir: &Path, name: &str, entries: &[Entry<'_>]) -> io::Result<()> {
    let staging = dir.join(hidden_name(name));
    std::fs::create_dir(&staging)?;
    let written = (|| {
        for entry in entries {
            let target = under(&staging, entry.path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            write_new_file(&target, entry.bytes, entry.executable)?;
        }
        std::fs::rename(&staging, dir.join(name))
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    written
}

/// What to write in an existing skill directory, every entry checked
/// first: its folders must be folders (a symlink could lead anywhere), the
/// file absent or a regular file, and a different file replaced only under
/// [`Overwrite::Allow`]. An identical file with the wanted execute bit is
/// left alone.
fn plan<'e, 'a>(
    skill_dir: &Path,
    entries: &'e [Entry<'a>],
    existing: Overwrite,
) -> io::Result<Vec<(&'e Entry<'a>, PathBuf)>> {
    let mut plan = Vec::new();
    for entry in entries {
        let target = under(skill_dir, entry.path);
        folders_are_folders(skill_dir, entry.path)?;
        match std::fs::symlink_metadata(&target) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                plan.push((entry, target));
            }
            Err(error) => return Err(error),
            Ok(metadata) if !metadata.file_type().is_file() => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("`{}` exists and is not a regular file", target.display()),
                ));
            }
            Ok(metadata) => {
                if std::fs::read(&target)? == entry.bytes {
                    if executable_on_disk(&metadata) != entry.executable {
                        plan.push((entry, target));
                    }
                } else if existing == Overwrite::Refuse {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "`{}` exists with other content; pass `Overwrite::Allow` to write over it",
                            target.display()
                        ),
                    ));
                } else {
                    plan.push((entry, target));
                }
            }
        }
    }
    Ok(plan)
}

/// Every folder on the way to `path` under `skill_dir` is a folder, or not
/// there yet (then nothing below it is either).
fn folders_are_folders(skill_dir: &Path, path: &str) -> io::Result<()> {
    let mut folder = skill_dir.to_path_buf();
    let parts: Vec<&str> = path.split('/').collect();
    for part in &parts[..parts.len() - 1] {
        folder.push(part);
        match std::fs::symlink_metadata(&folder) {
            Ok(metadata) if metadata.is_dir() => {}
            Ok(_) => {
                return Err(invalid(format!(
                    "`{}` is not a folder (a symlink could lead the write outside `{}`)",
                    folder.display(),
                    skill_dir.display()
                )));
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Writes `bytes` beside `target` and renames them over it: an interrupted
/// write leaves the old file whole, and the file is a new one, so another
/// hard link to the old file keeps the old bytes and mode.
fn write_beside(target: &Path, bytes: &[u8], executable: bool) -> io::Result<()> {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = target.with_file_name(hidden_name(&name));
    let written = write_new_file(&temporary, bytes, executable)
        .and_then(|()| std::fs::rename(&temporary, target));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Creates `path` (never opening one that is there) with `bytes`, and the
/// execute bit for whoever may read it when `executable`.
///
/// Without `sync`, the bytes are in the page cache when it returns, as
/// `cp` leaves them: a folder that appears by one rename needs no more to
/// be whole after an interrupted process (a power cut is the file
/// system's). `write_to` syncs each file; `install` does not.
pub(crate) fn write_file(
    path: &Path,
    bytes: &[u8],
    executable: bool,
    sync: bool,
) -> io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The umask still applies: `rwxr-xr-x` becomes what the host allows.
        options.mode(if executable { 0o755 } else { 0o644 });
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    if sync {
        file.sync_all()?;
    }
    Ok(())
}

fn write_new_file(path: &Path, bytes: &[u8], executable: bool) -> io::Result<()> {
    write_file(path, bytes, executable, true)
}

/// A name no one else uses, hidden, beside `name`.
fn hidden_name(name: &str) -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    format!(
        ".{name}.skills-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )
}

fn under(dir: &Path, path: &str) -> PathBuf {
    path.split('/').fold(dir.to_path_buf(), |p, c| p.join(c))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replaced file is a new file renamed into place, not the old one
    /// cut and rewritten: a hard link to the old one keeps its bytes, and
    /// no temporary file is left beside it.
    #[test]
    fn a_replaced_file_is_written_beside_and_renamed_over() {
        let dir = std::env::temp_dir().join(format!("skills-core-replace-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::write(dir.join("a/notes.md"), "old").unwrap();
        std::fs::hard_link(dir.join("a/notes.md"), dir.join("link.md")).unwrap();
        let entry = Entry {
            path: "notes.md",
            bytes: b"new",
            executable: false,
        };
        skill_dir(&dir, "a", &[entry], Overwrite::Allow).unwrap();
        assert_eq!(std::fs::read(dir.join("a/notes.md")).unwrap(), b"new");
        assert_eq!(std::fs::read(dir.join("link.md")).unwrap(), b"old");
        let names: Vec<String> = std::fs::read_dir(dir.join("a"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["notes.md"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
