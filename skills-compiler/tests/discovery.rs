//! Discovery on real directory trees: what is a skill, what is not, and in what order.

mod support;

use std::path::Path;

use skills_compiler::{Code, Compilation, Config, Severity, SkillPath};
use support::{Tree, discovered_then_checked, find, lenient, located, portable, with};

fn named(name: &str) -> String {
    format!("---\nname: {name}\ndescription: d\n---\n")
}

#[test]
fn hidden_entries_readmes_and_licences_are_not_skills() {
    let tree = Tree::new(&[
        ("skills/.git/HEAD", b"ref"),
        ("skills/.DS_Store", b"\0\0"),
        ("skills/README.md", b"# Skills"),
        ("skills/LICENSE", b"MIT"),
        ("skills/LICENSE-APACHE.md", b"Apache"),
        ("skills/notes.txt", b"not markdown"),
        ("skills/a/SKILL.md", with("").as_bytes()),
    ]);
    let compilation = tree.compile(&Config::default());
    assert!(
        compilation.diagnostics.is_empty(),
        "{:?}",
        located(&compilation)
    );
    assert_eq!(compilation.skills().unwrap().skills.len(), 1);
}

#[test]
fn skills_are_sorted_by_name_whatever_the_layout() {
    let tree = Tree::new(&[
        ("skills/zeta/SKILL.md", named("zeta").as_bytes()),
        ("skills/alpha.md", named("alpha").as_bytes()),
        ("skills/mid/SKILL.md", named("mid").as_bytes()),
    ]);
    let skills = tree.compile(&Config::default()).into_skills().unwrap();
    let names: Vec<&str> = skills.skills.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["alpha", "mid", "zeta"]);
    assert_eq!(skills.skills[0].path(), "skills/alpha.md");
    assert_eq!(skills.skills[1].path(), "skills/mid/SKILL.md");
}

#[test]
fn a_directory_without_skill_md_is_a_warning_never_a_silent_drop() {
    let tree = Tree::new(&[
        ("skills/notes/README.md", b"x"),
        ("skills/a/SKILL.md", with("").as_bytes()),
    ]);
    let compilation = tree.compile(&Config::default());
    let warning = find(&compilation, Code::DirectoryWithoutSkill);
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(warning.file, "skills/notes");
    assert!(
        compilation.skills().is_some(),
        "a warning does not fail the build"
    );

    let strict = Config {
        deny_warnings: true,
        ..Config::default()
    };
    let compilation = tree.compile(&strict);
    assert_eq!(
        find(&compilation, Code::DirectoryWithoutSkill).severity,
        Severity::Error
    );
    assert!(compilation.skills().is_none());
}

#[test]
fn a_lower_case_skill_md_is_an_error_that_says_how_to_rename() {
    let tree = Tree::new(&[("skills/a/Skill.md", with("").as_bytes())]);
    let compilation = tree.compile(&Config::default());
    let error = find(&compilation, Code::FileNameCase);
    assert_eq!(error.file, "skills/a/Skill.md");
    assert!(error.help.as_deref().unwrap().contains("SKILL.md"));
    // The fix-it is a rename, which `cargo skills fix` carries out.
    let fix = error.fix.as_ref().unwrap();
    assert_eq!(fix.renamed_to(), Some("skills/a/SKILL.md"));
    assert_eq!(fix.replace(), None);
    assert_eq!(
        fix.applicability,
        skills_compiler::diagnostics::Applicability::MachineApplicable
    );
    let json: serde_json::Value = serde_json::from_str(
        &skills_compiler::diagnostics::render::json(error, &compilation.sources),
    )
    .unwrap();
    assert_eq!(json["fix"]["rename_to"], "skills/a/SKILL.md");
}

#[cfg(unix)]
#[test]
fn a_symlink_leading_outside_the_root_is_refused() {
    let tree = Tree::new(&[
        ("outside/a/SKILL.md", with("").as_bytes()),
        ("skills/b/SKILL.md", named("b").as_bytes()),
    ]);
    std::os::unix::fs::symlink(tree.dir.join("outside/a"), tree.dir.join("skills/a")).unwrap();
    std::os::unix::fs::symlink(
        tree.dir.join("outside/a/SKILL.md"),
        tree.dir.join("skills/b/tools.yaml"),
    )
    .unwrap();
    let compilation = tree.compile(&Config::default());
    let files: Vec<(&str, Code)> = compilation
        .diagnostics
        .iter()
        .map(|d| (d.file.as_str(), d.code))
        .collect();
    assert_eq!(
        files,
        [
            ("skills/a", Code::SymlinkEscape),
            ("skills/b/tools.yaml", Code::SymlinkEscape)
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_inside_the_root_is_followed() {
    let tree = Tree::new(&[("skills/_shared/a/SKILL.md", with("").as_bytes())]);
    std::fs::create_dir_all(tree.dir.join("skills/_shared")).unwrap();
    std::os::unix::fs::symlink(tree.dir.join("skills/_shared/a"), tree.dir.join("skills/a"))
        .unwrap();
    let compilation = tree.compile(&Config::default());
    // `_shared` itself holds no SKILL.md: a warning; the link `a` is a skill.
    assert_eq!(
        located(&compilation),
        vec![(Code::DirectoryWithoutSkill, None, None)]
    );
    assert_eq!(
        compilation.skills().unwrap().skills[0].path(),
        "skills/a/SKILL.md"
    );
}

#[test]
fn two_skills_with_one_name_are_named_both() {
    let tree = Tree::new(&[
        ("skills/a.md", with("").as_bytes()),
        ("skills/a/SKILL.md", with("").as_bytes()),
    ]);
    let compilation = tree.compile(&Config::default());
    let error = find(&compilation, Code::DuplicateSkill);
    assert!(
        error.message.contains("skills/a.md") && error.message.contains("skills/a/SKILL.md"),
        "{}",
        error.message
    );
}

#[test]
fn a_duplicate_is_reported_even_when_one_of_the_two_is_invalid() {
    let tree = Tree::new(&[
        ("skills/a.md", with("").as_bytes()),
        ("skills/a/SKILL.md", b"---\nname: a\n---\nNo description.\n"),
    ]);
    let compilation = tree.compile(&Config::default());
    let error = find(&compilation, Code::DuplicateSkill);
    assert!(
        error.message.contains("skills/a.md") && error.message.contains("skills/a/SKILL.md"),
        "{}",
        error.message
    );
    find(&compilation, Code::MissingField);
}

#[test]
fn more_skills_than_max_skills_is_rejected_and_every_skill_still_checked() {
    let files: Vec<(String, String)> = (0..5)
        .map(|i| (format!("skills/s{i}/SKILL.md"), named(&format!("s{i}"))))
        .collect();
    let mut files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_bytes()))
        .collect();
    files.push(("skills/bad/SKILL.md", b"---\nname: bad\n---\n"));
    let tree = Tree::new(&files);
    let config = Config {
        max_skills: Some(4),
        ..Config::default()
    };
    let compilation = tree.compile(&config);
    assert!(compilation.skills().is_none());
    let error = find(&compilation, Code::TooManySkills);
    assert!(
        error.message.contains("6 skills found; the limit is 4"),
        "{}",
        error.message
    );
    find(&compilation, Code::MissingField);
}

#[test]
fn the_flat_layout_is_refused_in_portable_only() {
    let tree = Tree::new(&[("skills/a.md", with("").as_bytes())]);
    assert!(tree.compile(&Config::default()).skills().is_some());
    assert!(tree.compile(&lenient()).skills().is_some());
    assert_eq!(
        find(&tree.compile(&portable()), Code::FlatLayout).file,
        "skills/a.md"
    );
}

#[test]
fn a_missing_root_is_reported_with_its_relative_path() {
    let tree = Tree::new(&[]);
    let config = Config {
        dir: "./agent/skills".into(),
        ..Config::default()
    };
    let compilation = tree.compile(&config);
    assert_eq!(find(&compilation, Code::RootMissing).file, "agent/skills");
}

#[test]
fn a_sidecar_tools_yaml_holds_tools_and_permissions() {
    let tools = "tools:\n  - name: ping\n    description: Ping.\n    endpoint: {method: POST, url: \"https://h.com/ping\"}\npermissions:\n  allow_write: [ping]\n";
    let tree = Tree::new(&[
        ("skills/a/SKILL.md", with("").as_bytes()),
        ("skills/a/tools.yaml", tools.as_bytes()),
    ]);
    // The sidecar keeps SKILL.md portable, so it is read in every profile.
    for config in [Config::default(), portable(), lenient()] {
        let compilation = tree.compile(&config);
        assert!(
            compilation.diagnostics.is_empty(),
            "{:?}",
            located(&compilation)
        );
        let skills = compilation.skills().unwrap();
        let skill = &skills.skills[0];
        assert_eq!(skill.tools_path.as_deref(), Some("skills/a/tools.yaml"));
        assert_eq!(skill.tools[0].policy(), skills_compiler::ir::Policy::Allow);
    }
    let broken = Tree::new(&[
        ("skills/a/SKILL.md", with("").as_bytes()),
        (
            "skills/a/tools.yaml",
            b"tools:\n  - name: p.q\n    description: d\nextra: 1\n",
        ),
    ]);
    let compilation = broken.compile(&Config::default());
    let found: Vec<(&str, Code, Option<u32>)> = compilation
        .diagnostics
        .iter()
        .map(|d| (d.file.as_str(), d.code, d.line()))
        .collect();
    assert_eq!(
        found,
        [
            ("skills/a/tools.yaml", Code::ToolName, Some(2)),
            ("skills/a/tools.yaml", Code::UnknownKey, Some(4))
        ]
    );
}

/// One skill checked by its path, as `cargo skills check PATH...` does:
/// every kind of path gets the same answer as inside a root, and the
/// look-up made once ahead (`SkillPath`, which the CLI makes on every core)
/// says which paths are skills.
#[cfg(unix)]
#[test]
fn a_path_checked_as_one_skill_is_looked_up_once_and_read_as_in_a_root() {
    use skills_compiler::SkillPath;
    use std::os::unix::fs::symlink;
    use std::path::Path;

    let named = |name: &str| {
        format!(
            "---\nname: {name}\ndescription: {}\n---\n",
            support::DESCRIPTION
        )
    };
    let tree = Tree::new(&[
        ("skills/plain/SKILL.md", named("plain").as_bytes()),
        ("skills/_shared/x/SKILL.md", named("linked").as_bytes()),
        ("outside/y/SKILL.md", named("escape").as_bytes()),
        ("outside/z/SKILL.md", named("file-link").as_bytes()),
        ("skills/empty/notes.txt", b"no skill here"),
        ("skills/lower/skill.md", named("lower").as_bytes()),
        ("skills/flat.md", named("flat").as_bytes()),
        ("skills/tooled/SKILL.md", named("tooled").as_bytes()),
        ("skills/tooled/tools.yaml", b"tools: [\n"),
    ]);
    let dir = |path: &str| tree.dir.join(path);
    symlink(dir("skills/_shared/x"), dir("skills/linked")).unwrap();
    symlink(dir("outside/y"), dir("skills/escape")).unwrap();
    std::fs::create_dir_all(dir("skills/file-link")).unwrap();
    symlink(dir("outside/z/SKILL.md"), dir("skills/file-link/SKILL.md")).unwrap();
    symlink(dir("nowhere"), dir("skills/dangling")).unwrap();

    // (path, is a skill, what checking it says)
    type Expected = Vec<(Code, Severity)>;
    let cases: [(&str, bool, Expected); 10] = [
        ("skills/plain", true, vec![]),
        ("skills/linked", true, vec![]),
        (
            "skills/escape",
            true,
            vec![(Code::SymlinkEscape, Severity::Error)],
        ),
        (
            "skills/file-link",
            true,
            vec![(Code::SymlinkEscape, Severity::Error)],
        ),
        (
            "skills/empty",
            false,
            vec![(Code::DirectoryWithoutSkill, Severity::Error)],
        ),
        // A folder whose skill file is misnamed is a skill (issue 41,
        // item 4): S502 through every command, never a flat `skill.md`.
        (
            "skills/lower",
            true,
            vec![(Code::FileNameCase, Severity::Error)],
        ),
        ("skills/flat.md", true, vec![]),
        (
            "skills/tooled",
            true,
            vec![(Code::YamlSyntax, Severity::Error)],
        ),
        (
            "skills/missing",
            false,
            vec![(Code::RootMissing, Severity::Error)],
        ),
        (
            "skills/dangling",
            false,
            vec![(Code::SymlinkEscape, Severity::Error)],
        ),
    ];
    for (path, is_skill, expected) in cases {
        let looked_up = SkillPath::look_up(&tree.dir, Path::new(path));
        assert_eq!(looked_up.is_skill(), is_skill, "{path}");
        let compilation =
            skills_compiler::compile_looked_up(&tree.dir, &looked_up, &Config::default());
        let found: Vec<(Code, Severity)> = compilation
            .diagnostics
            .iter()
            .map(|d| (d.code, d.severity))
            .collect();
        assert_eq!(found, expected, "{path}: {:?}", compilation.diagnostics);
        // The same as checking the path without a look-up ahead.
        let again = skills_compiler::compile_skill(&tree.dir, Path::new(path), &Config::default());
        assert_eq!(located(&again), located(&compilation), "{path}");
        if expected.is_empty() {
            let name = compilation.skills().unwrap().skills[0].name().to_owned();
            assert_eq!(
                name,
                path.trim_start_matches("skills/").trim_end_matches(".md")
            );
        }
    }
    // Each link is named in the message as the path given, never resolved.
    let escape = skills_compiler::compile_skill(
        &tree.dir,
        Path::new("skills/file-link"),
        &Config::default(),
    );
    assert_eq!(escape.diagnostics[0].file, "skills/file-link/SKILL.md");
    let missing =
        skills_compiler::compile_skill(&tree.dir, Path::new("skills/missing"), &Config::default());
    assert_eq!(
        missing.diagnostics[0].message,
        "`skills/missing` does not exist"
    );
}

/// A named pipe where a skill file should be (tar archives carry them) is
/// refused at once: opening one to read blocks until a writer comes, which
/// would hang `check`, the macro and the loader forever.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_not_waited_on() {
    let tree = Tree::new(&[
        ("skills/b/SKILL.md", named("b").as_bytes()),
        ("skills/ok/SKILL.md", named("ok").as_bytes()),
    ]);
    std::fs::create_dir_all(tree.dir.join("skills/a")).unwrap();
    for fifo in ["skills/a/SKILL.md", "skills/b/tools.yaml", "skills/flat.md"] {
        let status = std::process::Command::new("mkfifo")
            .arg(tree.dir.join(fifo))
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
    }
    let (send, receive) = std::sync::mpsc::channel();
    let dir = tree.dir.clone();
    std::thread::spawn(move || {
        let _ = send.send(skills_compiler::compile(&dir, &Config::default()));
    });
    let compilation = receive
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("compiling a root with named pipes returns instead of hanging");
    let refused: Vec<(&str, &str)> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.file.as_str(), d.code.as_str()))
        .collect();
    assert_eq!(
        refused,
        [
            ("skills/a/SKILL.md", "S508"),
            ("skills/b/tools.yaml", "S508"),
            ("skills/flat.md", "S508"),
        ],
        "{:?}",
        compilation.diagnostics
    );
    let message = &compilation.diagnostics[0].message;
    assert!(message.contains("not a regular file"), "{message}");
    // The other skills are still compiled.
    assert_eq!(compilation.valid.skills.len(), 1);
}

/// Skills named together share their folder's `.gitignore` rules
/// (`Run`, read once for the run), and each is read exactly as it is
/// alone: the same files, the same skips, the same diagnostics; a folder
/// with other rules keeps its own.
#[test]
fn skills_checked_together_read_their_gitignore_once_and_as_each_alone() {
    let skill = |name: &str| {
        format!(
            "---\nname: {name}\ndescription: Does {name}. Use when asked to {name}.\n---\nRead notes.md.\n"
        )
    };
    let (a, b, c) = (skill("a"), skill("b"), skill("c"));
    let tree = Tree::new(&[
        (".gitignore", b"*.secret\n"),
        ("skills/.gitignore", b"drafts/\n"),
        ("skills/a/SKILL.md", a.as_bytes()),
        ("skills/a/key.secret", b"x"),
        ("skills/a/drafts/d.md", b"# D\n"),
        ("skills/a/notes.md", b"# N\n"),
        ("skills/b/SKILL.md", b.as_bytes()),
        ("skills/b/b.secret", b"x"),
        ("skills/b/notes.md", b"# N\n"),
        ("other/c/SKILL.md", c.as_bytes()),
        ("other/c/c.secret", b"x"),
        ("other/c/drafts/d.md", b"# D\n"),
        ("other/c/notes.md", b"# N\n"),
    ]);
    std::fs::create_dir_all(tree.dir.join(".git")).unwrap();
    let read = |compilation: &Compilation| {
        let skill = &compilation.skills().expect("valid").skills[0];
        let files: Vec<String> = skill.files.iter().map(|f| f.path.clone()).collect();
        (files, format!("{:?}", skill.skipped), located(compilation))
    };
    let shared = skills_compiler::Run::default();
    let config = Config::default();
    let mut together = Vec::new();
    for path in ["skills/a", "skills/b", "other/c"] {
        let looked_up = SkillPath::look_up(&tree.dir, Path::new(path));
        let shared_read = read(&skills_compiler::compile_looked_up_in(
            &shared, &tree.dir, &looked_up, &config,
        ));
        let alone = read(&skills_compiler::compile_looked_up(
            &tree.dir, &looked_up, &config,
        ));
        assert_eq!(shared_read, alone, "{path}");
        together.push(shared_read.0);
    }
    assert_eq!(
        together,
        [
            vec!["notes.md"],
            vec!["notes.md"],
            vec!["drafts/d.md", "notes.md"]
        ]
    );
}

/// `compile` reads and checks each entry of a root in turn (issue 44,
/// item 1): nested skills, a broken skill, a folder without a SKILL.md, a
/// flat file and a name in two entries give what discovering the whole root
/// first and checking it then gives.
#[test]
fn a_root_checked_entry_by_entry_gives_what_discovering_it_whole_first_gives() {
    let tree = Tree::new(&[
        ("skills/outer/SKILL.md", named("outer").as_bytes()),
        ("skills/outer/inner/SKILL.md", named("inner").as_bytes()),
        (
            "skills/outer/inner/deeper/SKILL.md",
            named("deeper").as_bytes(),
        ),
        ("skills/outer/inner/notes.md", b"[gone](missing.md)\n"),
        ("skills/broken/SKILL.md", b"---\nname: other\n---\n"),
        ("skills/empty/notes.md", b"no skill here\n"),
        ("skills/flat.md", named("flat").as_bytes()),
        // A skill named as a nested one: a duplicate across entries.
        ("skills/inner/SKILL.md", named("inner").as_bytes()),
    ]);
    for config in [Config::default(), portable(), lenient()] {
        let config = Config {
            dir: "skills".into(),
            ..config
        };
        let as_read = tree.compile(&config);
        let whole_first = discovered_then_checked(&tree.dir, &config);

        assert_eq!(as_read.diagnostics, whole_first.diagnostics);
        assert_eq!(as_read.checked, whole_first.checked);
        let paths = |c: &Compilation| -> Vec<String> {
            c.valid.skills.iter().map(|s| s.path().to_owned()).collect()
        };
        assert_eq!(paths(&as_read), paths(&whole_first));
        // What the tree holds was found: three nested levels, and each problem.
        assert!(
            as_read
                .checked
                .contains(&"skills/outer/inner/deeper".to_owned()),
            "{:?}",
            as_read.checked
        );
        let codes: Vec<Code> = as_read.diagnostics.iter().map(|d| d.code).collect();
        for code in [Code::DuplicateSkill, Code::DirectoryWithoutSkill] {
            assert!(codes.contains(&code), "{code:?} not in {codes:?}");
        }
    }
}
