//! Real keys and certificates for the tests of signed skills: a CA and the
//! leaves it issues, on P-256 or P-384, made with RustCrypto's certificate
//! builder. Each test makes its own; nothing is checked in.
#![allow(dead_code)]

use std::str::FromStr;
use std::time::Duration;

use p256::pkcs8::{EncodePrivateKey, LineEnding};
use x509_cert::Certificate;
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder};
use x509_cert::der::EncodePem;
use x509_cert::der::asn1::BitString;
use x509_cert::ext::pkix::{BasicConstraints, KeyUsage, KeyUsages};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{EncodePublicKey, SubjectPublicKeyInfo, SubjectPublicKeyInfoRef};
use x509_cert::time::{Time, Validity};

/// The curve of a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    P256,
    P384,
}

/// A private key.
#[derive(Clone)]
pub enum Key {
    P256(p256::ecdsa::SigningKey),
    P384(p384::ecdsa::SigningKey),
}

impl Key {
    pub fn new(curve: Curve) -> Key {
        // Deterministic per test is not needed: each run makes new keys.
        match curve {
            Curve::P256 => {
                Key::P256(p256::ecdsa::SigningKey::from_slice(&random_scalar(32)).unwrap())
            }
            Curve::P384 => {
                Key::P384(p384::ecdsa::SigningKey::from_slice(&random_scalar(48)).unwrap())
            }
        }
    }

    /// PKCS#8 PEM, as `openssl genpkey` writes it.
    pub fn pem(&self) -> String {
        match self {
            Key::P256(k) => k.to_pkcs8_pem(LineEnding::LF).unwrap().to_string(),
            Key::P384(k) => k.to_pkcs8_pem(LineEnding::LF).unwrap().to_string(),
        }
    }

    fn spki(&self) -> SubjectPublicKeyInfo<x509_cert::der::Any, BitString> {
        let der = match self {
            Key::P256(k) => k.verifying_key().to_public_key_der().unwrap(),
            Key::P384(k) => k.verifying_key().to_public_key_der().unwrap(),
        };
        SubjectPublicKeyInfo::try_from(der.as_bytes()).unwrap()
    }
}

/// A scalar from the OS's random source (read from /dev/urandom, so that
/// the tests need no random-number crate), below every curve's order.
fn random_scalar(len: usize) -> Vec<u8> {
    use std::io::Read;
    let mut bytes = vec![0u8; len];
    std::fs::File::open("/dev/urandom")
        .unwrap()
        .read_exact(&mut bytes)
        .unwrap();
    bytes[0] &= 0x7f;
    bytes[len - 1] |= 1;
    bytes
}

/// What a certificate says of itself beside its name and key.
#[derive(Clone)]
pub struct Shape {
    /// Basic constraints CA:TRUE.
    pub ca: bool,
    /// The key usages; `None` leaves the extension out.
    pub usage: Option<Vec<KeyUsages>>,
    /// Seconds from now: when it starts and ends being valid.
    pub from: i64,
    pub to: i64,
}

impl Shape {
    pub fn ca() -> Shape {
        Shape {
            ca: true,
            usage: Some(vec![KeyUsages::KeyCertSign, KeyUsages::CRLSign]),
            from: -3600,
            to: 86_400 * 30,
        }
    }

    pub fn leaf() -> Shape {
        Shape {
            ca: false,
            usage: Some(vec![KeyUsages::DigitalSignature]),
            from: -60,
            to: 86_400 * 10,
        }
    }
}

/// A certificate with its key.
#[derive(Clone)]
pub struct Made {
    pub certificate: Certificate,
    pub key: Key,
}

impl Made {
    pub fn pem(&self) -> String {
        self.certificate.to_pem(LineEnding::LF).unwrap()
    }
}

struct Profile {
    subject: Name,
    issuer: Name,
    shape: Shape,
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, _subject: &Name) -> Name {
        self.issuer.clone()
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        _spk: SubjectPublicKeyInfoRef<'_>,
        _issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &x509_cert::TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let mut out = Vec::new();
        let constraints = BasicConstraints {
            ca: self.shape.ca,
            path_len_constraint: None,
        };
        out.push(constraints.to_extension(tbs.subject(), &out)?);
        if let Some(usage) = &self.shape.usage {
            let mut flags = x509_cert::der::flagset::FlagSet::default();
            for u in usage {
                flags |= *u;
            }
            out.push(KeyUsage(flags).to_extension(tbs.subject(), &out)?);
        }
        Ok(out)
    }
}

fn validity(shape: &Shape) -> Validity {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let at = |offset: i64| {
        Time::try_from(std::time::UNIX_EPOCH + Duration::from_secs((now + offset) as u64)).unwrap()
    };
    Validity::new(at(shape.from), at(shape.to))
}

static SERIAL: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

fn build(subject: &str, key: &Key, issuer: Option<&Made>, shape: Shape) -> Certificate {
    let subject = Name::from_str(subject).unwrap();
    let profile = Profile {
        issuer: issuer.map_or_else(
            || subject.clone(),
            |i| i.certificate.tbs_certificate().subject().clone(),
        ),
        subject,
        shape: shape.clone(),
    };
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let builder = CertificateBuilder::new(
        profile,
        SerialNumber::from(serial),
        validity(&shape),
        key.spki(),
    )
    .unwrap();
    let signer = issuer.map_or(key, |i| &i.key);
    match signer {
        Key::P256(k) => builder.build::<_, p256::ecdsa::DerSignature>(k).unwrap(),
        Key::P384(k) => builder.build::<_, p384::ecdsa::DerSignature>(k).unwrap(),
    }
}

/// A self-signed CA.
pub fn ca(subject: &str, curve: Curve) -> Made {
    ca_shaped(subject, curve, Shape::ca())
}

/// A self-signed certificate of any shape.
pub fn ca_shaped(subject: &str, curve: Curve, shape: Shape) -> Made {
    let key = Key::new(curve);
    Made {
        certificate: build(subject, &key, None, shape),
        key,
    }
}

/// A certificate issued by `issuer`.
pub fn issue(issuer: &Made, subject: &str, curve: Curve, shape: Shape) -> Made {
    let key = Key::new(curve);
    Made {
        certificate: build(subject, &key, Some(issuer), shape),
        key,
    }
}

/// A leaf that may sign.
pub fn leaf(issuer: &Made, subject: &str, curve: Curve) -> Made {
    issue(issuer, subject, curve, Shape::leaf())
}
