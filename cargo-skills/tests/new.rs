//! `cargo skills new`: every option round-trips through `check`; bad names and
//! existing skills are refused; rebuild tracking is set up for macro users.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;

/// A package in a temporary directory (its own workspace root).
struct Package {
    dir: PathBuf,
}

impl Package {
    fn new(metadata: &str, dependencies: &str) -> Package {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "new-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            format!("[package]\nname = \"agent\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\n{dependencies}\n{metadata}\n[workspace]\n"),
        )
        .unwrap();
        std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
        Package { dir }
    }

    fn cargo_skills(&self) -> Command {
        let mut command = Command::cargo_bin("cargo-skills").unwrap();
        command.current_dir(&self.dir).env("NO_COLOR", "1");
        command
    }

    fn run(&self, args: &[&str], code: i32) -> (String, String) {
        let output = self
            .cargo_skills()
            .args(args)
            .assert()
            .code(code)
            .get_output()
            .clone();
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn check_passes(&self, expected: &str) {
        let (_, stderr) = self.run(&["check"], 0);
        assert_eq!(stderr, expected);
    }
}

impl Drop for Package {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn a_plain_skill() {
    let package = Package::new("", "");
    let (stdout, _) = package.run(&["new", "deploy"], 0);
    insta::assert_snapshot!("new_plain_stdout", stdout);
    insta::assert_snapshot!("new_plain_skill", package.read("skills/deploy/SKILL.md"));
    package.check_passes("ok: 1 skill valid, 0 warnings\n");
}

#[test]
fn a_protocol_with_tools() {
    let package = Package::new("", "");
    package.run(
        &[
            "new",
            "release",
            "--protocol",
            "--tool",
            "tag_release",
            "--tool",
            "publish",
        ],
        0,
    );
    insta::assert_snapshot!(
        "new_protocol_tools",
        package.read("skills/release/SKILL.md")
    );
    package.check_passes("ok: 1 skill valid, 0 warnings\n");
    let (stdout, _) = package.run(&["tools", "release"], 0);
    let tools: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 2);
}

#[test]
fn flat_and_custom_directory() {
    let package = Package::new("", "");
    package.run(&["new", "notes", "--flat"], 0);
    assert!(
        package
            .read("skills/notes.md")
            .starts_with("---\nname: notes\n")
    );
    package.run(&["new", "other", "--dir", "agent-skills"], 0);
    assert!(package.dir.join("agent-skills/other/SKILL.md").is_file());
    package.check_passes("ok: 1 skill valid, 0 warnings\n");
    let (_, stderr) = package.run(&["check", "agent-skills"], 0);
    assert_eq!(stderr, "ok: 1 skill valid, 0 warnings\n");
}

#[test]
fn the_configured_directory_and_package_selection() {
    let package = Package::new("[package.metadata.skills]\ndir = \"prompts\"\n", "");
    package.run(&["new", "deploy", "-p", "agent"], 0);
    assert!(package.dir.join("prompts/deploy/SKILL.md").is_file());
    package.check_passes("ok: 1 skill valid, 0 warnings\n");
    let (_, stderr) = package.run(&["new", "x", "-p", "nope"], 2);
    assert_eq!(stderr, "error: package `nope` is not in this workspace\n");
}

#[test]
fn portable_packages_get_a_sidecar_tools_yaml_and_no_extensions() {
    let package = Package::new("[package.metadata.skills]\nprofile = \"portable\"\n", "");
    package.run(&["new", "search", "--tool", "query"], 0);
    let skill = package.read("skills/search/SKILL.md");
    assert!(!skill.contains("tools:"), "{skill}");
    assert!(
        package
            .read("skills/search/tools.yaml")
            .starts_with("tools:\n  - name: query\n")
    );
    package.check_passes("ok: 1 skill valid, 0 warnings\n");
    let (_, stderr) = package.run(&["new", "release", "--protocol"], 2);
    assert!(
        stderr.contains("--protocol needs the `extended` or `lenient` profile"),
        "{stderr}"
    );
    let (_, stderr) = package.run(&["new", "notes", "--flat"], 2);
    assert!(stderr.contains("--flat"), "{stderr}");
}

#[test]
fn bad_names_and_existing_skills_are_refused() {
    let package = Package::new("", "");
    for (name, suggestion) in [
        ("My Skill", "my-skill"),
        ("my_skill", "my-skill"),
        ("-x--y-", "x-y"),
        ("НАВЫК", "навык"),
    ] {
        let (_, stderr) = package.run(&["new", "--", name], 2);
        assert_eq!(
            stderr,
            format!(
                "error: `{name}` is not a valid skill name: use lowercase letters, digits and single hyphens; try `{suggestion}`\n"
            )
        );
    }
    let (_, stderr) = package.run(&["new", "ok", "--tool", "bad.name"], 2);
    assert!(
        stderr.contains("`bad.name` is not a valid tool name"),
        "{stderr}"
    );
    let (_, stderr) = package.run(&["new", "ok", "--tool", "a", "--tool", "a"], 2);
    assert!(stderr.contains("the tool `a` is given twice"), "{stderr}");
    package.run(&["new", "deploy"], 0);
    let before = package.read("skills/deploy/SKILL.md");
    let (_, stderr) = package.run(&["new", "deploy"], 2);
    assert_eq!(
        stderr,
        "error: a skill named `deploy` already exists: skills/deploy\n"
    );
    let (_, stderr) = package.run(&["new", "deploy", "--flat"], 2);
    assert!(stderr.contains("already exists"), "{stderr}");
    assert_eq!(
        package.read("skills/deploy/SKILL.md"),
        before,
        "never overwritten"
    );
}

#[test]
fn macro_users_get_rebuild_tracking() {
    let skills = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills");
    let dependency = format!("skills = {{ path = \"{}\" }}", skills.display());
    let package = Package::new("", &dependency);
    let (stdout, _) = package.run(&["new", "deploy"], 0);
    assert!(
        stdout.contains("Created build.rs (rebuild tracking for include_skills!)"),
        "{stdout}"
    );
    assert_eq!(
        package.read("build.rs"),
        "fn main() {\n    skills_build::track(\"skills\");\n}\n"
    );

    // A build.rs without tracking is left alone; the line to add is printed.
    let package = Package::new("", &dependency);
    std::fs::write(package.dir.join("build.rs"), "fn main() {}\n").unwrap();
    let (stdout, _) = package.run(&["new", "deploy"], 0);
    assert!(
        stdout.contains("    skills_build::track(\"skills\");\n"),
        "{stdout}"
    );
    assert_eq!(package.read("build.rs"), "fn main() {}\n");

    // A package that does not use the runtime crate needs no build script.
    let package = Package::new("", "");
    package.run(&["new", "deploy"], 0);
    assert!(!package.dir.join("build.rs").exists());
}
