//! Loading skills at run time, in skills per second, beside the compile-time
//! path that `include_skills!` runs (compile, then generate the code), and
//! beside a serde-only start-up parse (serde-saphyr into a struct: no
//! validation, no diagnostics, no tables).
//!
//!     cargo bench -p skills-tests --bench loader
//!
//! Inputs: the 64 bundled fixture skills (always), and the real corpus
//! (`../shared/corpus`, 1,189 skills, `lenient`) when it is beside the checkout.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skills::loader::{Loader, Profile};
use skills_compiler::{Config, compile_skill};

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Frontmatter {
    name: Option<serde_json::Value>,
    description: Option<serde_json::Value>,
}

fn serde_only(dir: &Path) -> Option<Frontmatter> {
    let text = std::fs::read_to_string(dir.join("SKILL.md")).ok()?;
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---")?;
    serde_saphyr::from_str(&rest[..end]).ok()
}

fn bench_inputs(c: &mut Criterion, label: &str, dirs: &[PathBuf], profile: Profile) {
    let loader = Loader::new().profile(profile);
    let config = Config {
        profile,
        ..Config::default()
    };
    let mut group = c.benchmark_group(format!("load {label}"));
    group.throughput(Throughput::Elements(dirs.len() as u64));
    group.sample_size(10);
    group.bench_function("skills::loader (run time)", |b| {
        b.iter(|| {
            let loaded = dirs
                .iter()
                .filter_map(|dir| loader.load_skill(dir).ok())
                .count();
            black_box(loaded)
        })
    });
    group.bench_function("compile + codegen (include_skills!)", |b| {
        b.iter(|| {
            let tokens: usize = dirs
                .iter()
                .filter_map(|dir| compile_skill(Path::new(""), dir, &config).into_skills())
                .map(|set| {
                    skills_compiler::emit::codegen::expand(&set, &quote::quote!(::skills))
                        .into_iter()
                        .count()
                })
                .sum();
            black_box(tokens)
        })
    });
    group.bench_function("serde-saphyr frontmatter only (no checks)", |b| {
        b.iter(|| black_box(dirs.iter().filter_map(|dir| serde_only(dir)).count()))
    });
    group.finish();
}

fn loading(c: &mut Criterion) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = skills_tests::skill_dirs(&manifest.join("fixtures/sixty-four"));
    bench_inputs(c, "64 fixture skills", &fixtures, Profile::Extended);
    let corpus = manifest.join("../../shared/corpus");
    if corpus.is_dir() {
        let dirs = skills_tests::skill_dirs(&corpus);
        bench_inputs(c, "the real corpus", &dirs, Profile::Lenient);
    } else {
        eprintln!("skipped: the real corpus (../shared/corpus) is not beside this checkout");
    }
}

criterion_group!(benches, loading);
criterion_main!(benches);
