//! A CI gate over a real collection (issue 40, items 1, 2 and 5): skills
//! laid out as `skills/<owner>/<repo>/<skill>/`, at different depths, with a
//! folder whose name ends in `.md`. A check that finds no skill under the
//! root it was given fails and says where the skills are; `--recursive`
//! checks every nested collection; the summary names what each count counts.

mod support;

use std::path::{Path, PathBuf};

use support::{fresh_dir, output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}. Use when asked to {name}.\n---\nBody.\n")
}

/// `coll/skills/` with skills two and three levels down, two of one name
/// under different owners, and a `.md`-named folder that holds two skills.
fn collection(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    let root = dir.join("coll/skills");
    for (path, name) in [
        ("acme/tools/pdf", "pdf"),
        ("acme/tools/docx", "docx"),
        ("other/repo/pdf", "pdf"),
        ("google-labs-code/design.md/colors", "colors"),
        ("google-labs-code/design.md/layout", "layout"),
        ("lone/notes", "notes"),
    ] {
        write(&root.join(path).join("SKILL.md"), &skill(name));
    }
    write(&root.join("README.md"), "# A collection\n");
    dir
}

#[test]
fn a_check_that_finds_no_skill_fails_and_says_where_they_are() {
    let dir = collection("collections-none-found");
    for root in ["coll", "coll/skills"] {
        let (_, stderr) = output(&dir, &["skills", "check", root], 1);
        assert!(
            stderr.contains(&format!("error[S518]: no skill found in `{root}`")),
            "{stderr}"
        );
        // What it did find, and how deep the nearest SKILL.md is.
        assert!(stderr.contains("without a SKILL.md"), "{stderr}");
        assert!(stderr.contains("the nearest skill is"), "{stderr}");
        assert!(
            stderr.contains(&format!("cargo skills check --recursive {root}")),
            "{stderr}"
        );
        assert!(!stderr.contains("ok:"), "{stderr}");
    }
    let (_, stderr) = output(&dir, &["skills", "check", "coll/skills"], 1);
    assert!(
        stderr.contains("the nearest skill is 2 folders down (`coll/skills/lone/notes/SKILL.md`)"),
        "{stderr}"
    );
}

#[test]
fn an_empty_root_fails_too() {
    let dir = fresh_dir("collections-empty");
    std::fs::create_dir_all(dir.join("skills")).unwrap();
    let (_, stderr) = output(&dir, &["skills", "check", "skills"], 1);
    assert!(
        stderr.contains("error[S518]: no skill found in `skills`"),
        "{stderr}"
    );
    assert!(stderr.contains("cargo skills new"), "{stderr}");
}

#[test]
fn recursive_checks_every_nested_collection_each_skill_named_by_its_folder() {
    let dir = collection("collections-recursive");
    for root in ["coll", "coll/skills"] {
        let (_, stderr) = output(&dir, &["skills", "check", "--recursive", root], 0);
        // Two skills named `pdf` in different collections are no duplicate.
        assert_eq!(stderr, "ok: 6 skills valid, 0 warnings\n");
    }
    // Each skill keeps its folder's identity: a name that differs from it
    // is reported as in any root.
    write(
        &dir.join("coll/skills/acme/tools/docx/SKILL.md"),
        &skill("word"),
    );
    let (_, stderr) = output(
        &dir,
        &[
            "skills",
            "check",
            "--recursive",
            "coll",
            "--message-format",
            "short",
        ],
        1,
    );
    assert!(
        stderr.contains("coll/skills/acme/tools/docx/SKILL.md:2:7: error[S106]"),
        "{stderr}"
    );
    // A recursive check that finds nothing fails as well.
    std::fs::create_dir_all(dir.join("nothing/here")).unwrap();
    let (_, stderr) = output(&dir, &["skills", "check", "--recursive", "nothing"], 1);
    assert!(
        stderr.contains("error[S518]: no skill found in `nothing`"),
        "{stderr}"
    );
}

#[test]
fn a_folder_named_like_a_markdown_file_is_never_a_skill_file() {
    let dir = collection("collections-md-folder");
    let (_, stderr) = output(
        &dir,
        &["skills", "check", "coll/skills/google-labs-code/design.md"],
        0,
    );
    assert_eq!(stderr, "ok: 2 skills valid, 0 warnings\n");
    // As one entry of a root it is a folder without SKILL.md, not a file.
    let (_, stderr) = output(
        &dir,
        &[
            "skills",
            "check",
            "coll/skills/google-labs-code",
            "--message-format",
            "short",
        ],
        1,
    );
    assert!(!stderr.contains("W001"), "{stderr}");
    assert!(stderr.contains("S518"), "{stderr}");
}

#[test]
fn the_summary_names_what_each_count_counts() {
    let dir = collection("collections-summary");
    // One skill with an error, one with a warning (no when-to-use clause).
    write(
        &dir.join("coll/skills/acme/tools/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Reads PDFs. Use when: asked\n---\nBody.\n",
    );
    write(
        &dir.join("coll/skills/acme/tools/docx/SKILL.md"),
        "---\nname: docx\ndescription: Reads documents.\n---\nBody.\n",
    );
    let (stdout, _) = output(
        &dir,
        &[
            "skills",
            "check",
            "--recursive",
            "coll",
            "--message-format",
            "json",
        ],
        1,
    );
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["valid"], false);
    assert_eq!(summary["checked"], 6);
    assert_eq!(summary["valid_skills"], 5);
    assert_eq!(summary["with_errors"], 1);
    assert_eq!(summary["with_warnings"], 1);
    assert_eq!(summary["errors"], 1);
    assert_eq!(summary["warnings"], 1);
    let (_, stderr) = output(&dir, &["skills", "check", "--recursive", "coll"], 1);
    assert!(
        stderr.ends_with(
            "failed: 6 skills checked, 5 valid, 1 with errors, 1 with warnings; 1 error, 1 warning\n\
             For more information about this error, try `cargo skills explain S007`.\n"
        ),
        "{stderr}"
    );
}

/// Issue 40, item 0: a broken sibling does not stop the inspection of a
/// valid skill; its errors are shown as warnings, and the build still
/// refuses it.
#[test]
fn inspecting_a_valid_skill_is_not_stopped_by_a_broken_sibling() {
    let dir = fresh_dir("collections-inspect");
    write(
        &dir.join("skills/deploy/SKILL.md"),
        "---\nname: deploy\ndescription: Deploys. Use when asked to deploy.\ntools:\n  - name: status\n    description: The deploy's status.\n    parameters: {type: object, properties: {}}\n    endpoint: {method: GET, url: \"https://ci.example.com/status\"}\n---\nBody.\n",
    );
    write(
        &dir.join("skills/broken/SKILL.md"),
        "---\nname: broken\ndescription: Breaks. Use when: never\n---\nBody.\n",
    );
    let (stdout, stderr) = output(&dir, &["skills", "tools", "deploy", "skills"], 0);
    assert!(stdout.contains("\"name\": \"status\""), "{stdout}");
    assert!(stderr.contains("warning[S007]"), "{stderr}");
    assert!(
        stderr.contains("the build still refuses the others"),
        "{stderr}"
    );
    let (stdout, _) = output(&dir, &["skills", "show", "deploy", "skills"], 0);
    assert!(stdout.contains("deploy"), "{stdout}");
    // The broken one itself is still an error, and so is the whole check.
    let (_, stderr) = output(&dir, &["skills", "show", "broken", "skills"], 1);
    assert!(stderr.contains("error[S007]"), "{stderr}");
    output(&dir, &["skills", "check", "skills"], 1);
}
