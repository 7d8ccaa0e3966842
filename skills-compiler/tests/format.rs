//! `format`: the canonical style on crafted files, idempotence, the same
//! skill before and after, comments never dropped, and a property test of
//! `fix` then `fmt` over mutated skills.

use proptest::prelude::*;
use skills_compiler::SkillFiles;
use skills_compiler::ops::fix;
use skills_compiler::ops::fmt::{self as format, Outcome};
use skills_compiler::{Config, Profile};

fn files(text: &str) -> SkillFiles {
    SkillFiles {
        dir: None,
        path: "skills/a/SKILL.md".into(),
        directory: "a".into(),
        bytes: text.as_bytes().to_vec(),
        tools_yaml: None,
    }
}

fn formatted(text: &str) -> String {
    match format::skill(&files(text), &Config::default()) {
        Outcome::Changed(text) => text,
        Outcome::Unchanged => text.to_owned(),
        Outcome::Skipped(reason) | Outcome::Unchecked(reason) => panic!("skipped: {reason}"),
    }
}

#[test]
fn keys_in_the_specs_order_lists_in_block_style_strings_quoted_only_when_needed() {
    let before = "---\nx-team: infra\nallowed-tools: Bash Read\ntags: [deploy, 'ops']\ndescription: 'Deploys the app. Use when asked.'\nversion: 2\nname: a\nlicense: \"MIT\"\nmetadata: {owner: \"team: infra\", tier: '1'}\n---\n\n\nBody: untouched.\n";
    let after = formatted(before);
    assert_eq!(
        after,
        "---\nname: a\ndescription: Deploys the app. Use when asked.\nlicense: MIT\nmetadata:\n  owner: \"team: infra\"\n  tier: \"1\"\nallowed-tools: Bash Read\nversion: 2\ntags:\n  - deploy\n  - ops\nx-team: infra\n---\n\n\nBody: untouched.\n"
    );
    assert_eq!(formatted(&after), after, "idempotent");
}

/// `name` and `description` stay on one line however long (loaders that
/// read frontmatter line by line, as Microsoft Agent Framework's `key:
/// value` pattern does, would read `>-`); a block scalar the author wrote
/// stays; other long strings fold at 80 columns (issue 23, item 6).
#[test]
fn name_and_description_stay_on_one_line_and_other_long_strings_fold() {
    let description = "Deploys the application to staging or production, checks the health endpoints, and rolls back on failure. Use when the user asks to ship a release.";
    let before =
        format!("---\nname: a\ndescription: {description}\nx-note: {description}\n---\nBody\n");
    let after = formatted(&before);
    assert_eq!(
        after,
        format!(
            "---\nname: a\ndescription: {description}\nx-note: >-\n  Deploys the application to staging or production, checks the health endpoints,\n  and rolls back on failure. Use when the user asks to ship a release.\n---\nBody\n"
        )
    );
    assert_eq!(formatted(&after), after);
    // The author's own folded description stays folded.
    let folded = "---\nname: a\ndescription: >-\n  Deploys the application to staging or production, checks the health endpoints,\n  and rolls back on failure. Use when the user asks to ship a release.\n---\nBody\n";
    assert_eq!(formatted(folded), folded);
}

#[test]
fn line_breaks_in_a_value_become_a_literal_block_or_escapes() {
    let before = "---\nname: a\ndescription: \"Deploys.\\nUse when asked.\\n\"\nx-odd: \"  leading\\nspaces\"\n---\nBody\n";
    let after = formatted(before);
    assert_eq!(
        after,
        "---\nname: a\ndescription: |\n  Deploys.\n  Use when asked.\nx-odd: \"  leading\\nspaces\"\n---\nBody\n"
    );
}

#[test]
fn crlf_and_a_bom_are_kept() {
    let before =
        "\u{feff}---\r\ndescription: Does a. Use when asked.\r\nname: a\r\n---\r\nBody\r\n";
    assert_eq!(
        formatted(before),
        "\u{feff}---\r\nname: a\r\ndescription: Does a. Use when asked.\r\n---\r\nBody\r\n"
    );
}

#[test]
fn a_frontmatter_with_a_comment_is_left_as_it_is() {
    let before =
        "---\n# owned by infra\nname: a\ndescription: 'Does a. Use when asked.'\n---\nBody\n";
    match format::skill(&files(before), &Config::default()) {
        Outcome::Skipped(reason) => assert!(reason.contains("comment (line 2)"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// YAML starts a comment at a `#` after any white space or line break: a
/// tab, or a lone CR (a line break to YAML, not to `str::lines`), hide
/// none from the guard, in `fmt` or in `fix --to` (issue 23, item 4).
#[test]
fn a_comment_after_a_tab_or_a_lone_cr_is_seen_and_kept() {
    for before in [
        "---\nname: a\ndescription: Does a thing. Use when asked.\t# reviewed by legal\n---\nBody\n",
        "---\nname: a\ndescription: Does a thing. Use when asked.\r# reviewed by legal\n---\nBody\n",
        "---\nname: a\r# reviewed by legal\rdescription: Does a thing. Use when asked.\n---\nBody\n",
        "---\nname: a\ndescription: Does a thing. Use when asked.\n\t# reviewed by legal\n---\nBody\n",
    ] {
        match format::skill(&files(before), &Config::default()) {
            Outcome::Skipped(reason) => assert!(reason.contains("comment"), "{reason}"),
            other => panic!("{before:?}: {other:?}"),
        }
        let config = Config {
            profile: Profile::Portable,
            ..Config::default()
        };
        if let Ok(migration) = fix::to_profile(files(before), &config) {
            for change in &migration.changes {
                assert!(
                    change.after.contains("# reviewed by legal"),
                    "{before:?} lost its comment: {:?}",
                    change.after
                );
            }
        }
    }
    // A `#` inside a word is no comment.
    let plain = "---\nname: a\ndescription: Does C#. Use when asked.\n---\nBody\n";
    assert!(matches!(
        format::skill(&files(plain), &Config::default()),
        Outcome::Unchanged | Outcome::Changed(_)
    ));
}

#[test]
fn canonical_files_are_unchanged_and_invalid_ones_skipped() {
    let canonical = "---\nname: a\ndescription: Does a. Use when asked.\n---\n\nBody\n";
    assert_eq!(
        format::skill(&files(canonical), &Config::default()),
        Outcome::Unchanged
    );
    let invalid = "---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n";
    assert!(matches!(
        format::skill(&files(invalid), &Config::default()),
        Outcome::Unchecked(reason) if reason.contains("cargo skills fix")
    ));
}

/// The body as the compiler reads it: from the first line that is not blank
/// (blank lines after the fence belong to the head, which `fmt` normalises).
fn compiled_body(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            return &text[at..];
        }
        at += line.len();
    }
    ""
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("description: Does a. Use when: asked".to_owned()),
        Just("description: 'Does a, and more. Use when asked.'".to_owned()),
        Just("allowed-tools: Bash, Read".to_owned()),
        Just("license: 2024".to_owned()),
        Just("tags: [a, 'b c', \"d: e\"]".to_owned()),
        Just("metadata: {k: v, n: '1'}".to_owned()),
        Just("x-note: \"a\\nb\"".to_owned()),
        "# [a-z: ]{0,12}".prop_map(|c| c),
        // Comments after a value, behind a space, a tab or a lone CR.
        "x-note: a[ \t\r]# [a-z]{0,8}".prop_map(|c| c),
        "x-[a-z]{1,4}: [a-zA-Z:#' ]{0,30}".prop_map(|c| c),
        "[a-z: \"'\\[\\]{},#-]{0,16}".prop_map(|c| c),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Mutated skills through `fix`, then `fmt`: no panic, no comment lost,
    /// the body the same bytes, and a second `fmt` changes nothing.
    #[test]
    fn fix_then_fmt_never_panics_loses_a_comment_or_touches_the_body(
        lines in proptest::collection::vec(line(), 0..7),
        body in "[a-z: #\\n`-]{0,40}",
    ) {
        let mut text = String::from("---\nname: a\n");
        for line in &lines {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("---\n");
        text.push_str(&body);
        for profile in [Profile::Extended, Profile::Lenient] {
            let config = Config { profile, ..Config::default() };
            let fixed = fix::skill(files(&text), &config);
            let fixed = fixed.changes.first().map_or(text.clone(), |c| c.after.clone());
            let after = match format::skill(&files(&fixed), &config) {
                Outcome::Changed(after) => after,
                Outcome::Unchanged | Outcome::Skipped(_) | Outcome::Unchecked(_) => fixed.clone(),
            };
            prop_assert!(after.ends_with(compiled_body(&body)), "body changed: {after:?}");
            for line in &lines {
                if let Some(at) = line.find('#').filter(|&at| at == 0 || line[..at].ends_with([' ', '\t', '\r'])) {
                    let comment = &line[at..];
                    prop_assert!(after.contains(comment), "comment {comment:?} lost: {after:?}");
                }
            }
            if let Outcome::Unchecked(reason) = format::skill(&files(&after), &config) {
                prop_assert!(!reason.contains("would change"), "{reason}: {after:?}");
            }
            prop_assert!(
                !matches!(format::skill(&files(&after), &config), Outcome::Changed(_)),
                "not idempotent: {after:?}"
            );
        }
    }
}

/// Every byte after the closing fence is the body's, which the model reads:
/// `fmt` adds no blank line and takes none away (issue 23, item 5).
#[test]
fn every_byte_after_the_closing_fence_stays() {
    for after_fence in ["Body\n", "\n\nBody\n", "\n\n\n  Body\r\n", "", "\n"] {
        let before =
            format!("---\ndescription: 'Does a. Use when asked.'\nname: a\n---\n{after_fence}");
        let after = formatted(&before);
        assert_eq!(
            after,
            format!("---\nname: a\ndescription: Does a. Use when asked.\n---\n{after_fence}"),
            "{after_fence:?}"
        );
    }
    // A closing fence with no line break at the end of the file keeps none.
    assert_eq!(
        formatted("---\ndescription: 'Does a. Use when asked.'\nname: a\n---"),
        "---\nname: a\ndescription: Does a. Use when asked.\n---"
    );
}
