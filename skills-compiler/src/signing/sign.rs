//! Signing a skill folder: the statement of its files, signed with the
//! publisher's key, in the bundle the reference writes, byte for byte the
//! same for the same files, key and certificates (RFC 6979 signatures).

use std::path::Path;

use x509_cert::Certificate;
use x509_cert::der::Encode;

use super::bundle;
use super::files::{SIGNATURE_FILE, on_disk};
use super::keys::{SigningKey, pae};
use super::statement::{self, GIT_PATHS, Manifest};
use crate::lock::HashCache;

/// Signs the skill folder `dir` with `key`, whose certificate is
/// `chain[0]` (the others complete its chain, as `--cert-chain` lists
/// them): the bytes of `skill.oms.sig`.
///
/// Every file under `dir` is listed except the signature itself and git's
/// files at the top (`.git`, `.gitattributes`, `.github`, `.gitignore`),
/// as the reference signs; a symlink is refused.
pub fn sign(dir: &Path, key: &SigningKey, chain: &[Certificate]) -> Result<Vec<u8>, String> {
    let leaf = chain
        .first()
        .ok_or("no certificate: give the signing certificate first")?;
    let leaf_key = leaf
        .tbs_certificate()
        .subject_public_key_info()
        .to_der()
        .map_err(|e| e.to_string())?;
    if leaf_key != key.public_spki_der() {
        return Err(format!(
            "the key is not the one of `{}`, the first certificate given",
            super::chain::subject(leaf)
        ));
    }
    // The verifier's rules for a leaf, before anything is signed: a
    // signature `check` would refuse is not written.
    super::chain::check_leaf(leaf).map_err(|why| format!("{why}: it cannot sign a skill"))?;
    let found = on_disk(dir, &[], false, &mut HashCache::none())?;
    if found.is_empty() {
        return Err("the folder has no file to sign".to_owned());
    }
    let mut ignore_paths: Vec<String> = GIT_PATHS.iter().map(|p| (*p).to_owned()).collect();
    ignore_paths.push(SIGNATURE_FILE.to_owned());
    ignore_paths.sort();
    let manifest = Manifest {
        name: folder_name(dir),
        resources: found.into_iter().collect(),
        ignore_paths,
        allow_symlinks: false,
    };
    let payload = statement::write(&manifest);
    let signature = key.sign(&pae(bundle::PAYLOAD_TYPE, &payload));
    let certificates: Vec<Vec<u8>> = chain
        .iter()
        .map(|c| c.to_der().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    Ok(bundle::write(&certificates, &payload, &signature))
}

/// The subject's name: the folder's own name, as the reference takes it.
fn folder_name(dir: &Path) -> String {
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    name(dir)
        .filter(|n| n != "..")
        .or_else(|| std::fs::canonicalize(dir).ok().and_then(|p| name(&p)))
        .unwrap_or_default()
}
