//! Signed skills: signing and verifying `skill.oms.sig`, with keys and
//! certificates made here, and every hostile signature the issue lists
//! refused with a located diagnostic.
#![cfg(feature = "signing")]

#[path = "support/pki.rs"]
mod pki;

use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use pki::{Curve, Made, Shape};
use skills_compiler::ops::vendor::lock::HashCache;
use skills_compiler::signing::{self, SIGNATURE_FILE, SigningKey, Trust, Verdict, Verification};
use skills_compiler::{Code, Diagnostic};

fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("signing-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A skill `pdf` in `base`, with a script.
fn skill(base: &Path) -> PathBuf {
    let dir = base.join("pdf");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use when asked to fill a form.\n---\nRun scripts/fill.py.\n",
    )
    .unwrap();
    std::fs::write(dir.join("scripts/fill.py"), "print('fill')\n").unwrap();
    dir
}

fn sign(dir: &Path, leaf: &Made, chain: &[&Made]) {
    let key = SigningKey::from_pem(&leaf.key.pem()).unwrap();
    let mut certs = vec![leaf.certificate.clone()];
    certs.extend(chain.iter().map(|m| m.certificate.clone()));
    let bytes = signing::sign(dir, &key, &certs).unwrap();
    std::fs::write(dir.join(SIGNATURE_FILE), bytes).unwrap();
}

fn trust(anchors: &[&Made]) -> Trust {
    let pem: String = anchors.iter().map(|a| a.pem()).collect();
    Trust::from_pem(pem.as_bytes()).unwrap()
}

fn verify(base: &Path, trust: &Trust) -> Verification {
    signing::verify(base, Path::new("pdf"), trust, &mut HashCache::none())
}

/// A signed skill with its CA, trusted.
struct Signed {
    base: PathBuf,
    dir: PathBuf,
    ca: Made,
    leaf: Made,
}

fn signed(name: &str) -> Signed {
    let base = tempdir(name);
    let dir = skill(&base);
    let ca = pki::ca("CN=Test Root,O=Vendor", Curve::P256);
    let leaf = pki::leaf(&ca, "CN=Vendor Skills,O=Vendor", Curve::P256);
    sign(&dir, &leaf, &[&ca]);
    Signed {
        base,
        dir,
        ca,
        leaf,
    }
}

/// The one refusal: its code, and the message.
fn refused(verification: &Verification) -> &Diagnostic {
    assert_eq!(
        verification.verdict,
        Verdict::Refused,
        "{:?}",
        verification.diagnostics
    );
    assert_eq!(
        verification.diagnostics.len(),
        1,
        "{:?}",
        verification.diagnostics
    );
    &verification.diagnostics[0]
}

#[test]
fn a_signed_skill_verifies_on_both_curves_and_names_its_signer() {
    for curve in [Curve::P256, Curve::P384] {
        let base = tempdir(&format!("curves-{curve:?}"));
        let dir = skill(&base);
        let ca = pki::ca("CN=Test Root", curve);
        let leaf = pki::leaf(&ca, "CN=Publisher,O=Vendor", curve);
        sign(&dir, &leaf, &[&ca]);
        let trust = trust(&[&ca]);
        let verified = verify(&base, &trust);
        assert!(
            verified.diagnostics.is_empty(),
            "{:?}",
            verified.diagnostics
        );
        let Verdict::Signed(signer) = verified.verdict else {
            panic!("{:?}", verified.verdict)
        };
        assert_eq!(signer.subject, "CN=Publisher,O=Vendor");
        assert_eq!(signer.anchor, trust.anchors()[0].fingerprint);
    }
}

#[test]
fn a_chain_through_an_intermediate_of_the_other_curve_verifies() {
    let base = tempdir("intermediate");
    let dir = skill(&base);
    let root = pki::ca("CN=Root", Curve::P384);
    let intermediate = pki::issue(&root, "CN=Intermediate", Curve::P256, Shape::ca());
    let leaf = pki::leaf(&intermediate, "CN=Publisher", Curve::P256);
    sign(&dir, &leaf, &[&intermediate]);
    assert!(matches!(
        verify(&base, &trust(&[&root])).verdict,
        Verdict::Signed(_)
    ));
}

#[test]
fn signing_is_byte_deterministic() {
    let s = signed("deterministic");
    let first = std::fs::read(s.dir.join(SIGNATURE_FILE)).unwrap();
    sign(&s.dir, &s.leaf, &[&s.ca]);
    assert_eq!(std::fs::read(s.dir.join(SIGNATURE_FILE)).unwrap(), first);
}

#[test]
fn each_changed_added_or_missing_file_is_named() {
    let s = signed("tampered");
    std::fs::write(
        s.dir.join("scripts/fill.py"),
        "import os; os.system('curl evil')\n",
    )
    .unwrap();
    std::fs::write(s.dir.join("scripts/extra.sh"), "#!/bin/sh\n").unwrap();
    std::fs::remove_file(s.dir.join("SKILL.md")).unwrap();
    let verified = verify(&s.base, &trust(&[&s.ca]));
    assert_eq!(verified.verdict, Verdict::Refused);
    let found: Vec<(Code, &str, &str)> = verified
        .diagnostics
        .iter()
        .map(|d| (d.code, d.file.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                Code::SignatureTampered,
                "pdf/scripts/extra.sh",
                "added after the skill was signed"
            ),
            (
                Code::SignatureTampered,
                "pdf/scripts/fill.py",
                "changed since the skill was signed"
            ),
            (
                Code::SignatureTampered,
                "pdf/SKILL.md",
                "missing: the signature lists it, and the skill does not have it"
            ),
        ]
    );
}

#[test]
fn git_files_and_install_records_are_left_out_as_the_reference_does() {
    let s = signed("left-out");
    std::fs::write(s.dir.join(".gitignore"), "x\n").unwrap();
    std::fs::create_dir_all(s.dir.join(".git/objects")).unwrap();
    std::fs::write(s.dir.join(".git/HEAD"), "ref\n").unwrap();
    assert!(matches!(
        verify(&s.base, &trust(&[&s.ca])).verdict,
        Verdict::Signed(_)
    ));
    // `install`'s record is left out only where it is the record of the
    // skill's files (an agent's folder install wrote): one added by hand
    // is an added file, as for the reference (issue 71, item 3).
    std::fs::write(s.dir.join(".skills-install.json"), "{}").unwrap();
    assert_eq!(
        refused(&verify(&s.base, &trust(&[&s.ca]))).file,
        "pdf/.skills-install.json"
    );
    let files: serde_json::Map<String, serde_json::Value> = ["SKILL.md", "scripts/fill.py"]
        .iter()
        .map(|path| {
            let bytes = std::fs::read(s.dir.join(path)).unwrap();
            let file =
                serde_json::json!({"sha256": skills_core::sha256_hex(&bytes), "executable": false});
            ((*path).to_owned(), file)
        })
        .collect();
    let record = serde_json::json!({"installed_by": "skills", "skill": "pdf", "files": files});
    std::fs::write(s.dir.join(".skills-install.json"), record.to_string()).unwrap();
    assert!(matches!(
        verify(&s.base, &trust(&[&s.ca])).verdict,
        Verdict::Signed(_)
    ));
    std::fs::remove_file(s.dir.join(".skills-install.json")).unwrap();
    // A `.git` below the top is a file of the skill, as for the reference.
    std::fs::create_dir_all(s.dir.join("scripts/.git")).unwrap();
    std::fs::write(s.dir.join("scripts/.git/x"), "x").unwrap();
    assert_eq!(
        refused(&verify(&s.base, &trust(&[&s.ca]))).file,
        "pdf/scripts/.git/x"
    );
}

#[test]
fn a_symlink_is_refused_when_the_signature_does_not_allow_it() {
    let s = signed("symlink");
    std::os::unix::fs::symlink("fill.py", s.dir.join("scripts/link.py")).unwrap();
    let d = refused(&verify(&s.base, &trust(&[&s.ca]))).clone();
    assert_eq!(d.code, Code::SignatureTampered);
    assert!(
        d.message.contains("`scripts/link.py` is a symlink"),
        "{}",
        d.message
    );
}

#[test]
fn another_root_is_untrusted_and_the_chain_is_named() {
    let s = signed("untrusted");
    let other = pki::ca("CN=Someone Else", Curve::P256);
    let d = refused(&verify(&s.base, &trust(&[&other]))).clone();
    assert_eq!(d.code, Code::SignatureUntrusted);
    assert_eq!(
        d.message,
        "signed by `CN=Vendor Skills,O=Vendor`, whose chain (`CN=Vendor Skills,O=Vendor` <- `CN=Test Root,O=Vendor`) reaches none of the trusted anchors"
    );
    assert_eq!(d.help.as_deref(), Some("trusted anchors: CN=Someone Else"));
    assert_eq!(d.file, "pdf/skill.oms.sig");
    assert!(d.span.is_some());
}

#[test]
fn certificates_that_may_not_sign_are_refused() {
    type Make = Box<dyn Fn(&Made) -> Made>;
    let cases: [(&str, Make, &str); 3] = [
        (
            "ca-leaf",
            Box::new(|ca| {
                pki::issue(
                    ca,
                    "CN=Leaf CA",
                    Curve::P256,
                    Shape {
                        ca: true,
                        ..Shape::leaf()
                    },
                )
            }),
            "`CN=Leaf CA` is a CA certificate (CA:TRUE)",
        ),
        (
            "future",
            Box::new(|ca| {
                pki::issue(
                    ca,
                    "CN=Later",
                    Curve::P256,
                    Shape {
                        from: 3600,
                        ..Shape::leaf()
                    },
                )
            }),
            "`CN=Later` is valid only from",
        ),
        (
            "no-usage",
            Box::new(|ca| {
                pki::issue(
                    ca,
                    "CN=Encipher",
                    Curve::P256,
                    Shape {
                        usage: Some(vec![x509_cert::ext::pkix::KeyUsages::KeyEncipherment]),
                        ..Shape::leaf()
                    },
                )
            }),
            "`CN=Encipher` may not sign",
        ),
    ];
    for (name, make, expected) in cases {
        let base = tempdir(name);
        let dir = skill(&base);
        let ca = pki::ca("CN=Root", Curve::P256);
        let leaf = make(&ca);
        let key = SigningKey::from_pem(&leaf.key.pem()).unwrap();
        let chain = [leaf.certificate.clone(), ca.certificate.clone()];
        match signing::sign(&dir, &key, &chain) {
            Ok(bytes) => std::fs::write(dir.join(SIGNATURE_FILE), bytes).unwrap(),
            // The signer runs the verifier's leaf rules (issue 71, item
            // 15): the verifier is tested with a bundle made by hand.
            Err(why) => {
                assert!(why.starts_with(expected), "{name}: {why}");
                sign_as(&dir, &leaf, &ca);
            }
        }
        let d = refused(&verify(&base, &trust(&[&ca]))).clone();
        assert_eq!(d.code, Code::SignatureUntrusted, "{name}");
        assert!(d.message.starts_with(expected), "{name}: {}", d.message);
    }
}

/// A signature of `dir` by `leaf` (issued by `ca`) that `signing::sign`
/// would not write: signed by another leaf of `ca`, then its certificate
/// and signature swapped for `leaf`'s.
fn sign_as(dir: &Path, leaf: &Made, ca: &Made) {
    let stand_in = pki::leaf(ca, "CN=Stand In", Curve::P256);
    sign(dir, &stand_in, &[ca]);
    let bundle: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(SIGNATURE_FILE)).unwrap()).unwrap();
    let payload = STANDARD
        .decode(bundle["dsseEnvelope"]["payload"].as_str().unwrap())
        .unwrap();
    let der = x509_cert::der::Encode::to_der(&leaf.certificate).unwrap();
    edit_bundle(dir, |json| {
        json["verificationMaterial"]["x509CertificateChain"]["certificates"][0]["rawBytes"] =
            STANDARD.encode(der).into();
    });
    sign_payload(dir, leaf, &payload);
}

/// The reference checks the chain at the leaf's `notBefore`: a leaf issued
/// after its CA expired is refused; a leaf that expired since is not.
#[test]
fn validity_is_checked_when_the_skill_was_signed() {
    let base = tempdir("expired");
    let dir = skill(&base);
    let ca = pki::ca_shaped(
        "CN=Old Root",
        Curve::P256,
        Shape {
            from: -20 * 86_400,
            to: -10 * 86_400,
            ..Shape::ca()
        },
    );
    let leaf = pki::leaf(&ca, "CN=Late Leaf", Curve::P256);
    sign(&dir, &leaf, &[&ca]);
    let d = refused(&verify(&base, &trust(&[&ca]))).clone();
    assert!(
        d.message
            .starts_with("`CN=Old Root` was not valid when the skill was signed"),
        "{}",
        d.message
    );

    let root = pki::ca_shaped(
        "CN=Root",
        Curve::P256,
        Shape {
            from: -30 * 86_400,
            ..Shape::ca()
        },
    );
    let old = pki::issue(
        &root,
        "CN=Old Leaf",
        Curve::P256,
        Shape {
            from: -9 * 86_400,
            to: -86_400,
            ..Shape::leaf()
        },
    );
    sign(&dir, &old, &[&root]);
    assert!(matches!(
        verify(&base, &trust(&[&root])).verdict,
        Verdict::Signed(_)
    ));
}

/// Rewrites the bundle's JSON with `edit`.
fn edit_bundle(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = dir.join(SIGNATURE_FILE);
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut json);
    std::fs::write(&path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
}

/// Signs `payload` (any statement) with the leaf's key, as a hostile
/// publisher with a trusted certificate could.
fn sign_payload(dir: &Path, leaf: &Made, payload: &[u8]) {
    let pae = [
        format!("DSSEv1 28 application/vnd.in-toto+json {} ", payload.len()).as_bytes(),
        payload,
    ]
    .concat();
    let pki::Key::P256(key) = &leaf.key else {
        unreachable!()
    };
    let signature: p256::ecdsa::Signature = p256::ecdsa::signature::Signer::sign(key, &pae);
    let sig = STANDARD.encode(signature.to_der().as_bytes());
    let payload = STANDARD.encode(payload);
    edit_bundle(dir, |json| {
        json["dsseEnvelope"]["payload"] = payload.into();
        json["dsseEnvelope"]["signatures"][0]["sig"] = sig.into();
    });
}

fn statement(resources: serde_json::Value, ignore: serde_json::Value) -> Vec<u8> {
    let mut hasher = <sha2::Sha256 as sha2::Digest>::new();
    for r in resources.as_array().unwrap() {
        let hex = r["digest"].as_str().unwrap();
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        sha2::Digest::update(&mut hasher, bytes);
    }
    let root: String = sha2::Digest::finalize(hasher)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    serde_json::to_vec(&serde_json::json!({
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": "pdf", "digest": {"sha256": root}}],
        "predicateType": "https://model_signing/signature/v1.0",
        "predicate": {
            "serialization": {"method": "files", "hash_type": "sha256", "allow_symlinks": false, "ignore_paths": ignore},
            "resources": resources,
        },
    }))
    .unwrap()
}

#[test]
fn a_signature_over_another_payload_is_refused() {
    let s = signed("other-payload");
    let other = STANDARD.encode(statement(serde_json::json!([]), serde_json::json!([])));
    edit_bundle(&s.dir, |json| {
        json["dsseEnvelope"]["payload"] = other.into()
    });
    let d = refused(&verify(&s.base, &trust(&[&s.ca]))).clone();
    assert_eq!(d.code, Code::SignatureUntrusted);
    assert!(
        d.message.contains("the payload is not the one signed"),
        "{}",
        d.message
    );
}

#[test]
fn hostile_statements_signed_by_a_trusted_key_are_refused() {
    let digest = "ab".repeat(32);
    let cases = [
        (
            serde_json::json!([{"name": "../x", "algorithm": "sha256", "digest": digest}]),
            serde_json::json!([]),
            "`../x` is not a path inside the skill",
        ),
        (
            serde_json::json!([{"name": "/etc/passwd", "algorithm": "sha256", "digest": digest}]),
            serde_json::json!([]),
            "`/etc/passwd` is not a path inside the skill",
        ),
        (
            serde_json::json!([{"name": "SKILL.md", "algorithm": "sha256", "digest": digest}, {"name": "SKILL.md", "algorithm": "sha256", "digest": digest}]),
            serde_json::json!([]),
            "`SKILL.md` is listed twice",
        ),
        // An ignore list that would leave every file unchecked.
        (
            serde_json::json!([]),
            serde_json::json!(["."]),
            "the ignored path `.` is not a path inside the skill",
        ),
    ];
    for (resources, ignore, expected) in cases {
        let s = signed("hostile-statement");
        sign_payload(&s.dir, &s.leaf, &statement(resources, ignore));
        let d = refused(&verify(&s.base, &trust(&[&s.ca]))).clone();
        assert_eq!(d.code, Code::SignatureMalformed);
        assert!(d.message.starts_with(expected), "{expected}: {}", d.message);
    }
}

/// Each malformed file is S526 at its place (line and column), never a
/// panic and never a pass.
#[test]
fn malformed_signatures_are_located() {
    let s = signed("malformed");
    let path = s.dir.join(SIGNATURE_FILE);
    let trust = trust(&[&s.ca]);
    let located = |text: &str| {
        std::fs::write(&path, text).unwrap();
        let v = verify(&s.base, &trust);
        let d = refused(&v);
        assert_eq!(d.code, Code::SignatureMalformed, "{}", d.message);
        let span = d.span.as_ref().expect("located");
        (span.start.line, span.start.column, d.message.clone())
    };
    let (line, column, message) = located("{\n  \"mediaType\": oops\n}");
    assert_eq!((line, column), (2, 16), "{message}");
    assert!(
        message.starts_with("not a Sigstore bundle: expected value"),
        "{message}"
    );

    // Nested 10,000 deep, where a value is kept and where it is skipped:
    // bounded either way (no stack overflow), and refused.
    let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deep = format!(
        "{{\"mediaType\": \"x\", \"verificationMaterial\": {{\"certificate\": {}}}}}",
        nest(10_000)
    );
    // Refused before it is parsed (issue 71, item 5).
    let (_, _, message) = located(&deep);
    assert_eq!(
        message,
        "not a Sigstore bundle: it nests deeper than 16 levels"
    );
    let (_, _, message) = located(&format!("{{\"x\": {}}}", nest(100_000)));
    assert_eq!(
        message,
        "not a Sigstore bundle: it nests deeper than 16 levels"
    );
    let (_, _, message) = located("{\"x\": 1}");
    assert!(
        message.starts_with("not a Sigstore bundle: unknown field `x`"),
        "{message}"
    );

    sign(&s.dir, &s.leaf, &[&s.ca]);
    let good = std::fs::read_to_string(&path).unwrap();

    let not_base64 = good.replacen("\"payload\":\"", "\"payload\":\"%%%", 1);
    let (line, _, message) = located(&not_base64);
    assert_eq!(line, 1);
    assert!(
        message.starts_with("the payload is not base64"),
        "{message}"
    );

    let keyless = serde_json::json!({
        "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {"certificate": {"rawBytes": "AAAA"}, "tlogEntries": [{}]},
        "dsseEnvelope": {"payload": "", "payloadType": "application/vnd.in-toto+json", "signatures": []},
    });
    let (_, _, message) = located(&serde_json::to_string_pretty(&keyless).unwrap());
    assert_eq!(
        message,
        "a keyless (Sigstore/Fulcio) signature: only signatures with an X.509 certificate chain are verified"
    );

    let mut json: serde_json::Value = serde_json::from_str(&good).unwrap();
    let leaf = json["verificationMaterial"]["x509CertificateChain"]["certificates"][0].clone();
    json["verificationMaterial"]["x509CertificateChain"]["certificates"] =
        serde_json::Value::Array(vec![leaf; 1000]);
    let (_, _, message) = located(&serde_json::to_string(&json).unwrap());
    assert_eq!(
        message,
        "the chain holds 1000 certificates; between 1 and 10 are read"
    );

    let bad_der = good.replacen("\"rawBytes\":\"", "\"rawBytes\":\"AAAA", 1);
    let (_, _, message) = located(&bad_der);
    assert!(
        message.starts_with("certificate 1 is not a DER X.509 certificate"),
        "{message}"
    );
}

#[test]
fn an_oversized_signature_is_refused_unread() {
    let s = signed("huge");
    let file = std::fs::File::create(s.dir.join(SIGNATURE_FILE)).unwrap();
    file.set_len(100 * 1024 * 1024).unwrap();
    let d = refused(&verify(&s.base, &trust(&[&s.ca]))).clone();
    assert_eq!(d.code, Code::SignatureMalformed);
    assert_eq!(d.message, "`skill.oms.sig` is larger than 8388608 bytes");
}

#[test]
fn a_key_that_is_not_the_certificates_is_refused_when_signing() {
    let s = signed("wrong-key");
    let other = pki::leaf(&s.ca, "CN=Other", Curve::P256);
    let key = SigningKey::from_pem(&other.key.pem()).unwrap();
    let err = signing::sign(&s.dir, &key, std::slice::from_ref(&s.leaf.certificate)).unwrap_err();
    assert_eq!(
        err,
        "the key is not the one of `CN=Vendor Skills,O=Vendor`, the first certificate given"
    );
}

#[test]
fn an_unsigned_folder_is_unsigned() {
    let base = tempdir("unsigned");
    skill(&base);
    let ca = pki::ca("CN=Root", Curve::P256);
    let v = verify(&base, &trust(&[&ca]));
    assert_eq!(v.verdict, Verdict::Unsigned);
    assert!(v.diagnostics.is_empty());
}

/// A verdict kept in a build's `OUT_DIR` spares the next build the chain
/// and the signature (a verifier set before the leaf's validity, which
/// would refuse it, takes the kept verdict), never the files: a changed
/// file is still named.
#[test]
fn a_kept_verdict_skips_the_chain_but_not_the_files() {
    use signing::{Verdicts, Verifier};
    let s = signed("verdicts");
    let out_dir = tempdir("verdicts-out");
    let trust = trust(&[&s.ca]);
    let before_the_leaf = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);

    let mut fresh = Verifier::new(&trust).at(before_the_leaf);
    let refused = fresh.verify(&s.base, Path::new("pdf"), &mut HashCache::none());
    assert_eq!(refused.verdict, Verdict::Refused);

    let mut first = Verifier::new(&trust).remembering(Verdicts::in_dir(&out_dir));
    let signed_now = first.verify(&s.base, Path::new("pdf"), &mut HashCache::none());
    assert!(matches!(signed_now.verdict, Verdict::Signed(_)));
    first.keep();

    let mut again = Verifier::new(&trust)
        .at(before_the_leaf)
        .remembering(Verdicts::in_dir(&out_dir));
    let kept = again.verify(&s.base, Path::new("pdf"), &mut HashCache::none());
    assert!(
        matches!(kept.verdict, Verdict::Signed(_)),
        "{:?}",
        kept.diagnostics
    );

    std::fs::write(s.dir.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let tampered = again.verify(&s.base, Path::new("pdf"), &mut HashCache::none());
    assert_eq!(refused_file(&tampered), "pdf/scripts/fill.py");
}

fn refused_file(verification: &Verification) -> &str {
    &refused(verification).file
}

/// A compilation of the root `base` (the skill `pdf` in it) that trusts
/// `ca`, as a build compiles it.
fn compile_trusting(base: &Path, ca: &Made) -> skills_compiler::Compilation {
    std::fs::write(base.join("ca.pem"), ca.pem()).unwrap();
    let config = skills_compiler::Config {
        dir: ".".into(),
        trust: vec!["ca.pem".into()],
        require_signatures: skills_compiler::RequireSignatures::All,
        exclude: vec!["ca.pem".into()],
        ..skills_compiler::Config::default()
    };
    skills_compiler::compile(base, &config)
}

/// Issue 71, item 6: the build read a skill's files, then the signature
/// check read them again; a file flipped in between (same size) was
/// embedded unverified. What is kept of a file is held to the digest its
/// verified signature lists, wherever it is read: the copy a build embeds
/// and the bytes the loader serves.
#[test]
fn the_bytes_kept_are_the_bytes_verified() {
    let s = signed("flipped");
    let mut compilation = compile_trusting(&s.base, &s.ca);
    assert!(!compilation.has_errors(), "{:?}", compilation.diagnostics);
    // Flipped after the check, same length.
    std::fs::write(s.dir.join("scripts/fill.py"), "print('pwnd')\n").unwrap();
    let out = tempdir("flipped-out");
    let problems = skills_compiler::emit::snapshot::copy_into(&mut compilation.valid, &out)
        .expect_err("the flipped file is not embedded");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].file, "pdf/scripts/fill.py");
    assert!(
        problems[0]
            .message
            .contains("changed after its signature was verified"),
        "{}",
        problems[0].message
    );
    let lowered = skills_compiler::emit::lower::set(&compilation.valid).expect_err("nor loaded");
    assert!(
        lowered[0]
            .message
            .contains("changed after its signature was verified")
    );

    // Put back, it is embedded.
    std::fs::write(s.dir.join("scripts/fill.py"), "print('fill')\n").unwrap();
    let mut compilation = compile_trusting(&s.base, &s.ca);
    skills_compiler::emit::snapshot::copy_into(&mut compilation.valid, &out).unwrap();
}

/// Issue 71, item 7: both verifiers leave `.gitignore` out of the
/// signature, and the compiler obeyed it in a git work tree: an added
/// `.gitignore` hid signed files from the build, which passed. Every file
/// the signature lists is compiled, or the check fails naming it.
#[test]
fn a_gitignore_cannot_hide_signed_files_from_the_build() {
    let s = signed("gitignore");
    let git = std::process::Command::new("git")
        .args(["init", "--quiet"])
        .current_dir(&s.base)
        .status()
        .unwrap();
    assert!(git.success());
    std::fs::write(s.dir.join(".gitignore"), "scripts/\n").unwrap();
    let compilation = compile_trusting(&s.base, &s.ca);
    let refusals: Vec<_> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.file.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        refusals,
        [(
            Code::SignatureTampered,
            "pdf/scripts/fill.py",
            "signed, and left out of the build: ignored by git (`scripts/` in `pdf/.gitignore`)"
        )],
        "{:?}",
        compilation.diagnostics
    );
}

/// Issue 71, items 2 and 5 (the statement): a signature that says
/// `allow_symlinks: true` does not make a symlink acceptable (the
/// verifier decides), and a statement with a member the reference does not
/// know is refused, as the reference refuses it.
#[test]
fn the_statement_does_not_decide_what_the_verifier_accepts() {
    let s = signed("statement-links");
    std::os::unix::fs::symlink("fill.py", s.dir.join("scripts/link.py")).unwrap();
    let digest = |path: &str| skills_core::sha256_hex(&std::fs::read(s.dir.join(path)).unwrap());
    let resources = serde_json::json!([
        {"name": "SKILL.md", "algorithm": "sha256", "digest": digest("SKILL.md")},
        {"name": "scripts/fill.py", "algorithm": "sha256", "digest": digest("scripts/fill.py")},
        {"name": "scripts/link.py", "algorithm": "sha256", "digest": digest("scripts/fill.py")},
    ]);
    let mut payload: serde_json::Value =
        serde_json::from_slice(&statement(resources, serde_json::json!([]))).unwrap();
    payload["predicate"]["serialization"]["allow_symlinks"] = true.into();
    sign_payload(&s.dir, &s.leaf, &serde_json::to_vec(&payload).unwrap());
    let trust = trust(&[&s.ca]);
    let d = refused(&verify(&s.base, &trust)).clone();
    assert!(d.message.contains("is a symlink"), "{}", d.message);
    let allowing = signing::Verifier::new(&trust)
        .allowing_symlinks(true)
        .verify(&s.base, Path::new("pdf"), &mut HashCache::none());
    assert!(
        matches!(allowing.verdict, Verdict::Signed(_)),
        "{:?}",
        allowing.diagnostics
    );

    payload["predicate"]["extra"] = "ignored by us, refused by the reference".into();
    sign_payload(&s.dir, &s.leaf, &serde_json::to_vec(&payload).unwrap());
    let d = refused(&verify(&s.base, &trust)).clone();
    assert!(d.message.contains("unknown field `extra`"), "{}", d.message);
}
