//! insta snapshots of the generated code, formatted by prettyplease, for
//! several skill directories; and the proof that it is deterministic and
//! carries no absolute path.

use std::path::Path;

use quote::quote;
use skills_compiler::emit::codegen;
use skills_compiler::{Config, compile};

fn expansion(crate_dir: &str, skills_dir: &str) -> String {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(crate_dir);
    let config = Config {
        dir: skills_dir.into(),
        ..Config::default()
    };
    let compilation = compile(&base, &config);
    let set = compilation
        .skills()
        .unwrap_or_else(|| panic!("{:#?}", compilation.diagnostics));
    let tokens = codegen::expand(set, &quote!(::skills));
    prettyplease::unparse(&syn::parse2(tokens).expect("the expansion parses as a file"))
}

#[test]
fn the_example_skills() {
    insta::assert_snapshot!(expansion("../examples/issue-tracker", "skills"));
}

#[test]
fn every_schema_construct_protocols_and_odd_names() {
    insta::assert_snapshot!(expansion(".", "fixtures/codegen"));
}

/// A skill directory's files: each an `include_bytes!` of the file through
/// `CARGO_MANIFEST_DIR`, in a `static` of its own (`tests/loader.rs`
/// compiles the same directory and compares the bytes with the disk).
#[test]
fn a_skill_directory_with_files() {
    insta::assert_snapshot!(expansion(".", "fixtures/files"));
}

#[test]
fn the_expansion_is_byte_identical_across_runs_and_relocatable() {
    let first = expansion(".", "fixtures/codegen");
    assert_eq!(first, expansion(".", "fixtures/codegen"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .unwrap();
    let root = root.to_string_lossy();
    assert!(
        !first.contains(root.as_ref()),
        "an absolute path leaked into the expansion"
    );
    assert!(first.contains("::core::env!(\"CARGO_MANIFEST_DIR\")"));
    assert!(first.contains("\"/fixtures/codegen/schema-zoo/SKILL.md\""));
}

/// A skill without tools expands to its table and a module that names it:
/// no `ToolCall`, no argument types, no function (issue 21).
#[test]
fn a_skill_without_tools_expands_to_no_tool_code() {
    let text = expansion(".", "fixtures/files");
    let module = text
        .split("pub mod forms {")
        .nth(1)
        .expect("the skill's module");
    for code in ["ToolCall", "enum ", "struct ", "fn ", "impl "] {
        assert!(
            !module.contains(code),
            "`{code}` in a toolless skill's module:\n{module}"
        );
    }
    // The whole expansion: tables and `SKILLS`, no code at all.
    for code in ["fn ", "impl ", "enum "] {
        assert!(!text.contains(code), "`{code}` in the expansion:\n{text}");
    }
    // A skill with tools keeps its typed calls (the runtime's `tool_call!`
    // writes the enum).
    let tools = expansion("../examples/issue-tracker", "skills");
    assert!(tools.contains("__p::tool_call!"), "{tools}");
}
