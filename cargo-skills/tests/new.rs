//! `cargo skills new`: every option round-trips through `check`; bad names and
//! existing skills are refused; rebuild tracking is set up for macro users.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

mod support;

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

    /// stdout and stderr, with this checkout's path as `{workspace}` (the
    /// runtime `new` adds is a path into it), so snapshots hold anywhere.
    fn run(&self, args: &[&str], code: i32) -> (String, String) {
        let (stdout, stderr) = support::output(&self.dir, args, code);
        let workspace = support::workspace().canonicalize().unwrap();
        let workspace = workspace.to_string_lossy();
        (
            stdout.replace(&*workspace, "{workspace}"),
            stderr.replace(&*workspace, "{workspace}"),
        )
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// `check` passes; what it says is `expected` (short form): the
    /// placeholders `new` wrote are warnings (W007) until the user writes them.
    fn check_passes(&self, expected: &str) {
        let (_, stderr) = self.run(&["check", "--message-format", "short"], 0);
        assert_eq!(stderr, expected);
        // Written by the compiler's writer: already in `fmt`'s style.
        self.run(&["fmt", "--check"], 0);
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
    package.check_passes(
        "skills/deploy/SKILL.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
         ok: 1 skill valid, 1 warning\n",
    );
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
    package.check_passes(
        "skills/release/SKILL.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
         skills/release/SKILL.md:14:18: warning[W007]: the tool's description is still a placeholder (left by `cargo skills new` or a template)\n\
         skills/release/SKILL.md:22:18: warning[W007]: the tool's description is still a placeholder (left by `cargo skills new` or a template)\n\
         ok: 1 skill valid, 3 warnings\n",
    );
    // Each tool is a working example (issue 40, item 4): a GET endpoint to
    // edit, which the policy allows, so it is offered to a model at once.
    let (stdout, stderr) = package.run(&["tools", "release"], 0);
    let tools: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tag_release", "publish"], "{stdout}");
    assert!(!stderr.contains("is left out"), "{stderr}");
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
    package.check_passes(
        "skills/notes.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
         ok: 1 skill valid, 1 warning\n",
    );
    let (_, stderr) = package.run(&["check", "agent-skills", "--message-format", "short"], 0);
    assert_eq!(
        stderr,
        "agent-skills/other/SKILL.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
         ok: 1 skill valid, 1 warning\n"
    );
}

#[test]
fn the_configured_directory_and_package_selection() {
    let package = Package::new("[package.metadata.skills]\ndir = \"prompts\"\n", "");
    package.run(&["new", "deploy", "-p", "agent"], 0);
    assert!(package.dir.join("prompts/deploy/SKILL.md").is_file());
    package.check_passes(
        "prompts/deploy/SKILL.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
         ok: 1 skill valid, 1 warning\n",
    );
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
    package.check_passes(
        "skills/search/SKILL.md:3:14: warning[W007]: the description is still a placeholder (left by `cargo skills new` or a template)\n\
         skills/search/tools.yaml:3:18: warning[W007]: the tool's description is still a placeholder (left by `cargo skills new` or a template)\n\
         ok: 1 skill valid, 2 warnings\n",
    );
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
    // The compiler's own diagnostics, as `check` gives them.
    for (name, error) in [
        (
            "My Skill",
            "error[S103]: the skill name `My Skill` must be lowercase\n  = help: use `my-skill`",
        ),
        (
            "my_skill",
            "error[S103]: the skill name `my_skill` contains `_`: only letters, digits and hyphens are allowed\n  = help: use `my-skill`",
        ),
        (
            "-x--y-",
            "error[S105]: the skill name `-x--y-` must not contain `--`\n  = help: use `x-y`",
        ),
        (
            "НАВЫК",
            "error[S103]: the skill name `НАВЫК` must be lowercase\n  = help: use `навык`",
        ),
    ] {
        let (_, stderr) = package.run(&["new", "--", name], 2);
        assert_eq!(stderr, format!("{error}\nerror: no skill was created\n"));
    }
    let (_, stderr) = package.run(&["new", "ok", "--tool", "bad.name"], 2);
    assert!(
        stderr.starts_with("error[S302]: `bad.name` is not a valid tool name\n"),
        "{stderr}"
    );
    let (_, stderr) = package.run(&["new", "ok", "--tool", "a", "--tool", "a"], 2);
    assert!(
        stderr.starts_with("error[S303]: a tool named `a` is already declared\n"),
        "{stderr}"
    );
    assert!(!package.dir.join("skills/ok").exists());
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
    let dependency = format!("skills-runtime = {{ path = \"{}\" }}", skills.display());
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

    // A package that does not use the runtime yet gets it, and the build
    // script with it (issue 24, item 2).
    let package = Package::new("", "");
    package.run(&["new", "deploy"], 0);
    assert!(package.dir.join("build.rs").exists());
    assert!(
        package
            .read("Cargo.toml")
            .contains("skills-runtime = { path = ")
    );
}

/// What `new` adds for each way of depending on `skills`, formatting kept.
#[test]
fn the_build_dependency_comes_from_the_same_source_as_skills() {
    for (dependency, expected) in [
        ("skills-runtime = \"0.1.0\"", "skills-build = \"0.1.0\""),
        (
            "skills-runtime = { path = \"../vendor/skills\" }",
            "skills-build = { path = \"../vendor/skills-build\" }",
        ),
        (
            "skills-runtime = { git = \"https://example.invalid/skills\", rev = \"abc123\" }",
            "skills-build = { git = \"https://example.invalid/skills\", rev = \"abc123\" }",
        ),
        (
            "skills = { package = \"skills-runtime\", version = \"0.1\" }",
            "skills-build = { version = \"0.1\" }",
        ),
    ] {
        let package = Package::new("", &format!("{dependency}  # the runtime\n"));
        // `new` sees a package that uses skills only through cargo metadata, which
        // needs the dependency to exist: check the manifest edit directly.
        let before = package.read("Cargo.toml");
        let (after, _) = skills_compiler::ops::new::manifest::add_build_dependency(&before)
            .unwrap()
            .unwrap();
        assert!(
            after.contains(&format!("[build-dependencies]\n{expected}\n")),
            "{after}"
        );
        assert!(
            after.starts_with(&before),
            "the rest is kept as written:\n{after}"
        );
        assert!(after.contains("  # the runtime"), "comments are kept");
        // Once there, it is not added twice.
        assert_eq!(
            skills_compiler::ops::new::manifest::add_build_dependency(&after),
            Ok(None)
        );
    }
}

/// From `cargo new` to a crate that builds: `cargo skills new` adds the
/// runtime dependency (from where it was built: this checkout), sets up the
/// build script and the build-dependency, and prints the lines to add. No
/// hand edit of Cargo.toml (issue 24, item 2).
#[test]
fn a_crate_made_by_cargo_new_builds_right_after_skills_new() {
    // Outside any workspace: `cargo new` inside one would join it.
    let root = std::env::temp_dir().join(format!("skills-cargo-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let cargo = env!("CARGO");
    let status = std::process::Command::new(cargo)
        .args(["new", "--vcs", "none", "app"])
        .current_dir(&root)
        .status()
        .unwrap();
    assert!(status.success());
    let app = root.join("app");
    let mut manifest = std::fs::read_to_string(app.join("Cargo.toml")).unwrap();
    // Only to keep the crate out of any workspace above the temporary
    // directory; the dependencies are left to `cargo skills new`.
    manifest.push_str("\n[workspace]\n");
    std::fs::write(app.join("Cargo.toml"), manifest).unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::copy(workspace.join("Cargo.lock"), app.join("Cargo.lock")).unwrap();

    let output = support::cargo_skills_in(&app)
        .args(["skills", "new", "deploy", "--tool", "run_job"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let workspace_dir = workspace.canonicalize().unwrap();
    assert!(
        stdout.contains(&format!(
            "Added to Cargo.toml: [dependencies] skills-runtime = {{ path = \"{}/skills\" }}",
            workspace_dir.display()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("Added to Cargo.toml: [build-dependencies] skills-build = { path = "),
        "{stdout}"
    );
    assert!(app.join("build.rs").is_file(), "{stdout}");
    let lines: Vec<&str> = stdout
        .lines()
        .skip_while(|line| !line.starts_with("No source file uses the skills yet"))
        .skip(1)
        .take(3)
        .map(str::trim_start)
        .collect();
    assert_eq!(
        lines,
        ["mod agent {", "skills::include_skills!(\"skills\");", "}"],
        "{stdout}"
    );
    // Do what it says, and use the skill.
    let main = format!(
        "{}\n\nfn main() {{\n    println!(\"{{}}\", agent::deploy::SKILL.name());\n}}\n",
        lines.join("\n")
    );
    std::fs::write(app.join("src/main.rs"), main).unwrap();
    let output = std::process::Command::new(cargo)
        .args(["run", "--quiet"])
        .current_dir(&app)
        .env(
            "CARGO_TARGET_DIR",
            workspace.join("target/temp-crates/target"),
        )
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "deploy\n");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_file_that_cannot_be_written_is_an_io_failure_not_a_usage_error() {
    let package = Package::new("", "");
    // The skills root is a file: the skill's directory cannot be made.
    std::fs::write(package.dir.join("skills"), "not a directory").unwrap();
    let (_, stderr) = package.run(&["new", "deploy"], 1);
    assert!(
        stderr.starts_with("error: cannot write ") && stderr.contains("skills/deploy/SKILL.md"),
        "{stderr}"
    );
}
