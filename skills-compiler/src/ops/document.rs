//! One skill file as an editor holds it: checked with its package's
//! settings (the manifest's profile, lints, lock and trust), as `cargo
//! skills check DIR` checks it when the text is on disk. Only that skill is
//! compiled: a keystroke re-checks the skill it touches, not the root.
//!
//! ```no_run
//! use skills_compiler::ops;
//!
//! let checked = ops::document::check("skills/tracker/SKILL.md".as_ref(), "---\nname: tracker\n---\n")?;
//! for diagnostic in &checked.diagnostics {
//!     println!("{}:{}", diagnostic.code, diagnostic.message);
//! }
//! # Ok::<(), ops::Error>(())
//! ```

use std::path::{Path, PathBuf};

use super::error::Error;
use super::targets::{Selection, targets};
use crate::config::Overrides;
use crate::pipeline::Compilation;
pub use crate::read::key_at::{KeyAt, key_at};

/// The skill a file belongs to: its folder for a `SKILL.md`, else the file
/// itself (a flat `name.md` skill).
pub fn skill_of(file: &Path) -> PathBuf {
    let is_skill_md = file
        .file_name()
        .is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md"));
    match file.parent() {
        Some(folder) if is_skill_md && !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => file.to_path_buf(),
    }
}

/// `file` (relative to the current directory, which a front end sets to
/// the workspace's root) compiled with `text` as its content: the
/// diagnostics name files as `check` does.
pub fn check(file: &Path, text: &str) -> Result<Compilation, Error> {
    let skill = skill_of(file);
    let found = targets(&Selection::default(), &[skill], &Overrides::default())?;
    let mut compilations = found.iter().map(|target| target.compile_with_text(text));
    let mut first = compilations
        .next()
        .ok_or_else(|| Error::Usage(format!("no skill at {}", file.display())))?;
    for more in compilations {
        first.diagnostics.extend(more.diagnostics);
    }
    Ok(first)
}
