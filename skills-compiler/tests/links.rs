//! Links from a skill's body to its files, checked at build time at their
//! exact line and column, with fix-its, in all three profiles.

mod support;

use skills_compiler::diagnostics::Applicability;
use skills_compiler::{Code, Compilation, Config, Profile, Severity};
use support::{DESCRIPTION, Tree};

const A: &str = "skills/a/SKILL.md";

/// A SKILL.md for `a` whose body starts on line 5.
fn body(text: &str) -> String {
    format!("---\nname: a\ndescription: {DESCRIPTION}\n---\n{text}")
}

fn compile(files: &[(&str, &str)], profile: Profile) -> Compilation {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    Tree::new(&files).compile(&Config {
        profile,
        ..Config::default()
    })
}

/// Every link diagnostic as `(code, severity, line, column)`.
fn found(compilation: &Compilation) -> Vec<(Code, Severity, u32, u32)> {
    compilation
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                Code::BrokenLink
                    | Code::LinkOutsideRoot
                    | Code::LinkIntoOtherSkill
                    | Code::UnknownFragment
                    | Code::MissingCodePath
            )
        })
        .map(|d| {
            let span = d.span.as_ref().expect("located");
            (d.code, d.severity, span.start.line, span.start.column)
        })
        .collect()
}

const PROFILES: [Profile; 3] = [Profile::Portable, Profile::Extended, Profile::Lenient];

#[test]
fn a_missing_target_is_an_error_except_in_lenient() {
    let text = body("# Use\n\nSee [the API](reference/api.md) and ![a chart](assets/chart.png).\n");
    for profile in PROFILES {
        let severity = if profile == Profile::Lenient {
            Severity::Warning
        } else {
            Severity::Error
        };
        let compilation = compile(&[(A, &text)], profile);
        assert_eq!(
            found(&compilation),
            [
                (Code::BrokenLink, severity, 7, 15),
                (Code::BrokenLink, severity, 7, 48)
            ],
            "{profile:?}"
        );
    }
}

/// An error in `portable` and `extended`; a warning in `lenient`, which
/// loads what hosts load (issue 57, item 3: the link is simply broken).
#[test]
fn a_target_outside_the_root_is_an_error_but_in_lenient() {
    let text = body("See [the guide](../../guide.md) and [x](%2e%2e/%2E%2E/x.md).\n");
    for profile in PROFILES {
        let compilation = compile(&[(A, &text)], profile);
        let severity = if profile == Profile::Lenient {
            Severity::Warning
        } else {
            Severity::Error
        };
        assert_eq!(
            found(&compilation),
            [
                (Code::LinkOutsideRoot, severity, 5, 17),
                (Code::LinkOutsideRoot, severity, 5, 41)
            ],
            "{profile:?}"
        );
    }
}

#[test]
fn the_only_file_of_that_name_is_offered_as_a_machine_applicable_fix() {
    let text = body("Read [the overview](architecture-overview.md#install).\n");
    let compilation = compile(
        &[
            (A, &text),
            (
                "skills/a/resources/architecture-overview.md",
                "# Overview\n\n## Install\n",
            ),
        ],
        Profile::Extended,
    );
    let diagnostic = support::find(&compilation, Code::BrokenLink);
    let fix = diagnostic.fix.as_ref().expect("a fix-it");
    assert_eq!(fix.applicability, Applicability::MachineApplicable);
    assert_eq!(
        fix.replacement(),
        Some("resources/architecture-overview.md#install")
    );
    let (span, _) = fix.replace().unwrap();
    assert_eq!((span.start.line, span.start.column), (5, 21));
    // Two files of that name: no guess.
    let compilation = compile(
        &[
            (A, &text),
            ("skills/a/resources/architecture-overview.md", "# A\n"),
            ("skills/a/old/architecture-overview.md", "# B\n"),
        ],
        Profile::Extended,
    );
    assert!(support::find(&compilation, Code::BrokenLink).fix.is_none());
}

#[test]
fn a_target_in_another_skill_is_a_warning() {
    let b = "---\nname: b\ndescription: Does b. Use when testing.\n---\n";
    let text = body("Shared: [notes](../b/notes.md), and [gone](../b/gone.md).\n");
    for profile in PROFILES {
        let compilation = compile(
            &[
                (A, &text),
                ("skills/b/SKILL.md", b),
                ("skills/b/notes.md", "# Notes\n"),
            ],
            profile,
        );
        let missing = if profile == Profile::Lenient {
            Severity::Warning
        } else {
            Severity::Error
        };
        assert_eq!(
            found(&compilation),
            [
                (Code::LinkIntoOtherSkill, Severity::Warning, 5, 17),
                (Code::BrokenLink, missing, 5, 44)
            ],
            "{profile:?}"
        );
    }
}

#[test]
fn fragments_are_checked_against_the_target_and_the_body() {
    let text = body(
        "# Set up: the `CLI`!\n\n\
         [ok](#set-up-the-cli) [ok](forms.md#fill-a-form) [ok](SKILL.md#set-up-the-cli)\n\
         [bad](#setup) [bad](forms.md#fill)\n\
         [anchor](forms.md#custom) [not markdown](data.csv#row)\n",
    );
    let forms = "# Forms\n\n## Fill a form\n\n<a id=\"custom\"></a>\n";
    for profile in PROFILES {
        let compilation = compile(
            &[
                (A, &text),
                ("skills/a/forms.md", forms),
                ("skills/a/data.csv", "a,b\n"),
            ],
            profile,
        );
        assert_eq!(
            found(&compilation),
            [
                (Code::UnknownFragment, Severity::Warning, 8, 7),
                (Code::UnknownFragment, Severity::Warning, 8, 21)
            ],
            "{profile:?}"
        );
    }
}

#[test]
fn a_backticked_layout_path_that_does_not_exist_is_a_warning() {
    let text = body(
        "Run `scripts/fill.py in.pdf`, then `./scripts/gone.py`.\n\
         Not checked: `python scripts/x.py`, `scripts/*.py`, `src/main.rs`.\n\
         Folders: `references/` and `assets/none/`.\n",
    );
    for profile in PROFILES {
        let compilation = compile(
            &[
                (A, &text),
                ("skills/a/scripts/fill.py", "print(1)\n"),
                ("skills/a/references/r.md", "# R\n"),
            ],
            profile,
        );
        assert_eq!(
            found(&compilation),
            [
                (Code::MissingCodePath, Severity::Warning, 5, 39),
                (Code::MissingCodePath, Severity::Warning, 7, 29)
            ],
            "{profile:?}"
        );
    }
}

#[test]
fn percent_encoding_dot_segments_folders_and_references_are_understood() {
    let text = body(
        "[a](./references/a%20b.md) [b](references/../references/b.md) [folder](references/)\n\
         [c][def] [missing folder](nope/)\n\
         \n\
         ```\n[in a fence](gone.md)\n```\n\
         `[in code](gone.md)`\n\
         \n\
         [def]: references/c.md\n\
         [unused]: references/unused.md\n",
    );
    let compilation = compile(
        &[
            (A, &text),
            ("skills/a/references/a b.md", "a"),
            ("skills/a/references/b.md", "b"),
            ("skills/a/references/c.md", "c"),
        ],
        Profile::Extended,
    );
    // `[unused]` names a missing file, and no link uses it: a definition
    // alone is not a link (issue 40, item 8b).
    assert_eq!(
        found(&compilation),
        [(Code::BrokenLink, Severity::Error, 6, 27)]
    );
}

/// Issue 40, item 8b: `1. [Step 1]: [Description]`, a template's list item,
/// reads as a reference definition; it is not a broken link. A definition
/// that a link uses still is.
#[test]
fn a_list_item_that_reads_as_a_definition_is_no_broken_link() {
    let text = body(
        "Fill in:\n\n1. [Step 1]: [Description]\n2. [Step 2]: [Description]\n\nSee [the guide][guide].\n\n[guide]: references/guide.md\n",
    );
    let compilation = compile(&[(A, &text)], Profile::Extended);
    assert_eq!(
        found(&compilation),
        [(Code::BrokenLink, Severity::Error, 12, 10)]
    );
}

/// A folder is known from the file walk, also when no file of the skill
/// is in it: empty, hidden files only, or excluded (asked of the disk).
#[test]
fn links_to_folders_without_files_of_the_skill_are_fine() {
    let text = body(
        "[empty](empty/) [hidden only](hidden-only) [deeper](a/b/c/)\n\
         [excluded](node_modules/) [inside excluded](node_modules/lib/)\n\
         [gone](gone/) [gone inside excluded](node_modules/gone/)\n",
    );
    let tree = Tree::new(&[
        (A, text.as_bytes()),
        ("skills/a/hidden-only/.keep", b""),
        ("skills/a/a/b/c/.keep", b""),
        ("skills/a/node_modules/lib/index.js", b"x"),
    ]);
    std::fs::create_dir_all(tree.dir.join("skills/a/empty")).unwrap();
    let compilation = tree.compile(&Config {
        profile: Profile::Extended,
        ..Config::default()
    });
    assert_eq!(
        found(&compilation),
        [
            (Code::BrokenLink, Severity::Error, 7, 8),
            (Code::BrokenLink, Severity::Error, 7, 38)
        ]
    );
}

#[test]
fn a_link_to_an_excluded_file_says_why_it_is_absent() {
    let text = body("See [the lib](node_modules/lib/index.js) and [env](.env).\n");
    let compilation = compile(
        &[
            (A, &text),
            ("skills/a/node_modules/lib/index.js", "x"),
            ("skills/a/.env", "x"),
        ],
        Profile::Extended,
    );
    let messages: Vec<&str> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::BrokenLink)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "the link target `node_modules/lib/index.js` does not exist: it is not part of the skill: excluded by `node_modules`",
            "the link target `.env` does not exist: it is not part of the skill: hidden (its name starts with `.`)"
        ]
    );
}

#[test]
fn unlinked_references_are_flagged_in_portable_or_when_asked() {
    let text = body("Read [a](references/a.md); `references/b.md` too; c.md is named.\n");
    let files = [
        (A, text.as_str()),
        ("skills/a/references/a.md", "# A\n\nSee d.md.\n"),
        ("skills/a/references/b.md", "# B\n"),
        ("skills/a/references/c.md", "# C\n"),
        ("skills/a/references/d.md", "# D\n"),
        ("skills/a/references/old.md", "# Old\n"),
        // Naming itself is not being named; a markdown file outside
        // `references/` that names a reference is.
        (
            "skills/a/references/self.md",
            "# Self\n\nThis is self.md.\n",
        ),
        ("skills/a/references/e.md", "# E\n"),
        ("skills/a/notes/guide.md", "Read e.md.\n"),
    ];
    let unlinked = |compilation: &Compilation| -> Vec<String> {
        compilation
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::UnlinkedReference)
            .map(|d| d.file.clone())
            .collect()
    };
    assert_eq!(
        unlinked(&compile(&files, Profile::Portable)),
        ["skills/a/references/old.md", "skills/a/references/self.md"]
    );
    assert!(unlinked(&compile(&files, Profile::Extended)).is_empty());
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    let asked = Tree::new(&files).compile(&Config {
        unlinked_references: Some(true),
        ..Config::default()
    });
    assert_eq!(
        unlinked(&asked),
        ["skills/a/references/old.md", "skills/a/references/self.md"]
    );
}

#[test]
fn check_links_false_turns_the_link_checks_off() {
    let text = body("See [gone](gone.md) and `scripts/gone.py`.\n");
    let files: Vec<(&str, &[u8])> = vec![(A, text.as_bytes())];
    let tree = Tree::new(&files);
    assert_eq!(found(&tree.compile(&Config::default())).len(), 2);
    let off = Config {
        check_links: false,
        ..Config::default()
    };
    let compilation = tree.compile(&off);
    assert!(found(&compilation).is_empty());
    assert!(compilation.skills().is_some());
}

/// Issue 40, item 6: a near-miss path (`schema.md` for `schemas.md`,
/// `scripts/with_server.py` for `with_servers.py`) gets a did-you-mean, a
/// suggestion a tool never applies.
#[test]
fn a_near_miss_path_gets_a_did_you_mean() {
    let text = body("See [the schema](references/schema.md).\n\nRun `scripts/with_server.py`.\n");
    let compilation = compile(
        &[
            (A, &text),
            ("skills/a/references/schemas.md", "# Schemas\n"),
            ("skills/a/scripts/with_servers.py", "print(1)\n"),
        ],
        Profile::Extended,
    );
    let helps: Vec<(Code, &str, Applicability)> = compilation
        .diagnostics
        .iter()
        .filter(|d| matches!(d.code, Code::BrokenLink | Code::MissingCodePath))
        .map(|d| {
            (
                d.code,
                d.help.as_deref().unwrap_or_default(),
                d.fix.as_ref().map(|f| f.applicability).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        helps,
        [
            (
                Code::BrokenLink,
                "did you mean `references/schemas.md`?",
                Applicability::MaybeIncorrect
            ),
            (
                Code::MissingCodePath,
                "did you mean `scripts/with_servers.py`? (ignore this if it names a path of the user's project)",
                Applicability::MaybeIncorrect
            ),
        ]
    );
}
