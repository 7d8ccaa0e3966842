//! Rebuild time of the same crate with 8 skills, macro path (`include_skills!`
//! plus `skills_build::track`) against build-script path (`skills_build::compile`
//! plus `include!`): a no-op build, and a build after editing one SKILL.md.
//! A real cargo, offline; dependencies are built beforehand.
//!
//!     cargo bench -p skills-tests --bench rebuild

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use skills_tests::{TempCrate, manifest};

fn skill(i: usize, edit: u32) -> String {
    format!(
        "---\nname: skill-{i}\ndescription: Skill {i}, edit {edit}.\ntools:\n  - name: get_{i}\n    description: Get.\n    parameters: {{type: object, required: [id], properties: {{id: {{type: string}}}}}}\n    endpoint: {{method: GET, url: \"https://h.example.com/{{{{id}}}}\"}}\n---\nBody {i}.\n"
    )
}

fn new_crate(name: &str, build_rs: &str, module: &str) -> TempCrate {
    let main =
        format!("{module}\nfn main() {{\n    print!(\"{{}}\", agent::SKILLS.catalog());\n}}\n");
    let skills: Vec<(String, String)> = (0..8)
        .map(|i| (format!("skills/skill-{i}/SKILL.md"), skill(i, 0)))
        .collect();
    let manifest = manifest(name, "skills", true);
    let mut files: Vec<(&str, &str)> = skills
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    files.extend([
        ("Cargo.toml", manifest.as_str()),
        ("build.rs", build_rs),
        ("src/main.rs", main.as_str()),
    ]);
    let krate = TempCrate::new(name, &files);
    krate.timed_build();
    krate
}

fn bench(c: &mut Criterion) {
    let crates = [
        (
            "macro + track",
            new_crate(
                "bench-rebuild-macro",
                "fn main() {\n    skills_build::track(\"skills\");\n}\n",
                "mod agent {\n    skills::include_skills!(\"skills\");\n}\n",
            ),
        ),
        (
            "build.rs + include!",
            new_crate(
                "bench-rebuild-build-rs",
                "fn main() {\n    skills_build::compile(\"skills\");\n}\n",
                "mod agent {\n    include!(concat!(env!(\"OUT_DIR\"), \"/skills.rs\"));\n}\n",
            ),
        ),
    ];
    let mut group = c.benchmark_group("rebuild, 8 skills");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (label, krate) in &crates {
        group.bench_function(format!("no-op/{label}"), |b| {
            b.iter_custom(|n| (0..n).map(|_| krate.timed_build()).sum())
        });
        let mut edit = 0;
        group.bench_function(format!("edit one SKILL.md/{label}"), |b| {
            b.iter_custom(|n| {
                (0..n)
                    .map(|_| {
                        edit += 1;
                        krate.write("skills/skill-3/SKILL.md", &skill(3, edit));
                        krate.timed_build()
                    })
                    .sum()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
