//! `cargo skills sign`: writes `skill.oms.sig`, OpenSSF Model Signing's
//! detached signature, over every file of a skill folder.

use std::path::{Path, PathBuf};

use skills_compiler::signing::{self, SIGNATURE_FILE, SigningKey};

use crate::failure::Failure;
use crate::output::outln;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill folder to sign (its `SKILL.md` and every other file).
    dir: PathBuf,
    /// The signing key: PEM, PKCS#8 or SEC1, ECDSA P-256 or P-384.
    #[arg(long, value_name = "KEY.pem")]
    key: PathBuf,
    /// The key's certificate first, then the certificates that complete
    /// its chain (intermediates, and the root if you like).
    #[arg(long = "cert-chain", value_name = "LEAF.pem", required = true, num_args = 1..)]
    cert_chain: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    if !args.dir.join("SKILL.md").is_file() {
        return Err(Failure::Usage(format!(
            "{} is not a skill folder (it has no SKILL.md)",
            args.dir.display()
        )));
    }
    let key_pem = read_text(&args.key)?;
    let key = SigningKey::from_pem(&key_pem)
        .map_err(|why| Failure::Usage(format!("{}: {why}", args.key.display())))?;
    let mut chain = Vec::new();
    for file in &args.cert_chain {
        let pem = read_text(file)?;
        let read = signing::certificates_from_pem(pem.as_bytes())
            .map_err(|why| Failure::Usage(format!("{}: {why}", file.display())))?;
        chain.extend(read);
    }
    let bytes = signing::sign(&args.dir, &key, &chain)
        .map_err(|why| Failure::Usage(format!("cannot sign {}: {why}", args.dir.display())))?;
    let path = args.dir.join(SIGNATURE_FILE);
    write(&path, &bytes)?;
    outln!("Signed {}: wrote {}", args.dir.display(), path.display());
    Ok(())
}

fn read_text(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Io(format!("cannot read {}: {e}", path.display())))
}

/// Writes the signature whole or not at all: a new one is created, an
/// old one replaced.
fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let io = |e: std::io::Error| Failure::Io(format!("cannot write {}: {e}", path.display()));
    match std::fs::read(path) {
        Ok(before) => {
            match skills_compiler::ops::files::replace(path, &before, bytes).map_err(io)? {
                skills_compiler::ops::files::Replaced::Written => Ok(()),
                skills_compiler::ops::files::Replaced::ChangedSince => Err(Failure::Io(format!(
                    "{} changed while signing; nothing was written",
                    path.display()
                ))),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            skills_compiler::ops::files::create(path, bytes).map_err(io)
        }
        Err(e) => Err(io(e)),
    }
}
