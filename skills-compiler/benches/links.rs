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
    if let Some(rounds) = std::env::var("INTERLEAVED")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&rounds: &usize| rounds > 0)
    {
        interleaved(&skills, rounds);
        return;
    }
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

/// One pass of each configuration in turn, `rounds` times, and the ratio
/// of the medians: on a busy machine, load that comes and goes falls on
/// both alike.
///
/// ```sh
/// INTERLEAVED=30 cargo bench -p skills-compiler --bench links
/// ```
fn interleaved(skills: &[(PathBuf, PathBuf)], rounds: usize) {
    let pass = |check_links: bool| {
        let config = Config {
            profile: Profile::Lenient,
            check_links,
            ..Config::default()
        };
        let start = std::time::Instant::now();
        for (base, skill) in skills {
            black_box(compile_skill(base, skill, &config));
        }
        start.elapsed()
    };
    let (mut off, mut on) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        off.push(pass(false));
        on.push(pass(true));
    }
    off.sort();
    on.sort();
    let (off, on) = (off[rounds / 2], on[rounds / 2]);
    eprintln!(
        "medians of {rounds} interleaved passes: check_links = false {off:.1?}, links checked {on:.1?}, ratio {:.3}",
        on.as_secs_f64() / off.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
