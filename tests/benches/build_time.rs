//! Build time of a crate embedding 64 skills through `include_skills!`,
//! against the same crate with hand-written `include_str!` statics: each
//! sample edits `src/main.rs` and rebuilds the crate (dependencies are built
//! once, beforehand). A real cargo, offline.
//!
//!     cargo bench -p skills-tests --bench build_time

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use skills_tests::{TempCrate, manifest, workspace};

fn skill_files() -> Vec<(String, String)> {
    let root = workspace().join("tests/fixtures/sixty-four");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(root.join(&name).join("SKILL.md")).unwrap();
            (format!("skills/{name}/SKILL.md"), text)
        })
        .collect();
    files.sort();
    files
}

fn macro_main(edit: u32) -> String {
    format!(
        "// edit {edit}\nmod agent {{\n    skills::include_skills!(\"skills\", track = false);\n}}\n\nfn main() {{\n    println!(\"{{}}\", agent::SKILLS.len());\n}}\n"
    )
}

fn include_str_main(edit: u32, files: &[(String, String)]) -> String {
    let statics: String = files
        .iter()
        .map(|(path, _)| format!("    include_str!(\"../{path}\"),\n"))
        .collect();
    format!(
        "// edit {edit}\nstatic SKILLS: [&str; {}] = [\n{statics}];\n\nfn main() {{\n    println!(\"{{}}\", SKILLS.len());\n}}\n",
        files.len()
    )
}

fn crate_with(name: &str, main: String, files: &[(String, String)]) -> TempCrate {
    let manifest = manifest(name, "skills", false);
    let mut all: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    all.push(("Cargo.toml", &manifest));
    all.push(("src/main.rs", &main));
    let krate = TempCrate::new(name, &all);
    let output = krate.cargo(&["build"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    krate
}

fn rebuild(krate: &TempCrate, main: String) -> Duration {
    krate.write("src/main.rs", &main);
    krate.timed_build()
}

fn bench(c: &mut Criterion) {
    let files = skill_files();
    let with_macro = crate_with("bench-macro", macro_main(0), &files);
    let with_include_str = crate_with("bench-include-str", include_str_main(0, &files), &files);

    let mut group = c.benchmark_group("rebuild after editing main.rs, 64 skills");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30));
    let mut edit = 0;
    group.bench_function("include_skills!", |b| {
        b.iter_custom(|iterations| {
            (0..iterations)
                .map(|_| {
                    edit += 1;
                    rebuild(&with_macro, macro_main(edit))
                })
                .sum()
        })
    });
    group.bench_function("hand-written include_str! statics", |b| {
        b.iter_custom(|iterations| {
            (0..iterations)
                .map(|_| {
                    edit += 1;
                    rebuild(&with_include_str, include_str_main(edit, &files))
                })
                .sum()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
