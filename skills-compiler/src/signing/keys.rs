//! The keys a signature is made and checked with: ECDSA over P-256 or
//! P-384, the curves OpenSSF Model Signing signs with, each hashing with
//! the digest of its size (SHA-256, SHA-384), as the reference does.

use p256::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePublicKey};
use sha2::Digest;

/// A public key that verifies: a certificate's subject key.
#[derive(Debug, Clone)]
pub(crate) enum PublicKey {
    P256(p256::ecdsa::VerifyingKey),
    P384(p384::ecdsa::VerifyingKey),
}

/// The digest a signature was made over, as a certificate's signature
/// algorithm names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    Sha256,
    Sha384,
}

impl Hash {
    pub(crate) fn digest(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Hash::Sha256 => sha2::Sha256::digest(bytes).to_vec(),
            Hash::Sha384 => sha2::Sha384::digest(bytes).to_vec(),
        }
    }
}

impl PublicKey {
    /// The key of a DER `SubjectPublicKeyInfo`, when it is on a curve we
    /// verify.
    pub(crate) fn from_spki_der(der: &[u8]) -> Result<PublicKey, String> {
        if let Ok(key) = p256::ecdsa::VerifyingKey::from_public_key_der(der) {
            return Ok(PublicKey::P256(key));
        }
        if let Ok(key) = p384::ecdsa::VerifyingKey::from_public_key_der(der) {
            return Ok(PublicKey::P384(key));
        }
        Err("the key is not an ECDSA P-256 or P-384 key (the curves OpenSSF Model Signing signs with; RSA and Ed25519 are not verified)".to_owned())
    }

    /// The digest the key signs messages with: the one of its size.
    pub(crate) fn own_hash(&self) -> Hash {
        match self {
            PublicKey::P256(_) => Hash::Sha256,
            PublicKey::P384(_) => Hash::Sha384,
        }
    }

    /// Whether `signature` (DER) signs `message` hashed with `hash`.
    pub(crate) fn verifies(&self, hash: Hash, message: &[u8], signature: &[u8]) -> bool {
        use p256::ecdsa::signature::hazmat::PrehashVerifier;
        let digest = hash.digest(message);
        match self {
            PublicKey::P256(key) => p256::ecdsa::Signature::from_der(signature)
                .is_ok_and(|sig| key.verify_prehash(&digest, &sig).is_ok()),
            PublicKey::P384(key) => p384::ecdsa::Signature::from_der(signature)
                .is_ok_and(|sig| key.verify_prehash(&digest, &sig).is_ok()),
        }
    }
}

/// A private key that signs: a publisher's, read from PEM.
pub struct SigningKey(Inner);

enum Inner {
    P256(p256::ecdsa::SigningKey),
    P384(p384::ecdsa::SigningKey),
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret.
        let curve = match self.0 {
            Inner::P256(_) => "P-256",
            Inner::P384(_) => "P-384",
        };
        write!(f, "SigningKey({curve})")
    }
}

impl SigningKey {
    /// Reads a PEM private key: PKCS#8 (`BEGIN PRIVATE KEY`, what
    /// `openssl genpkey` writes) or SEC1 (`BEGIN EC PRIVATE KEY`), on P-256
    /// or P-384. Encrypted keys are refused: decrypt them first.
    pub fn from_pem(pem: &str) -> Result<SigningKey, String> {
        if pem.contains("ENCRYPTED PRIVATE KEY") {
            return Err(
                "the key is encrypted; decrypt it first (`openssl pkcs8 -in KEY -out PLAIN.pem`)"
                    .to_owned(),
            );
        }
        if let Ok(key) = p256::ecdsa::SigningKey::from_pkcs8_pem(pem) {
            return Ok(SigningKey(Inner::P256(key)));
        }
        if let Ok(key) = p384::ecdsa::SigningKey::from_pkcs8_pem(pem) {
            return Ok(SigningKey(Inner::P384(key)));
        }
        if let Ok(key) = p256::SecretKey::from_sec1_pem(pem) {
            return Ok(SigningKey(Inner::P256(key.into())));
        }
        if let Ok(key) = p384::SecretKey::from_sec1_pem(pem) {
            return Ok(SigningKey(Inner::P384(key.into())));
        }
        Err("not a PEM private key on P-256 or P-384 (PKCS#8 `BEGIN PRIVATE KEY` or SEC1 `BEGIN EC PRIVATE KEY`)".to_owned())
    }

    /// The public key's DER `SubjectPublicKeyInfo`, to match the
    /// certificate's.
    pub(crate) fn public_spki_der(&self) -> Vec<u8> {
        let der = match &self.0 {
            Inner::P256(key) => key.verifying_key().to_public_key_der(),
            Inner::P384(key) => key.verifying_key().to_public_key_der(),
        };
        der.map(|doc| doc.as_bytes().to_vec()).unwrap_or_default()
    }

    /// Signs `message` (hashed with the curve's digest): a DER signature.
    /// RFC 6979: the same key and message give the same bytes.
    pub(crate) fn sign(&self, message: &[u8]) -> Vec<u8> {
        use p256::ecdsa::signature::Signer;
        match &self.0 {
            Inner::P256(key) => {
                let signature: p256::ecdsa::Signature = key.sign(message);
                signature.to_der().as_bytes().to_vec()
            }
            Inner::P384(key) => {
                let signature: p384::ecdsa::Signature = key.sign(message);
                signature.to_der().as_bytes().to_vec()
            }
        }
    }
}

/// DSSE's pre-authentication encoding of `payload` of `payload_type`:
/// what the envelope's signature signs (DSSE protocol v1).
pub(crate) fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "DSSEv1 {} {payload_type} {} ",
        payload_type.len(),
        payload.len()
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pae_is_dsse_v1() {
        assert_eq!(pae("t", b"ab"), b"DSSEv1 1 t 2 ab");
    }
}
