//! Which package's root and lock a vendoring operation works on, and
//! what is there.

use std::path::{Path, PathBuf};

use super::super::error::Error;
use super::super::targets::{is_package, packages, relative_to_cwd};
use crate::config::{Config, Overrides};
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
