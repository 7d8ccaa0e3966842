//! `add`, `update`, `sync`, `remove`, `lock` and `verify`: which package's
//! root and lock they work on, and what is there. The fetching, checking,
//! staging and locking are [`vendoring`](crate::vendoring) and
//! [`lock`](crate::lock).

use std::path::{Path, PathBuf};

use super::error::Error;
use super::targets::{is_package, packages, relative_to_cwd};
use crate::config::{Config, Overrides};
use crate::lock::{Status, check};
use crate::read::discover::{discover, display_path};
use crate::read::sources::roots_named_in_sources;
use crate::vendoring::install::{Package, VendorError};

impl From<VendorError> for Error {
    fn from(error: VendorError) -> Self {
        match error {
            VendorError::Usage(message) => Error::Usage(message),
            VendorError::Failed(message) => Error::Io(message),
        }
    }
}

/// The package the command works on (`-p NAME`, else the one the current
/// directory is in), its configuration and its root: `root`, else the one
/// its sources name with the macro's options (`add` checks a skill by the
/// rules the build will hold it to), else the configured one.
pub fn package(name: Option<&str>, root: Option<&Path>) -> Result<Package, Error> {
    let dir = match name {
        Some(name) => packages()?
            .into_iter()
            .find(|p| p.name == name)
            .map(|p| relative_to_cwd(&p.dir))
            .ok_or_else(|| Error::Usage(format!("package `{name}` is not in this workspace")))?,
        None => enclosing_package().unwrap_or_else(|| PathBuf::from(".")),
    };
    let named = match root {
        Some(_) => Vec::new(),
        None => roots_named_in_sources(&dir),
    };
    let options = match named.as_slice() {
        [one] => one.overrides.clone(),
        _ => Overrides::default(),
    };
    let config = Config::load(&dir, options).map_err(|d| Error::Usage(d.message))?;
    let root = match (root, named.as_slice()) {
        (Some(root), _) => root.to_path_buf(),
        (None, [one]) => one.dir.clone(),
        (None, _) => config.dir.clone(),
    };
    Ok(Package::new(
        &dir,
        Config {
            dir: root,
            ..config
        },
    ))
}

/// The nearest folder at or above the current one with a `Cargo.toml`
/// that has a `[package]`, relative to the current directory.
fn enclosing_package() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let mut relative = PathBuf::from(".");
    for dir in cwd.ancestors() {
        if is_package(dir) {
            return Some(relative);
        }
        relative = Path::new(&relative).join("..");
    }
    None
}

/// The skill folders of the package's root, as discovery finds them.
pub fn present(package: &Package) -> Vec<String> {
    let mut problems = Vec::new();
    discover(&package.base, &package.config, &mut problems)
        .into_iter()
        .filter_map(|files| {
            let dir = files.dir?;
            Some(dir.path.rsplit('/').next().unwrap_or(&dir.path).to_owned())
        })
        .collect()
}

/// The package's lock, which `update`, `sync` and `verify` need: without
/// one there is nothing to do (never a success on zero work), and
/// `missing` ends the sentence that says so, after the lock's name.
pub fn require_lock(package: &Package, missing: &str) -> Result<(), Error> {
    if package.base.join(&package.lock_path).exists() {
        return Ok(());
    }
    Err(Error::Io(format!(
        "there is no `{}`{missing}",
        display_path(&package.lock_path)
    )))
}

/// Each skill against the lock, one line each, and what they add up to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verified {
    /// `NAME: matches`, `NAME: modified: FILES`, `NAME: missing (...)`...
    pub lines: Vec<String>,
    /// Every skill matches its entry.
    pub all_match: bool,
    /// A skill was changed or is gone: `sync` or `update` brings it back.
    pub drifted: bool,
}

/// Each skill of the root and of the lock against the lock: matches,
/// modified (which files), missing, unlocked. Nothing to verify (no lock,
/// or a lock and a root with no skill) is an error, never a pass.
pub fn verify(package: &Package) -> Result<Verified, Error> {
    require_lock(
        package,
        " to verify against: write one with `cargo skills lock`",
    )?;
    let lock = package.lock()?;
    let statuses = check::statuses(
        &package.base,
        &package.config.dir,
        &package.lock_path,
        &lock,
        &present(package),
        crate::lock::check::Scope::Root,
    );
    if statuses.is_empty() {
        return Err(Error::Io(format!(
            "nothing to verify: `{}` locks no skill and `{}` has none",
            display_path(&package.lock_path),
            display_path(&package.config.dir)
        )));
    }
    let mut verified = Verified {
        all_match: true,
        ..Verified::default()
    };
    for checked in &statuses {
        // Vercel's CLI writes entries without per-file lines.
        let by_hash_only = lock.get(&checked.name).is_some_and(|e| e.files().is_none());
        verified.lines.push(line(package, checked, by_hash_only));
        verified.all_match &= matches!(checked.status, Ok(Status::Matches));
        verified.drifted |= matches!(
            checked.status,
            Ok(Status::Modified { .. } | Status::Missing)
        );
    }
    Ok(verified)
}

/// What `verify` says of one skill.
fn line(package: &Package, checked: &check::Checked, by_hash_only: bool) -> String {
    let name = &checked.name;
    let line = match &checked.status {
        Ok(Status::Matches) if by_hash_only => format!(
            "{name}: matches (by `computedHash` only: no per-file lines, so modes are not checked; `cargo skills lock {name}` adds them)"
        ),
        Ok(Status::Matches) => format!("{name}: matches"),
        Ok(Status::Missing) => {
            format!("{name}: missing (looked in {})", checked.looked.join(", "))
        }
        Ok(Status::Unlocked) => format!("{name}: unlocked"),
        Ok(Status::Modified { changed }) if changed.is_empty() => {
            format!("{name}: modified (the entry names no files)")
        }
        Ok(Status::Modified { changed }) => {
            let changed: Vec<String> = changed.iter().map(ToString::to_string).collect();
            format!("{name}: modified: {}", changed.join(", "))
        }
        Err(error) => format!("{name}: cannot be verified: {error}"),
    };
    // A skill Vercel's CLI installed for an agent is verified there.
    let in_root = display_path(&package.config.dir.join(name));
    if checked.folder == in_root || !checked.looked.is_empty() {
        return line;
    }
    match line.split_once(": ") {
        Some((name, rest)) => format!("{name} (in {}): {rest}", checked.folder),
        None => line,
    }
}
