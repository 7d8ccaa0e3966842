//! The Agent Skills reference CLI's commands (`validate`,
//! `read-properties`, `to-prompt`): one skill directory compiled as the
//! reference reads it, with its answers and its messages.

use std::path::{Path, PathBuf};

use super::error::Error;
use crate::config::{Config, Overrides, Profile};
use crate::diagnostics::Diagnostic;
use crate::ir::Skill;
use crate::pipeline::{Compilation, compile_skill};
use crate::read::discover::skill_dir_of;

/// The skill directory `path` names: a `SKILL.md` path stands for its
/// directory, and `.` for the current one (whose own name is what `name`
/// must match), as in the reference CLI.
pub fn skill_dir(path: &Path) -> Result<PathBuf, Error> {
    if !path.exists() {
        return Err(Error::Usage(format!(
            "Path '{}' does not exist.",
            path.display()
        )));
    }
    let dir = skill_dir_of(path);
    if dir.as_os_str().is_empty() || dir == Path::new(".") {
        return std::env::current_dir().map_err(|e| Error::Io(e.to_string()));
    }
    Ok(dir.to_path_buf())
}

/// The skill at `path` compiled under `profile` (the current directory's
/// configuration otherwise): its directory and the compilation.
pub fn compile(path: &Path, profile: Profile) -> Result<(PathBuf, Compilation), Error> {
    let dir = skill_dir(path)?;
    let overrides = Overrides {
        profile: Some(profile),
        ..Overrides::default()
    };
    let config = Config::load(Path::new("."), overrides).map_err(|d| Error::Usage(d.message))?;
    let compilation = compile_skill(Path::new("."), &dir, &config);
    Ok((dir, compilation))
}

/// The one valid skill at `path`, or its first error (the reference stops
/// at one).
pub fn properties(
    path: &Path,
    profile: Profile,
) -> Result<(PathBuf, Result<Skill, Diagnostic>), Error> {
    let (dir, compilation) = compile(path, profile)?;
    if let Some(error) = compilation
        .diagnostics
        .into_iter()
        .find(Diagnostic::is_error)
    {
        return Ok((dir, Err(error)));
    }
    let skill = compilation
        .valid
        .skills
        .into_iter()
        .next()
        .ok_or(Error::Invalid)?;
    Ok((dir, Ok(std::sync::Arc::unwrap_or_clone(skill))))
}
