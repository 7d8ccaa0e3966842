//! Writing a file without losing anything: the new text goes to a
//! temporary file beside it, is synced, gets the file's owner, group and
//! mode, and is renamed over it, so an interrupted write (a full disk, a
//! file size limit, a kill) leaves the original whole. Just before, the
//! file is read again: an edit saved since it was read is kept, not
//! overwritten.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What [`replace`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaced {
    /// The new text is in place.
    Written,
    /// The file no longer holds what was read: nothing was written.
    ChangedSince,
}

/// Replaces the contents of `path` with `after`, when it still holds
/// `before`. Refuses a path that is now a symlink (one swapped in after the
/// read would send the write elsewhere); a file with other hard links is
/// written (it stops sharing its contents with them).
pub fn replace(path: &Path, before: &[u8], after: &[u8]) -> io::Result<Replaced> {
    let metadata = std::fs::symlink_metadata(path)?;
    if metadata.file_type().is_symlink() || !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is no longer a regular file (a symlink or something else took its place)",
        ));
    }
    if std::fs::read(path)? != before {
        return Ok(Replaced::ChangedSince);
    }
    let (temporary, file) = temporary_beside(path)?;
    let written =
        write_synced(file, after, &metadata).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.map(|()| Replaced::Written)
}

/// Creates `path` with `bytes`, atomically and never over a file that is
/// there by now: the bytes go to a temporary file beside it, are synced,
/// and the file is linked in under its name (a hard link fails, where a
/// rename would replace, when the name is taken), then the temporary name
/// is removed. An interrupted create leaves no half-written file.
pub fn create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (temporary, mut file) = temporary_beside(path)?;
    let created = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::hard_link(&temporary, path));
    let _ = std::fs::remove_file(&temporary);
    created
}

/// A new file beside `path` (same directory, so that the rename is atomic),
/// hidden so that discovery skips it should a kill leave it behind, with a
/// name no one can plant a link at first ([`skills_core::temporary_file`]).
fn temporary_beside(path: &Path) -> io::Result<(PathBuf, std::fs::File)> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    skills_core::temporary_file(dir, &name)
}

fn write_synced(
    mut file: std::fs::File,
    bytes: &[u8],
    original: &std::fs::Metadata,
) -> io::Result<()> {
    file.write_all(bytes)?;
    keep_owner(&file, original)?;
    file.set_permissions(original.permissions())?;
    file.sync_all()
}

/// The new file gets the old one's owner and group (issue 40, item 22: a
/// `fix` run as root left a user's 0640 file owned by root, locking the
/// user out). When they cannot be kept, the rewrite is refused: the
/// temporary file is removed and the original stays as it was.
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, original: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let created = file.metadata()?;
    if created.uid() == original.uid() && created.gid() == original.gid() {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid())).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!(
                "its owner and group ({}:{}) cannot be kept ({error}), so it is not rewritten",
                original.uid(),
                original.gid()
            ),
        )
    })
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) -> io::Result<()> {
    Ok(())
}

/// Whether `path` has other hard links, which keep the old text when
/// [`replace`] writes it.
pub(crate) fn has_other_links(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|metadata| hard_links(&metadata) > 1)
}

#[cfg(unix)]
fn hard_links(metadata: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    metadata.nlink()
}

#[cfg(not(unix))]
fn hard_links(_: &std::fs::Metadata) -> u64 {
    1
}

/// Writes `bytes` as the file `path`, whole: beside it under a hidden name,
/// then renamed over it. A reader never sees half a file, and a symlink at
/// `path` is replaced, not followed. For files this tool makes (bundles,
/// indexes), not for a user's files ([`replace`] keeps their mode).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (temporary, mut file) = temporary_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}
