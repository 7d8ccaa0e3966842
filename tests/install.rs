//! `SkillSet::install` from a binary's compiled tables (issue 43, item 1):
//! every file as it is on disk, execute bits included, and a second
//! install finds it up to date.

use std::os::unix::fs::PermissionsExt;

use skills::install::{Install, State};

mod agent {
    skills::include_skills!("fixtures/scripts");
}

#[test]
fn a_compiled_set_installs_its_directories_exactly_and_then_is_up_to_date() {
    let dir = std::env::temp_dir().join(format!("skills-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let first = agent::SKILLS.install(&dir, Install::default()).unwrap();
    assert_eq!(first.len(), 1);
    assert_eq!((first[0].state, first[0].written), (State::Missing, true));

    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/scripts/runner");
    let skill = agent::SKILLS.get("runner").unwrap();
    for file in skill.files() {
        let installed = dir.join("runner").join(file.path());
        assert_eq!(
            std::fs::read(&installed).unwrap(),
            std::fs::read(source.join(file.path())).unwrap()
        );
        let executable = std::fs::metadata(&installed).unwrap().permissions().mode() & 0o111 != 0;
        assert_eq!(executable, file.is_executable(), "{}", file.path());
    }
    assert_eq!(
        std::fs::read(dir.join("runner/SKILL.md")).unwrap(),
        std::fs::read(source.join("SKILL.md")).unwrap()
    );
    assert!(
        skill.files().iter().any(|file| file.is_executable()),
        "the fixture has an executable"
    );

    let second = agent::SKILLS.install(&dir, Install::default()).unwrap();
    assert_eq!(
        (second[0].state, second[0].written),
        (State::UpToDate, false)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fixture's skills as the compiler lowers them for the CLI (`pack`,
/// `catalog --format well-known`), files read from disk.
fn lowered_fixture() -> Vec<skills::Skill> {
    let compilation = skills_compiler::compile(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &skills_compiler::Config {
            dir: "fixtures/scripts".into(),
            ..Default::default()
        },
    );
    let set = compilation.into_skills().expect("the fixture compiles");
    set.skills
        .iter()
        .map(|skill| {
            let files = skills_compiler::emit::lower::read_files(skill).unwrap();
            skills_compiler::emit::lower::skill(skill, files.into())
        })
        .collect()
}

/// `Skill::zip` at run time gives the bytes `cargo skills pack` writes:
/// the compiled tables and the compiler's lowering zip the same.
#[test]
fn a_compiled_skill_zips_to_the_bytes_pack_writes() {
    let lowered = lowered_fixture().remove(0);
    let compiled = agent::SKILLS.get("runner").unwrap();
    assert_eq!(compiled.zip().unwrap(), lowered.zip().unwrap());
    assert_eq!(&compiled.zip().unwrap()[..4], b"PK\x03\x04");
}

/// A skill put together by hand with a path that would unpack outside its
/// folder (`../`, absolute, a backslash, an empty part) gets no bundle and
/// no index: an error that names the path, and no bytes.
#[test]
fn a_path_that_would_unpack_outside_the_folder_gets_no_bundle() {
    let mut skill = lowered_fixture().remove(0);
    for bad in ["../escape.sh", "/etc/passwd", "a\\..\\b", "a//b", "./x"] {
        skill.files = skills::tables::List::Owned(vec![skills::File::new(
            skills::tables::Str::Owned(bad.to_owned()),
            skills::tables::Bytes::Owned(b"#!/bin/sh\n".to_vec()),
            true,
            None,
        )]);
        let error = skill.zip().unwrap_err();
        assert_eq!(error.path, bad);
        assert!(
            error.to_string().contains("outside the skill's folder"),
            "{error}"
        );
        let refused = skills::well_known::Index::of([&skill]).unwrap_err();
        assert_eq!(refused, error);
    }
}

/// The discovery index at run time (`skills::well_known`) is the one
/// `cargo skills catalog --format well-known` writes: the same entries and
/// artifacts from the compiled tables as from the compiler's lowering.
#[test]
fn a_compiled_set_gives_the_discovery_index_the_cli_writes() {
    use skills::well_known::{ArtifactType, Index};
    let lowered = lowered_fixture();
    let from_tables = Index::of(agent::SKILLS.iter()).unwrap();
    let from_lowering = Index::of(&lowered).unwrap();
    assert_eq!(from_tables, from_lowering);
    assert_eq!(from_tables.to_json(), from_lowering.to_json());
    let entry = &from_tables.entries()[0];
    assert_eq!(
        (entry.name.as_str(), entry.kind, entry.url.as_str()),
        ("runner", ArtifactType::Archive, "runner.zip")
    );
    let archive = &from_tables.artifacts()[0].bytes;
    assert_eq!(entry.digest, sha256(archive));
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    let hex: String = sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}
