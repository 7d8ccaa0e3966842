//! Link checking over the dev corpus (`../shared/corpus`): every skill
//! directory compiled on its own in `lenient`, with `check_links` on and
//! off, side by side in one run. The target (issue 22): at most 1.15x.
//!
//! ```sh
//! cargo bench -p skills-compiler --bench links
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use skills_compiler::{Config, Profile, compile_skill};

/// Every directory with a SKILL.md under `root`, sorted.
fn skill_dirs(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.join("SKILL.md").is_file() {
                out.push(path);
            } else {
                skill_dirs(&path, out);
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !corpus.is_dir() {
        eprintln!(
            "skipped: no corpus at {} (a fresh clone has no ../shared)",
            corpus.display()
        );
        return;
    }
    let mut dirs = Vec::new();
    skill_dirs(&corpus, &mut dirs);
    let skills: Vec<(PathBuf, PathBuf)> = dirs
        .iter()
        .map(|dir| {
            let parent = dir.parent().unwrap().to_path_buf();
            (parent, PathBuf::from(dir.file_name().unwrap()))
        })
        .collect();
    eprintln!("{} skills", skills.len());
    let mut group = c.benchmark_group(format!("check {} corpus skills", skills.len()));
    group.sample_size(20);
    for check_links in [false, true] {
        let config = Config {
            profile: Profile::Lenient,
            check_links,
            ..Config::default()
        };
        let name = if check_links {
            "links checked"
        } else {
            "check_links = false"
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                for (base, skill) in &skills {
                    black_box(compile_skill(base, skill, &config));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
