//! A skill is its directory: every regular file besides SKILL.md belongs to
//! it, read from real trees on disk, with each skip recorded.

mod support;

use skills_compiler::{Code, Config, SkipReason, Skipped};
use support::{DESCRIPTION, Tree, with};

const A: &str = "skills/a/SKILL.md";

fn skill(compilation: &skills_compiler::Compilation) -> &skills_compiler::ir::Skill {
    compilation
        .valid
        .get("a")
        .unwrap_or_else(|| panic!("no skill a: {:?}", support::located(compilation)))
}

fn paths(skill: &skills_compiler::ir::Skill) -> Vec<&str> {
    skill.files.iter().map(|f| f.path.as_str()).collect()
}

#[test]
fn every_regular_file_but_skill_md_is_a_file_of_the_skill_in_path_order() {
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/tools.yaml", b"tools: []\n"),
        ("skills/a/references/z.md", b"# Z\n"),
        ("skills/a/references/a b.md", b"# A\n"),
        ("skills/a/assets/font.ttf", b"\0\x01\x00\x00"),
        ("skills/a/Z.txt", b"upper first"),
        ("skills/a/scripts/run.sh", b"#!/bin/sh\n"),
    ]);
    let compilation = tree.compile(&Config::default());
    assert!(
        !compilation.has_errors(),
        "{:?}",
        support::located(&compilation)
    );
    assert_eq!(
        paths(skill(&compilation)),
        [
            "Z.txt",
            "assets/font.ttf",
            "references/a b.md",
            "references/z.md",
            "scripts/run.sh",
            "tools.yaml"
        ]
    );
}

#[test]
fn hidden_excluded_and_nested_skills_are_skipped_and_recorded() {
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/.env", b"SECRET=1"),
        ("skills/a/.git/HEAD", b"ref"),
        ("skills/a/node_modules/x/index.js", b"x"),
        ("skills/a/scripts/__pycache__/m.cpython-311.pyc", b"x"),
        ("skills/a/scripts/m.pyc", b"x"),
        ("skills/a/scripts/m.py", b"print(1)"),
        (
            "skills/a/inner/SKILL.md",
            format!("---\nname: inner\ndescription: {DESCRIPTION}\n---\n").as_bytes(),
        ),
        ("skills/a/inner/notes.md", b"inner's"),
    ]);
    let compilation = tree.compile(&Config::default());
    let skill = skill(&compilation);
    assert_eq!(paths(skill), ["scripts/m.py"]);
    let skipped = |path: &str, reason: SkipReason| Skipped {
        path: path.to_owned(),
        reason,
    };
    let excluded = |p: &str| SkipReason::Excluded(p.to_owned());
    assert_eq!(
        skill.skipped,
        [
            skipped(".env", SkipReason::Hidden),
            skipped(".git/", SkipReason::Hidden),
            skipped("inner/", SkipReason::NestedSkill),
            skipped("node_modules/", excluded("node_modules")),
            skipped("scripts/__pycache__/", excluded("__pycache__")),
            skipped("scripts/m.pyc", excluded("*.pyc")),
        ]
    );
}

/// Whether a folder holds a skill of its own is read off its listing: a
/// SKILL.md that is a file or a link to one makes it a nested skill, a
/// folder named SKILL.md does not (as a look-up of the path would say).
#[cfg(unix)]
#[test]
fn a_folder_is_a_nested_skill_when_its_skill_md_is_a_file_or_a_link_to_one() {
    let inner = format!("---\nname: inner\ndescription: {DESCRIPTION}\n---\n");
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/linked/notes.md", b"linked's"),
        ("skills/a/shared/inner.md", inner.as_bytes()),
        (
            "skills/a/folder/SKILL.md/notes.md",
            b"a folder named SKILL.md",
        ),
    ]);
    std::os::unix::fs::symlink(
        "../shared/inner.md",
        tree.dir.join("skills/a/linked/SKILL.md"),
    )
    .unwrap();
    let compilation = tree.compile(&Config::default());
    let skill = skill(&compilation);
    assert_eq!(
        paths(skill),
        ["folder/SKILL.md/notes.md", "shared/inner.md"]
    );
    assert_eq!(
        skill.skipped,
        [Skipped {
            path: "linked/".to_owned(),
            reason: SkipReason::NestedSkill,
        }]
    );
}

#[test]
fn exclude_is_configurable_and_a_bad_pattern_is_a_config_error() {
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/build/out.bin", b"x"),
        ("skills/a/node_modules/keep.js", b"x"),
    ]);
    let config = Config {
        exclude: vec!["build/**".into()],
        ..Config::default()
    };
    let compilation = tree.compile(&config);
    assert_eq!(paths(skill(&compilation)), ["node_modules/keep.js"]);
    let bad = Config {
        exclude: vec!["a[".into()],
        ..Config::default()
    };
    let compilation = tree.compile(&bad);
    let diagnostic = support::find(&compilation, Code::Config);
    assert!(
        diagnostic.message.contains("`a[`"),
        "{}",
        diagnostic.message
    );
}

#[test]
fn bytes_text_mime_exec_bits_and_digests_are_those_on_disk() {
    use sha2::Digest;
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/references/api.md", "# API\n\nÜber.\n".as_bytes()),
        (
            "skills/a/scripts/fill.py",
            b"#!/usr/bin/env python3\nprint(1)\n",
        ),
        ("skills/a/assets/logo.png", png),
        ("skills/a/assets/latin1.txt", b"caf\xe9"),
        ("skills/a/assets/nul.txt", b"a\0b"),
    ]);
    set_executable(&tree.dir.join("skills/a/scripts/fill.py"));
    let compilation = tree.compile(&Config::default());
    let files = skills_compiler::emit::lower::read_files(skill(&compilation)).unwrap();
    for file in &files {
        let on_disk = std::fs::read(tree.dir.join("skills/a").join(file.path())).unwrap();
        assert_eq!(file.bytes(), on_disk, "{}", file.path());
        let digest: String = sha2::Sha256::digest(&on_disk)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(file.sha256_hex(), digest, "{}", file.path());
        assert_eq!(
            file.text().is_some(),
            std::str::from_utf8(&on_disk).is_ok() && !on_disk.contains(&0),
            "{}",
            file.path()
        );
    }
    let file = |path: &str| files.iter().find(|f| f.path() == path).unwrap().clone();
    assert_eq!(file("references/api.md").text(), Some("# API\n\nÜber.\n"));
    assert_eq!(file("references/api.md").mime(), Some("text/markdown"));
    assert_eq!(file("assets/logo.png").mime(), Some("image/png"));
    assert_eq!(file("assets/logo.png").text(), None);
    assert_eq!(file("assets/latin1.txt").text(), None);
    assert_eq!(file("assets/nul.txt").text(), None);
    assert_eq!(file("scripts/fill.py").is_executable(), cfg!(unix));
    assert!(!file("references/api.md").is_executable());
}

#[cfg(unix)]
fn set_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(not(unix))]
fn set_executable(_: &std::path::Path) {}

#[cfg(unix)]
#[test]
fn a_symlink_leading_outside_the_skill_is_refused() {
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/references/inside.md", b"# In\n"),
        ("skills/b/secret.md", b"b's"),
        ("outside.txt", b"not the skill's"),
    ]);
    let link = |target: &str, name: &str| {
        std::os::unix::fs::symlink(tree.dir.join(target), tree.dir.join("skills/a").join(name))
            .unwrap()
    };
    link("skills/a/references/inside.md", "alias.md");
    link("skills/a/references", "refs");
    link("outside.txt", "out.txt");
    link("skills/b/secret.md", "sibling.md");
    link("nowhere", "dangling.md");
    let compilation = tree.compile(&Config::default());
    let escapes: Vec<&str> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::FileSymlinkEscape)
        .map(|d| d.file.as_str())
        .collect();
    assert_eq!(
        escapes,
        [
            "skills/a/dangling.md",
            "skills/a/out.txt",
            "skills/a/sibling.md"
        ]
    );
    assert!(compilation.has_errors());
    let skill = skill(&compilation);
    assert_eq!(paths(skill), ["alias.md", "references/inside.md"]);
    // A folder reached again through a link is listed once, under the path
    // that reached it first (issue 40, item 9: links fanning out to the
    // same folders made the walk exponential).
    assert!(
        skill
            .skipped
            .iter()
            .any(|s| s.path == "refs/" && s.reason == SkipReason::SameFolder("references/".into())),
        "{:?}",
        skill.skipped
    );
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_left_out_with_a_warning() {
    let tree = Tree::new(&[(A, with("").as_bytes())]);
    let fifo = tree.dir.join("skills/a/pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    // Reading the pipe would block for ever: the compilation returning at
    // all is half of the proof.
    let compilation = tree.compile(&Config::default());
    let diagnostic = support::find(&compilation, Code::FileLeftOut);
    assert_eq!(diagnostic.file, "skills/a/pipe");
    assert!(!compilation.has_errors());
    assert_eq!(
        skill(&compilation).skipped,
        [Skipped {
            path: "pipe".into(),
            reason: SkipReason::NotRegular
        }]
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_name_that_is_not_utf8_is_left_out_with_a_warning() {
    use std::os::unix::ffi::OsStrExt;
    let tree = Tree::new(&[(A, with("").as_bytes())]);
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(tree.dir.join("skills/a").join(name), b"x").unwrap();
    let compilation = tree.compile(&Config::default());
    let diagnostic = support::find(&compilation, Code::FileLeftOut);
    assert!(
        diagnostic.message.contains("not UTF-8"),
        "{}",
        diagnostic.message
    );
    assert!(skill(&compilation).files.is_empty());
}

/// The loader reads each file as it was listed: one that changed length
/// since is an error, never a file whose bytes the bounds did not see.
#[test]
fn a_file_that_changed_since_it_was_listed_is_an_error() {
    let tree = Tree::new(&[(A, with("").as_bytes()), ("skills/a/notes.txt", b"short")]);
    let compilation = tree.compile(&Config::default());
    tree.write("skills/a/notes.txt", &vec![b'x'; 10_000]);
    let error = skills_compiler::emit::lower::read_files(skill(&compilation)).unwrap_err();
    assert_eq!(error.code, Code::Io);
    assert_eq!(error.file, "skills/a/notes.txt");
    assert!(
        error.message.contains("changed while being read"),
        "{}",
        error.message
    );
}

#[test]
fn limits_give_the_figure_and_the_limit() {
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/1.txt", b"12345"),
        ("skills/a/2.txt", b"12345"),
        ("skills/a/3.txt", b"12345"),
    ]);
    let config = Config {
        max_files: 2,
        ..Config::default()
    };
    let compilation = tree.compile(&config);
    let diagnostic = support::find(&compilation, Code::TooManyFiles);
    // The walk stops at the limit (a tree of millions of files costs no
    // more than the limit's worth): the figure is "more than" (issue 40, item 9).
    assert_eq!(
        diagnostic.message,
        "the skill has more than 2 files besides SKILL.md; the limit is 2 (the walk stopped there)"
    );
    let skill_md = with("").len();
    let config = Config {
        max_skill_bytes: (skill_md + 12) as u64,
        ..Config::default()
    };
    let compilation = tree.compile(&config);
    let diagnostic = support::find(&compilation, Code::SkillTooLarge);
    assert_eq!(
        diagnostic.message,
        format!(
            "the skill's files hold more than {0} bytes; the limit is {0} (the walk stopped at {1} bytes)",
            skill_md + 12,
            skill_md + 15,
        )
    );
}

#[test]
fn a_flat_skill_has_no_files() {
    let tree = Tree::new(&[
        ("skills/a.md", with("").as_bytes()),
        ("skills/notes.txt", b"not a's"),
    ]);
    let compilation = tree.compile(&Config::default());
    let skill = skill(&compilation);
    assert!(skill.files.is_empty() && skill.dir.is_none());
}

#[cfg(unix)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Where a generated symlink points: inside the skill, at the skill
    /// directory itself, at another skill, outside the root, nowhere.
    const TARGETS: [&str; 6] = [
        "skills/a/references/r.md",
        "skills/a/references",
        "skills/a",
        "skills/b/b.md",
        "outside.txt",
        "missing",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Whatever links a skill holds, and however they chain, every file
        /// it ends up with is inside its directory on disk, and reading it
        /// ends (links to folders loop at most to the depth bound).
        #[test]
        fn files_never_come_from_outside_the_skill(
            links in proptest::collection::vec((0..TARGETS.len(), "[a-zé]{1,3}"), 1..5),
        ) {
            let tree = Tree::new(&[
                (A, with("").as_bytes()),
                ("skills/a/references/r.md", b"# R\n"),
                ("skills/b/b.md", b"b"),
                ("outside.txt", b"o"),
            ]);
            for (target, name) in &links {
                let _ = std::os::unix::fs::symlink(
                    tree.dir.join(TARGETS[*target]),
                    tree.dir.join("skills/a").join(name),
                );
            }
            let compilation = tree.compile(&Config::default());
            let skill_dir = std::fs::canonicalize(tree.dir.join("skills/a")).unwrap();
            if let Some(skill) = compilation.valid.get("a") {
                for file in &skill.files {
                    let on_disk = std::fs::canonicalize(skill_dir.join(&file.path)).unwrap();
                    prop_assert!(on_disk.starts_with(&skill_dir), "{} is {}", file.path, on_disk.display());
                    prop_assert_ne!(file.path.as_str(), "SKILL.md");
                }
            }
        }
    }
}

#[test]
fn a_nested_skill_is_a_skill_of_the_set_under_its_parent() {
    let skill_md = |name: &str| format!("---\nname: {name}\ndescription: {DESCRIPTION}\n---\n");
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/notes.md", b"a's"),
        ("skills/a/forms/SKILL.md", skill_md("forms").as_bytes()),
        ("skills/a/forms/fill.md", b"forms'"),
        (
            "skills/a/deep/er/filling/SKILL.md",
            skill_md("filling").as_bytes(),
        ),
        (
            "skills/a/deep/er/filling/x/SKILL.md",
            skill_md("x").as_bytes(),
        ),
        ("skills/b/SKILL.md", skill_md("b").as_bytes()),
    ]);
    let compilation = tree.compile(&Config::default());
    assert!(
        !compilation.has_errors(),
        "{:?}",
        support::located(&compilation)
    );
    let names: Vec<&str> = compilation.valid.skills.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["a", "b", "filling", "forms", "x"]);
    let get = |name: &str| compilation.valid.get(name).unwrap();
    let prefix = |name: &str| get(name).table.prefix.as_deref();
    assert_eq!(prefix("a"), None);
    assert_eq!(prefix("b"), None);
    assert_eq!(prefix("forms"), Some("a"));
    assert_eq!(prefix("filling"), Some("a/deep/er"));
    assert_eq!(prefix("x"), Some("a/deep/er/filling"));
    // The parent keeps its own files; the nested skill has its own.
    assert_eq!(paths(skill(&compilation)), ["notes.md"]);
    assert_eq!(paths(get("forms")), ["fill.md"]);
    assert_eq!(get("forms").dir.as_deref(), Some("skills/a/forms"));
    // Its name is held to its own folder's, as any skill's.
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/forms/SKILL.md", skill_md("other").as_bytes()),
    ]);
    let compilation = tree.compile(&Config::default());
    assert!(compilation.has_errors());
    assert!(
        compilation
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.file == "skills/a/forms/SKILL.md"),
        "{:?}",
        support::located(&compilation)
    );
}

#[test]
fn a_nested_skill_shares_its_name_with_no_other_skill_of_the_set() {
    let skill_md = format!("---\nname: forms\ndescription: {DESCRIPTION}\n---\n");
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/forms/SKILL.md", skill_md.as_bytes()),
        ("skills/forms/SKILL.md", skill_md.as_bytes()),
    ]);
    let compilation = tree.compile(&Config::default());
    let duplicate = support::find(&compilation, Code::DuplicateSkill);
    assert!(duplicate.message.contains("forms"), "{}", duplicate.message);
    assert!(compilation.has_errors());
}

#[test]
fn a_nested_skill_reached_through_a_symlink_is_not_read_twice() {
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/notes.md", b"a's"),
        ("skills/a/r/f.md", b"f"),
    ]);
    std::os::unix::fs::symlink(".", tree.dir.join("skills/a/again")).unwrap();
    // From deeper down too: the walk never enters the skill directory
    // again (which is why it looks up its identity only when asked).
    std::os::unix::fs::symlink("..", tree.dir.join("skills/a/r/up")).unwrap();
    let compilation = tree.compile(&Config::default());
    assert!(
        !compilation.has_errors(),
        "{:?}",
        support::located(&compilation)
    );
    assert_eq!(compilation.valid.skills.len(), 1);
    let skipped: Vec<&str> = (skill(&compilation).skipped.iter())
        .map(|s| s.path.as_str())
        .collect();
    assert_eq!(skipped, ["again/", "r/up/"]);
    assert_eq!(paths(skill(&compilation)), ["notes.md", "r/f.md"]);
}

/// A file's text is read past a first look at 8 KiB (which keeps fonts and
/// images from being read whole): a character cut by the look's edge is
/// text, and a hidden character after it is found (W012); a file that is
/// not UTF-8 is not text and says nothing.
#[test]
fn a_files_text_is_looked_at_whole_past_the_first_8_kib() {
    // `é` takes bytes 8191 and 8192: the look ends inside it.
    let long = format!(
        "{}é{}zero\u{200b}width\n",
        "a".repeat(8191),
        "b".repeat(100)
    );
    let mut binary = vec![0xff, 0xfe];
    binary.extend_from_slice("\u{200b}".as_bytes());
    let tree = Tree::new(&[
        (A, with("").as_bytes()),
        ("skills/a/references/long.md", long.as_bytes()),
        ("skills/a/assets/blob.bin", &binary),
    ]);
    let compilation = tree.compile(&Config::default());
    let hidden: Vec<_> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::HiddenText)
        .collect();
    assert_eq!(hidden.len(), 1, "{:?}", support::located(&compilation));
    let span = hidden[0].span.as_ref().expect("a span in the file");
    assert_eq!(&long[span.bytes.clone()], "\u{200b}");
    assert_eq!(hidden[0].file, "skills/a/references/long.md");
}

/// A set is lowered as each of its skills is, in the set's order: 100
/// skills, enough that the CLI's `parallel` build lowers them on every
/// core, give what lowering each one alone gives, file for file.
#[test]
fn a_set_is_lowered_as_each_skill_alone_in_order() {
    let entries: Vec<(String, Vec<u8>)> = (0..100)
        .flat_map(|i| {
            let name = format!("skill-{i:03}");
            let skill_md = format!(
                "---\nname: {name}\ndescription: {DESCRIPTION}\n---\nSee [notes](notes.md).\n"
            );
            [
                (format!("skills/{name}/SKILL.md"), skill_md.into_bytes()),
                (
                    format!("skills/{name}/notes.md"),
                    format!("# {name}\n").into_bytes(),
                ),
                (
                    format!("skills/{name}/assets/{i}.bin"),
                    vec![i as u8; i * 100],
                ),
            ]
        })
        .collect();
    let borrowed: Vec<(&str, &[u8])> = entries
        .iter()
        .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
        .collect();
    let tree = Tree::new(&borrowed);
    let config = Config {
        max_skills: Some(200),
        ..Config::default()
    };
    let compilation = tree.compile(&config);
    assert!(
        !compilation.has_errors(),
        "{:?}",
        support::located(&compilation)
    );
    let lowered = skills_compiler::emit::lower::set(&compilation.valid).unwrap();
    assert_eq!(lowered.len(), 100);
    for (skill, alone) in lowered.iter().zip(&compilation.valid.skills) {
        let files = skills_compiler::emit::lower::read_files(alone).unwrap();
        let alone = skills_compiler::emit::lower::skill(alone, files.into());
        assert_eq!(skill.name(), alone.name());
        let files = |skill: &skills_core::Skill| -> Vec<(String, Vec<u8>)> {
            skill
                .files()
                .iter()
                .map(|file| (file.path().to_owned(), file.bytes().to_vec()))
                .collect()
        };
        assert_eq!(files(skill), files(&alone), "{}", skill.name());
    }
}
