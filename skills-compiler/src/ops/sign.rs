//! `sign`: `skill.oms.sig`, OpenSSF Model Signing's detached signature,
//! over every file of a skill folder ([`crate::signing`] makes it), written
//! whole or not at all.

use std::path::{Path, PathBuf};

use super::error::Error;
use super::files::{self, Replaced};
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
    write(&path, &bytes)?;
    Ok(path)
}

fn read_text(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path)
        .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))
}

/// Writes the signature whole or not at all: a new one is created, an
/// old one replaced.
fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::Io(format!("cannot write {}: {e}", path.display()));
    match std::fs::read(path) {
        Ok(before) => match files::replace(path, &before, bytes).map_err(io)? {
            Replaced::Written => Ok(()),
            Replaced::ChangedSince => Err(Error::Io(format!(
                "{} changed while signing; nothing was written",
                path.display()
            ))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            files::create(path, bytes).map_err(io)
        }
        Err(e) => Err(io(e)),
    }
}
