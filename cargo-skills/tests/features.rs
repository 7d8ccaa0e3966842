//! The CLI a CI gate installs (issue 44, item 4): `cargo install
//! cargo-skills --no-default-features` builds no async runtime, HTTP
//! client, TLS or MCP library, and at most half the crates of the full
//! CLI. Read from `cargo tree` over the workspace's lock. And the lean CLI,
//! built, has every command the full one has (issue 57).

use std::collections::BTreeSet;
use std::process::Command;

/// Every crate (name and version) `cargo-skills` builds with `features`:
/// normal and build dependencies, proc macros included.
fn crates(features: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "tree",
            "-p",
            "cargo-skills",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ])
        .args(["--locked"])
        .args(features)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some(format!("{} {}", words.next()?, words.next()?))
        })
        .collect()
}

fn named<'a>(crates: &'a BTreeSet<String>, names: &[&str]) -> Vec<&'a String> {
    crates
        .iter()
        .filter(|krate| {
            names
                .iter()
                .any(|name| krate.split(' ').next() == Some(name))
        })
        .collect()
}

#[test]
fn the_ci_cli_has_no_runtime_http_tls_or_mcp_and_half_the_crates() {
    const HEAVY: &[&str] = &["tokio", "reqwest", "rustls", "hyper", "rmcp"];
    let full = crates(&[]);
    let lean = crates(&["--no-default-features"]);
    // The full CLI has them (the check below is not vacuous)...
    assert_eq!(
        named(&full, HEAVY).len(),
        HEAVY.len(),
        "{:?}",
        named(&full, HEAVY)
    );
    // ...the lean one none of them.
    assert!(named(&lean, HEAVY).is_empty(), "{:?}", named(&lean, HEAVY));
    assert!(
        lean.len() * 2 <= full.len(),
        "{} crates without default features, {} with",
        lean.len(),
        full.len()
    );
}

/// The full CLI builds no C crypto library (issue 62): rustls runs on
/// `ring` (`skills::https`), not on its default aws-lc-rs, whose C build
/// was the longest step of `cargo install cargo-skills`.
#[test]
fn the_full_cli_builds_tls_on_ring_not_aws_lc() {
    const AWS_LC: &[&str] = &["aws-lc-rs", "aws-lc-sys", "aws-lc-fips-sys"];
    let full = crates(&[]);
    // The TLS stack is there (the check below is not vacuous)...
    assert_eq!(
        named(&full, &["rustls", "ring"]).len(),
        2,
        "{:?}",
        named(&full, &["rustls", "ring"])
    );
    // ...on ring alone.
    assert!(
        named(&full, AWS_LC).is_empty(),
        "{:?}",
        named(&full, AWS_LC)
    );
}

/// The subcommands `--help` lists, in order.
fn subcommands(binary: &std::path::Path) -> Vec<String> {
    let output = Command::new(binary).arg("--help").output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// Issue 57, item 8: the lean CLI answered `serve` with clap's
/// "unrecognized subcommand 'serve' ... tip: 'remove'". Every command of the
/// full CLI exists in the lean one, and what needs a feature says which, as
/// a usage error (exit 2). Builds the lean CLI in a target directory of its
/// own (features differ from the test build's).
#[test]
fn the_lean_cli_has_every_command_and_names_the_feature_it_lacks() {
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lean-cli");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(cargo)
        .args([
            "build",
            "-p",
            "cargo-skills",
            "--no-default-features",
            "--locked",
        ])
        .arg("--target-dir")
        .arg(&target)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let lean = target.join("debug/cargo-skills");
    let full = std::path::Path::new(env!("CARGO_BIN_EXE_cargo-skills"));
    let commands = subcommands(full);
    assert!(commands.contains(&"serve".to_owned()), "{commands:?}");
    assert_eq!(subcommands(&lean), commands);
    for (args, says) in [
        (&["serve", "skills"][..], "`serve` needs the `mcp` feature"),
        (
            &["check", "mcp+stdio:true"],
            "built without the `mcp` feature",
        ),
        (&["sign", "skills"], "`sign` needs the `signing` feature"),
    ] {
        let output = Command::new(&lean).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("unrecognized"), "{args:?}: {stderr}");
    }
    // Without `signing`, a check asked to verify signatures fails rather
    // than passing unchecked.
    let output = Command::new(&lean)
        .args([
            "check",
            "examples/issue-tracker/skills",
            "--trust",
            "ca.pem",
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[S528]: `trust` or `require_signatures` is set, and this build cannot verify signatures"), "{stderr}");
}
