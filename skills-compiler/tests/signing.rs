//! Signed skills: signing and verifying, with certificates made here.
#![cfg(feature = "signing")]

#[path = "support/pki.rs"]
mod pki;

use std::path::Path;

use pki::Curve;
use skills_compiler::lock::HashCache;
use skills_compiler::signing::{self, SigningKey, Trust, Verdict};

fn skill(dir: &Path) {
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("SKILL.md"), "---\nname: pdf\ndescription: Fill PDF forms. Use when asked to fill a form.\n---\nRun scripts/fill.py.\n").unwrap();
    std::fs::write(dir.join("scripts/fill.py"), "print('fill')\n").unwrap();
}

fn sign(dir: &Path, leaf: &pki::Made, chain: &[&pki::Made]) {
    let key = SigningKey::from_pem(&leaf.key.pem()).unwrap();
    let mut certs = vec![leaf.certificate.clone()];
    certs.extend(chain.iter().map(|m| m.certificate.clone()));
    let bytes = signing::sign(dir, &key, &certs).unwrap();
    std::fs::write(dir.join(signing::SIGNATURE_FILE), bytes).unwrap();
}

fn verify(base: &Path, trust: &Trust) -> signing::Verification {
    signing::verify(base, Path::new("pdf"), trust, &mut HashCache::none())
}

#[test]
fn a_signed_skill_verifies_on_both_curves() {
    for curve in [Curve::P256, Curve::P384] {
        let tmp = tempdir();
        skill(&tmp.join("pdf"));
        let ca = pki::ca("CN=Test Root", curve);
        let leaf = pki::leaf(&ca, "CN=Publisher,O=Vendor", curve);
        sign(&tmp.join("pdf"), &leaf, &[&ca]);
        let trust = Trust::from_pem(ca.pem().as_bytes()).unwrap();
        let verified = verify(&tmp, &trust);
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

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "skills-signing-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
