//! `cargo skills catalog --format well-known` (issue 43, item 3): the
//! `.well-known/agent-skills/index.json` discovery index, checked against
//! the format's schema, each URL resolved as a client resolves it, each
//! artifact's bytes against its digest and against the skill on disk
//! (archives through a real `unzip`).

mod support;

use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};
use support::{deploy_and_notes, files_with_modes, fresh_dir};

fn catalog(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args(["skills", "catalog", "--format", "well-known"])
        .args(args)
        .arg("skills")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn succeeded(output: &std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// `deploy` (scripts, references, a binary asset), `notes` (SKILL.md only)
/// and `release` (SKILL.md only, a semantic version).
fn three_skills(dir: &Path) {
    deploy_and_notes(dir);
    std::fs::create_dir_all(dir.join("skills/release")).unwrap();
    std::fs::write(
        dir.join("skills/release/SKILL.md"),
        "---\nname: release\ndescription: Cuts a release. Use when asked to publish.\nversion: 1.2.0\n---\nTag it.\n",
    )
    .unwrap();
}

fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!(
        "sha256:{}",
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

#[test]
fn the_index_matches_the_schema_and_every_artifact_its_digest() {
    let dir = fresh_dir("well-known-index");
    three_skills(&dir);
    let printed = succeeded(&catalog(&dir, &[]));
    succeeded(&catalog(&dir, &["--out", "site/.well-known/agent-skills"]));
    let served = dir.join("site/.well-known/agent-skills");
    let written = std::fs::read_to_string(served.join("index.json")).unwrap();
    assert_eq!(printed, written, "printed and written indexes differ");

    let index: serde_json::Value = serde_json::from_str(&written).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/well-known/discovery-0.2.0.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&index)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The schema is not vacuous: a digest in capitals, or an entry without
    // its url, is refused.
    let mut wrong = index.clone();
    let digest = wrong["skills"][0]["digest"]
        .as_str()
        .unwrap()
        .to_uppercase();
    wrong["skills"][0]["digest"] = digest.into();
    assert!(!validator.is_valid(&wrong));
    let mut wrong = index.clone();
    wrong["skills"][1].as_object_mut().unwrap().remove("url");
    assert!(!validator.is_valid(&wrong));

    let entries = index["skills"].as_array().unwrap();
    let summary: Vec<(&str, &str, Option<&str>)> = entries
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap(),
                e["type"].as_str().unwrap(),
                e["version"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("deploy", "archive", None),
            ("notes", "skill-md", None),
            ("release", "skill-md", Some("1.2.0")),
        ]
    );

    // Each URL resolved against the index's URL, as RFC 3986 has clients
    // do, stays in the index's folder and names the file written there.
    let base = url::Url::parse("https://example.com/.well-known/agent-skills/index.json").unwrap();
    for entry in entries {
        let name = entry["name"].as_str().unwrap();
        let resolved = base.join(entry["url"].as_str().unwrap()).unwrap();
        let relative = resolved
            .path()
            .strip_prefix("/.well-known/agent-skills/")
            .unwrap_or_else(|| panic!("{name}: {resolved} leaves the index's folder"));
        let bytes = std::fs::read(served.join(relative)).unwrap();
        assert_eq!(entry["digest"], sha256(&bytes), "{name}");
        let skill = dir.join("skills").join(name);
        match entry["type"].as_str().unwrap() {
            "skill-md" => {
                assert_eq!(bytes, std::fs::read(skill.join("SKILL.md")).unwrap());
            }
            _ => {
                // The archive holds the skill directory at its root.
                let unzipped = dir.join(format!("unzipped-{name}"));
                let status = Command::new("unzip")
                    .arg("-q")
                    .arg(served.join(relative))
                    .arg("-d")
                    .arg(&unzipped)
                    .status()
                    .unwrap();
                assert!(status.success());
                assert!(unzipped.join("SKILL.md").is_file());
                assert_eq!(files_with_modes(&unzipped), files_with_modes(&skill));
            }
        }
    }
}

#[test]
fn the_same_skills_give_the_same_bytes_from_any_checkout() {
    let mut outputs = Vec::new();
    for checkout in ["well-known-same-1", "well-known-same-2/deeper"] {
        let dir = fresh_dir(checkout);
        three_skills(&dir);
        succeeded(&catalog(&dir, &["--out", "out"]));
        let mut files = files_with_modes(&dir.join("out"));
        files.sort();
        outputs.push(files);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(
        outputs[0]
            .iter()
            .map(|(path, _, _)| path.as_str())
            .collect::<Vec<_>>(),
        [
            "deploy.zip",
            "index.json",
            "notes/SKILL.md",
            "release/SKILL.md"
        ]
    );
}

#[test]
fn a_skill_folder_that_is_a_symlink_is_refused_and_nothing_lands_outside() {
    let dir = fresh_dir("well-known-symlink");
    three_skills(&dir);
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("out/notes")).unwrap();
    let output = catalog(&dir, &["--out", "out"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is a symlink"), "{stderr}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    // The index is written last: none points at what could not be written.
    assert!(!dir.join("out/index.json").exists());
}

#[test]
fn out_without_the_well_known_format_is_a_usage_error() {
    let dir = fresh_dir("well-known-usage");
    three_skills(&dir);
    let output = Command::new(assert_cmd::cargo::cargo_bin("cargo-skills"))
        .args([
            "skills", "catalog", "--format", "json", "--out", "out", "skills",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("--format well-known"));
    assert!(!dir.join("out").exists());
}

/// A name that is not ASCII (`навык`, valid in `extended`) is
/// percent-encoded in the index's URL, which a client resolves to the
/// folder written under the name itself.
#[test]
fn a_name_that_is_not_ascii_is_percent_encoded_in_its_url() {
    let dir = fresh_dir("well-known-unicode");
    std::fs::create_dir_all(dir.join("skills/навык")).unwrap();
    std::fs::write(
        dir.join("skills/навык/SKILL.md"),
        "---\nname: навык\ndescription: Does a thing. Use when asked for it.\n---\nНавык.\n",
    )
    .unwrap();
    succeeded(&catalog(&dir, &["--profile", "extended", "--out", "out"]));
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/index.json")).unwrap())
            .unwrap();
    let entry = &index["skills"][0];
    assert_eq!(entry["name"], "навык");
    let encoded = "%D0%BD%D0%B0%D0%B2%D1%8B%D0%BA";
    assert_eq!(entry["url"], format!("{encoded}/SKILL.md"));
    let base = url::Url::parse("https://example.com/.well-known/agent-skills/index.json").unwrap();
    let resolved = base.join(entry["url"].as_str().unwrap()).unwrap();
    assert_eq!(
        resolved.path(),
        format!("/.well-known/agent-skills/{encoded}/SKILL.md")
    );
    let bytes = std::fs::read(dir.join("out/навык/SKILL.md")).unwrap();
    assert_eq!(entry["digest"], sha256(&bytes));
}
