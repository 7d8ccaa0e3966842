//! A root compiled again after a change (`again::Kept`) gives exactly what a
//! whole compile of the same files gives, while reading only the entries it
//! must: proven on hand-made edits that reach across entries (links into
//! another skill, a flat skill's links, a symlinked entry, duplicates,
//! similar descriptions) and on generated sequences of edits. Each whole
//! compile is also held against the root discovered whole first and
//! checked then: `compile` reads and checks one entry at a time.

mod support;

use std::collections::BTreeSet;
use std::path::Path;

use proptest::prelude::*;
use skills_compiler::again::Kept;
use skills_compiler::{Compilation, Config, Overrides, compile};
use support::{Tree, discovered_then_checked};

fn skill(name: &str, description: &str, body: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n").into_bytes()
}

fn config(tree: &Tree) -> Config {
    Config {
        dir: tree.dir.clone(),
        ..Config::default()
    }
    .with(Overrides {
        max_skills: Some(100),
        ..Overrides::default()
    })
}

/// Everything a front end reads of a compilation, as text.
fn seen(compilation: &Compilation) -> String {
    format!(
        "{:#?}\n{:#?}\n{:#?}",
        compilation.diagnostics, compilation.valid.skills, compilation.checked
    )
}

/// Compiles again with `changed`, and asserts the outcome is the whole
/// compile's; returns the skills read again, by their folder's name.
fn again(kept: &mut Kept, tree: &Tree, changed: &[&str]) -> BTreeSet<String> {
    let config = config(tree);
    let changed: BTreeSet<String> = changed.iter().map(|&name| name.to_owned()).collect();
    let again = kept.compile(&config, &changed);
    let whole = compile(Path::new(""), &config);
    assert_eq!(
        seen(&again.compilation),
        seen(&whole),
        "compiled again with {changed:?}"
    );
    // And a whole compile, which checks each entry as it reads it, is
    // every skill discovered first and checked then.
    assert_eq!(
        seen(&whole),
        seen(&discovered_then_checked(Path::new(""), &config))
    );
    again
        .read
        .iter()
        .map(|path| {
            let rest = Path::new(path).strip_prefix(&tree.dir).unwrap();
            rest.iter().next().unwrap().to_string_lossy().into_owned()
        })
        .collect()
}

fn names(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|&name| name.to_owned()).collect()
}

#[test]
fn an_edit_reads_that_skill_alone_and_gives_what_a_whole_compile_gives() {
    let tree = Tree::new(&[
        (
            "alpha/SKILL.md",
            &skill("alpha", "Reads alpha files. Use when alpha.", "Read."),
        ),
        (
            "beta/SKILL.md",
            &skill(
                "beta",
                "Writes beta reports. Use when beta.",
                "See [x](references/x.md).",
            ),
        ),
        ("beta/references/x.md", b"# X\n"),
        (
            "gamma/SKILL.md",
            &skill("gamma", "Plots gamma curves. Use when gamma.", "Plot."),
        ),
    ]);
    let mut kept = Kept::default();
    assert_eq!(
        again(&mut kept, &tree, &[]),
        names(&["alpha", "beta", "gamma"])
    );
    // Nothing changed: nothing read.
    assert_eq!(again(&mut kept, &tree, &[]), names(&[]));

    tree.write(
        "alpha/SKILL.md",
        &skill("alpha", "Reads alpha files. Use when alpha.", "Changed."),
    );
    assert_eq!(again(&mut kept, &tree, &["alpha"]), names(&["alpha"]));

    // A broken link in `beta`: an error now, `beta` alone read.
    std::fs::remove_file(tree.dir.join("beta/references/x.md")).unwrap();
    assert_eq!(again(&mut kept, &tree, &["beta"]), names(&["beta"]));

    // Invalid, then valid again.
    tree.write("gamma/SKILL.md", b"---\nname: gamma\n---\n");
    assert_eq!(again(&mut kept, &tree, &["gamma"]), names(&["gamma"]));
    tree.write(
        "gamma/SKILL.md",
        &skill("gamma", "Plots gamma curves. Use when gamma.", "Plot."),
    );
    assert_eq!(again(&mut kept, &tree, &["gamma"]), names(&["gamma"]));
}

#[test]
fn the_sets_checks_run_over_kept_and_fresh_skills_alike() {
    let tree = Tree::new(&[
        (
            "alpha/SKILL.md",
            &skill(
                "alpha",
                "Converts spreadsheet tables into charts. Use when charts.",
                "A.",
            ),
        ),
        (
            "beta/SKILL.md",
            &skill(
                "beta",
                "Merges calendar events from feeds. Use when calendars.",
                "B.",
            ),
        ),
    ]);
    let mut kept = Kept::default();
    again(&mut kept, &tree, &[]);
    // `beta` now says what `alpha` says (W009), then takes its name (a duplicate).
    tree.write(
        "beta/SKILL.md",
        &skill(
            "beta",
            "Converts spreadsheet tables into charts. Use when charts.",
            "B.",
        ),
    );
    assert_eq!(again(&mut kept, &tree, &["beta"]), names(&["beta"]));
    let config = Config {
        profile: skills_compiler::Profile::Lenient,
        ..config(&tree)
    };
    let mut lenient = Kept::default();
    lenient.compile(&config, &BTreeSet::new());
    tree.write(
        "beta/SKILL.md",
        &skill("alpha", "Another thing entirely. Use when else.", "B."),
    );
    let changed = names(&["beta"]);
    assert_eq!(
        seen(&lenient.compile(&config, &changed).compilation),
        seen(&compile(Path::new(""), &config))
    );
    assert_eq!(again(&mut kept, &tree, &["beta"]), names(&["beta"]));
    // A new entry and a removed one, each named by its change.
    tree.write(
        "delta/SKILL.md",
        &skill("delta", "Sorts delta logs. Use when delta.", "D."),
    );
    assert_eq!(again(&mut kept, &tree, &["delta"]), names(&["delta"]));
    std::fs::remove_dir_all(tree.dir.join("delta")).unwrap();
    assert_eq!(again(&mut kept, &tree, &["delta"]), names(&[]));
    // Every entry gone: the root's own error, as a whole compile says it.
    std::fs::remove_dir_all(tree.dir.join("alpha")).unwrap();
    std::fs::remove_dir_all(tree.dir.join("beta")).unwrap();
    again(&mut kept, &tree, &["alpha", "beta"]);
}

/// A skill whose check looks at another entry on disk is read again on
/// every compile: the change is named by the other entry only.
#[test]
fn a_skill_that_links_into_another_is_read_again_when_the_other_changes() {
    let tree = Tree::new(&[
        (
            "alpha/SKILL.md",
            &skill(
                "alpha",
                "Reads alpha files. Use when alpha.",
                "See [b](../beta/references/x.md).",
            ),
        ),
        (
            "beta/SKILL.md",
            &skill("beta", "Writes beta reports. Use when beta.", "B."),
        ),
        ("beta/references/x.md", b"# X\n"),
        (
            "flat.md",
            &skill(
                "flat",
                "Lists flat things. Use when flat.",
                "See [g](gamma/SKILL.md).",
            ),
        ),
        (
            "gamma/SKILL.md",
            &skill("gamma", "Plots gamma curves. Use when gamma.", "G."),
        ),
    ]);
    let mut kept = Kept::default();
    again(&mut kept, &tree, &[]);
    // `alpha`'s link now leads nowhere: an error in `alpha`, from a change in `beta`.
    std::fs::remove_file(tree.dir.join("beta/references/x.md")).unwrap();
    assert_eq!(
        again(&mut kept, &tree, &["beta"]),
        names(&["alpha", "beta", "flat.md"])
    );
    // The flat skill's link into `gamma` breaks the same way.
    std::fs::remove_dir_all(tree.dir.join("gamma")).unwrap();
    assert_eq!(
        again(&mut kept, &tree, &["gamma"]),
        names(&["alpha", "flat.md"])
    );
}

#[cfg(unix)]
#[test]
fn an_entry_that_is_a_symlink_to_another_is_read_again_with_it() {
    let tree = Tree::new(&[
        (
            "alpha/SKILL.md",
            &skill("alpha", "Reads alpha files. Use when alpha.", "A."),
        ),
        (
            "beta/SKILL.md",
            &skill("beta", "Writes beta reports. Use when beta.", "B."),
        ),
    ]);
    std::os::unix::fs::symlink("alpha", tree.dir.join("same")).unwrap();
    let mut kept = Kept::default();
    again(&mut kept, &tree, &[]);
    tree.write(
        "alpha/SKILL.md",
        &skill("alpha", "Reads alpha files. Use when alpha.", "Changed."),
    );
    assert_eq!(
        again(&mut kept, &tree, &["alpha"]),
        names(&["alpha", "same"])
    );
}

/// Entries checked under one configuration are not kept under another:
/// a key that `extended` accepts is an error in `portable`, and a lint
/// allowed by one is reported by the other.
#[test]
fn another_configuration_checks_every_entry_anew() {
    let tree = Tree::new(&[(
        "alpha/SKILL.md",
        b"---\nname: alpha\ndescription: Reads alpha files. Use when alpha.\ntags: [x]\n---\nA.\n",
    )]);
    let extended = config(&tree);
    let portable = Config {
        profile: skills_compiler::Profile::Portable,
        ..config(&tree)
    };
    let mut kept = Kept::default();
    assert!(
        !kept
            .compile(&extended, &BTreeSet::new())
            .compilation
            .has_errors()
    );
    let again = kept.compile(&portable, &BTreeSet::new());
    assert!(again.compilation.has_errors(), "`tags` is not portable");
    assert_eq!(
        seen(&again.compilation),
        seen(&compile(Path::new(""), &portable))
    );
    assert_eq!(
        again.read.len(),
        1,
        "alpha read again under the new profile"
    );
}

#[test]
fn a_change_to_the_root_itself_names_no_entry() {
    assert_eq!(
        Kept::entry_of(Path::new("pdf/references/a.md")),
        Some("pdf".to_owned())
    );
    assert_eq!(
        Kept::entry_of(Path::new("notes.md")),
        Some("notes.md".to_owned())
    );
    assert_eq!(Kept::entry_of(Path::new("")), None);
    assert_eq!(Kept::entry_of(Path::new(".gitignore")), None);
    assert_eq!(Kept::entry_of(Path::new("../elsewhere")), None);
}

/// One edit of a generated tree.
#[derive(Debug, Clone)]
enum Edit {
    /// A skill's body, description or name.
    Rewrite {
        entry: usize,
        name: usize,
        words: usize,
        link: Option<usize>,
    },
    /// A reference file added or removed.
    Reference { entry: usize, present: bool },
    /// An entry removed.
    Remove { entry: usize },
    /// A skill file that does not parse.
    Break { entry: usize },
}

const ENTRIES: usize = 5;
const WORDS: [&str; 6] = ["charts", "tables", "logs", "feeds", "maps", "notes"];

fn entry_name(entry: usize) -> String {
    format!("s{entry}")
}

fn edit() -> impl Strategy<Value = Edit> {
    // Links into other entries, and the files they name coming and going,
    // are what a kept entry can miss: they come most often.
    prop_oneof![
        3 => (0..ENTRIES, 0..ENTRIES, 0..WORDS.len(), proptest::option::weighted(0.7, 0..ENTRIES)).prop_map(
            |(entry, name, words, link)| Edit::Rewrite { entry, name, words, link }
        ),
        3 => (0..ENTRIES, any::<bool>()).prop_map(|(entry, present)| Edit::Reference { entry, present }),
        1 => (0..ENTRIES).prop_map(|entry| Edit::Remove { entry }),
        1 => (0..ENTRIES).prop_map(|entry| Edit::Break { entry }),
    ]
}

fn apply(tree: &Tree, edit: &Edit) -> usize {
    match *edit {
        Edit::Rewrite {
            entry,
            name,
            words,
            link,
        } => {
            let description = format!(
                "Turns {} into {}. Use when {}.",
                WORDS[words],
                WORDS[(words + 1) % WORDS.len()],
                WORDS[words]
            );
            let body = match link {
                Some(other) => format!("See [r](../{}/references/r.md).", entry_name(other)),
                None => "See [r](references/r.md).".to_owned(),
            };
            tree.write(
                &format!("{}/SKILL.md", entry_name(entry)),
                &skill(&entry_name(name), &description, &body),
            );
            entry
        }
        Edit::Reference { entry, present } => {
            let path = tree
                .dir
                .join(format!("{}/references/r.md", entry_name(entry)));
            if present {
                tree.write(&format!("{}/references/r.md", entry_name(entry)), b"# R\n");
            } else {
                let _ = std::fs::remove_file(path);
            }
            entry
        }
        Edit::Remove { entry } => {
            let _ = std::fs::remove_dir_all(tree.dir.join(entry_name(entry)));
            entry
        }
        Edit::Break { entry } => {
            tree.write(
                &format!("{}/SKILL.md", entry_name(entry)),
                b"---\nname: [\n---\n",
            );
            entry
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any sequence of edits, each compiled again with the entry it
    /// touched: the outcome is always the whole compile's.
    #[test]
    fn any_sequence_of_edits_gives_what_a_whole_compile_gives(
        edits in proptest::collection::vec(edit(), 1..12)
    ) {
        let tree = Tree::new(&[]);
        for entry in 0..ENTRIES {
            let link = Some((entry + 1) % ENTRIES);
            apply(&tree, &Edit::Rewrite { entry, name: entry, words: entry, link });
        }
        let mut kept = Kept::default();
        again(&mut kept, &tree, &[]);
        for edit in &edits {
            let entry = entry_name(apply(&tree, edit));
            again(&mut kept, &tree, &[entry.as_str()]);
        }
    }
}
