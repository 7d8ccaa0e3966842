//! Signed skills: OpenSSF Model Signing's detached signature, a file
//! `skill.oms.sig` at the top of a skill folder, verified against the
//! trust anchors a build is given, offline; and signing a skill the same
//! way. A wing over the pipeline, as the lock is: what the signature says
//! (`bundle`, `statement`), who made it (`chain`, `keys`) and whether the
//! files are still the ones signed (`files`); `verdicts` keeps what a build
//! verified, `sign` writes a signature.
//!
//! ```text
//! skill.oms.sig = Sigstore bundle v0.3
//!   verificationMaterial.x509CertificateChain   leaf first, DER in base64
//!   dsseEnvelope.payload                       in-toto Statement v1 (base64)
//!     predicate.resources[] {name, sha256}      every file of the skill
//!   dsseEnvelope.signatures[0].sig             ECDSA over DSSE's PAE(payload)
//! ```
//!
//! A signature proves who released the bytes; it does not prove that they
//! are safe (SECURITY.md).

mod bundle;
mod chain;
mod files;
mod keys;
mod sign;
mod statement;
mod verdicts;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub use chain::{Anchor, Signer};
pub use keys::SigningKey;
pub use sign::sign;
pub use verdicts::Verdicts;
use x509_cert::Certificate;

use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};
use crate::lock::HashCache;
use crate::read::discover::display_path;

pub use files::SIGNATURE_FILE;

/// A signature larger than this is refused unread: a skill's 5,120 files
/// take about 1 MiB of statement.
pub const MAX_SIGNATURE_BYTES: u64 = 8 * 1024 * 1024;

/// The roots a build trusts: the self-signed certificates of the `trust`
/// PEM files. A certificate there that is not self-signed (an
/// intermediate) is no anchor: as with the reference verifier (OpenSSL
/// without partial chains), a chain must end at a root. Such a certificate
/// may still complete a chain whose bundle leaves it out, as OpenSSL's
/// store lets it.
#[derive(Debug, Clone, Default)]
pub struct Trust {
    anchors: Vec<Anchor>,
    intermediates: Vec<Certificate>,
}

impl Trust {
    /// The anchors in PEM text: every `CERTIFICATE` block that is
    /// self-signed; the others are kept as intermediates.
    pub fn from_pem(pem: &[u8]) -> Result<Trust, String> {
        let mut trust = Trust::default();
        for certificate in certificates_from_pem(pem)? {
            if chain::is_self_signed(&certificate) {
                trust.anchors.push(Anchor::new(certificate));
            } else {
                trust.intermediates.push(certificate);
            }
        }
        Ok(trust)
    }

    /// The anchors of the PEM `files` (relative to `base`), each read
    /// whole; a file that cannot be read is S528, named as configured.
    pub fn load(base: &Path, files: &[PathBuf]) -> Result<Trust, Diagnostic> {
        let mut trust = Trust::default();
        for file in files {
            let shown = display_path(file);
            let refused = |why: String| {
                Diagnostic::error(
                    Code::TrustAnchor,
                    &shown,
                    format!("the trust anchor `{shown}` {why}"),
                )
                .with_help("`trust` lists PEM files of root certificates, relative to Cargo.toml")
            };
            let pem = crate::read::open::read_bounded(&base.join(file), MAX_PEM_BYTES)
                .map_err(|e| refused(format!("cannot be read: {e}")))?;
            let read = Trust::from_pem(&pem).map_err(|why| refused(format!("holds {why}")))?;
            if read.anchors.is_empty() {
                return Err(refused(
                    "holds no root certificate (none is self-signed): a chain must end at a root, as the reference verifier requires; an intermediate is not an anchor".to_owned(),
                ));
            }
            trust.anchors.extend(read.anchors);
            trust.intermediates.extend(read.intermediates);
        }
        Ok(trust)
    }

    /// The anchors, in the order read.
    pub fn anchors(&self) -> &[Anchor] {
        &self.anchors
    }
}

/// The largest PEM file read (a trust anchor, a key, a chain): a chain of
/// a dozen certificates is under 30 KB.
pub const MAX_PEM_BYTES: u64 = 1024 * 1024;

/// What a skill's signature came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Signed by `Signer`, and every file is the one signed.
    Signed(Signer),
    /// No `skill.oms.sig`.
    Unsigned,
    /// The signature or the files are refused: see the diagnostics.
    Refused,
}

/// One skill folder's signature checked.
#[derive(Debug)]
pub struct Verification {
    /// The outcome.
    pub verdict: Verdict,
    /// Why it was refused (S524, S525, S526, I/O): empty otherwise.
    pub diagnostics: Vec<Diagnostic>,
    /// The signature's text, for rendering the diagnostics that point into it.
    pub source: Option<SourceFile>,
    /// Each file the signature lists, with its SHA-256 (lower-case hex),
    /// when it verified: the build holds what it compiles to these.
    pub signed: std::collections::BTreeMap<String, String>,
}

impl Verification {
    fn refused(diagnostic: Diagnostic, source: Option<SourceFile>) -> Verification {
        Verification {
            verdict: Verdict::Refused,
            diagnostics: vec![diagnostic],
            source,
            signed: Default::default(),
        }
    }
}

/// Verifies the skill folder `folder` (relative to `base`) against
/// `trust`, now. Files whose size and time `cache` has seen are not read
/// again.
pub fn verify(base: &Path, folder: &Path, trust: &Trust, cache: &mut HashCache) -> Verification {
    Verifier::new(trust).verify(base, folder, cache)
}

/// Verifies skill folders against one trust set: at a time (now, unless
/// [`at`](Verifier::at)), remembering verdicts when given a store
/// ([`remembering`](Verifier::remembering)).
#[derive(Debug)]
pub struct Verifier<'a> {
    trust: &'a Trust,
    now: SystemTime,
    verdicts: Verdicts,
    /// Chains already checked in this run, by their certificates' bytes:
    /// a publisher signs every skill with one certificate, and its chain
    /// is verified once, not once a skill.
    chains: std::collections::HashMap<String, Result<(keys::PublicKey, Signer), String>>,
    /// Whether a symlink inside a signed skill is accepted (the verifier's
    /// setting; the statement's `allow_symlinks` is the signer's word).
    allow_symlinks: bool,
}

impl<'a> Verifier<'a> {
    /// A verifier for `trust`, now, that remembers nothing.
    pub fn new(trust: &'a Trust) -> Verifier<'a> {
        Verifier {
            trust,
            now: SystemTime::now(),
            verdicts: Verdicts::none(),
            chains: std::collections::HashMap::new(),
            allow_symlinks: false,
        }
    }

    /// The same, accepting symlinks inside a signed skill (`signed_symlinks`):
    /// off by default, whatever the signature says.
    pub fn allowing_symlinks(self, allow_symlinks: bool) -> Verifier<'a> {
        Verifier {
            allow_symlinks,
            ..self
        }
    }

    /// The same, at the time `now` (a leaf valid only after it is refused).
    pub fn at(self, now: SystemTime) -> Verifier<'a> {
        Verifier { now, ..self }
    }

    /// The same, taking and keeping verdicts in `verdicts`.
    pub fn remembering(self, verdicts: Verdicts) -> Verifier<'a> {
        Verifier { verdicts, ..self }
    }

    /// Writes the verdicts learnt, when they are kept.
    pub fn keep(&self) {
        self.verdicts.keep();
    }

    /// Verifies the skill folder `folder` (relative to `base`).
    pub fn verify(&mut self, base: &Path, folder: &Path, cache: &mut HashCache) -> Verification {
        let shown = display_path(folder);
        let sig_shown = format!("{shown}/{SIGNATURE_FILE}");
        let text = match read_signature(&base.join(folder).join(SIGNATURE_FILE)) {
            Ok(Some(text)) => text,
            Ok(None) => {
                return Verification {
                    verdict: Verdict::Unsigned,
                    diagnostics: Vec::new(),
                    source: None,
                    signed: Default::default(),
                };
            }
            Err(why) => {
                return Verification::refused(
                    Diagnostic::error(Code::SignatureMalformed, &sig_shown, why),
                    None,
                );
            }
        };
        let source = SourceFile::new(sig_shown, text);
        let bundle = match bundle::read(&source) {
            Ok(bundle) => bundle,
            Err(diagnostic) => return Verification::refused(diagnostic, Some(source)),
        };
        let key = verdicts::key(source.text(), self.trust.anchors());
        let signer = match self.verdicts.get(&key) {
            Some(signer) => signer.clone(),
            None => match self.signer(&source, &bundle) {
                Ok(signer) => {
                    self.verdicts.insert(key, signer.clone());
                    signer
                }
                Err(diagnostic) => return Verification::refused(diagnostic, Some(source)),
            },
        };
        let limits = crate::lock::hash::Limits::default();
        let manifest = match statement::read(&bundle.payload, limits.max_files) {
            Ok(manifest) => manifest,
            Err(why) => {
                let at = bundle::locate(source.text(), "\"payload\"");
                let diagnostic = Diagnostic::at(Code::SignatureMalformed, &source, at, why);
                return Verification::refused(diagnostic, Some(source));
            }
        };
        let dir = base.join(folder);
        let found = match files::on_disk(&dir, &manifest.ignore_paths, self.allow_symlinks, cache) {
            Ok(found) => found,
            Err(why) => {
                let diagnostic = Diagnostic::error(Code::SignatureTampered, &shown, why);
                return Verification::refused(diagnostic, Some(source));
            }
        };
        let found = files::without_install_record(&dir, &manifest, found);
        let diagnostics = files::compare(&shown, &manifest, &found);
        let verified = diagnostics.is_empty();
        Verification {
            verdict: if verified {
                Verdict::Signed(signer)
            } else {
                Verdict::Refused
            },
            diagnostics,
            source: Some(source),
            signed: if verified {
                manifest.resources.into_iter().collect()
            } else {
                Default::default()
            },
        }
    }

    /// Who signed, when the chain reaches an anchor and the envelope's
    /// signature verifies with the leaf's key; S525 otherwise.
    fn signer(
        &mut self,
        source: &SourceFile,
        bundle: &bundle::Bundle,
    ) -> Result<Signer, Diagnostic> {
        let untrusted = |message: String, needle: &str| {
            let at = bundle::locate(source.text(), needle);
            Diagnostic::at(Code::SignatureUntrusted, source, at, message)
        };
        let (trust, now) = (self.trust, self.now);
        let (key, signer) = self
            .chains
            .entry(bundle.chain_key.clone())
            .or_insert_with(|| {
                let mut pool = bundle.certificates.clone();
                pool.extend(trust.intermediates.iter().cloned());
                chain::verify(&pool, trust.anchors(), now)
            })
            .clone()
            .map_err(|why| {
                let anchors: Vec<&str> = self
                    .trust
                    .anchors()
                    .iter()
                    .map(|a| a.subject.as_str())
                    .collect();
                untrusted(why, "\"x509CertificateChain\"")
                    .with_help(format!("trusted anchors: {}", anchors.join("; ")))
            })?;
        let signed = keys::pae(bundle::PAYLOAD_TYPE, &bundle.payload);
        if !key.verifies(key.own_hash(), &signed, &bundle.signature) {
            return Err(untrusted(
                format!(
                    "the envelope's signature does not verify with the key of `{}`: the payload is not the one signed",
                    signer.subject
                ),
                "\"sig\"",
            ));
        }
        Ok(signer)
    }
}

/// The signature's text; `None` when the folder has none.
fn read_signature(path: &Path) -> Result<Option<String>, String> {
    let file = match crate::read::open::open_regular(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read `{SIGNATURE_FILE}`: {error}")),
    };
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_SIGNATURE_BYTES + 1),
        &mut bytes,
    )
    .map_err(|e| format!("cannot read `{SIGNATURE_FILE}`: {e}"))?;
    if bytes.len() as u64 > MAX_SIGNATURE_BYTES {
        return Err(format!(
            "`{SIGNATURE_FILE}` is larger than {MAX_SIGNATURE_BYTES} bytes"
        ));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| format!("`{SIGNATURE_FILE}` is not UTF-8 JSON"))
}

/// Reads PEM certificates (`--cert-chain` files), leaf first.
pub fn certificates_from_pem(pem: &[u8]) -> Result<Vec<Certificate>, String> {
    let certificates = Certificate::load_pem_chain(pem)
        .map_err(|error| format!("not PEM certificates: {error}"))?;
    if certificates.is_empty() {
        return Err("no `BEGIN CERTIFICATE` block".to_owned());
    }
    Ok(certificates)
}
