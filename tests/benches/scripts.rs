//! One `run_skill_script` call beside spawning the same script directly
//! with `std::process::Command` and reading its output: what the toolset
//! adds (argument checks, approval, the written-out copy's lookup, the
//! process group, the capped readers, the waiting thread, the JSON result).
//!
//!     cargo bench -p skills-tests --bench scripts

use std::hint::black_box;
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use skills::scripts::Scripts;
use skills::toolset::{RUN_SKILL_SCRIPT, Toolset};

mod agent {
    skills::include_skills!("fixtures/scripts");
}

fn scripts(c: &mut Criterion) {
    let toolset = Toolset::new(&agent::SKILLS)
        .with_scripts(Scripts::new().allow(["runner/scripts/exit3.sh"]));
    let arguments = json!({"name": "runner", "path": "scripts/exit3.sh"});
    // The first run writes the skill out; the direct spawn runs that copy.
    toolset
        .respond(RUN_SKILL_SCRIPT, &arguments)
        .unwrap()
        .unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/scripts/runner/scripts/exit3.sh");
    let mut group = c.benchmark_group("one script run (sh, exits 3)");
    group.bench_function("run_skill_script", |b| {
        b.iter(|| {
            black_box(
                toolset
                    .respond(RUN_SKILL_SCRIPT, &arguments)
                    .unwrap()
                    .unwrap(),
            )
        })
    });
    group.bench_function("Command::output", |b| {
        b.iter(|| black_box(Command::new("sh").arg(&script).output().unwrap()))
    });
    group.finish();
}

criterion_group!(benches, scripts);
criterion_main!(benches);
