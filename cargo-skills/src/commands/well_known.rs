//! `catalog --format well-known`: the `.well-known/agent-skills/index.json`
//! discovery index of the compiled skills (schema 0.2.0), printed, or
//! written with `--out DIR` beside the artifacts it points at. The index
//! and its artifacts are `skills_core::well_known`'s, the same at run time.
//!
//! Every artifact is written before the index, each whole (written beside
//! and renamed): a client that reads the index while it is being written
//! finds the old index, or the new one with every artifact in place.

use std::path::Path;

use skills_compiler::diagnostics::render;
use skills_compiler::ir::SkillSet;
use skills_core::well_known::{Artifact, Index};

use crate::failure::Failure;
use crate::output::{out, outln, shown};
use skills_compiler::ops::files::write_whole;

/// The index's file name in the folder `--out` names.
const INDEX_FILE: &str = "index.json";

pub(crate) fn run(set: &SkillSet, out_dir: Option<&Path>) -> Result<(), Failure> {
    let lowered = skills_compiler::lower::set(set).map_err(|unreadable| {
        Failure::Io(
            unreadable
                .iter()
                .map(render::short)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    // Compiled skills hold only checked paths: this refuses nothing.
    let index = Index::of(&lowered).map_err(|error| Failure::Io(error.to_string()))?;
    let Some(dir) = out_dir else {
        out!("{}", index.to_json());
        return Ok(());
    };
    for artifact in index.artifacts() {
        write_artifact(dir, artifact)?;
    }
    let path = dir.join(INDEX_FILE);
    write_whole(&path, index.to_json().as_bytes()).map_err(|error| cannot_write(&path, &error))?;
    outln!(
        "{}  {} skills",
        shown(&path.display().to_string()),
        index.entries().len()
    );
    Ok(())
}

/// Writes one artifact under `dir`. A skill's folder in `dir` that is a
/// symlink is refused: writing through it would put `SKILL.md` outside
/// `dir`. (`dir` itself is the user's to point anywhere.)
fn write_artifact(dir: &Path, artifact: &Artifact) -> Result<(), Failure> {
    let path = dir.join(&artifact.path);
    if let Some(folder) = path.parent() {
        if folder != dir
            && std::fs::symlink_metadata(folder).is_ok_and(|m| m.file_type().is_symlink())
        {
            return Err(Failure::Io(format!(
                "cannot write {}: {} is a symlink; remove it, the index's folders are this command's to write",
                path.display(),
                folder.display()
            )));
        }
        std::fs::create_dir_all(folder).map_err(|error| cannot_write(&path, &error))?;
    }
    write_whole(&path, &artifact.bytes).map_err(|error| cannot_write(&path, &error))?;
    outln!(
        "{}  {} bytes",
        shown(&path.display().to_string()),
        artifact.bytes.len()
    );
    Ok(())
}

fn cannot_write(path: &Path, error: &std::io::Error) -> Failure {
    Failure::Io(format!("cannot write {}: {error}", path.display()))
}
