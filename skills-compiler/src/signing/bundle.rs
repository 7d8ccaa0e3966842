//! `skill.oms.sig` read and written: a Sigstore bundle v0.3 in JSON, as
//! OpenSSF Model Signing writes it for certificate signing. Reading decodes
//! what the checks need and locates every problem in the file's text.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use x509_cert::Certificate;
use x509_cert::der::Decode;

use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};

/// The bundle's media type; the only one the reference writes.
pub(crate) const MEDIA_TYPE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";
/// The DSSE payload type of an in-toto statement.
pub(crate) const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The deepest a bundle nests: the reference writes four levels.
pub(crate) const MAX_NESTING: usize = 16;
/// The most certificates a chain may carry: real chains have two or three.
pub(crate) const MAX_CHAIN: usize = 10;

/// The JSON shape (camelCase, as protobuf's JSON mapping writes it).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Json {
    pub(crate) media_type: String,
    pub(crate) verification_material: Material,
    pub(crate) dsse_envelope: Option<Envelope>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Material {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) x509_certificate_chain: Option<Chain>,
    /// A single (Fulcio) certificate: keyless signing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) certificate: Option<serde_json::Value>,
    /// A bare key's hint: signing with a key, no certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) public_key: Option<serde_json::Value>,
    #[serde(default)]
    pub(crate) tlog_entries: Vec<serde_json::Value>,
    /// RFC 3161 timestamps, which a Sigstore bundle may carry: none is
    /// verified here, so a bundle that has one is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) timestamp_verification_data: Option<serde_json::Value>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Chain {
    pub(crate) certificates: Vec<RawCertificate>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RawCertificate {
    pub(crate) raw_bytes: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Envelope {
    pub(crate) payload: String,
    pub(crate) payload_type: String,
    pub(crate) signatures: Vec<EnvelopeSignature>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnvelopeSignature {
    pub(crate) sig: String,
    #[serde(default)]
    pub(crate) keyid: String,
}

/// A bundle read and decoded: what verifying needs.
#[derive(Debug)]
pub(crate) struct Bundle {
    /// Leaf first, as the file lists them.
    pub(crate) certificates: Vec<Certificate>,
    /// The in-toto statement's bytes, decoded from base64.
    pub(crate) payload: Vec<u8>,
    /// The envelope's first signature (DER), which the reference checks.
    pub(crate) signature: Vec<u8>,
    /// The chain's certificates as written (base64), joined: the same
    /// chain in another skill has the same key.
    pub(crate) chain_key: String,
}

/// Reads the bundle in `source`. Every problem is S526, at its place.
pub(crate) fn read(source: &SourceFile) -> Result<Bundle, Diagnostic> {
    let text = source.text();
    if let Some(at) = skills_core::json_nests_deeper_than(text.as_bytes(), MAX_NESTING) {
        return Err(Diagnostic::at(
            Code::SignatureMalformed,
            source,
            at..at + 1,
            format!("not a Sigstore bundle: it nests deeper than {MAX_NESTING} levels"),
        ));
    }
    // Unknown members are refused, as the reference's protobuf reader
    // refuses them: what one verifier ignores, the other must not accept.
    let json: Json = serde_json::from_str(text).map_err(|error| {
        let at = offset_of(source, error.line(), error.column());
        Diagnostic::at(
            Code::SignatureMalformed,
            source,
            at..at + 1,
            format!(
                "not a Sigstore bundle: {}",
                strip_position(&error.to_string())
            ),
        )
    })?;
    let malformed = |needle: &str, message: String| {
        let at = locate(text, needle);
        Diagnostic::at(Code::SignatureMalformed, source, at, message)
    };
    if json.media_type != MEDIA_TYPE {
        return Err(malformed(
            "\"mediaType\"",
            format!(
                "the bundle's media type is `{}`, not `{MEDIA_TYPE}`",
                skills_core::printable(&json.media_type)
            ),
        ));
    }
    let certificates = certificates(source, &json.verification_material)?;
    let material = &json.verification_material;
    if !material.tlog_entries.is_empty() || material.timestamp_verification_data.is_some() {
        return Err(malformed(
            if material.tlog_entries.is_empty() { "\"timestampVerificationData\"" } else { "\"tlogEntries\"" },
            "the bundle carries transparency log entries or timestamps, which are not verified offline; a certificate signature (`model_signing sign certificate`, `cargo skills sign`) has none".to_owned(),
        ));
    }
    let chain_key = json
        .verification_material
        .x509_certificate_chain
        .iter()
        .flat_map(|chain| chain.certificates.iter().map(|c| c.raw_bytes.as_str()))
        .collect::<Vec<_>>()
        .join(" ");
    let Some(envelope) = json.dsse_envelope else {
        return Err(malformed(
            "\"verificationMaterial\"",
            "the bundle has no `dsseEnvelope`: OpenSSF Model Signing signs a DSSE envelope"
                .to_owned(),
        ));
    };
    if envelope.payload_type != PAYLOAD_TYPE {
        return Err(malformed(
            "\"payloadType\"",
            format!(
                "the envelope's payload type is `{}`, not `{PAYLOAD_TYPE}`",
                skills_core::printable(&envelope.payload_type)
            ),
        ));
    }
    let payload = STANDARD
        .decode(&envelope.payload)
        .map_err(|error| malformed("\"payload\"", format!("the payload is not base64: {error}")))?;
    let Some(first) = envelope.signatures.first() else {
        return Err(malformed(
            "\"signatures\"",
            "the envelope has no signature".to_owned(),
        ));
    };
    let signature = STANDARD
        .decode(&first.sig)
        .map_err(|error| malformed("\"sig\"", format!("the signature is not base64: {error}")))?;
    Ok(Bundle {
        certificates,
        payload,
        signature,
        chain_key,
    })
}

/// The chain's certificates, decoded; keyless and bare-key bundles are
/// refused with what they are.
fn certificates(source: &SourceFile, material: &Material) -> Result<Vec<Certificate>, Diagnostic> {
    let text = source.text();
    let Some(chain) = &material.x509_certificate_chain else {
        let (needle, what) = if material.certificate.is_some() {
            ("\"certificate\"", "a keyless (Sigstore/Fulcio) signature")
        } else if material.public_key.is_some() {
            ("\"publicKey\"", "a signature by a bare key")
        } else {
            ("\"verificationMaterial\"", "a bundle without certificates")
        };
        return Err(Diagnostic::at(
            Code::SignatureMalformed,
            source,
            locate(text, needle),
            format!("{what}: only signatures with an X.509 certificate chain are verified"),
        )
        .with_help("sign with a certificate (`model_signing sign certificate`, or `cargo skills sign`); keyless signatures need the Rekor log, which an offline build cannot consult"));
    };
    if chain.certificates.is_empty() || chain.certificates.len() > MAX_CHAIN {
        return Err(Diagnostic::at(
            Code::SignatureMalformed,
            source,
            locate(text, "\"certificates\""),
            format!(
                "the chain holds {} certificates; between 1 and {MAX_CHAIN} are read",
                chain.certificates.len()
            ),
        ));
    }
    chain
        .certificates
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let at = || locate(text, &raw.raw_bytes);
            let der = STANDARD.decode(&raw.raw_bytes).map_err(|error| {
                Diagnostic::at(
                    Code::SignatureMalformed,
                    source,
                    at(),
                    format!("certificate {} is not base64: {error}", i + 1),
                )
            })?;
            Certificate::from_der(&der).map_err(|error| {
                Diagnostic::at(
                    Code::SignatureMalformed,
                    source,
                    at(),
                    format!(
                        "certificate {} is not a DER X.509 certificate: {error}",
                        i + 1
                    ),
                )
            })
        })
        .collect()
}

/// The bundle as the reference writes it, from its parts.
pub(crate) fn write(certificates: &[Vec<u8>], payload: &[u8], signature: &[u8]) -> Vec<u8> {
    let json = Json {
        media_type: MEDIA_TYPE.to_owned(),
        verification_material: Material {
            x509_certificate_chain: Some(Chain {
                certificates: certificates
                    .iter()
                    .map(|der| RawCertificate {
                        raw_bytes: STANDARD.encode(der),
                    })
                    .collect(),
            }),
            certificate: None,
            public_key: None,
            tlog_entries: Vec::new(),
            timestamp_verification_data: None,
        },
        dsse_envelope: Some(Envelope {
            payload: STANDARD.encode(payload),
            payload_type: PAYLOAD_TYPE.to_owned(),
            signatures: vec![EnvelopeSignature {
                sig: STANDARD.encode(signature),
                keyid: String::new(),
            }],
        }),
    };
    let mut out = serde_json::to_vec(&json).unwrap_or_default();
    out.push(b'\n');
    out
}

/// The byte range of the first `needle` in `text` (a key with its quotes,
/// or a value), else the file's first byte.
pub(crate) fn locate(text: &str, needle: &str) -> std::ops::Range<usize> {
    match text.find(needle) {
        Some(at) if !needle.is_empty() => at..at + needle.len().min(200),
        _ => 0..1.min(text.len()),
    }
}

/// serde_json's 1-based line and column as a byte offset in `source`.
pub(crate) fn offset_of(source: &SourceFile, line: usize, column: usize) -> usize {
    if line == 0 {
        return 0;
    }
    let start = source
        .line_range(u32::try_from(line).unwrap_or(u32::MAX))
        .start;
    (start + column.saturating_sub(1)).min(source.text().len())
}

/// serde_json's message without its own " at line L column C" (the
/// diagnostic gives the place).
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}
