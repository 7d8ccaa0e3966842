//! Rebuild tracking with a real cargo, for the build-script path and for the
//! macro with `skills_build::track`: new, edited and deleted skills are seen,
//! errors fail the build at file:line:col, and a build with no change does
//! nothing at all.

use skills_tests::{TempCrate, manifest};

#[derive(Clone, Copy, Debug)]
enum Path {
    BuildScript,
    MacroWithTrack,
}

fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n")
}

fn new_crate(path: Path) -> TempCrate {
    let name = match path {
        Path::BuildScript => "rebuild-build-rs",
        Path::MacroWithTrack => "rebuild-macro",
    };
    temp_crate(
        path,
        name,
        "    print!(\"{}\", agent::SKILLS.catalog());\n",
        &[("skills/alpha/SKILL.md", &skill("alpha", "First."))],
    )
}

/// A crate that embeds `skills` on `path` and whose `main` runs `body`.
fn temp_crate(path: Path, name: &str, body: &str, files: &[(&str, &str)]) -> TempCrate {
    let (build_rs, module) = match path {
        Path::BuildScript => (
            "fn main() {\n    skills_build::compile(\"skills\");\n}\n",
            "mod agent {\n    include!(concat!(env!(\"OUT_DIR\"), \"/skills.rs\"));\n}\n",
        ),
        Path::MacroWithTrack => (
            "fn main() {\n    skills_build::track(\"skills\");\n}\n",
            "mod agent {\n    skills::include_skills!(\"skills\");\n}\n",
        ),
    };
    let main = format!("{module}\nfn main() {{\n{body}}}\n");
    let manifest = manifest(name, "skills", true);
    let mut all = vec![
        ("Cargo.toml", manifest.as_str()),
        ("build.rs", build_rs),
        ("src/main.rs", main.as_str()),
    ];
    all.extend_from_slice(files);
    TempCrate::new(name, &all)
}

fn run(krate: &TempCrate) -> Result<String, String> {
    let output = krate.cargo(&["run", "--quiet"]);
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// A second build with no change runs no build script and compiles nothing.
fn assert_fresh(krate: &TempCrate, path: Path) {
    let crate_name = krate
        .dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let output = krate.cargo(&["build", "-v"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        !stderr.contains("Running"),
        "{path:?}: something ran:\n{stderr}"
    );
    assert!(
        !stderr.contains("Compiling"),
        "{path:?}: something compiled:\n{stderr}"
    );
    let package = crate_name
        .rsplitn(3, '-')
        .nth(2)
        .unwrap_or(&crate_name)
        .to_owned();
    assert!(
        stderr.contains(&format!("Fresh {package} v0.1.0")),
        "{path:?}:\n{stderr}"
    );
}

fn scenario(path: Path) {
    let krate = new_crate(path);
    assert_eq!(run(&krate).unwrap(), "- alpha: First.\n", "{path:?}");

    krate.write("skills/beta/SKILL.md", &skill("beta", "Second."));
    assert_eq!(
        run(&krate).unwrap(),
        "- alpha: First.\n- beta: Second.\n",
        "{path:?}: a new skill"
    );

    krate.write("skills/alpha/SKILL.md", &skill("alpha", "First, edited."));
    assert_eq!(
        run(&krate).unwrap(),
        "- alpha: First, edited.\n- beta: Second.\n",
        "{path:?}: an edit"
    );

    krate.remove("skills/beta");
    assert_eq!(
        run(&krate).unwrap(),
        "- alpha: First, edited.\n",
        "{path:?}: a deletion"
    );

    krate.write("skills/alpha/SKILL.md", &skill("Alpha", "Broken."));
    let stderr = run(&krate).unwrap_err();
    assert!(
        stderr.contains("skills/alpha/SKILL.md:2:7"),
        "{path:?}: {stderr}"
    );
    assert!(stderr.contains("S103"), "{path:?}: {stderr}");

    krate.write("skills/alpha/SKILL.md", &skill("alpha", "Fixed."));
    assert_eq!(run(&krate).unwrap(), "- alpha: Fixed.\n", "{path:?}: fixed");

    if let Path::BuildScript = path {
        // Warnings never disappear: Cargo shows the build script's `cargo::warning=` lines.
        krate.write("skills/notes/README.md", "not a skill");
        let output = krate.cargo(&["build"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        assert!(
            stderr.contains("warning: rebuild-build-rs@0.1.0: skills/notes: warning[W001]"),
            "{stderr}"
        );
        krate.remove("skills/notes");
        assert_eq!(run(&krate).unwrap(), "- alpha: Fixed.\n");
    }

    assert_fresh(&krate, path);
}

/// A crate whose binary prints each skill file's path, length and text.
fn files_crate(path: Path) -> TempCrate {
    let name = match path {
        Path::BuildScript => "rebuild-files-build-rs",
        Path::MacroWithTrack => "rebuild-files-macro",
    };
    temp_crate(
        path,
        name,
        "    for skill in agent::SKILLS.iter() {\n        for file in skill.files() {\n            println!(\"{}/{} {} {:?}\", skill.name(), file.path(), file.len(), file.text());\n        }\n    }\n",
        &[
            ("skills/alpha/SKILL.md", &skill("alpha", "First.")),
            ("skills/alpha/references/a.md", "one"),
        ],
    )
}

/// Adding, editing and deleting a skill's file (not SKILL.md) rebuilds on
/// both paths, and a build with no change runs nothing.
fn files_scenario(path: Path) {
    let krate = files_crate(path);
    assert_eq!(
        run(&krate).unwrap(),
        "alpha/references/a.md 3 Some(\"one\")\n",
        "{path:?}"
    );
    krate.write("skills/alpha/references/b.md", "two");
    assert_eq!(
        run(&krate).unwrap(),
        "alpha/references/a.md 3 Some(\"one\")\nalpha/references/b.md 3 Some(\"two\")\n",
        "{path:?}: a new file"
    );
    krate.write("skills/alpha/references/a.md", "three");
    assert_eq!(
        run(&krate).unwrap(),
        "alpha/references/a.md 5 Some(\"three\")\nalpha/references/b.md 3 Some(\"two\")\n",
        "{path:?}: an edit"
    );
    krate.remove("skills/alpha/references/b.md");
    krate.write("skills/alpha/assets/x.bin", "\0\u{1}");
    assert_eq!(
        run(&krate).unwrap(),
        "alpha/assets/x.bin 2 None\nalpha/references/a.md 5 Some(\"three\")\n",
        "{path:?}: a deletion and a binary file"
    );
    assert_fresh(&krate, path);
}

#[test]
fn the_build_script_path_sees_new_edited_and_deleted_files() {
    files_scenario(Path::BuildScript);
}

#[test]
fn the_macro_with_track_sees_new_edited_and_deleted_files() {
    files_scenario(Path::MacroWithTrack);
}

#[test]
fn the_build_script_path_sees_new_edited_and_deleted_skills() {
    scenario(Path::BuildScript);
}

#[test]
fn the_macro_with_track_sees_new_edited_and_deleted_skills() {
    scenario(Path::MacroWithTrack);
}

#[test]
fn a_symlink_loop_in_the_skills_root_does_not_hang_the_build() {
    for path in [Path::MacroWithTrack, Path::BuildScript] {
        let krate = new_crate(path);
        std::fs::create_dir_all(krate.dir.join("skills/alpha/references")).unwrap();
        // A link back to the skill's own directory is a folder with a
        // SKILL.md: skipped as a skill of its own, not walked again.
        std::os::unix::fs::symlink("..", krate.dir.join("skills/alpha/references/loop")).unwrap();
        assert_eq!(run(&krate).unwrap(), "- alpha: First.\n", "{path:?}");
        // Tracking still works beside the loop.
        krate.write("skills/alpha/SKILL.md", &skill("alpha", "Edited."));
        assert_eq!(run(&krate).unwrap(), "- alpha: Edited.\n", "{path:?}");
        // A loop through the crate root leaves the skill: an error, at once.
        std::os::unix::fs::symlink("../..", krate.dir.join("skills/alpha/root")).unwrap();
        let error = run(&krate).unwrap_err();
        assert!(error.contains("S515"), "{path:?}: {error}");
        // A loop inside the skill ends at the depth bound.
        std::fs::remove_file(krate.dir.join("skills/alpha/root")).unwrap();
        std::os::unix::fs::symlink(".", krate.dir.join("skills/alpha/references/self")).unwrap();
        let error = run(&krate).unwrap_err();
        assert!(error.contains("S514"), "{path:?}: {error}");
    }
}

/// A workspace whose `[workspace.metadata.skills]` configures its member `app`.
fn workspace_with_profile(profile: &str) -> String {
    format!(
        "[workspace]\nmembers = [\"app\"]\nresolver = \"3\"\n\n[workspace.metadata.skills]\nprofile = \"{profile}\"\n"
    )
}

#[test]
fn an_edit_of_the_workspace_configuration_rebuilds_the_member() {
    for (path, build_rs, module) in [
        (
            Path::MacroWithTrack,
            "fn main() {\n    skills_build::track(\"skills\");\n}\n",
            "mod agent {\n    skills::include_skills!(\"skills\");\n}\n",
        ),
        (
            Path::BuildScript,
            "fn main() {\n    skills_build::compile(\"skills\");\n}\n",
            "mod agent {\n    include!(concat!(env!(\"OUT_DIR\"), \"/skills.rs\"));\n}\n",
        ),
    ] {
        let member = manifest("app", "skills", true).replace("\n[workspace]\n", "\n");
        let main =
            format!("{module}\nfn main() {{\n    print!(\"{{}}\", agent::SKILLS.catalog());\n}}\n");
        // `tags` is an extension: fine in `extended`, an error in `portable`.
        let skill = "---\nname: alpha\ndescription: First.\ntags: [x]\n---\nBody.\n";
        let krate = TempCrate::new(
            "workspace-config",
            &[
                ("Cargo.toml", &workspace_with_profile("extended")),
                ("app/Cargo.toml", &member),
                ("app/build.rs", build_rs),
                ("app/src/main.rs", &main),
                ("app/skills/alpha/SKILL.md", skill),
            ],
        );
        assert_eq!(run(&krate).unwrap(), "- alpha: First.\n", "{path:?}");
        krate.write("Cargo.toml", &workspace_with_profile("portable"));
        let error = run(&krate).unwrap_err();
        assert!(
            error.contains("skills/alpha/SKILL.md:4:1") && error.contains("tags"),
            "{path:?}: the member was not rebuilt with the new profile:\n{error}"
        );
    }
}

/// The `OUT_DIR` of the crate's build script, from cargo's own messages.
fn out_dir(krate: &TempCrate) -> std::path::PathBuf {
    let output = krate.cargo(&["build", "--message-format=json"]);
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "build-script-executed")
        .filter(|message| {
            message["package_id"]
                .as_str()
                .is_some_and(|id| id.contains(&*krate.dir.to_string_lossy()))
        })
        .find_map(|message| message["out_dir"].as_str().map(std::path::PathBuf::from))
        .expect("the build script ran")
}

/// What `track` stored for `skills`: one file.
fn stored_expansion(krate: &TempCrate) -> std::path::PathBuf {
    let dir = out_dir(krate).join("include_skills");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// `path` rewritten as it is, with a modification time a second ahead: a
/// rewrite within the clock's tick of the last build's outputs would look
/// unchanged to cargo on a busy machine, and the build would not run.
fn touch(path: &std::path::Path) {
    let text = std::fs::read(path).unwrap();
    std::fs::write(path, text).unwrap();
    let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(1);
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(ahead))
        .unwrap();
}

/// The stored file with a `compile_error!` first: a build that reads it fails.
fn mark(stored: &std::path::Path) {
    let text = std::fs::read_to_string(stored).unwrap();
    let body = text
        .rfind("\n// stamp ")
        .map(|at| at + 1 + text[at + 1..].find('\n').unwrap() + 1);
    let at = body.expect("a header");
    let marked = format!(
        "{}::core::compile_error!(\"read from the store\");{}",
        &text[..at],
        &text[at..]
    );
    std::fs::write(stored, marked).unwrap();
}

/// `track` stores the macro's expansion, and the macro reads it back on a
/// rebuild instead of compiling the skills again; once the skills or the
/// macro's configuration differ from what it was made from, it is not read.
#[test]
fn the_macro_reads_the_expansion_track_stored_while_it_matches() {
    // Without a warning: one is shown at the macro's argument, so nothing is stored.
    let clean = |description: &str| skill("alpha", &format!("{description} Use when testing."));
    let krate = temp_crate(
        Path::MacroWithTrack,
        "stored-expansion",
        "    print!(\"{}\", agent::SKILLS.catalog());\n",
        &[("skills/alpha/SKILL.md", &clean("First."))],
    );
    assert_eq!(run(&krate).unwrap(), "- alpha: First. Use when testing.\n");
    let stored = stored_expansion(&krate);
    let text = std::fs::read_to_string(&stored).unwrap();
    assert!(text.contains("skills-compiler"), "{text}");

    // Touching main.rs re-expands the macro: it reads the stored tokens.
    mark(&stored);
    touch(&krate.dir.join("src/main.rs"));
    let stderr = run(&krate).unwrap_err();
    assert!(stderr.contains("read from the store"), "{stderr}");

    // An edited skill: the build script stores a new expansion, which is read.
    krate.write("skills/alpha/SKILL.md", &clean("Edited."));
    assert_eq!(run(&krate).unwrap(), "- alpha: Edited. Use when testing.\n");
    let text = std::fs::read_to_string(&stored).unwrap();
    assert!(!text.contains("read from the store"));

    // A stored expansion whose stamp no longer matches the files is not
    // read, even when nothing re-ran the build script.
    mark(&stored);
    let stamped = std::fs::read_to_string(&stored).unwrap();
    let unstamped = stamped.replacen("// stamp ", "// stamp 0", 1);
    std::fs::write(&stored, unstamped).unwrap();
    touch(&krate.dir.join("src/main.rs"));
    assert_eq!(run(&krate).unwrap(), "- alpha: Edited. Use when testing.\n");

    // A stored body that rustc cannot lex never crashes the macro. With
    // unbalanced delimiters rustc refuses the text and the macro compiles
    // the skills; an unterminated literal rustc reports at the macro before
    // it can refuse the text (its lexer panics out of `from_str`).
    let touch_main = || touch(&krate.dir.join("src/main.rs"));
    std::fs::write(&stored, format!("{stamped}}}")).unwrap();
    touch_main();
    assert_eq!(run(&krate).unwrap(), "- alpha: Edited. Use when testing.\n");
    std::fs::write(&stored, format!("{stamped}\"unterminated")).unwrap();
    touch_main();
    let stderr = run(&krate).unwrap_err();
    assert!(
        stderr.contains("unterminated double quote string"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    // The macro's own options make another configuration: not read either.
    std::fs::write(&stored, stamped).unwrap();
    let main = std::fs::read_to_string(krate.dir.join("src/main.rs"))
        .unwrap()
        .replace(
            "include_skills!(\"skills\")",
            "include_skills!(\"skills\", deny_warnings = true)",
        );
    krate.write("src/main.rs", &main);
    assert_eq!(run(&krate).unwrap(), "- alpha: Edited. Use when testing.\n");
}
