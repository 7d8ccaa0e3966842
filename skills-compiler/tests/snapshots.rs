//! insta snapshots of the rendered (plain) diagnostics of every broken
//! fixture in `tests/fixtures/broken`: what a person actually reads.

use std::path::Path;

use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::{Compilation, Config, compile_skill};

fn rendered(compilation: &Compilation) -> String {
    compilation
        .diagnostics
        .iter()
        .map(|d| render::human(d, &compilation.sources, Color::Never))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn broken_fixtures_render_as_rustc_style_diagnostics() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken");
    let mut names: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let compilation = compile_skill(&base, name.as_ref(), &Config::default());
        assert!(compilation.has_errors(), "{name} should be broken");
        insta::assert_snapshot!(name.clone(), rendered(&compilation));
    }
}

#[test]
fn the_short_json_and_github_forms_of_one_fixture() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken");
    let compilation = compile_skill(&base, "unknown-keys".as_ref(), &Config::default());
    let short: Vec<String> = compilation.diagnostics.iter().map(render::short).collect();
    insta::assert_snapshot!("unknown-keys.short", short.join("\n"));
    let github: Vec<String> = compilation.diagnostics.iter().map(render::github).collect();
    insta::assert_snapshot!("unknown-keys.github", github.join("\n"));
    let json: Vec<serde_json::Value> = compilation
        .diagnostics
        .iter()
        .map(|d| {
            let mut value: serde_json::Value =
                serde_json::from_str(&render::json(d, &compilation.sources)).unwrap();
            // `rendered` is the human form, snapshotted above.
            value.as_object_mut().unwrap().remove("rendered");
            value
        })
        .collect();
    insta::assert_snapshot!(
        "unknown-keys.json",
        serde_json::to_string_pretty(&json).unwrap()
    );
}
