//! Which writes would break a publisher's signature: a file inside a
//! skill folder that carries `skill.oms.sig` lists every file with its
//! digest, so any edit there makes the skill fail verification.

use std::path::{Path, PathBuf};

use skills_core::SIGNATURE_FILE;

/// The signed skill folder that holds `path` (a file to write, relative
/// to the working directory or absolute): its nearest folder with a
/// `SKILL.md`, when that folder has a `skill.oms.sig`.
pub(crate) fn signed_folder(path: &Path) -> Option<PathBuf> {
    let skill = path
        .ancestors()
        .skip(1)
        .find(|folder| folder.join("SKILL.md").is_file())?;
    let folder = if skill.as_os_str().is_empty() {
        Path::new(".")
    } else {
        skill
    };
    folder
        .join(SIGNATURE_FILE)
        .is_file()
        .then(|| folder.to_path_buf())
}

/// The signed folders among those that hold `paths`, each once, sorted.
pub(crate) fn signed_folders<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = paths
        .into_iter()
        .filter_map(|path| signed_folder(Path::new(path)))
        .collect();
    folders.sort();
    folders.dedup();
    folders
}
