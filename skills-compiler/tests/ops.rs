//! The operations as a second front end uses them: a few lines that pick
//! targets, plan, print and apply, with no rule of their own. What they
//! write is what `cargo skills` writes (the CLI's tests hold the same
//! bytes), and `apply` refuses a bad plan before its first write.
#![cfg(feature = "ops")]

mod support;

use skills_compiler::Overrides;
use skills_compiler::ops::{self, Change, Guards, Plan, Rename, Selection};
use support::Tree;

/// A package of its own, so that its configuration (none: the defaults)
/// is what the operations read, wherever the tests run.
const MANIFEST: &[u8] = b"[package]\nname = \"front\"\nversion = \"0.1.0\"\nedition = \"2024\"\n";

fn read(tree: &Tree, path: &str) -> String {
    std::fs::read_to_string(tree.dir.join(path)).unwrap()
}

fn change(tree: &Tree, path: &str, before: &str, after: &str) -> Change {
    Change {
        path: tree.dir.join(path).display().to_string(),
        before: before.to_owned(),
        after: after.to_owned(),
    }
}

fn rename(tree: &Tree, from: &str, to: &str) -> Rename {
    Rename {
        from: tree.dir.join(from).display().to_string(),
        to: tree.dir.join(to).display().to_string(),
        code: None,
    }
}

/// The whole front end: targets, a plan, its diff, `apply`. The file ends
/// as `cargo skills fix` leaves it (cargo-skills/tests/fix.rs,
/// `a_skill_file_named_in_the_wrong_case_is_renamed_then_fixed`).
#[test]
fn a_second_front_end_fixes_in_a_few_lines() {
    let tree = Tree::new(&[
        ("Cargo.toml", MANIFEST),
        (
            "skills/a/SKILL.md",
            b"---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n",
        ),
    ]);
    let root = tree.dir.join("skills");
    let targets = ops::targets(&Selection::default(), &[root], &Overrides::default()).unwrap();
    let fixes = ops::fix::plan(&targets, None);
    assert_eq!(fixes.plan.changes.len(), 1, "{fixes:?}");
    let diff = ops::diff(&fixes.plan.changes[0]);
    assert!(
        diff.contains(
            "-description: Does a. Use when: asked\n+description: \"Does a. Use when: asked\"\n"
        ),
        "{diff}"
    );
    let applied = ops::apply(&fixes.plan, Guards::default()).unwrap();
    assert_eq!(applied.written, [0]);
    assert_eq!(
        read(&tree, "skills/a/SKILL.md"),
        "---\nname: a\ndescription: \"Does a. Use when: asked\"\n---\nBody\n"
    );
    // Planned again, there is nothing left to do.
    let again = ops::fix::plan(&targets, None);
    assert!(again.plan.is_empty(), "{again:?}");
}

/// `fmt` the same way: the plan's text is what is written.
#[test]
fn a_format_plan_applied_writes_its_text() {
    let tree = Tree::new(&[
        ("Cargo.toml", MANIFEST),
        (
            "skills/a/SKILL.md",
            b"---\ndescription: Does a. Use when testing.\nname: a\n---\nBody\n",
        ),
    ]);
    let root = tree.dir.join("skills");
    let targets = ops::targets(&Selection::default(), &[root], &Overrides::default()).unwrap();
    let formatting = ops::fmt::plan(&targets);
    let [change] = formatting.plan.changes.as_slice() else {
        panic!("{formatting:?}");
    };
    assert!(
        change.after.starts_with("---\nname: a\n"),
        "{}",
        change.after
    );
    ops::apply(&formatting.plan, Guards::default()).unwrap();
    assert_eq!(read(&tree, "skills/a/SKILL.md"), change.after);
    assert!(ops::fmt::plan(&targets).plan.is_empty());
}

/// A nested skill renamed under its renamed parent, listed parent first
/// (as a migration finds them): the child is renamed first, and the file
/// written in it ends up in the renamed folders.
#[test]
fn apply_renames_a_nested_skill_under_its_renamed_parent() {
    let tree = Tree::new(&[("Parent/Child/SKILL.md", b"old\n")]);
    let plan = Plan {
        changes: vec![change(&tree, "Parent/Child/SKILL.md", "old\n", "new\n")],
        renames: vec![
            rename(&tree, "Parent", "parent"),
            rename(&tree, "Parent/Child", "Parent/child"),
        ],
        ..Plan::default()
    };
    let applied = ops::apply(&plan, Guards::default()).unwrap();
    assert_eq!(read(&tree, "parent/child/SKILL.md"), "new\n");
    // Reported in the order they were done: the deepest first.
    assert!(applied.renamed[0].from.ends_with("Parent/Child"));
}

/// Every problem of a plan is found before its first write: a collision,
/// a missing source, a read-only file. The file the plan would write
/// first is untouched each time.
#[test]
fn apply_refuses_a_bad_plan_before_its_first_write() {
    let tree = Tree::new(&[
        ("A/SKILL.md", b"a\n"),
        ("B/SKILL.md", b"b\n"),
        ("C/SKILL.md", b"c\n"),
    ]);
    let first = change(&tree, "A/SKILL.md", "a\n", "written\n");
    let collision = Plan {
        changes: vec![first.clone()],
        renames: vec![
            rename(&tree, "A", "same"),
            rename(&tree, "B", "same"),
            rename(&tree, "Missing", "missing"),
        ],
        ..Plan::default()
    };
    let Err(ops::Error::Refused { problems, outcome }) = ops::apply(&collision, Guards::default())
    else {
        panic!("a collision was not refused");
    };
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("both would be renamed to"),
        "{problems:?}"
    );
    assert!(problems[1].contains("does not exist"), "{problems:?}");
    assert!(outcome.contains("nothing was written"), "{outcome}");
    assert_eq!(read(&tree, "A/SKILL.md"), "a\n");
    assert!(tree.dir.join("B").is_dir());

    let read_only = tree.dir.join("C/SKILL.md");
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).unwrap();
    let plan = Plan {
        changes: vec![first, change(&tree, "C/SKILL.md", "c\n", "written\n")],
        renames: Vec::new(),
        ..Plan::default()
    };
    let Err(ops::Error::Refused { outcome, .. }) = ops::apply(&plan, Guards::default()) else {
        panic!("a read-only file was not refused");
    };
    assert!(
        outcome.contains("read-only: nothing was written"),
        "{outcome}"
    );
    assert_eq!(read(&tree, "A/SKILL.md"), "a\n");
    let mut permissions = std::fs::metadata(&read_only).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    std::fs::set_permissions(&read_only, permissions).unwrap();
}

/// A file edited since it was read keeps the edit; the plan says so and
/// writes the others.
#[test]
fn apply_keeps_an_edit_made_since_the_plan() {
    let tree = Tree::new(&[("A/SKILL.md", b"a\n"), ("B/SKILL.md", b"b\n")]);
    let plan = Plan {
        changes: vec![
            change(&tree, "A/SKILL.md", "a\n", "planned\n"),
            change(&tree, "B/SKILL.md", "b\n", "planned\n"),
        ],
        renames: Vec::new(),
        ..Plan::default()
    };
    tree.write("A/SKILL.md", b"edited\n");
    let applied = ops::apply(&plan, Guards::default()).unwrap();
    assert_eq!(applied.written, [1]);
    assert_eq!(read(&tree, "A/SKILL.md"), "edited\n");
    assert_eq!(read(&tree, "B/SKILL.md"), "planned\n");
    assert!(
        applied.notes[0].ends_with("changed since it was read; left as it is"),
        "{:?}",
        applied.notes
    );
}

/// A signed skill is refused whole unless the guards allow it, and then
/// named as one whose signature no longer verifies.
#[test]
fn apply_refuses_to_edit_a_signed_skill_unless_allowed() {
    let tree = Tree::new(&[("a/SKILL.md", b"a\n"), ("a/skill.oms.sig", b"{}")]);
    let plan = Plan {
        changes: vec![change(&tree, "a/SKILL.md", "a\n", "edited\n")],
        renames: Vec::new(),
        ..Plan::default()
    };
    let Err(ops::Error::Usage(message)) = ops::apply(&plan, Guards::default()) else {
        panic!("a signed skill was edited");
    };
    assert!(message.contains("--allow-unsigned-edit"), "{message}");
    assert_eq!(read(&tree, "a/SKILL.md"), "a\n");
    let allowed = Guards {
        allow_unsigned_edit: true,
        ..Guards::default()
    };
    let applied = ops::apply(&plan, allowed).unwrap();
    assert_eq!(applied.unsigned, [tree.dir.join("a")]);
    assert_eq!(read(&tree, "a/SKILL.md"), "edited\n");
}

/// A write that fails half way puts back what was done before it: an
/// edited file holds its old text, a created file is gone, and so are the
/// folders made for it (a folder that was there stays).
#[test]
fn a_failed_write_puts_back_files_and_the_folders_made_for_them() {
    let tree = Tree::new(&[
        ("A/SKILL.md", b"a\n"),
        ("kept/.keep", b""),
        ("blocker", b"a file, not a folder\n"),
    ]);
    let plan = Plan {
        changes: vec![
            change(&tree, "A/SKILL.md", "a\n", "written\n"),
            change(&tree, "new/deep/SKILL.md", "", "created\n"),
            change(&tree, "kept/made/SKILL.md", "", "created\n"),
            // Its folder cannot be made: a file holds the name.
            change(&tree, "blocker/SKILL.md", "", "never\n"),
        ],
        renames: Vec::new(),
        ..Plan::default()
    };
    let Err(ops::Error::Io(message)) = ops::apply(&plan, Guards::default()) else {
        panic!("the write under a file did not fail");
    };
    assert!(message.contains("cannot write"), "{message}");
    assert!(message.ends_with("nothing was written"), "{message}");
    assert_eq!(read(&tree, "A/SKILL.md"), "a\n");
    assert!(!tree.dir.join("new").exists(), "a made folder stayed");
    assert!(!tree.dir.join("kept/made").exists(), "a made folder stayed");
    assert!(tree.dir.join("kept/.keep").is_file());
    assert_eq!(read(&tree, "blocker"), "a file, not a folder\n");
}

/// A plan's folder moves (vendoring's staged skills) go after its writes,
/// with them: a folder in the way is set aside, and a move whose source is
/// gone refuses the whole plan before the lock is written.
#[test]
fn apply_moves_folders_into_place_with_the_lock_or_not_at_all() {
    let tree = Tree::new(&[
        (".stage/pdf/SKILL.md", b"new\n"),
        ("skills/pdf/SKILL.md", b"old\n"),
        ("skills-lock.json", b"{}\n"),
    ]);
    let lock = change(&tree, "skills-lock.json", "{}\n", "{\"pdf\": 1}\n");
    let step = |from: &str, to: &str| ops::Move {
        from: tree.dir.join(from),
        to: tree.dir.join(to),
        aside: Some(
            tree.dir
                .join(".stage/.old")
                .join(to.rsplit('/').next().unwrap()),
        ),
    };
    let missing = Plan {
        changes: vec![lock.clone()],
        moves: vec![
            step(".stage/pdf", "skills/pdf"),
            step(".stage/gone", "skills/gone"),
        ],
        ..Plan::default()
    };
    let Err(ops::Error::Refused { problems, .. }) = ops::apply(&missing, Guards::default()) else {
        panic!("a move of nothing must refuse the plan");
    };
    assert!(problems[0].contains("is not there to move"), "{problems:?}");
    assert_eq!(read(&tree, "skills-lock.json"), "{}\n");
    assert_eq!(read(&tree, "skills/pdf/SKILL.md"), "old\n");

    let plan = Plan {
        changes: vec![lock],
        moves: vec![step(".stage/pdf", "skills/pdf")],
        ..Plan::default()
    };
    ops::apply(&plan, Guards::default()).unwrap();
    assert_eq!(read(&tree, "skills-lock.json"), "{\"pdf\": 1}\n");
    assert_eq!(read(&tree, "skills/pdf/SKILL.md"), "new\n");
    assert_eq!(read(&tree, ".stage/.old/pdf/SKILL.md"), "old\n");
}
