//! The skills directories that agents look in by convention, found from a
//! working directory and a home: which ones exist, and which of them may
//! be trusted to load.
//!
//! Nearest first: for the working directory and each folder above it,
//! `.agents/skills`, `.claude/skills` and `.codex/skills`, stopping at the
//! repository (the first folder with a `.git`) or at the home folder; then
//! the same three under home. Only roots owned by the user or by root are
//! listed (issue 40, item 21: a world-writable ancestor such as `/tmp`
//! could hold skills that came before the user's own).

use std::path::{Path, PathBuf};

/// The conventional sub-folders, in the order each folder lists them.
pub const DIRS: [&str; 3] = [".agents/skills", ".claude/skills", ".codex/skills"];

/// The conventional roots that exist and are trusted, nearest first.
pub fn roots(working_dir: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut folders: Vec<&Path> = Vec::new();
    for dir in working_dir.ancestors() {
        folders.push(dir);
        let is_repository = dir.join(".git").exists();
        if is_repository || Some(dir) == home {
            break;
        }
    }
    folders.extend(home);
    let mut roots: Vec<PathBuf> = Vec::new();
    for candidate in folders
        .into_iter()
        .flat_map(|dir| DIRS.iter().map(move |sub| dir.join(sub)))
    {
        if candidate.is_dir() && is_trusted(&candidate) && !roots.contains(&candidate) {
            roots.push(candidate);
        }
    }
    roots
}

/// Whether `dir` is owned by the user running this, or by root.
#[cfg(unix)]
pub fn is_trusted(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(metadata) = std::fs::metadata(dir) else {
        return false;
    };
    // SAFETY: geteuid takes nothing, touches no memory and cannot fail.
    let user = unsafe { libc::geteuid() };
    metadata.uid() == user || metadata.uid() == 0
}

/// Elsewhere ownership is not what decides access: every root is trusted.
#[cfg(not(unix))]
pub fn is_trusted(_: &Path) -> bool {
    true
}
