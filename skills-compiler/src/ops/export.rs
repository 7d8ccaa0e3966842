//! `pack` and `catalog --format well-known`: compiled skills as files for
//! others to read, zip bundles for hosted APIs and the discovery index
//! with its artifacts. Each is made whole (and a bundle checked against
//! the upload limits, S523) before any is written, and each file is
//! written whole: beside its place, then renamed over it.

use std::path::{Path, PathBuf};

use super::error::Error;
use super::files::write_whole;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::render;
use crate::emit::{bundle, lower};
use crate::ir::{Skill, SkillSet};
use skills_core::well_known::Index;

/// A file an export writes: a path and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Where it goes.
    pub path: PathBuf,
    /// What it holds.
    pub bytes: Vec<u8>,
}

/// Each skill as `NAME.zip` in `out`, with the skills whose bundle is over
/// a hosted API's upload limit (nothing may be written while there is
/// one).
pub fn pack(skills: &[&Skill], out: &Path) -> Result<(Vec<Output>, Vec<Diagnostic>), Error> {
    let mut bundles = Vec::with_capacity(skills.len());
    let mut refused = Vec::new();
    for skill in skills {
        let files = lower::read_files(skill).map_err(|d| Error::Io(render::short(&d)))?;
        // Compiled skills hold only checked paths: this refuses nothing.
        let zip = lower::skill(skill, files.into())
            .zip()
            .map_err(|error| Error::Io(error.to_string()))?;
        refused.extend(bundle::check(skill, zip.len()));
        bundles.push(Output {
            path: out.join(format!("{}.zip", skill.name())),
            bytes: zip,
        });
    }
    Ok((bundles, refused))
}

/// The `.well-known/agent-skills/index.json` discovery index of `set`
/// (schema 0.2.0): `skills_core::well_known`'s, the same at run time.
pub fn well_known(set: &SkillSet) -> Result<Index, Error> {
    let lowered = lower::set(set).map_err(|unreadable| {
        let lines: Vec<String> = unreadable.iter().map(render::short).collect();
        Error::Io(lines.join("\n"))
    })?;
    // Compiled skills hold only checked paths: this refuses nothing.
    Index::of(&lowered).map_err(|error| Error::Io(error.to_string()))
}

/// The index's file name in the folder it is written to.
pub const INDEX_FILE: &str = "index.json";

/// The files of `index` in `dir`: every artifact, then the index, so that
/// a client reading the index while they are written finds the old index,
/// or the new one with every artifact in place.
pub fn well_known_files(index: &Index, dir: &Path) -> Vec<Output> {
    let artifacts = index.artifacts().iter().map(|artifact| Output {
        path: dir.join(&artifact.path),
        bytes: artifact.bytes.clone(),
    });
    let index = Output {
        path: dir.join(INDEX_FILE),
        bytes: index.to_json().into_bytes(),
    };
    artifacts.chain([index]).collect()
}

/// Writes each output whole, in order, making its folder. A folder of an
/// output inside `dir` that is a symlink is refused: writing through it
/// would put the file outside `dir` (`dir` itself is the person's to point
/// anywhere).
pub fn write(outputs: &[Output], dir: &Path) -> Result<(), Error> {
    for output in outputs {
        let path = &output.path;
        let cannot =
            |error: std::io::Error| Error::Io(format!("cannot write {}: {error}", path.display()));
        if let Some(folder) = path.parent() {
            if folder != dir
                && std::fs::symlink_metadata(folder).is_ok_and(|m| m.file_type().is_symlink())
            {
                return Err(Error::Io(format!(
                    "cannot write {}: {} is a symlink; remove it, the index's folders are this command's to write",
                    path.display(),
                    folder.display()
                )));
            }
            std::fs::create_dir_all(folder).map_err(cannot)?;
        }
        write_whole(path, &output.bytes).map_err(cannot)?;
    }
    Ok(())
}
