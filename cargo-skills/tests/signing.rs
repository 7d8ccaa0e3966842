//! Signed skills through the CLI, both ways against the reference
//! implementation (PyPI `model-signing` 1.1.1, installed into a virtual
//! environment under the target's temporary folder): ours signed, theirs
//! verifies; theirs signed, ours verifies; tampered, added, removed,
//! untrusted and expired refused by both.

mod support;

#[path = "../../skills-compiler/tests/support/pki.rs"]
mod pki;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use pki::{Curve, Made, Shape};
use support::{fresh_dir, output};

/// The reference's CLI, `model_signing`, set up once per test binary. The
/// test fails, not skips, when it cannot be installed.
fn model_signing() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("model-signing-1.1.1");
        let bin = venv.join("bin/model_signing");
        if bin.exists() {
            return bin;
        }
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .expect("python3 is needed to install the reference verifier");
        assert!(made.success(), "python3 -m venv failed");
        let installed = Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "model-signing==1.1.1", "pyopenssl"])
            .output()
            .unwrap();
        assert!(installed.status.success(), "pip install: {installed:?}");
        bin
    })
}

/// A project with a skill `pdf`, the PKI's files beside it.
struct Project {
    dir: PathBuf,
    skill: PathBuf,
}

fn new_project(name: &str, ca: &Made, leaf: &Made) -> Project {
    let dir = fresh_dir(name);
    let skill = dir.join("skills/pdf");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use when asked to fill a form.\n---\nRun `scripts/fill.py`.\n",
    )
    .unwrap();
    std::fs::write(skill.join("scripts/fill.py"), "print('fill')\n").unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    std::fs::write(dir.join("leaf.pem"), leaf.pem()).unwrap();
    std::fs::write(dir.join("leaf.key"), leaf.key.pem()).unwrap();
    Project { dir, skill }
}

impl Project {
    fn ours_sign(&self) {
        output(
            &self.dir,
            &[
                "sign",
                "skills/pdf",
                "--key",
                "leaf.key",
                "--cert-chain",
                "leaf.pem",
                "--cert-chain",
                "ca.pem",
            ],
            0,
        );
    }

    fn theirs_sign(&self) {
        self.theirs_sign_with(&[]);
    }

    /// The reference signs the skill, with `extra` arguments.
    fn theirs_sign_with(&self, extra: &[&str]) {
        let signed = Command::new(model_signing())
            .current_dir(&self.dir)
            .args([
                "sign",
                "certificate",
                "skills/pdf",
                "--signature",
                "skills/pdf/skill.oms.sig",
                "--private_key",
                "leaf.key",
                "--signing_certificate",
                "leaf.pem",
                "--certificate_chain",
                "ca.pem",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(signed.status.success(), "reference sign: {signed:?}");
    }

    /// Whether the reference verifies the skill against `anchor`.
    fn theirs_verify(&self, anchor: &str) -> bool {
        theirs_verify_with(self, anchor, &[])
    }

    /// Whether `cargo skills check` verifies it against `anchor`, and its stderr.
    fn ours_verify(&self, anchor: &str) -> (bool, String) {
        let output = support::cargo_skills_in(&self.dir)
            .args(["check", "skills", "--trust", anchor, "--require-signatures"])
            .output()
            .unwrap();
        let code = output.status.code();
        assert!(matches!(code, Some(0 | 1)), "{output:?}");
        (code == Some(0), String::from_utf8(output.stderr).unwrap())
    }

    /// Both verifiers agree on `anchor`; what ours said.
    fn both(&self, anchor: &str, expected: bool) -> String {
        let (ours, said) = self.ours_verify(anchor);
        assert_eq!(self.theirs_verify(anchor), expected, "reference, {anchor}");
        assert_eq!(ours, expected, "ours, {anchor}: {said}");
        said
    }
}

fn pki(curve: Curve) -> (Made, Made) {
    let ca = pki::ca("CN=Test Root,O=Vendor", curve);
    let leaf = pki::leaf(&ca, "CN=Vendor Skills,O=Vendor", curve);
    (ca, leaf)
}

/// Each change to a signed skill, as both verifiers see it.
fn tamper_each_way(project: &Project, sign: impl Fn(&Project)) {
    sign(project);
    project.both("ca.pem", true);

    std::fs::write(project.skill.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let said = project.both("ca.pem", false);
    assert!(
        said.contains(
            "error[S524]: changed since the skill was signed\n --> skills/pdf/scripts/fill.py"
        ),
        "{said}"
    );

    sign(project);
    std::fs::write(project.skill.join("scripts/extra.sh"), "#!/bin/sh\n").unwrap();
    let said = project.both("ca.pem", false);
    assert!(
        said.contains(
            "error[S524]: added after the skill was signed\n --> skills/pdf/scripts/extra.sh"
        ),
        "{said}"
    );

    sign(project);
    std::fs::remove_file(project.skill.join("scripts/fill.py")).unwrap();
    let said = project.both("ca.pem", false);
    assert!(said.contains("--> skills/pdf/scripts/fill.py"), "{said}");
    assert!(said.contains("error[S524]: missing"), "{said}");
}

#[test]
fn ours_signed_theirs_verifies_and_both_refuse_the_same_changes() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-ours", &ca, &leaf);
    tamper_each_way(&project, Project::ours_sign);
}

#[test]
fn theirs_signed_ours_verifies_and_both_refuse_the_same_changes() {
    let (ca, leaf) = pki(Curve::P384);
    let project = new_project("sign-theirs", &ca, &leaf);
    tamper_each_way(&project, Project::theirs_sign);
}

#[test]
fn both_refuse_an_untrusted_signer_and_an_expired_chain() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-untrusted", &ca, &leaf);
    let other = pki::ca("CN=Someone Else", Curve::P256);
    std::fs::write(project.dir.join("other.pem"), other.pem()).unwrap();
    for sign in [Project::ours_sign, Project::theirs_sign] {
        sign(&project);
        let said = project.both("other.pem", false);
        assert!(
            said.contains("error[S525]: signed by `CN=Vendor Skills,O=Vendor`, whose chain"),
            "{said}"
        );
    }

    // A CA that had expired when the leaf was issued.
    let old = pki::ca_shaped(
        "CN=Old Root",
        Curve::P256,
        Shape {
            from: -20 * 86_400,
            to: -10 * 86_400,
            ..Shape::ca()
        },
    );
    let late = pki::leaf(&old, "CN=Late Leaf", Curve::P256);
    let expired = new_project("sign-expired", &old, &late);
    for sign in [Project::ours_sign, Project::theirs_sign] {
        sign(&expired);
        let said = expired.both("ca.pem", false);
        assert!(
            said.contains("error[S525]: `CN=Old Root` was not valid when the skill was signed"),
            "{said}"
        );
    }
}

/// What `check` prints for a tampered and an untrusted skill, whole.
#[test]
fn the_diagnostics_of_signed_skills() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-snapshot", &ca, &leaf);
    project.ours_sign();
    std::fs::write(project.skill.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let (_, tampered) = project.ours_verify("ca.pem");
    insta::assert_snapshot!("signed_tampered", tampered);
    std::fs::remove_file(project.skill.join("skill.oms.sig")).unwrap();
    let (_, unsigned) = project.ours_verify("ca.pem");
    insta::assert_snapshot!("signed_unsigned", unsigned);
    // Unsigned without `--require-signatures`: a warning, and the check passes.
    let (_, warned) = output(&project.dir, &["check", "skills", "--trust", "ca.pem"], 0);
    assert!(
        warned.contains("warning[S527]: unsigned: it has no `skill.oms.sig`"),
        "{warned}"
    );
}

#[test]
fn sign_refuses_what_it_cannot_sign() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-refusals", &ca, &leaf);
    let (_, err) = output(
        &project.dir,
        &[
            "sign",
            "skills",
            "--key",
            "leaf.key",
            "--cert-chain",
            "leaf.pem",
        ],
        2,
    );
    assert_eq!(
        err,
        "error: skills is not a skill folder (it has no SKILL.md); to sign every skill of a root, `--all skills`\n"
    );
    let (_, err) = output(
        &project.dir,
        &[
            "sign",
            "skills/pdf",
            "--key",
            "leaf.pem",
            "--cert-chain",
            "leaf.pem",
        ],
        2,
    );
    assert!(
        err.starts_with("error: leaf.pem: not a PEM private key"),
        "{err}"
    );
    let (_, err) = output(
        &project.dir,
        &[
            "sign",
            "skills/pdf",
            "--key",
            "leaf.key",
            "--cert-chain",
            "ca.pem",
        ],
        2,
    );
    assert_eq!(
        err,
        "error: cannot sign skills/pdf: the key is not the one of `CN=Test Root,O=Vendor`, the first certificate given\n"
    );
    assert!(!project.skill.join("skill.oms.sig").exists());
}

/// `require_signatures` in a real cargo build: `include_skills!` with
/// `skills_build::track` refuses a changed script, naming it, and builds
/// again once the skill is signed again; an anchor that is not the
/// signer's fails it too.
#[test]
fn a_build_with_require_signatures_refuses_a_changed_script() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-build", &ca, &leaf);
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    std::fs::write(
        project.dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"signed-agent\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nskills = {{ package = \"skills-runtime\", path = \"{ws}/skills\" }}\n\n\
             [build-dependencies]\nskills-build = {{ path = \"{ws}/skills-build\" }}\n\n\
             [package.metadata.skills]\ntrust = [\"ca.pem\"]\nrequire_signatures = true\n\n[workspace]\n",
            ws = workspace.display()
        ),
    )
    .unwrap();
    std::fs::write(
        project.dir.join("build.rs"),
        "fn main() {\n    skills_build::track(\"skills\");\n}\n",
    )
    .unwrap();
    std::fs::create_dir_all(project.dir.join("src")).unwrap();
    std::fs::write(
        project.dir.join("src/main.rs"),
        "mod agent {\n    skills::include_skills!(\"skills\");\n}\n\nfn main() {\n    print!(\"{}\", agent::SKILLS.len());\n}\n",
    )
    .unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), project.dir.join("Cargo.lock")).unwrap();
    let build = || {
        Command::new(env!("CARGO"))
            .args(["build", "--quiet"])
            .current_dir(&project.dir)
            .env(
                "CARGO_TARGET_DIR",
                workspace.join("target/temp-crates/target"),
            )
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap()
    };
    let stderr =
        |output: &std::process::Output| String::from_utf8_lossy(&output.stderr).into_owned();

    let unsigned = build();
    assert!(!unsigned.status.success());
    assert!(
        stderr(&unsigned).contains("error[S527]: unsigned: it has no `skill.oms.sig`"),
        "{}",
        stderr(&unsigned)
    );

    project.ours_sign();
    let signed = build();
    assert!(signed.status.success(), "{}", stderr(&signed));

    std::fs::write(project.skill.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let tampered = build();
    assert!(!tampered.status.success());
    let said = stderr(&tampered);
    assert!(
        said.contains("error[S524]: changed since the skill was signed"),
        "{said}"
    );
    assert!(said.contains("skills/pdf/scripts/fill.py"), "{said}");

    project.ours_sign();
    let again = build();
    assert!(again.status.success(), "{}", stderr(&again));

    // Another anchor in the same file: the signer's chain no longer verifies.
    let other = pki::ca("CN=Someone Else", Curve::P256);
    std::fs::write(project.dir.join("ca.pem"), other.pem()).unwrap();
    let untrusted = build();
    assert!(!untrusted.status.success());
    assert!(
        stderr(&untrusted).contains("error[S525]"),
        "{}",
        stderr(&untrusted)
    );
}

/// `fmt` and `fix` leave a signed skill alone (the edit would break the
/// signature) unless `--allow-unsigned-edit`, which says so; the edited
/// skill then fails verification until it is signed again.
#[test]
fn fmt_and_fix_refuse_to_edit_a_signed_skill() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-edit", &ca, &leaf);
    std::fs::write(
        project.dir.join("Cargo.toml"),
        "[package]\nname = \"signed\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[lib]\npath = \"lib.rs\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(project.dir.join("lib.rs"), "").unwrap();
    let unformatted = "---\ndescription:    Fill PDF forms. Use when asked to fill a form.\nname:   pdf\nallowed-tools: Read, Grep\n---\nBody.\n";
    std::fs::write(project.skill.join("SKILL.md"), unformatted).unwrap();
    project.ours_sign();
    let refusal = "error: skills/pdf is signed (`skill.oms.sig`), and the edit would break the signature; nothing was written. \
                   Edit it upstream and get a new signed release, or pass --allow-unsigned-edit (then sign it again with `cargo skills sign`)\n";
    assert_eq!(output(&project.dir, &["fmt", "skills"], 2).1, refusal);
    assert!(
        output(&project.dir, &["fix", "skills", "--allow-dirty"], 2)
            .1
            .ends_with(refusal)
    );
    assert_eq!(
        std::fs::read_to_string(project.skill.join("SKILL.md")).unwrap(),
        unformatted
    );
    project.both("ca.pem", true);

    let (_, said) = output(&project.dir, &["fmt", "skills", "--allow-unsigned-edit"], 0);
    assert!(
        said.starts_with(
            "warning: editing signed skills (skills/pdf): their signatures no longer verify"
        ),
        "{said}"
    );
    assert_ne!(
        std::fs::read_to_string(project.skill.join("SKILL.md")).unwrap(),
        unformatted
    );
    project.both("ca.pem", false);
}

/// `add`, `update` and `sync` verify a signed upstream before anything is
/// written into the root: a tampered upstream is refused with nothing
/// written, the lock records who signed, and an upstream signed by someone
/// else since is drift that `update` refuses.
#[test]
fn vendoring_verifies_before_anything_is_written() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-vendor", &ca, &leaf);
    std::fs::write(
        project.dir.join("Cargo.toml"),
        "[package]\nname = \"signed\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[lib]\npath = \"lib.rs\"\n\n\
         [package.metadata.skills]\ntrust = [\"ca.pem\"]\nrequire_signatures = true\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(project.dir.join("lib.rs"), "").unwrap();
    // The signed skill moves to an upstream folder; the root starts empty.
    std::fs::create_dir_all(project.dir.join("upstream")).unwrap();
    project.ours_sign();
    std::fs::rename(&project.skill, project.dir.join("upstream/pdf")).unwrap();
    let upstream = project.dir.join("upstream/pdf");
    let sign_upstream = |leaf_file: &str, key_file: &str| {
        output(
            &project.dir,
            &[
                "sign",
                "upstream/pdf",
                "--key",
                key_file,
                "--cert-chain",
                leaf_file,
                "--cert-chain",
                "ca.pem",
            ],
            0,
        );
    };

    std::fs::write(upstream.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let (_, said) = output(&project.dir, &["add", "./upstream", "--skill", "pdf"], 1);
    assert!(said.contains("S524"), "{said}");
    assert!(said.contains("scripts/fill.py"), "{said}");
    assert!(!project.skill.exists(), "nothing is written into the root");
    assert!(
        !project.dir.join("skills-lock.json").exists(),
        "nor the lock"
    );

    sign_upstream("leaf.pem", "leaf.key");
    output(&project.dir, &["add", "./upstream", "--skill", "pdf"], 0);
    let lock: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.dir.join("skills-lock.json")).unwrap(),
    )
    .unwrap();
    let fingerprint = <sha2::Sha256 as sha2::Digest>::digest(
        x509_cert::der::Encode::to_der(&ca.certificate).unwrap(),
    )
    .iter()
    .map(|b| format!("{b:02x}"))
    .collect::<String>();
    assert_eq!(
        lock["skills"]["pdf"]["signer"],
        serde_json::json!({"subject": "CN=Vendor Skills,O=Vendor", "anchor": fingerprint})
    );
    project.both("ca.pem", true);

    // Signed since by another certificate of the same CA: drift.
    let other = pki::leaf(&ca, "CN=Someone Inside", Curve::P256);
    std::fs::write(project.dir.join("other.pem"), other.pem()).unwrap();
    std::fs::write(project.dir.join("other.key"), other.key.pem()).unwrap();
    std::fs::write(upstream.join("scripts/fill.py"), "print('v2')\n").unwrap();
    sign_upstream("other.pem", "other.key");
    let before = std::fs::read(project.skill.join("scripts/fill.py")).unwrap();
    let (_, said) = output(&project.dir, &["update", "pdf", "--allow-outside"], 1);
    assert!(
        said.contains("`pdf` upstream is now signed by `CN=Someone Inside`"),
        "{said}"
    );
    assert!(
        said.contains("the lock recorded `CN=Vendor Skills,O=Vendor`"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(project.skill.join("scripts/fill.py")).unwrap(),
        before
    );

    // A tampered upstream is not restored by `sync` either.
    std::fs::write(upstream.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    std::fs::remove_dir_all(&project.skill).unwrap();
    output(&project.dir, &["sync", "--allow-outside"], 1);
    assert!(!project.skill.exists(), "nothing is written into the root");
}

/// The run-time loader (`trust` feature) applies the same rule: a signed
/// skill loads, a tampered one fails with S524, an unsigned one warns or,
/// with `require_signatures`, fails.
#[test]
fn the_loader_verifies_with_trust() {
    use skills::loader::Loader;

    let (ca, leaf) = pki(Curve::P384);
    let project = new_project("sign-loader", &ca, &leaf);
    project.ours_sign();
    let root = project.dir.join("skills");
    let anchors = project.dir.join("ca.pem");
    let loaded = Loader::new()
        .trust(&anchors)
        .require_signatures()
        .load(&root)
        .unwrap();
    assert_eq!(loaded.set().len(), 1);

    std::fs::write(project.skill.join("scripts/fill.py"), "print('pwned')\n").unwrap();
    let error = Loader::new().trust(&anchors).load(&root).unwrap_err();
    let codes: Vec<&str> = error.errors().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["S524"]);
    assert!(
        error
            .errors()
            .next()
            .unwrap()
            .file
            .ends_with("skills/pdf/scripts/fill.py")
    );

    std::fs::remove_file(project.skill.join("skill.oms.sig")).unwrap();
    let loaded = Loader::new().trust(&anchors).load(&root).unwrap();
    assert_eq!(
        loaded
            .warnings()
            .iter()
            .map(|d| d.code.as_str())
            .collect::<Vec<_>>(),
        ["S527"]
    );
    let error = Loader::new()
        .trust(&anchors)
        .require_signatures()
        .load(&root)
        .unwrap_err();
    assert_eq!(
        error.errors().map(|d| d.code.as_str()).collect::<Vec<_>>(),
        ["S527"]
    );
}

/// Whether the reference verifies the skill against `anchor`, with `extra`
/// arguments.
fn theirs_verify_with(project: &Project, anchor: &str, extra: &[&str]) -> bool {
    Command::new(model_signing())
        .current_dir(&project.dir)
        .args([
            "verify",
            "certificate",
            "skills/pdf",
            "--signature",
            "skills/pdf/skill.oms.sig",
            "--certificate_chain",
            anchor,
        ])
        .args(extra)
        .output()
        .unwrap()
        .status
        .success()
}

/// Issue 71, item 2: a statement with `allow_symlinks: true` made ours
/// accept a symlink; the reference refuses unless its verifier opts in.
/// Ours now: refused by default, accepted with `signed_symlinks = true` in
/// the manifest (the verifier's setting), as the reference with
/// `--allow_symlinks`.
#[test]
fn symlinks_in_a_signed_skill_are_the_verifiers_choice() {
    let (ca, leaf) = pki(Curve::P384);
    let project = new_project("sign-symlinks", &ca, &leaf);
    std::os::unix::fs::symlink("fill.py", project.skill.join("scripts/link.py")).unwrap();
    project.theirs_sign_with(&["--allow_symlinks"]);
    let said = project.both("ca.pem", false);
    assert!(said.contains("`scripts/link.py` is a symlink"), "{said}");
    assert!(theirs_verify_with(
        &project,
        "ca.pem",
        &["--allow_symlinks"]
    ));
    std::fs::write(
        project.dir.join("Cargo.toml"),
        "[package]\nname = \"links\"\nversion = \"0.1.0\"\nedition = \"2024\"\n[lib]\npath = \"lib.rs\"\n\
         [package.metadata.skills]\ntrust = [\"ca.pem\"]\nrequire_signatures = true\nsigned_symlinks = true\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(project.dir.join("lib.rs"), "").unwrap();
    output(&project.dir, &["check"], 0);
}

/// Issue 71, item 3: `.skills-install.json` added to a signed skill after
/// signing was accepted by ours; the reference says "Extra files found".
#[test]
fn an_install_record_added_to_a_signed_skill_is_an_added_file() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-install-record", &ca, &leaf);
    project.ours_sign();
    std::fs::write(
        project.skill.join(".skills-install.json"),
        "{\"files\": {}}\n",
    )
    .unwrap();
    let said = project.both("ca.pem", false);
    assert!(
        said.contains(
            "error[S524]: added after the skill was signed\n --> skills/pdf/.skills-install.json"
        ),
        "{said}"
    );
}

/// Issue 71, item 4: a chain that stops at an intermediate the trust file
/// holds verified with ours; the reference refuses ("unable to get issuer
/// certificate"). Only a self-signed certificate is an anchor.
#[test]
fn an_intermediate_is_not_an_anchor() {
    let root = pki::ca("CN=Root", Curve::P256);
    let intermediate = pki::issue(&root, "CN=Intermediate", Curve::P256, Shape::ca());
    let leaf = pki::leaf(&intermediate, "CN=Publisher", Curve::P256);
    let project = new_project("sign-intermediate", &intermediate, &leaf);
    std::fs::write(project.dir.join("root.pem"), root.pem()).unwrap();
    // The chain leaf <- intermediate, signed by the reference.
    project.theirs_sign();
    let said = project.both("ca.pem", false);
    assert!(said.contains("error[S528]"), "{said}");
    assert!(said.contains("holds no root certificate"), "{said}");
    project.both("root.pem", true);
}

/// Issue 71, item 5: what the reference refuses in a bundle, ours refused
/// not: unknown members, junk `tlogEntries`, a 7.9 MB unknown string,
/// nesting 100,000 deep inside an ignored member. Both refuse each now.
#[test]
fn both_refuse_what_the_reference_parser_refuses() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-parser", &ca, &leaf);
    project.ours_sign();
    let path = project.skill.join("skill.oms.sig");
    let good: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let edits: [(&str, Edit); 4] = [
        ("unknown member", Box::new(|b| b["extra"] = 1.into())),
        (
            "junk tlogEntries",
            Box::new(|b| b["verificationMaterial"]["tlogEntries"] = serde_json::json!([1, "x"])),
        ),
        (
            "huge unknown string",
            Box::new(|b| b["verificationMaterial"]["note"] = "x".repeat(7_900_000).into()),
        ),
        ("deep", Box::new(|b| b["extra"] = "DEEP".into())),
    ];
    for (name, edit) in edits {
        let mut bundle = good.clone();
        edit(&mut bundle);
        let text = serde_json::to_string(&bundle)
            .unwrap()
            .replace("\"DEEP\"", &deep);
        std::fs::write(&path, text).unwrap();
        let said = project.both("ca.pem", false);
        assert!(said.contains("error[S526]"), "{name}: {said}");
    }
    std::fs::write(&path, serde_json::to_string(&good).unwrap()).unwrap();
    project.both("ca.pem", true);
}

/// Issue 71, items 9 and 15: `sign` with a CA certificate as the leaf
/// wrote a signature `check` then refused; a `trust` entry or `--key` that
/// is a device was read without end.
#[test]
fn sign_and_trust_refuse_what_the_verifier_would() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-ca-leaf", &ca, &leaf);
    std::fs::write(project.dir.join("ca.key"), ca.key.pem()).unwrap();
    let (_, err) = output(
        &project.dir,
        &[
            "sign",
            "skills/pdf",
            "--key",
            "ca.key",
            "--cert-chain",
            "ca.pem",
        ],
        2,
    );
    assert!(err.contains("is a CA certificate (CA:TRUE)"), "{err}");
    assert!(!project.skill.join("skill.oms.sig").exists());

    std::os::unix::fs::symlink("/dev/zero", project.dir.join("zero.pem")).unwrap();
    let (_, err) = output(
        &project.dir,
        &[
            "check",
            "skills",
            "--trust",
            "zero.pem",
            "--require-signatures",
        ],
        1,
    );
    assert!(err.contains("not a regular file"), "{err}");
    let (_, err) = output(
        &project.dir,
        &[
            "sign",
            "skills/pdf",
            "--key",
            "zero.pem",
            "--cert-chain",
            "leaf.pem",
        ],
        1,
    );
    assert!(err.contains("not a regular file"), "{err}");
}

/// Issue 71, item 7, through `check`: in a git work tree, a `.gitignore`
/// added to a signed skill hid a signed script from the build, and `check
/// --trust --require-signatures` passed with a warning. Both verifiers
/// leave `.gitignore` out of the signature; the build now fails, naming
/// the signed file it would leave out.
#[test]
fn check_fails_when_a_gitignore_hides_a_signed_file() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-gitignore", &ca, &leaf);
    project.ours_sign();
    support::git(&project.dir, &["init", "-q"]);
    std::fs::write(project.skill.join(".gitignore"), "scripts/\n").unwrap();
    assert!(
        project.theirs_verify("ca.pem"),
        "the reference ignores `.gitignore`"
    );
    let (ours, said) = project.ours_verify("ca.pem");
    assert!(!ours, "{said}");
    assert!(
        said.contains("error[S524]: signed, and left out of the build: ignored by git"),
        "{said}"
    );
    assert!(said.contains("skills/pdf/scripts/fill.py"), "{said}");
}

/// Issue 75, item 3: SECURITY.md's openssl recipe, run as it is written
/// there, makes a CA and a signing certificate that `sign --all` signs
/// every skill with, and both verifiers accept every skill against the
/// recipe's `ca.pem`. A key that is not the certificate's is refused
/// before any folder is signed.
#[test]
fn the_openssl_recipe_makes_a_chain_both_verifiers_accept() {
    let (ca, leaf) = pki(Curve::P256);
    let project = new_project("sign-openssl-recipe", &ca, &leaf);
    std::fs::create_dir_all(project.dir.join("skills/notes")).unwrap();
    std::fs::write(
        project.dir.join("skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: Take notes. Use when asked to take notes.\n---\nBody.\n",
    )
    .unwrap();
    // The recipe writes its own ca.pem over the test's.
    support::openssl_recipe(&project.dir);

    let (_, err) = output(
        &project.dir,
        &[
            "sign",
            "--all",
            "skills",
            "--key",
            "leaf.key",
            "--cert-chain",
            "signer.pem",
        ],
        2,
    );
    assert!(err.contains("the key is not the one of"), "{err}");
    assert!(!project.skill.join("skill.oms.sig").exists());
    assert!(!project.dir.join("skills/notes/skill.oms.sig").exists());

    let (out, _) = output(
        &project.dir,
        &[
            "sign",
            "--all",
            "skills",
            "--key",
            "signer.key",
            "--cert-chain",
            "signer.pem",
            "--cert-chain",
            "ca.pem",
        ],
        0,
    );
    assert_eq!(
        out,
        "Signed skills/notes: wrote skills/notes/skill.oms.sig\n\
         Signed skills/pdf: wrote skills/pdf/skill.oms.sig\n\
         Signed 2 skills\n"
    );
    project.both("ca.pem", true);
    let notes = Command::new(model_signing())
        .current_dir(&project.dir)
        .args([
            "verify",
            "certificate",
            "skills/notes",
            "--signature",
            "skills/notes/skill.oms.sig",
            "--certificate_chain",
            "ca.pem",
        ])
        .output()
        .unwrap();
    assert!(notes.status.success(), "reference on notes: {notes:?}");
    // The test's own root is not the recipe's: both refuse against it.
    std::fs::write(project.dir.join("other-ca.pem"), ca.pem()).unwrap();
    project.both("other-ca.pem", false);
}
