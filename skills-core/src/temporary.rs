//! Temporary files and folders with names no one can guess ahead: a name
//! made of the process id alone (`.lock.1234.tmp`) lets anyone who can
//! write beside the target plant a symlink there first, and a write
//! through it lands wherever the link points. Each name here has a random
//! part, and each file or folder is created exclusively (`O_CREAT|O_EXCL`,
//! `mkdir`), which never follows a link that is already there.

use std::hash::{BuildHasher, Hasher};
use std::io;
use std::path::{Path, PathBuf};

/// How many names are tried before giving up (each one taken means someone
/// created it between the draw and the create).
const TRIES: u32 = 16;

/// A new, empty file in `dir` named `.{stem}.{random}.tmp`, open for
/// writing, created exclusively. Hidden, so that discovery skips one that
/// a kill leaves behind.
///
/// ```
/// let dir = std::env::temp_dir();
/// let (path, file) = skills_core::temporary_file(&dir, "doc").unwrap();
/// assert!(path.file_name().unwrap().to_str().unwrap().starts_with(".doc."));
/// drop(file);
/// std::fs::remove_file(path).unwrap();
/// ```
pub fn temporary_file(dir: &Path, stem: &str) -> io::Result<(PathBuf, std::fs::File)> {
    let mut last = None;
    for _ in 0..TRIES {
        let path = dir.join(format!(".{stem}.{:016x}.tmp", random()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// A new folder in `dir` named `{prefix}-{random}`, created exclusively
/// (owner-only on Unix): a cache of this process's that no one else has
/// prepared.
pub fn temporary_dir(dir: &Path, prefix: &str) -> io::Result<PathBuf> {
    let mut last = None;
    for _ in 0..TRIES {
        let path = dir.join(format!("{prefix}-{:016x}", random()));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&path) {
            Ok(()) => return Ok(path),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// A folder made by [`temporary_dir`] that is removed, with what it
/// holds, when the value is dropped: a cache that lives as long as the
/// work that needs it, whatever way the work ends.
///
/// ```
/// let cache = skills_core::TemporaryDir::new(&std::env::temp_dir(), "doc").unwrap();
/// let path = cache.path().to_path_buf();
/// assert!(path.is_dir());
/// drop(cache);
/// assert!(!path.exists());
/// ```
#[derive(Debug)]
pub struct TemporaryDir {
    path: PathBuf,
}

impl TemporaryDir {
    /// A new folder in `dir`, as [`temporary_dir`] makes one.
    pub fn new(dir: &Path, prefix: &str) -> io::Result<TemporaryDir> {
        temporary_dir(dir, prefix).map(|path| TemporaryDir { path })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TemporaryDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// 64 random bits: the standard library's per-process random hash keys,
/// and a counter so that two draws differ.
fn random() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_never_written_through() {
        let dir =
            std::env::temp_dir().join(format!("skills-core-temporary-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (a, _) = temporary_file(&dir, "x").unwrap();
        let (b, _) = temporary_file(&dir, "x").unwrap();
        assert_ne!(a, b);
        let c = temporary_dir(&dir, "cache").unwrap();
        assert!(c.is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
