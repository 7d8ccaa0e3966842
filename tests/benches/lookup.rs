//! `SkillSet::get` on the static table against the alternatives a run-time
//! loader has: a `HashMap<String, _>` built at start-up (lookup only), and
//! parsing the same 64 skills at start-up (what building that map costs),
//! beside what a compiled skill's first use costs (unpacking its tables).
//!
//!     cargo bench -p skills-tests --bench lookup

use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::Deserialize;

mod agent {
    skills::include_skills!("fixtures/sixty-four");
}

/// The files, embedded, so that the run-time parse measures parsing, not I/O.
fn files() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sixty-four");
    let mut files: Vec<(String, String)> = std::fs::read_dir(root)
        .unwrap()
        .map(|entry| {
            let dir = entry.unwrap().path();
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(dir.join("SKILL.md")).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Frontmatter {
    name: String,
    description: String,
    tools: Option<Vec<serde_json::Value>>,
    metadata: Option<BTreeMap<String, String>>,
}

#[allow(dead_code)]
struct Loaded {
    front: Frontmatter,
    body: String,
}

fn parse(text: &str) -> Loaded {
    let rest = text.strip_prefix("---\n").unwrap();
    let end = rest.find("\n---").unwrap();
    Loaded {
        front: serde_saphyr::from_str(&rest[..end]).unwrap(),
        body: rest[end + 4..].to_owned(),
    }
}

fn start_up(files: &[(String, String)]) -> HashMap<String, Loaded> {
    files
        .iter()
        .map(|(name, text)| (name.clone(), parse(text)))
        .collect()
}

fn bench(c: &mut Criterion) {
    let files = files();
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    assert_eq!(agent::SKILLS.len(), 64);
    let map = start_up(&files);

    let mut group = c.benchmark_group("lookup of all 64 names");
    group.bench_function("SkillSet::get (static, FNV-1a open addressing)", |b| {
        b.iter(|| {
            for name in &names {
                black_box(agent::SKILLS.get(black_box(name)));
            }
        })
    });
    group.bench_function("HashMap<String, _>::get (built at start-up)", |b| {
        b.iter(|| {
            for name in &names {
                black_box(map.get(black_box(name.as_str())));
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("start-up with 64 skills");
    group.bench_function("include_skills! (nothing to do)", |b| {
        b.iter(|| black_box(&agent::SKILLS).len())
    });
    // What the first use of each compiled skill costs: its packed tables
    // unpacked into a `Skill`. Fresh entries each time, since a skill is
    // unpacked once and kept.
    let packed: Vec<(&'static str, &'static str, &'static [u8])> = agent::SKILLS
        .iter()
        .map(|skill| {
            let leak = |text: &str| -> &'static str { Box::leak(text.into()) };
            let bytes: &'static [u8] = Box::leak(skills_core::pack(skill).into_boxed_slice());
            (leak(skill.name()), leak(skill.source()), bytes)
        })
        .collect();
    group.bench_function("include_skills!, first use of every skill (unpack)", |b| {
        b.iter(|| {
            for &(name, source, bytes) in &packed {
                let skill = skills_core::CompiledSkill::new(name, source, bytes, &[]);
                black_box(skill.description().len());
            }
        })
    });
    group.bench_function("parse at run time into a HashMap (serde-saphyr)", |b| {
        b.iter(|| start_up(black_box(&files)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
