//! Lint levels (issue 24, item 5): `[package.metadata.skills.lints]`, the
//! `lints` option, and a skill's own `metadata.skills-lints`.

use std::path::{Path, PathBuf};

use skills_compiler::{Code, Config, Overrides, Severity, compile};

/// W008 (no when-to-use clause) fires on both skills.
fn crate_with(manifest_lints: &str, second_metadata: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "skills-levels-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, metadata) in [("alpha", ""), ("beta", second_metadata)] {
        std::fs::create_dir_all(dir.join("skills").join(name)).unwrap();
        std::fs::write(
            dir.join("skills").join(name).join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Deploys the {name} service.\n{metadata}---\nBody.\n"),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("Cargo.toml"),
        format!("[package]\nname = \"p\"\nversion = \"0.1.0\"\n{manifest_lints}"),
    )
    .unwrap();
    dir
}

fn codes(dir: &Path, overrides: Overrides) -> Vec<(String, Code, Severity)> {
    let config = Config::load(dir, overrides).unwrap();
    compile(dir, &config)
        .diagnostics
        .into_iter()
        .map(|d| (d.file, d.code, d.severity))
        .collect()
}

#[test]
fn the_manifest_sets_a_lints_level_for_every_skill() {
    let dir = crate_with("", "");
    assert_eq!(
        codes(&dir, Overrides::default()),
        [
            (
                "skills/alpha/SKILL.md".to_owned(),
                Code::NoWhenToUse,
                Severity::Warning
            ),
            (
                "skills/beta/SKILL.md".to_owned(),
                Code::NoWhenToUse,
                Severity::Warning
            ),
        ]
    );
    let allowed = crate_with("\n[package.metadata.skills.lints]\nW008 = \"allow\"\n", "");
    assert_eq!(codes(&allowed, Overrides::default()), []);
    let denied = crate_with("\n[package.metadata.skills.lints]\nW008 = \"deny\"\n", "");
    assert!(
        codes(&denied, Overrides::default())
            .iter()
            .all(|(_, code, severity)| *code == Code::NoWhenToUse && *severity == Severity::Error)
    );
}

#[test]
fn the_option_wins_over_the_manifest_code_by_code() {
    let dir = crate_with("\n[package.metadata.skills.lints]\nW008 = \"deny\"\n", "");
    let overrides = Overrides::option(
        "lints",
        skills_compiler::OptionValue::List(vec!["allow W008".into()]),
    )
    .unwrap();
    assert_eq!(codes(&dir, overrides), []);
}

#[test]
fn a_skill_allows_a_lint_for_itself_only() {
    let dir = crate_with("", "metadata:\n  skills-lints: allow W008\n");
    assert_eq!(
        codes(&dir, Overrides::default()),
        [(
            "skills/alpha/SKILL.md".to_owned(),
            Code::NoWhenToUse,
            Severity::Warning
        )]
    );
    // And a skill may deny one that the crate allows.
    let dir = crate_with(
        "\n[package.metadata.skills.lints]\nW008 = \"allow\"\n",
        "metadata:\n  skills-lints: deny W008\n",
    );
    assert_eq!(
        codes(&dir, Overrides::default()),
        [(
            "skills/beta/SKILL.md".to_owned(),
            Code::NoWhenToUse,
            Severity::Error
        )]
    );
}

#[test]
fn what_is_not_a_lint_or_not_a_level_is_refused_with_why() {
    for (table, why) in [
        ("S101 = \"allow\"", "not a lint"),
        ("W999 = \"allow\"", "unknown lint `W999`"),
        ("W008 = \"off\"", "unknown lint level `off`"),
    ] {
        let dir = crate_with(&format!("\n[package.metadata.skills.lints]\n{table}\n"), "");
        let error = Config::load(&dir, Overrides::default()).unwrap_err();
        assert!(error.message.contains(why), "{table}: {}", error.message);
    }
    // In a skill, a warning at the value, and the lint keeps its level.
    let dir = crate_with("", "metadata:\n  skills-lints: allow S101\n");
    let found = codes(&dir, Overrides::default());
    assert!(
        found.contains(&(
            "skills/beta/SKILL.md".to_owned(),
            Code::SkillLints,
            Severity::Warning
        )),
        "{found:?}"
    );
    assert_eq!(
        found
            .iter()
            .filter(|(_, code, _)| *code == Code::NoWhenToUse)
            .count(),
        2
    );
}

/// `catalog_chars` and `catalog_location` (issue 24, item 6): the text
/// catalog's cut and the XML catalog's `<location>` are the crate's to set.
#[test]
fn the_catalog_cut_and_location_are_configured() {
    use skills_compiler::ir::present;
    let dir = crate_with("", "");
    let config = Config::load(&dir, Overrides::default()).unwrap();
    let skills = compile(&dir, &config).valid.skills;
    assert!(
        present::catalog_xml_element(&skills[0])
            .contains("<location>\nskill://alpha/SKILL.md\n</location>")
    );
    let dir = crate_with(
        "\n[package.metadata.skills]\ncatalog_chars = 10\ncatalog_location = \"path\"\n",
        "",
    );
    let config = Config::load(&dir, Overrides::default()).unwrap();
    let skills = compile(&dir, &config).valid.skills;
    assert_eq!(present::catalog_line(&skills[0]), "- alpha: Deploys t…\n");
    assert!(
        present::catalog_xml_element(&skills[0])
            .contains("<location>\nskills/alpha/SKILL.md\n</location>")
    );
}

/// W019: the cut falls before the when-to-use clause.
#[test]
fn a_cut_before_the_when_to_use_clause_is_a_warning() {
    let dir = std::env::temp_dir().join(format!("skills-levels-cut-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("skills/a")).unwrap();
    std::fs::write(
        dir.join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: Deploys the app to the cluster. Use when the user asks to ship.\n---\nBody.\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    assert_eq!(codes(&dir, Overrides::default()), []);
    let cut = Overrides {
        catalog_chars: Some(30),
        ..Overrides::default()
    };
    assert_eq!(
        codes(&dir, cut),
        [(
            "skills/a/SKILL.md".to_owned(),
            Code::CatalogCutsWhen,
            Severity::Warning
        )]
    );
}
