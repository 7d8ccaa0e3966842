//! Property tests of the run-time loader on generated skill trees: it never
//! panics, and it returns either a set (with warnings only) or errors,
//! never both.

use proptest::prelude::*;
use skills::loader::{Loader, Profile};

/// Frontmatter lines, good and bad, in the shapes real collections have.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("name: a".to_owned()),
        Just("name: Ahrefs Automation".to_owned()),
        Just("name: gsd:thread".to_owned()),
        Just("name: -x-".to_owned()),
        Just("name: ''".to_owned()),
        Just("description: Use when testing.".to_owned()),
        Just("description: Use when: the user asks: twice".to_owned()),
        Just("description: \"bad \\q\"".to_owned()),
        Just("description:".to_owned()),
        Just("version: 1.0".to_owned()),
        Just("version: [1]".to_owned()),
        Just("metadata: text".to_owned()),
        Just("metadata:\n  a: {b: c}".to_owned()),
        Just("triggers:\n  - a\n  - b: c".to_owned()),
        Just("tools: Read, Grep".to_owned()),
        Just("tools:\n  - name: t\n    description: d\n    endpoint: {method: GET, url: 'https://x.test/{{p}}'}\n    parameters: {type: object, required: [p], properties: {p: {type: string}}}".to_owned()),
        Just("tools: 3".to_owned()),
        Just("permissions: {network: true, allow_write: [t]}".to_owned()),
        Just("allowed-tools: Read, Write".to_owned()),
        Just("argument-hint: [a, b]".to_owned()),
        Just("kind: protocol".to_owned()),
        Just("x-extra: {deep: [1, 2, {a: b}]}".to_owned()),
        Just("&a [*a]".to_owned()),
        Just("  : :".to_owned()),
        "[ -~]{0,40}",
        "\\PC{0,20}",
    ]
}

fn skill_file() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => (prop::collection::vec(line(), 0..8), "\\PC{0,60}").prop_map(|(lines, body)| {
            format!("---\n{}\n---\n{body}\n", lines.join("\n")).into_bytes()
        }),
        1 => "\\PC{0,80}".prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>(), 0..120),
    ]
}

fn tree() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    prop::collection::vec(
        (
            prop_oneof![
                Just("a"),
                Just("b"),
                Just("gsd-thread"),
                Just("Ünï"),
                Just("x y")
            ],
            skill_file(),
        ),
        0..5,
    )
    .prop_map(|skills| {
        skills
            .into_iter()
            .map(|(dir, file)| (format!("{dir}/SKILL.md"), file))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_loader_never_panics_and_never_returns_a_set_with_an_error(files in tree()) {
        let dir = std::env::temp_dir().join(format!(
            "skills-loader-prop-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (path, bytes) in &files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        for profile in [Profile::Portable, Profile::Extended, Profile::Lenient] {
            let loader = Loader::new().profile(profile);
            let mut results = vec![loader.load(&dir)];
            for (path, _) in &files {
                results.push(loader.load_skill(dir.join(path).parent().unwrap()));
            }
            for result in results {
                match result {
                    Ok(loaded) => {
                        prop_assert!(loaded.warnings().iter().all(|d| !d.is_error()));
                        let names: Vec<&str> = loaded.set().names().collect();
                        let mut unique = names.clone();
                        unique.dedup();
                        prop_assert_eq!(&names, &unique);
                        for name in names {
                            prop_assert!(loaded.set().get(name).is_some());
                        }
                        let _ = loaded.set().catalog_xml();
                    }
                    Err(error) => {
                        prop_assert!(error.errors().count() > 0);
                        prop_assert!(!error.to_string().is_empty());
                    }
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

mod files {
    skills::include_skills!("fixtures/files");
}

proptest! {
    /// A path a model or client chose, built from dot segments, encoded
    /// dots, separators, Unicode and real names, finds a file only when it
    /// is exactly that file's path: it never reaches SKILL.md, another
    /// skill or anything outside, and it never panics.
    #[test]
    fn a_chosen_path_finds_only_the_file_it_names(
        parts in proptest::collection::vec(
            prop_oneof![
                Just(".."), Just("."), Just(""), Just("%2e%2e"), Just("references"),
                Just("fields.md"), Just("SKILL.md"), Just("forms"), Just("é"),
                Just("\\"), Just("scripts"), Just("fill.py"), Just("C:"),
            ],
            0..6,
        ),
        leading in proptest::bool::ANY,
    ) {
        let skill = files::SKILLS.get("forms").unwrap();
        let mut path = parts.join("/");
        if leading {
            path.insert(0, '/');
        }
        let names: Vec<&str> = skill.files().iter().map(|f| f.path()).collect();
        match skill.file(&path) {
            // `./` segments name the same file: the one path rule says so.
            Some(file) => {
                let named = skills_core::file_path(&path);
                prop_assert_eq!(Some(file.path()), named.as_deref());
            }
            None => prop_assert!(!names.contains(&path.as_str()), "{} exists", path),
        }
    }
}
