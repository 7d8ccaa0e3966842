//! What the workspace promises users (issue 24, item 6). Every
//! publishable package with features is documented with all of them on
//! docs.rs, so that `Loader`, `Watch` and the MCP transports show up.

#[test]
fn docs_rs_builds_every_feature_of_every_publishable_package() {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(skills_tests::workspace())
        .output()
        .unwrap();
    assert!(output.status.success());
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut checked = Vec::new();
    for package in metadata["packages"].as_array().unwrap() {
        let publishable = package["publish"]
            .as_array()
            .is_none_or(|registries| !registries.is_empty());
        let features = package["features"].as_object().unwrap();
        if !publishable || features.keys().all(|name| name == "default") {
            continue;
        }
        let name = package["name"].as_str().unwrap();
        assert_eq!(
            package["metadata"]["docs"]["rs"]["all-features"], true,
            "{name} has features; [package.metadata.docs.rs] all-features = true"
        );
        checked.push(name.to_owned());
    }
    checked.sort();
    assert_eq!(
        checked,
        [
            "cargo-skills",
            "skills-compiler",
            "skills-core",
            "skills-mcp-server",
            "skills-runtime"
        ]
    );
}

/// The README opens with the two set-up commands, and says how long the
/// test command takes, so a newcomer knows what to expect (issue 24, item 6).
#[test]
fn the_readme_opens_with_two_commands_and_says_how_long_the_tests_take() {
    let readme = std::fs::read_to_string(skills_tests::workspace().join("README.md")).unwrap();
    let block: Vec<&str> = readme
        .lines()
        .skip_while(|line| *line != "```sh")
        .skip(1)
        .take_while(|line| *line != "```")
        .collect();
    assert_eq!(block.len(), 2, "{block:?}");
    assert!(block[0].starts_with("cargo run -p issue-agent -- --demo"));
    assert!(
        block[1].starts_with("cargo test --workspace "),
        "{}",
        block[1]
    );
    assert!(block[1].contains(" min "), "{}", block[1]);
}

/// The README registers MCP servers in ways that work wherever the target
/// directory is and whatever directory the host starts them in.
#[test]
fn the_readme_registers_mcp_servers_by_installed_binary_and_absolute_root() {
    let readme = std::fs::read_to_string(skills_tests::workspace().join("README.md")).unwrap();
    assert!(
        !readme.contains("target/release/"),
        "a path that CARGO_TARGET_DIR moves"
    );
    assert!(readme.contains("claude mcp add issue-tracker -- \"$(command -v mcp-server)\""));
    assert!(readme.contains("claude mcp add my-skills -- cargo skills serve \"$PWD/skills\""));
}

/// Issue 75, item 10: a stranger's legal review passes. Each published
/// package carries both licence texts in what `cargo package` packs, and
/// says where it lives, what it is about and where it belongs.
#[test]
fn every_published_package_carries_its_licences_and_metadata() {
    let root = skills_tests::workspace();
    for file in ["LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"] {
        assert!(root.join(file).is_file(), "{file} at the root");
    }
    let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).unwrap();
    assert!(changelog.contains("[Keep a Changelog]"), "{changelog}");
    assert!(changelog.contains("\n## [Unreleased]\n"), "{changelog}");
    let mut checked = Vec::new();
    for manifest in [root.join("Cargo.toml"), root.join("rig/Cargo.toml")] {
        let output = std::process::Command::new(env!("CARGO"))
            .args(["metadata", "--no-deps", "--format-version", "1"])
            .arg("--manifest-path")
            .arg(&manifest)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        for package in metadata["packages"].as_array().unwrap() {
            let publishable = package["publish"]
                .as_array()
                .is_none_or(|registries| !registries.is_empty());
            if !publishable {
                continue;
            }
            let name = package["name"].as_str().unwrap();
            assert_eq!(package["license"], "MIT OR Apache-2.0", "{name}");
            assert!(
                package["repository"]
                    .as_str()
                    .is_some_and(|url| url.starts_with("https://")),
                "{name}: repository"
            );
            for key in ["keywords", "categories"] {
                let values = package[key].as_array().unwrap();
                assert!(!values.is_empty() && values.len() <= 5, "{name}: {key}");
            }
            let listed = std::process::Command::new(env!("CARGO"))
                .args(["package", "--list", "--allow-dirty", "-p", name])
                .arg("--manifest-path")
                .arg(&manifest)
                .output()
                .unwrap();
            assert!(listed.status.success(), "{name}: {listed:?}");
            let files = String::from_utf8_lossy(&listed.stdout);
            for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
                assert!(
                    files.lines().any(|line| line == licence),
                    "{name} packs no {licence}: {files}"
                );
            }
            let dir = std::path::Path::new(package["manifest_path"].as_str().unwrap())
                .parent()
                .unwrap()
                .to_path_buf();
            assert_eq!(
                std::fs::read(dir.join("LICENSE-APACHE")).unwrap(),
                std::fs::read(root.join("LICENSE-APACHE")).unwrap(),
                "{name}: the Apache text is the root's"
            );
            checked.push(name.to_owned());
        }
    }
    checked.sort();
    assert_eq!(
        checked,
        [
            "cargo-skills",
            "skills-build",
            "skills-compiler",
            "skills-core",
            "skills-macros",
            "skills-mcp-server",
            "skills-rig",
            "skills-runtime"
        ]
    );
}
