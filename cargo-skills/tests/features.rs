//! The CLI a CI gate installs (issue 44, item 4): `cargo install
//! cargo-skills --no-default-features` builds no async runtime, HTTP
//! client, TLS or MCP library, and at most half the crates of the full
//! CLI. Read from `cargo tree` over the workspace's lock.

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
