//! Parse + validate throughput on a real skills collection, side by side with
//! a typical run-time loader of the same files (split the fences, then a serde
//! YAML parse into a struct, as most agent runtimes do at start-up).
//!
//! The collection is `../shared/corpus/anthropics-skills/skills` when present,
//! else the bundled `examples/issue-tracker/skills` (the run says which).
//!
//!     cargo bench -p skills-compiler --bench compile

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;
use skills_compiler::{Config, compile};
use skills_compiler::{SkillFiles, compile_files};

/// What a typical run-time loader deserialises: the spec fields, no checks.
#[derive(Deserialize)]
#[allow(dead_code)]
struct Frontmatter {
    name: String,
    description: String,
    license: Option<String>,
    compatibility: Option<String>,
    metadata: Option<BTreeMap<String, String>>,
    #[serde(rename = "allowed-tools")]
    allowed_tools: Option<String>,
}

/// Split the fences the way most loaders do, then deserialise.
fn runtime_loader(text: &str) -> Option<(Frontmatter, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---")?;
    let front: Frontmatter = serde_saphyr::from_str(&rest[..end]).ok()?;
    Some((front, &rest[end + 4..]))
}

fn collection() -> (PathBuf, &'static str) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = manifest.join("../../shared/corpus/anthropics-skills");
    if corpus.join("skills").is_dir() {
        (corpus, "corpus")
    } else {
        eprintln!(
            "note: ../shared/corpus is absent; benchmarking the bundled example skills instead"
        );
        (manifest.join("../examples/issue-tracker"), "examples")
    }
}

/// Every `<root>/<dir>/SKILL.md` that both loaders accept.
fn files(root: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("skills")).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(text) = std::fs::read_to_string(dir.join("SKILL.md")) else {
            continue;
        };
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if runtime_loader(&text).is_some() {
            files.push((name, text));
        }
    }
    files.sort();
    files
}

fn bench(c: &mut Criterion) {
    let (base, label) = collection();
    let files = files(&base);
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    // The verdict does not matter here: claude-api's long description is
    // parsed and checked in full like every other field.
    let config = Config::default();

    let mut group = c.benchmark_group(format!("parse+validate/{label}"));
    for (unit, throughput) in [
        ("bytes", Throughput::Bytes(bytes as u64)),
        ("skills", Throughput::Elements(files.len() as u64)),
    ] {
        group.throughput(throughput);
        group.bench_function(format!("skills-compiler/{unit}"), |b| {
            b.iter(|| {
                // Each skill through the whole per-skill pipeline (read,
                // validate, lint), as the loader and `check` run it.
                for (name, text) in &files {
                    let skill_files = SkillFiles {
                        dir: None,
                        path: format!("skills/{name}/SKILL.md"),
                        directory: name.clone(),
                        bytes: text.as_bytes().to_vec(),
                        tools_yaml: None,
                    };
                    black_box(compile_files(vec![skill_files], &config));
                }
            })
        });
        // Work done apart, only for code generation and `show`: the body's heading tree.
        group.bench_function(
            format!("apart: heading tree (pulldown-cmark)/{unit}"),
            |b| {
                b.iter(|| {
                    for (_, text) in &files {
                        black_box(skills_compiler::markdown::sections(black_box(text)));
                    }
                })
            },
        );
        group.bench_function(format!("serde-saphyr runtime loader/{unit}"), |b| {
            b.iter(|| {
                for (_, text) in &files {
                    black_box(runtime_loader(black_box(text)));
                }
            })
        });
    }
    group.finish();

    // End to end from disk: discovery, reading, validation, sorting.
    let mut group = c.benchmark_group(format!("from-disk/{label}"));
    group.throughput(Throughput::Elements(files.len() as u64));
    group.bench_function("skills-compiler compile()", |b| {
        b.iter(|| black_box(compile(&base, &config)))
    });
    group.bench_function("read + serde-saphyr", |b| {
        b.iter(|| {
            for (name, _) in &files {
                let text = std::fs::read_to_string(base.join("skills").join(name).join("SKILL.md"))
                    .unwrap();
                black_box(runtime_loader(&text).is_some());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
