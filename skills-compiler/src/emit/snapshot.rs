//! The bytes a build embeds, fixed when they are checked.
//!
//! Generated code embeds a file with `include_bytes!`, which rustc runs
//! later, by path, following links: a name swapped for a symlink between
//! the compiler's listing and rustc's read (after a build script stored
//! its expansion, say) would embed a file outside the skill. When the build
//! has an `OUT_DIR` and a build script that tracks the root, each file is
//! read here as listed (by identity: see `read::open::open_listed`) and
//! copied to `OUT_DIR/skills-files/<sha256>`, and the generated code embeds
//! the copy. A copy is named by its content, so it never changes once
//! written, and a rebuild copies only what changed. The build script's
//! tracking of the root (not rustc's of the copy) re-runs the build on an
//! edit.

use std::io::Write;
use std::path::Path;

use crate::diagnostics::{Code, Diagnostic};
use crate::ir::SkillSet;

/// The folder of `OUT_DIR` the copies are written to.
pub const FOLDER: &str = "skills-files";

/// Copies every valid skill's SKILL.md and files into `out_dir` and records
/// each copy's name in the set, for code generation to embed. A file that
/// is not the one listed any more, or cannot be copied, is an error: the
/// build must not embed what was not checked.
pub fn copy_into(set: &mut SkillSet, out_dir: &Path) -> Result<(), Vec<Diagnostic>> {
    let folder = out_dir.join(FOLDER);
    std::fs::create_dir_all(&folder).map_err(|error| vec![cannot_copy(FOLDER, &error)])?;
    let mut problems = Vec::new();
    for skill in &mut set.skills {
        // Shared with no other compilation here: nothing is copied.
        let skill = std::sync::Arc::make_mut(skill);
        match write(&folder, skill.source_text().as_bytes()) {
            Ok(name) => skill.snapshot = Some(name),
            Err(error) => problems.push(cannot_copy(skill.path(), &error)),
        }
        let Some(dir) = &skill.dir_on_disk else {
            continue;
        };
        let dir = dir.clone();
        let shown = skill.dir.clone().unwrap_or_default();
        for file in &mut skill.files {
            let copied = crate::read::files::read_listed(&dir, file)
                .and_then(|bytes| write(&folder, &bytes));
            match copied {
                Ok(name) => file.snapshot = Some(name),
                Err(error) => problems.push(cannot_copy(&format!("{shown}/{}", file.path), &error)),
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Writes `bytes` as `folder/<sha256>` unless a copy is there already;
/// returns the name. Written beside and renamed: a reader never sees half.
fn write(folder: &Path, bytes: &[u8]) -> std::io::Result<String> {
    let name = skills_core::sha256_hex(bytes);
    let path = folder.join(&name);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
        return Ok(name);
    }
    let partial = folder.join(format!(".{name}.{}", std::process::id()));
    let mut file = std::fs::File::create(&partial)?;
    file.write_all(bytes)?;
    drop(file);
    std::fs::rename(&partial, &path)?;
    Ok(name)
}

fn cannot_copy(path: &str, error: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::Io,
        path,
        format!("cannot copy the file to embed it: {error}"),
    )
    .with_help("build again; if the file keeps changing, stop what changes it")
}
