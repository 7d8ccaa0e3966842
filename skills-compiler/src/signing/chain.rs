//! Certificate chains: from the signing (leaf) certificate, through the
//! bundle's other certificates, to one of the trust anchors the build was
//! given. Offline: no revocation is fetched (no OCSP, no CRL).
//!
//! The rules are RFC 5280's path validation, cut to what a signing chain
//! needs, and the reference's where it decides: every certificate must be
//! valid at the signing time, which (with no trusted timestamp in the
//! bundle) is the leaf's `notBefore`, as `model-signing` sets it; the leaf
//! may sign when its key usage has `digitalSignature` or its extended key
//! usage has `codeSigning`. Stricter than the reference: a leaf that is a
//! CA, or whose validity starts in the future, is refused.

use std::time::{Duration, SystemTime};

use x509_cert::Certificate;
use x509_cert::der::Encode;
use x509_cert::der::oid::ObjectIdentifier;
use x509_cert::ext::pkix::{BasicConstraints, ExtendedKeyUsage, KeyUsage};

use super::keys::{Hash, PublicKey};

const ECDSA_WITH_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
const ECDSA_WITH_SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.3");
const CODE_SIGNING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.3");
/// The extensions whose meaning is checked here (or harmless to pass):
/// a critical extension outside them refuses the certificate (RFC 5280).
const UNDERSTOOD: [&str; 6] = [
    "2.5.29.19", // basicConstraints
    "2.5.29.15", // keyUsage
    "2.5.29.37", // extKeyUsage
    "2.5.29.17", // subjectAltName
    "2.5.29.14", // subjectKeyIdentifier
    "2.5.29.35", // authorityKeyIdentifier
];

/// A trusted root: a certificate read from one of the `trust` files.
#[derive(Debug, Clone)]
pub struct Anchor {
    pub(crate) certificate: Certificate,
    /// SHA-256 of its DER, lower-case hex: what the lock records.
    pub fingerprint: String,
    /// Its subject, as RFC 4514 prints it (`CN=Vendor Root`).
    pub subject: String,
}

impl Anchor {
    pub(crate) fn new(certificate: Certificate) -> Anchor {
        let der = certificate.to_der().unwrap_or_default();
        Anchor {
            fingerprint: skills_core::sha256_hex(&der),
            subject: certificate.tbs_certificate().subject().to_string(),
            certificate,
        }
    }
}

/// Who signed: the leaf's subject and the anchor its chain reached.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signer {
    /// The signing certificate's subject (`CN=Vendor Skills,O=Vendor`).
    pub subject: String,
    /// The SHA-256 fingerprint of the anchor's DER, lower-case hex.
    pub anchor: String,
}

/// Why a chain is not trusted, in words that name its subjects.
pub(crate) type Untrusted = String;

/// Verifies `chain` (leaf first) up to one of `anchors` at `now`: the
/// leaf's key, and who it is.
pub(crate) fn verify(
    chain: &[Certificate],
    anchors: &[Anchor],
    now: SystemTime,
) -> Result<(PublicKey, Signer), Untrusted> {
    let leaf = chain.first().ok_or("the chain is empty")?;
    let leaf_subject = subject(leaf);
    let leaf_key = key_of(leaf).map_err(|why| format!("`{leaf_subject}`: {why}"))?;
    check_leaf(leaf)?;
    let signed_at = not_before(leaf);
    if signed_at
        > now
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default()
    {
        return Err(format!(
            "`{leaf_subject}` is valid only from {}, which is in the future",
            leaf.tbs_certificate().validity().not_before
        ));
    }
    let mut path = vec![leaf_subject.clone()];
    let mut used = vec![0];
    let mut current = leaf;
    // Each round climbs one issuer, never through a certificate twice: at
    // most as many rounds as the chain has certificates.
    for depth in 0..chain.len() {
        check_valid_at(current, signed_at)?;
        if let Some(anchor) = anchors.iter().find(|a| issued(&a.certificate, current)) {
            check_issuer(&anchor.certificate, depth)?;
            check_valid_at(&anchor.certificate, signed_at)?;
            return Ok((
                leaf_key,
                Signer {
                    subject: leaf_subject,
                    anchor: anchor.fingerprint.clone(),
                },
            ));
        }
        let next = (1..chain.len()).find(|&i| !used.contains(&i) && issued(&chain[i], current));
        let Some(next) = next else {
            let issuer = current.tbs_certificate().issuer();
            if issuer != current.tbs_certificate().subject() {
                path.push(skills_core::printable(&issuer.to_string()).into_owned());
            }
            break;
        };
        check_issuer(&chain[next], depth)?;
        path.push(subject(&chain[next]));
        used.push(next);
        current = &chain[next];
    }
    Err(format!(
        "signed by `{leaf_subject}`, whose chain ({}) reaches none of the trusted anchors",
        shown_path(&path)
    ))
}

fn shown_path(path: &[String]) -> String {
    path.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(" <- ")
}

pub(crate) fn subject(certificate: &Certificate) -> String {
    skills_core::printable(&certificate.tbs_certificate().subject().to_string()).into_owned()
}

fn key_of(certificate: &Certificate) -> Result<PublicKey, String> {
    let der = certificate
        .tbs_certificate()
        .subject_public_key_info()
        .to_der()
        .map_err(|e| e.to_string())?;
    PublicKey::from_spki_der(&der)
}

/// Whether `issuer` signed `certificate`: names match and the signature
/// verifies with the issuer's key.
/// Whether `certificate` issued itself: its issuer is its subject and its
/// own key verifies its signature. Only such a certificate is an anchor.
pub(crate) fn is_self_signed(certificate: &Certificate) -> bool {
    issued(certificate, certificate)
}

fn issued(issuer: &Certificate, certificate: &Certificate) -> bool {
    let tbs = certificate.tbs_certificate();
    if issuer.tbs_certificate().subject() != tbs.issuer() {
        return false;
    }
    let hash = match certificate.signature_algorithm().oid {
        ECDSA_WITH_SHA256 => Hash::Sha256,
        ECDSA_WITH_SHA384 => Hash::Sha384,
        _ => return false,
    };
    let (Ok(key), Ok(signed), Some(signature)) = (
        key_of(issuer),
        tbs.to_der(),
        certificate.signature().as_bytes(),
    ) else {
        return false;
    };
    key.verifies(hash, &signed, signature)
}

/// The leaf: an end entity allowed to sign, with no critical extension we
/// do not understand.
pub(crate) fn check_leaf(leaf: &Certificate) -> Result<(), Untrusted> {
    let name = subject(leaf);
    check_critical(leaf)?;
    let tbs = leaf.tbs_certificate();
    let constraints = tbs
        .get_extension::<BasicConstraints>()
        .map_err(|_| format!("`{name}`'s basic constraints do not decode"))?;
    if constraints.is_some_and(|(_, c)| c.ca) {
        return Err(format!(
            "`{name}` is a CA certificate (CA:TRUE); a signature must come from an end-entity certificate"
        ));
    }
    let usage = tbs
        .get_extension::<KeyUsage>()
        .map_err(|_| format!("`{name}`'s key usage does not decode"))?;
    let extended = tbs
        .get_extension::<ExtendedKeyUsage>()
        .map_err(|_| format!("`{name}`'s extended key usage does not decode"))?;
    let signs = usage.is_some_and(|(_, u)| u.digital_signature())
        || extended.is_some_and(|(_, e)| e.0.contains(&CODE_SIGNING));
    if !signs {
        return Err(format!(
            "`{name}` may not sign: its key usage has no `digitalSignature` and its extended key usage no `codeSigning`"
        ));
    }
    Ok(())
}

/// An issuer: a CA (basic constraints CA:TRUE) that may sign certificates,
/// with room in its path length for the `below` CAs under it.
fn check_issuer(issuer: &Certificate, below: usize) -> Result<(), Untrusted> {
    let name = subject(issuer);
    check_critical(issuer)?;
    let tbs = issuer.tbs_certificate();
    let constraints = tbs
        .get_extension::<BasicConstraints>()
        .map_err(|_| format!("`{name}`'s basic constraints do not decode"))?;
    let Some((_, constraints)) = constraints.filter(|(_, c)| c.ca) else {
        return Err(format!(
            "`{name}` issued a certificate of the chain but is not a CA (no basic constraints CA:TRUE)"
        ));
    };
    if constraints
        .path_len_constraint
        .is_some_and(|max| below > usize::from(max))
    {
        return Err(format!(
            "`{name}` allows {} CAs below it, and the chain has {below}",
            constraints.path_len_constraint.unwrap_or_default()
        ));
    }
    let usage = tbs
        .get_extension::<KeyUsage>()
        .map_err(|_| format!("`{name}`'s key usage does not decode"))?;
    if usage.is_some_and(|(_, u)| !u.key_cert_sign()) {
        return Err(format!(
            "`{name}`'s key usage has no `keyCertSign`: it may not issue certificates"
        ));
    }
    Ok(())
}

fn check_critical(certificate: &Certificate) -> Result<(), Untrusted> {
    let unknown = certificate
        .tbs_certificate()
        .extensions()
        .into_iter()
        .flatten()
        .find(|e| e.critical && !UNDERSTOOD.contains(&e.extn_id.to_string().as_str()));
    match unknown {
        Some(extension) => Err(format!(
            "`{}` has a critical extension this verifier does not know ({})",
            subject(certificate),
            extension.extn_id
        )),
        None => Ok(()),
    }
}

fn not_before(certificate: &Certificate) -> Duration {
    certificate
        .tbs_certificate()
        .validity()
        .not_before
        .to_unix_duration()
}

fn check_valid_at(certificate: &Certificate, at: Duration) -> Result<(), Untrusted> {
    let validity = certificate.tbs_certificate().validity();
    if at < validity.not_before.to_unix_duration() || at > validity.not_after.to_unix_duration() {
        return Err(format!(
            "`{}` was not valid when the skill was signed ({}): it is valid from {} to {}",
            subject(certificate),
            shown_time(at),
            validity.not_before,
            validity.not_after
        ));
    }
    Ok(())
}

fn shown_time(at: Duration) -> String {
    x509_cert::der::DateTime::from_unix_duration(at)
        .map_or_else(|_| format!("{}s", at.as_secs()), |t| t.to_string())
}
