//! `sign`: `skill.oms.sig`, OpenSSF Model Signing's detached signature,
//! over every file of a skill folder ([`crate::signing`] makes it), written
//! whole or not at all ([`files::write_whole`]).

use std::path::{Path, PathBuf};

use super::error::Error;
use super::files;
use crate::signing::{self, SIGNATURE_FILE, SigningKey};

/// Signs the skill folder `dir` with the PEM key at `key` and the
/// certificates of the PEM files `chain` (the key's own first); the
/// signature file written.
pub fn sign(dir: &Path, key: &Path, chain: &[PathBuf]) -> Result<PathBuf, Error> {
    if !dir.join("SKILL.md").is_file() {
        return Err(Error::Usage(format!(
            "{} is not a skill folder (it has no SKILL.md)",
            dir.display()
        )));
    }
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
    let bytes = signing::sign(dir, &key, &certificates)
        .map_err(|why| Error::Usage(format!("cannot sign {}: {why}", dir.display())))?;
    let path = dir.join(SIGNATURE_FILE);
    // A file this tool makes: written whole, a reader never sees half of it.
    files::write_whole(&path, &bytes)
        .map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// A PEM file named by a flag: a regular file, bounded, UTF-8.
fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = crate::read::open::read_bounded(path, signing::MAX_PEM_BYTES)
        .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Usage(format!("{} is not PEM text (not UTF-8)", path.display())))
}
