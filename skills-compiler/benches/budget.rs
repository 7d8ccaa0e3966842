//! The context budget and the set-level description lint over 5,000 skills,
//! each beside a named alternative:
//!
//! - `budget::report` for each host, beside rendering every host's entry
//!   text and counting it (what a script-based checker does, with no cuts);
//! - `lint::similar_descriptions` (candidates from each description's rarest
//!   word), beside all-pairs Jaccard over the same interned, sorted word sets
//!   (12.5 million pairs).
//!
//! The 5,000 skills are written to a temporary directory and compiled once;
//! descriptions are 60 to 1,000 characters (median about 300) drawn from a
//! 2,000-word vocabulary.
//!
//!     cargo bench -p skills-compiler --bench budget

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use skills_compiler::ir::Skill;
use skills_compiler::ops::budget::{self, Budget, Entry, Host};
use skills_compiler::{Config, compile, similar_descriptions};

const SKILLS: usize = 5_000;

/// A deterministic pseudo-random sequence (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

fn description(rng: &mut Lcg) -> String {
    // Lengths skewed towards short: the median is about 300 characters.
    let target = 60 + (rng.next() % 31).pow(2) as usize;
    let mut text = String::new();
    while text.len() < target {
        text.push_str(&format!("w{} ", rng.next() % 2_000));
    }
    text.push_str("Use when the user asks for it.");
    text
}

fn skills() -> Vec<Skill> {
    let dir = std::env::temp_dir().join(format!("skills-budget-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut rng = Lcg(13);
    for i in 0..SKILLS {
        let name = format!("skill-{i:04}");
        let path = dir.join("skills").join(&name);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(
            path.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: {}\n---\nBody.\n",
                description(&mut rng)
            ),
        )
        .unwrap();
    }
    let config = Config {
        max_skills: Some(SKILLS),
        ..Config::default()
    };
    let compilation = compile(&dir, &config);
    let _ = std::fs::remove_dir_all(&dir);
    compilation
        .valid
        .skills
        .into_iter()
        .map(std::sync::Arc::unwrap_or_clone)
        .collect()
}

/// What a script does: every entry's text, counted, summed.
fn rendered_and_counted(budget: Budget, entries: &[Entry<'_>]) -> usize {
    entries
        .iter()
        .map(|entry| budget::entry_text(budget, entry).chars().count())
        .sum()
}

/// All pairs of word sets, Jaccard of at least 0.8: the direct way, with the
/// same advantage the lint has (words interned, sets sorted, one merge walk).
fn all_pairs_jaccard(skills: &[Skill]) -> usize {
    let mut ids: HashMap<String, u32> = HashMap::new();
    let sets: Vec<Vec<u32>> = skills
        .iter()
        .map(|s| {
            let mut set: Vec<u32> = s
                .description()
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(|w| {
                    let next = ids.len() as u32;
                    *ids.entry(w.to_owned()).or_insert(next)
                })
                .collect();
            set.sort_unstable();
            set.dedup();
            set
        })
        .collect();
    let mut similar = 0;
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            let shared = shared(&sets[i], &sets[j]);
            let union = sets[i].len() + sets[j].len() - shared;
            if shared * 5 >= union * 4 {
                similar += 1;
            }
        }
    }
    similar
}

fn shared(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn bench(c: &mut Criterion) {
    let skills = skills();
    assert_eq!(skills.len(), SKILLS, "every synthetic skill compiles");
    let entries: Vec<Entry<'_>> = skills.iter().map(Entry::from).collect();

    let mut group = c.benchmark_group("budget of 5,000 skills");
    for host in Host::ALL.map(Host::budget) {
        group.bench_function(format!("report/{}", host.name()), |b| {
            b.iter(|| {
                budget::report(
                    host,
                    black_box(&entries),
                    &budget::Options::context(Some(200_000)),
                )
            })
        });
    }
    group.bench_function("report/all four hosts", |b| {
        b.iter(|| {
            Host::ALL.map(Host::budget).map(|host| {
                budget::report(
                    host,
                    black_box(&entries),
                    &budget::Options::context(Some(200_000)),
                )
                .used
            })
        })
    });
    group.bench_function("entry texts rendered and counted/all four hosts", |b| {
        b.iter(|| {
            Host::ALL
                .map(Host::budget)
                .map(|host| rendered_and_counted(host, black_box(&entries)))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("similar descriptions in 5,000 skills");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(20));
    group.bench_function("lint::similar_descriptions (rarest-word candidates)", |b| {
        b.iter(|| similar_descriptions(black_box(&skills)).len())
    });
    group.bench_function("all-pairs Jaccard", |b| {
        b.iter(|| all_pairs_jaccard(black_box(&skills)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
