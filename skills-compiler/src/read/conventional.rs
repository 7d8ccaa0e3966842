//! The skills directories that agents look in by convention, found from a
//! working directory and a home: which ones exist, and which of them may
//! be trusted to load.
//!
//! Nearest first: for the working directory and each folder above it,
//! `.agents/skills`, `.claude/skills` and `.codex/skills`, stopping at the
//! repository (the first folder with a `.git`) or at the home folder; then
//! the same three under home. Only roots owned by the user, or by root and
//! not writable by everyone, are listed, and so must the folder holding each
//! be (issue 40, item 21: a world-writable ancestor such as `/tmp` could
//! hold skills that came before the user's own; issue 58, item 20: a
//! world-writable `.agents/skills` owned by root is anyone's).

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

/// Whether `dir` is owned by the user running this, or by root and not
/// writable by everyone; and so is the folder that holds it (`.agents`),
/// where anyone who may write could put another `skills` in its place.
#[cfg(unix)]
pub fn is_trusted(dir: &Path) -> bool {
    let holder = dir.parent().filter(|p| !p.as_os_str().is_empty());
    is_trusted_folder(dir) && holder.is_none_or(is_trusted_folder)
}

#[cfg(unix)]
fn is_trusted_folder(dir: &Path) -> bool {
    // SAFETY: geteuid takes nothing, touches no memory and cannot fail.
    let user = unsafe { libc::geteuid() };
    std::fs::metadata(dir).is_ok_and(|metadata| is_trusted_by(&metadata, user))
}

/// Whether a folder with `metadata` may be trusted by the user `user`.
#[cfg(unix)]
fn is_trusted_by(metadata: &std::fs::Metadata, user: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let world_writable = metadata.mode() & 0o002 != 0;
    metadata.uid() == user || (metadata.uid() == 0 && !world_writable)
}

/// Elsewhere ownership is not what decides access: every root is trusted.
#[cfg(not(unix))]
pub fn is_trusted(_: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    /// Issue 58, item 20: a root-owned folder that everyone may write is
    /// no one's to trust; one that only root writes is.
    #[cfg(unix)]
    #[test]
    fn a_world_writable_folder_of_another_owner_is_not_trusted() {
        use super::is_trusted_by;
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = std::env::temp_dir().join(format!("skills-conventional-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let owner = std::fs::metadata(&dir).unwrap().uid();
        let someone_else = owner.wrapping_add(4242);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let open = std::fs::metadata(&dir).unwrap();
        assert!(
            is_trusted_by(&open, owner),
            "the owner trusts their own folder"
        );
        assert!(!is_trusted_by(&open, someone_else), "everyone may write it");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let closed = std::fs::metadata(&dir).unwrap();
        assert_eq!(is_trusted_by(&closed, someone_else), owner == 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
