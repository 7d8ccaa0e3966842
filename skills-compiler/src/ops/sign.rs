//! `sign`: `skill.oms.sig`, OpenSSF Model Signing's detached signature,
//! over every file of a skill folder ([`crate::signing`] makes it), written
//! whole or not at all ([`files::write_whole`]).
//!
//! The key and the certificates are read and checked once ([`Credentials`]);
//! every folder is checked before the first is signed, so a typo in the
//! fifth of five folders signs none; [`every_skill`] lists a root's
//! skills for `--all`.

use std::path::{Path, PathBuf};

use super::error::Error;
use super::files;
use super::targets::Target;
use crate::lock::file::source_type;
use crate::read::layout::SKILL_FILE;
use crate::signing::{self, SIGNATURE_FILE, SigningKey};

/// A key and the certificates of its chain (its own first), read from PEM
/// files and checked to belong together.
pub struct Credentials {
    key: SigningKey,
    certificates: Vec<x509_cert::Certificate>,
}

impl Credentials {
    /// Reads the key at `key` and the certificates of the PEM files `chain`.
    pub fn read(key: &Path, chain: &[PathBuf]) -> Result<Credentials, Error> {
        let key_pem = read_text(key)?;
        let key = SigningKey::from_pem(&key_pem)
            .map_err(|why| Error::Usage(format!("{}: {why}", key.display())))?;
        let mut certificates = Vec::new();
        for file in chain {
            let pem = read_text(file)?;
            let read = signing::certificates_from_pem(pem.as_bytes())
                .map_err(|why| Error::Usage(format!("{}: {why}", file.display())))?;
            certificates.extend(read);
        }
        Ok(Credentials { key, certificates })
    }
}

/// Signs each skill folder of `dirs` with `credentials`: every folder is
/// checked first (each must hold a `SKILL.md`), then each is signed, the
/// deepest first, so that a parent's signature covers the signature of a
/// skill nested in it. The signature files written, in `dirs`' order.
pub fn sign_all(dirs: &[PathBuf], credentials: &Credentials) -> Result<Vec<PathBuf>, Error> {
    if dirs.is_empty() {
        return Err(Error::Usage("no skill folder to sign".to_owned()));
    }
    for dir in dirs {
        check_skill_folder(dir)?;
    }
    let mut order: Vec<&PathBuf> = dirs.iter().collect();
    order.sort_by_key(|dir| std::cmp::Reverse(dir.components().count()));
    let mut written = Vec::new();
    for dir in order {
        written.push((dir, sign(dir, credentials)?));
    }
    Ok(dirs
        .iter()
        .filter_map(|dir| written.iter().find(|(d, _)| *d == dir))
        .map(|(_, path)| path.clone())
        .collect())
}

/// Signs the skill folder `dir`; the signature file written.
pub fn sign(dir: &Path, credentials: &Credentials) -> Result<PathBuf, Error> {
    check_skill_folder(dir)?;
    let bytes = signing::sign(dir, &credentials.key, &credentials.certificates)
        .map_err(|why| Error::Usage(format!("cannot sign {}: {why}", dir.display())))?;
    let path = dir.join(SIGNATURE_FILE);
    // A file this tool makes: written whole, a reader never sees half of it.
    files::write_whole(&path, &bytes)
        .map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// A folder `sign` can sign, or what it is instead (a root, a file).
fn check_skill_folder(dir: &Path) -> Result<(), Error> {
    if dir.join(SKILL_FILE).is_file() {
        return Ok(());
    }
    let shown = dir.display();
    let why = if dir.is_file() {
        format!(
            "{shown} is a file, not a skill folder; each certificate takes its own `--cert-chain` (`--cert-chain leaf.pem --cert-chain ca.pem`)"
        )
    } else if dir.is_dir() {
        format!(
            "{shown} is not a skill folder (it has no SKILL.md); to sign every skill of a root, `--all {shown}`"
        )
    } else {
        format!("{shown} does not exist")
    };
    Err(Error::Usage(why))
}

/// What `--all` found in the roots: the skill folders to sign, and the
/// skills left as they are, each with why.
#[derive(Debug, Default)]
pub struct EverySkill {
    /// The folders to sign, sorted.
    pub dirs: Vec<PathBuf>,
    /// Skills not signed: `(path, why)`.
    pub left: Vec<(String, String)>,
}

/// Every skill folder of `targets`' roots. A skill the lock records from
/// a git source is left out: its signature is its publisher's, and a
/// package signing over it would replace theirs (name its folder to sign
/// it anyway); a flat `NAME.md` skill has no folder to hold a signature.
pub fn every_skill(targets: &[Target]) -> Result<EverySkill, Error> {
    let mut every = EverySkill::default();
    for target in targets {
        let mut problems = Vec::new();
        let skills = target.files(&mut problems);
        if let Some(problem) = problems.iter().find(|d| d.is_error()) {
            return Err(Error::Usage(crate::diagnostics::render::short(problem)));
        }
        let lock = crate::lock::check::find(Path::new("."), &target.config.dir)
            .and_then(|path| crate::lock::check::read(Path::new("."), &path).ok());
        for skill in skills {
            let Some(dir) = &skill.dir else {
                every.left.push((
                    skill.path.clone(),
                    "a flat file skill has no folder to hold a signature".to_owned(),
                ));
                continue;
            };
            let vendored = lock
                .as_ref()
                .and_then(|read| read.lock.get(&skill.directory))
                .filter(|entry| {
                    matches!(
                        entry.source_type(),
                        Some(source_type::GIT | source_type::GITHUB)
                    )
                });
            match vendored {
                Some(entry) => every.left.push((
                    dir.path.clone(),
                    format!(
                        "vendored from `{}`: its signature is its publisher's (name the folder to sign it anyway)",
                        entry.source().unwrap_or_default()
                    ),
                )),
                None => every.dirs.push(PathBuf::from(&dir.path)),
            }
        }
    }
    every.dirs.sort();
    every.dirs.dedup();
    if every.dirs.is_empty() {
        return Err(Error::Usage(match every.left.is_empty() {
            true => "no skill to sign: the roots hold none".to_owned(),
            false => "no skill to sign: every skill of the roots is left as it is".to_owned(),
        }));
    }
    Ok(every)
}

/// A PEM file named by a flag: a regular file, bounded, UTF-8.
fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = crate::read::open::read_bounded(path, signing::MAX_PEM_BYTES)
        .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Usage(format!("{} is not PEM text (not UTF-8)", path.display())))
}
