//! `skills-lock.json`, shared with Vercel's `skills` CLI (issue 39, item 2):
//! the hash that CLI computes, its file read and rewritten byte for byte,
//! other tools' keys kept, and what verifying a skill against it says.
//!
//! The fixtures under `fixtures/lock/` were written by the real CLI, once,
//! on a machine with the npm registry (the tests need no network):
//!
//! ```sh
//! npm install node@22 skills@1.7.4 && export PATH=$PWD/node_modules/.bin:$PATH
//! # `src` holds the tree of `vercel_source` below, committed; `src.git` a bare clone
//! (cd project && skills add ../src --agent claude-code --yes --copy)          # vercel-1.7.4-local.json
//! (cd project2 && skills add file:///tmp/vfx/src.git --agent claude-code --yes --copy)  # vercel-1.7.4-git.json
//! ```
//!
//! `fixtures/lock/reference-hash.mjs` reimplements that CLI's hash in
//! JavaScript (its source cited there); the property test holds ours to it.

mod support;

use std::path::Path;

use proptest::prelude::*;
use skills_compiler::ops::vendor::lock::{
    Change, ChangeKind, Entry, EntryFields, Limits, LockFile, Status, hash_folder, verify,
};
use support::Tree;

const LOCAL_FIXTURE: &str = include_str!("fixtures/lock/vercel-1.7.4-local.json");
const GIT_FIXTURE: &str = include_str!("fixtures/lock/vercel-1.7.4-git.json");

/// The skills the fixtures locked, byte for byte (the executable script,
/// a binary asset, file names whose case and punctuation decide the order).
fn vercel_source() -> Tree {
    let binary: Vec<u8> = (0..=255).collect();
    let tree = Tree::new(&[
        (
            "pdf/SKILL.md",
            b"---\nname: pdf\ndescription: Reads PDF files. Use when the user asks about a PDF.\n---\nRun `scripts/run.py`.\n",
        ),
        ("pdf/scripts/run.py", b"#!/usr/bin/env python3\nprint(\"ok\")\n"),
        ("pdf/assets/logo.bin", &binary),
        ("pdf/references/Guide.md", b"# Guide\n"),
        ("pdf/references/guide-notes.md", b"# Notes\n"),
        ("pdf/references/a b.txt", b"x\n"),
        (
            "docx/SKILL.md",
            b"---\nname: docx\ndescription: Writes Word documents. Use when the user asks for a .docx file.\n---\nWrite it.\n",
        ),
    ]);
    set_executable(&tree.dir.join("pdf/scripts/run.py"));
    tree
}

#[cfg(unix)]
fn set_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(not(unix))]
fn set_executable(_: &Path) {}

#[test]
fn the_hash_is_the_one_vercels_cli_wrote() {
    let tree = vercel_source();
    for fixture in [LOCAL_FIXTURE, GIT_FIXTURE] {
        let lock = LockFile::parse(fixture, "skills-lock.json").unwrap();
        let mut names = Vec::new();
        for (name, entry) in lock.entries() {
            let digest = hash_folder(&tree.dir.join(name), Limits::default()).unwrap();
            assert_eq!(Some(digest.computed_hash.as_str()), entry.computed_hash());
            assert_eq!(
                verify(&tree.dir.join(name), &entry).unwrap(),
                Status::Matches
            );
            names.push(name.to_owned());
        }
        assert_eq!(names, ["docx", "pdf"]);
    }
}

#[test]
fn a_lock_vercels_cli_wrote_rewrites_byte_for_byte() {
    for fixture in [LOCAL_FIXTURE, GIT_FIXTURE] {
        let lock = LockFile::parse(fixture, "skills-lock.json").unwrap();
        assert_eq!(lock.to_text(), fixture);
    }
}

#[test]
fn other_tools_keys_and_entries_are_kept_as_they_are() {
    let text = r#"{
  "version": 1,
  "skills": {
    "zeta": {
      "source": "acme/zeta",
      "sourceType": "github",
      "computedHash": "00",
      "via": {"z": 1, "a": [true, null]}
    },
    "alpha": {
      "computedHash": "11",
      "source": "./alpha",
      "sourceType": "local"
    }
  },
  "x-team": "kept"
}"#;
    let mut lock = LockFile::parse(text, "skills-lock.json").unwrap();
    // Sorted as Vercel's CLI sorts, each entry's members in their order.
    let expected = "{\n  \"version\": 1,\n  \"skills\": {\n    \"alpha\": {\n      \"computedHash\": \"11\",\n      \"source\": \"./alpha\",\n      \"sourceType\": \"local\"\n    },\n    \"zeta\": {\n      \"source\": \"acme/zeta\",\n      \"sourceType\": \"github\",\n      \"computedHash\": \"00\",\n      \"via\": {\n        \"z\": 1,\n        \"a\": [\n          true,\n          null\n        ]\n      }\n    }\n  },\n  \"x-team\": \"kept\"\n}\n";
    assert_eq!(lock.to_text(), expected);
    // An update sets ours and keeps the rest where it was.
    let fresh = Entry::new(EntryFields {
        source: "acme/zeta".into(),
        source_type: "github".into(),
        computed_hash: "22".into(),
        commit: Some("c0ffee".into()),
        ..EntryFields::default()
    });
    let updated = lock.get("zeta").unwrap().updated_with(fresh);
    lock.insert("zeta", updated);
    let text = lock.to_text();
    assert!(
        text.contains("\"computedHash\": \"22\",\n      \"via\": {"),
        "{text}"
    );
    assert!(text.contains("\"commit\": \"c0ffee\""), "{text}");
}

#[test]
fn what_is_not_a_version_1_lock_is_refused_with_its_reason() {
    for (text, says) in [
        ("{\"version\": 1, \"skills\": {", "is not JSON"),
        ("<<<<<<< HEAD\n{}", "is not JSON"),
        ("[]", "is not a JSON object"),
        (
            "{\"version\": 2, \"skills\": {}}",
            "has version 2; this tool reads version 1",
        ),
        ("{\"skills\": {}}", "has no `version`"),
        ("{\"version\": 1}", "has no `skills` object"),
        ("{\"version\": 1, \"skills\": {\"a\": 3}}", "the entry `a`"),
    ] {
        let error = LockFile::parse(text, "skills-lock.json").unwrap_err();
        assert_eq!(error.code.as_str(), "S519");
        assert!(error.message.contains(says), "{text}: {}", error.message);
    }
}

#[test]
fn verifying_names_each_file_that_differs() {
    let tree = vercel_source();
    let dir = tree.dir.join("pdf");
    let digest = hash_folder(&dir, Limits::default()).unwrap();
    let entry = Entry::new(EntryFields {
        source: "./src".into(),
        source_type: "local".into(),
        computed_hash: digest.computed_hash.clone(),
        files: digest.files.iter().map(|f| f.line()).collect(),
        ..EntryFields::default()
    });
    assert_eq!(verify(&dir, &entry).unwrap(), Status::Matches);
    tree.write("pdf/references/Guide.md", b"# Guide, edited\n");
    tree.write("pdf/new.txt", b"new\n");
    std::fs::remove_file(dir.join("references/a b.txt")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("assets/logo.bin");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let change = |path: &str, kind| Change {
        path: path.into(),
        kind,
    };
    let mut expected = vec![
        change("new.txt", ChangeKind::Added),
        change("references/Guide.md", ChangeKind::Edited),
        change("references/a b.txt", ChangeKind::Removed),
    ];
    if cfg!(unix) {
        expected.insert(0, change("assets/logo.bin", ChangeKind::ModeChanged));
    }
    assert_eq!(
        verify(&dir, &entry).unwrap(),
        Status::Modified { changed: expected }
    );
    // An entry with only Vercel's hash knows that, not which files.
    let vercel_only = LockFile::parse(LOCAL_FIXTURE, "skills-lock.json")
        .unwrap()
        .get("pdf")
        .unwrap();
    assert_eq!(
        verify(&dir, &vercel_only).unwrap(),
        Status::Modified { changed: vec![] }
    );
    assert_eq!(
        verify(&tree.dir.join("nothing"), &entry).unwrap(),
        Status::Missing
    );
}

/// The reference hashes of `dirs`, from Node.js running the reference script.
fn reference_hashes(dirs: &[&Path]) -> Vec<String> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lock/reference-hash.mjs");
    let output = std::process::Command::new("node")
        .arg(script)
        .args(dirs)
        .output()
        .expect("the reference hash runs on Node.js, which this machine's image provides: install `nodejs`");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// File names whose order `localeCompare` decides in ways byte order does
/// not: case, punctuation, digits, accents, spaces.
fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ._\\-#@+~éÉ]{1,6}".prop_filter("not . or ..", |n| n != "." && n != "..")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_hash_equals_the_reference_scripts_for_any_tree(
        files in proptest::collection::btree_map(
            proptest::collection::vec(name(), 1..4),
            proptest::collection::vec(any::<u8>(), 0..40),
            1..12,
        ),
    ) {
        let tree = Tree::new(&[]);
        let mut written = 0;
        for (parts, bytes) in &files {
            let path = tree.dir.join(parts.join("/"));
            // A name that is a file in one path and a folder in another: keep the first.
            if std::fs::create_dir_all(path.parent().unwrap()).is_err() || path.is_dir() {
                continue;
            }
            if std::fs::write(&path, bytes).is_ok() {
                written += 1;
            }
        }
        prop_assume!(written > 0);
        let ours = hash_folder(&tree.dir, Limits::default()).unwrap().computed_hash;
        prop_assert_eq!(vec![ours], reference_hashes(&[&tree.dir]));
    }
}

/// A build keeps what it hashed in `OUT_DIR`, keyed by path, size and
/// modification time (cargo's own signal): a rebuild reads only what
/// changed. A file rewritten with the same size and time is taken as it
/// was; without the cache it is read again and the difference found.
#[test]
fn the_build_cache_reads_only_what_changed() {
    use skills_compiler::ops::vendor::lock::{HashCache, verify_cached};

    let tree = vercel_source();
    let out_dir = tree.dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let dir = tree.dir.join("pdf");
    let digest = hash_folder(&dir, Limits::default()).unwrap();
    let entry = Entry::new(EntryFields {
        source: "./pdf".into(),
        source_type: "local".into(),
        computed_hash: digest.computed_hash.clone(),
        files: digest.files.iter().map(|f| f.line()).collect(),
        ..EntryFields::default()
    });
    let mut cache = HashCache::in_dir(&out_dir);
    assert_eq!(
        verify_cached(&dir, &entry, &mut cache).unwrap(),
        Status::Matches
    );
    cache.keep();

    let path = dir.join("references/Guide.md");
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, b"# Guidf\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let mut cache = HashCache::in_dir(&out_dir);
    assert_eq!(
        verify_cached(&dir, &entry, &mut cache).unwrap(),
        Status::Matches
    );
    assert_eq!(
        verify(&dir, &entry).unwrap(),
        Status::Modified {
            changed: vec![Change {
                path: "references/Guide.md".into(),
                kind: ChangeKind::Edited
            }]
        }
    );
    // A new time is a new read.
    std::fs::write(&path, b"# Guidg\n").unwrap();
    let mut cache = HashCache::in_dir(&out_dir);
    assert!(matches!(
        verify_cached(&dir, &entry, &mut cache).unwrap(),
        Status::Modified { .. }
    ));
}

/// `locked` is one option of the one table: the manifest's key, the
/// macro's argument and the loader's overrides all read it.
#[test]
fn locked_is_an_option_like_any_other() {
    use skills_compiler::{OptionValue, Overrides};
    let set = Overrides::option("locked", OptionValue::Bool(true)).unwrap();
    assert_eq!(set.locked, Some(true));
    let wrong = Overrides::option("locked", OptionValue::Text("yes".into())).unwrap_err();
    assert!(!wrong.at_key, "{}", wrong.message);
}
