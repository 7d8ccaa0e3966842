//! The skill's files against the signed list: each changed, added or
//! missing file named, read by the one walk the lock uses.

use std::collections::BTreeMap;
use std::path::Path;

use super::statement::{GIT_PATHS, Manifest};
use crate::diagnostics::{Code, Diagnostic};
use crate::lock::HashCache;
use crate::lock::hash::{HashError, Limits, Mode, file_digests_skipping};

pub use skills_core::SIGNATURE_FILE;

/// Whether `path` (relative to the skill) is left out of a signature with
/// `ignore_paths`: the signature file, git's files at the top (as the
/// reference leaves them out), and each ignored path with everything
/// under it. `install`'s record is a file like any other here; see
/// [`without_install_record`].
pub(crate) fn left_out(path: &str, ignore_paths: &[String]) -> bool {
    path == SIGNATURE_FILE
        || GIT_PATHS.contains(&path)
        || ignore_paths.iter().any(|ignored| {
            path == ignored
                || path
                    .strip_prefix(ignored.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
}

/// Each file of the skill folder `dir` (not left out), with its SHA-256:
/// a symlink is hashed as the file it leads to when `allow_symlinks`, and
/// refused otherwise or when it leads out of the skill.
pub(crate) fn on_disk(
    dir: &Path,
    ignore_paths: &[String],
    allow_symlinks: bool,
    cache: &mut HashCache,
) -> Result<BTreeMap<String, String>, String> {
    let skip = |path: &str, _is_dir: bool| left_out(path, ignore_paths);
    let listed =
        file_digests_skipping(dir, Limits::default(), cache, &skip).map_err(
            |error| match error {
                HashError::Io { path, error } => format!("cannot read `{path}`: {error}"),
                other => other.to_string(),
            },
        )?;
    let mut files = BTreeMap::new();
    for file in listed {
        let sha256 = match file.mode {
            Mode::Symlink if !allow_symlinks => {
                return Err(format!(
                    "`{}` is a symlink: a signed skill's links are refused unless the verifier accepts them (`signed_symlinks = true` in `[package.metadata.skills]`), whatever the signature says",
                    skills_core::printable(&file.path)
                ));
            }
            Mode::Symlink => linked_digest(dir, &file.path)?,
            Mode::File | Mode::Executable => file.sha256,
        };
        files.insert(file.path, sha256);
    }
    Ok(files)
}

/// The SHA-256 of the file a symlink leads to, inside the skill.
fn linked_digest(dir: &Path, path: &str) -> Result<String, String> {
    let shown = skills_core::printable(path);
    let outside = || format!("`{shown}` is a symlink that leads outside the skill or to no file");
    let root = std::fs::canonicalize(dir).map_err(|_| outside())?;
    let target = std::fs::canonicalize(dir.join(path)).map_err(|_| outside())?;
    if !target.starts_with(&root) || !target.is_file() {
        return Err(outside());
    }
    let limit = Limits::default().max_bytes;
    let file = crate::read::open::open_regular(&target)
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, limit + 1), &mut bytes)
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("`{shown}` leads to a file over {limit} bytes"));
    }
    Ok(skills_core::sha256_hex(&bytes))
}

/// `found` without `install`'s record when the signature does not list it
/// and it is the record of exactly the other files (an agent's folder that
/// `cargo skills install` wrote a verified skill into); with it otherwise,
/// so that a record added to a signed skill anywhere else is S524.
pub(crate) fn without_install_record(
    dir: &Path,
    signed: &Manifest,
    mut found: BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let record = skills_core::install::MANIFEST;
    if found.contains_key(record) && !signed.resources.iter().any(|(path, _)| path == record) {
        let recorded = found.remove(record);
        if !skills_core::install::is_record_of(dir, &found)
            && let Some(digest) = recorded
        {
            found.insert(record.to_owned(), digest);
        }
    }
    found
}

/// One S524 per file that differs from the signed list, on the file.
pub(crate) fn compare(
    folder: &str,
    signed: &Manifest,
    found: &BTreeMap<String, String>,
) -> Vec<Diagnostic> {
    let listed: BTreeMap<&str, &str> = signed
        .resources
        .iter()
        .map(|(name, digest)| (name.as_str(), digest.as_str()))
        .collect();
    let mut out = Vec::new();
    let at = |path: &str| format!("{folder}/{}", skills_core::printable(path));
    for (path, digest) in found {
        match listed.get(path.as_str()) {
            Some(&expected) if expected == digest => {}
            Some(_) => out.push(
                Diagnostic::error(Code::SignatureTampered, at(path), "changed since the skill was signed")
                    .with_help("its SHA-256 is not the one `skill.oms.sig` lists: these are not the publisher's bytes"),
            ),
            None => out.push(
                Diagnostic::error(Code::SignatureTampered, at(path), "added after the skill was signed")
                    .with_help("`skill.oms.sig` does not list this file: remove it, or have the skill signed again with it"),
            ),
        }
    }
    for path in listed.keys().filter(|path| !found.contains_key(**path)) {
        out.push(
            Diagnostic::error(
                Code::SignatureTampered,
                at(path),
                "missing: the signature lists it, and the skill does not have it",
            )
            .with_help("get the skill again from its publisher"),
        );
    }
    out
}
