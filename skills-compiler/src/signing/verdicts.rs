//! Signatures a build already verified, kept in `OUT_DIR` between builds
//! beside the lock's file digests: a rebuild checks each skill's files
//! again (their digests from the lock's cache), but not the certificate
//! chain and the ECDSA signatures, which take most of a verification in
//! an unoptimised proc macro or build script. A verdict is keyed by the
//! signature's bytes and the anchors' fingerprints: a new signature or
//! another trust set verifies in full. Only successes are kept.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::Signer;
use crate::lock::cache::kept;

/// The cache file's name in `OUT_DIR`.
const FILE: &str = "skills-signature-verdicts.txt";

/// Verdicts known, and where they are kept.
#[derive(Debug, Default)]
pub struct Verdicts {
    known: HashMap<String, Signer>,
    kept_at: Option<PathBuf>,
    changed: bool,
}

impl Verdicts {
    /// Verdicts that are not kept: every signature verifies in full.
    pub fn none() -> Verdicts {
        Verdicts::default()
    }

    /// The verdicts kept in `dir` (a build's `OUT_DIR`), as far as they read.
    pub fn in_dir(dir: &Path) -> Verdicts {
        Verdicts::kept_at(dir.join(FILE))
    }

    fn kept_at(kept_at: PathBuf) -> Verdicts {
        let mut known = HashMap::new();
        for line in kept::lines(&kept_at) {
            // `key anchor subject`: the subject last, as it holds spaces.
            let mut parts = line.splitn(3, ' ');
            if let (Some(key), Some(anchor), Some(subject)) =
                (parts.next(), parts.next(), parts.next())
            {
                let signer = Signer {
                    subject: subject.to_owned(),
                    anchor: anchor.to_owned(),
                };
                known.insert(key.to_owned(), signer);
            }
        }
        Verdicts {
            known,
            kept_at: Some(kept_at),
            changed: false,
        }
    }

    /// The verdicts of the build this runs in: `OUT_DIR`'s, when it is set.
    pub fn of_build() -> Verdicts {
        kept::of_build(FILE).map_or_else(Verdicts::none, Verdicts::kept_at)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Signer> {
        self.known.get(key)
    }

    pub(crate) fn insert(&mut self, key: String, signer: Signer) {
        if self.kept_at.is_none() || signer.subject.contains('\n') {
            return;
        }
        self.known.insert(key, signer);
        self.changed = true;
    }

    /// Writes what was learnt; a failure only costs the next build a
    /// verification.
    pub fn keep(&self) {
        let (Some(path), true) = (&self.kept_at, self.changed) else {
            return;
        };
        let lines = self
            .known
            .iter()
            .map(|(key, signer)| format!("{key} {} {}", signer.anchor, signer.subject))
            .collect();
        kept::write(path, "signature-verdicts", lines);
    }
}

/// The key of a signature verified against a trust set.
pub(crate) fn key(signature: &str, anchors: &[super::Anchor]) -> String {
    let mut bytes = signature.as_bytes().to_vec();
    for anchor in anchors {
        bytes.push(0);
        bytes.extend_from_slice(anchor.fingerprint.as_bytes());
    }
    skills_core::sha256_hex(&bytes)
}
