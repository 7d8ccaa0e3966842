//! `docs/diagnostics.md` is generated from the code table and must match it.

use std::path::Path;

#[test]
fn diagnostics_reference_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md");
    let expected = skills_compiler::diagnostics::reference_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/diagnostics.md is stale: run `UPDATE_DOCS=1 cargo test -p skills-compiler --test docs`"
    );
    for code in skills_compiler::Code::ALL {
        assert!(
            actual.contains(&format!("## {}: ", code.as_str())),
            "{code} is not documented"
        );
    }
}

#[test]
fn host_keys_table_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/host-keys.md");
    let expected = skills_compiler::keys::host_keys_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/host-keys.md is stale: run `UPDATE_DOCS=1 cargo test -p skills-compiler --test docs`"
    );
    for key in skills_compiler::keys::FRONTMATTER {
        if !key.read_by.is_empty() {
            assert!(
                actual.contains(&format!("| `{}` |", key.name)),
                "{}",
                key.name
            );
        }
    }
}
