//! The offline router (`skills_core::route`) beside plain BM25 as
//! google/skill-reach's `keyword` runtime does it (lowercase words, a name
//! mention first, then BM25 over name and description with k1 1.5 and
//! b 0.75, no stemming, no stop list, no abstention), on the catalogue of
//! `tests/routing/catalogue.txt` (359 real skill folders) and on 5,000
//! skills (that catalogue repeated under new names):
//!
//! - routing 700 queries (our 196 cases, repeated), the index built once;
//! - building the index;
//! - top-1 accuracy of both on `tests/routing/dev.json` and `held-out.json`,
//!   printed once before the timings.
//!
//! Needs `../shared/corpus`; says so and measures nothing without it.
//!
//!     cargo bench -p skills-compiler --bench routing

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skills_compiler::ir::Skill;
use skills_compiler::ops::budget::Budget;
use skills_compiler::ops::trigger::cases::{self, Case};
use skills_compiler::ops::trigger::{Catalogue, Gates, evaluate};
use skills_compiler::{Config, Profile, compile_skill};
use skills_core::route::{Doc, Ranked, Router};

#[path = "support/plain_bm25.rs"]
mod plain_bm25;
#[path = "support/router_v1.rs"]
mod router_v1;
use plain_bm25::PlainBm25;

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The valid skills of the catalogue's folders, one per name.
fn skills() -> Vec<Skill> {
    let list = std::fs::read_to_string(workspace().join("tests/routing/catalogue.txt")).unwrap();
    let config = Config {
        profile: Profile::Lenient,
        ..Config::default()
    };
    let mut skills = Vec::new();
    for root in list.lines() {
        let root = workspace().join(root);
        for dir in skills_compiler::collection::skill_dirs(&root).skills {
            let compilation = compile_skill(Path::new("/"), &dir.path, &config);
            skills.extend(compilation.valid.skills.iter().map(|s| (**s).clone()));
        }
    }
    skills.sort_by(|a, b| a.name().cmp(b.name()).then(a.path().cmp(b.path())));
    skills.dedup_by(|b, a| a.name() == b.name());
    skills
}

fn cases(file: &str, known: &[&str]) -> Vec<Case> {
    let path = workspace().join("tests/routing").join(file);
    let read = cases::load(&path, file, None, known);
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    read.cases
}

fn bench(c: &mut Criterion) {
    if !workspace().join("../shared/corpus").is_dir() {
        eprintln!("skipped: ../shared/corpus is not here, so there is no catalogue to route over");
        return;
    }
    let skills = skills();
    let catalogue = Catalogue::of(Budget::ClaudeCode, &skills);
    let entries: Vec<(String, String)> = catalogue
        .names()
        .map(|n| {
            (
                n.to_owned(),
                catalogue.text(n).unwrap_or_default().to_owned(),
            )
        })
        .collect();
    // Cases may name a skill the host does not list (it is then never chosen).
    let known: Vec<&str> = skills.iter().map(Skill::name).collect();
    let router = catalogue.router();
    let plain = PlainBm25::new(&entries);
    let v1_docs: Vec<router_v1::Doc<'_>> = entries
        .iter()
        .map(|(n, t)| router_v1::Doc::new(n, t))
        .collect();
    let v1 = router_v1::Router::new(&v1_docs);
    for half in ["dev.json", "held-out.json"] {
        let cases = cases(half, &known);
        let gates = Gates::default();
        let ours = evaluate(&cases, |q| Ok::<_, ()>(router.route(q)), 1, &gates).unwrap();
        let theirs = evaluate(
            &cases,
            |q| Ok::<_, ()>(Ranked::only(plain.route(q))),
            1,
            &gates,
        )
        .unwrap();
        eprintln!(
            "{half}: {} cases over {} skills: lexical top-1 {:.3} (recall {:.3}, misroute {:.3}), plain BM25 top-1 {:.3} (recall {:.3}, misroute {:.3})",
            cases.len(),
            router.len(),
            ours.summary.accuracy,
            ours.summary.recall,
            ours.summary.misroute,
            theirs.summary.accuracy,
            theirs.summary.recall,
            theirs.summary.misroute,
        );
    }
    let queries: Vec<String> = ["dev.json", "held-out.json"]
        .iter()
        .flat_map(|half| cases(half, &known))
        .map(|case| case.query)
        .cycle()
        .take(700)
        .collect();

    let mut group = c.benchmark_group(format!("route 700 queries, {} skills", router.len()));
    group.bench_function("lexical (BM25F, stemmed, abstains)", |b| {
        b.iter(|| {
            for query in &queries {
                black_box(router.route(query));
            }
        })
    });
    group.bench_function("plain BM25 (skill-reach keyword)", |b| {
        b.iter(|| {
            for query in &queries {
                black_box(plain.route(query));
            }
        })
    });
    group.bench_function("v1 (the router before routing v2)", |b| {
        b.iter(|| {
            for query in &queries {
                black_box(v1.route(query));
            }
        })
    });
    group.finish();

    let docs: Vec<Doc<'_>> = entries.iter().map(|(n, t)| Doc::new(n, t)).collect();
    c.bench_function(&format!("index {} skills", docs.len()), |b| {
        b.iter(|| black_box(Router::new(&docs)))
    });

    // 5,000 skills: the catalogue again and again, under new names.
    let many: Vec<(String, String)> = (0..)
        .flat_map(|round| {
            entries
                .iter()
                .map(move |(n, t)| (format!("{n}-{round}"), t.clone()))
        })
        .take(5_000)
        .collect();
    let many_docs: Vec<Doc<'_>> = many.iter().map(|(n, t)| Doc::new(n, t)).collect();
    c.bench_function("index 5,000 skills", |b| {
        b.iter(|| black_box(Router::new(&many_docs)))
    });
    let big = Router::new(&many_docs);
    let big_plain = PlainBm25::new(&many);
    let mut group = c.benchmark_group("route 700 queries, 5,000 skills");
    group.sample_size(10);
    group.bench_function("lexical (BM25F, stemmed, abstains)", |b| {
        b.iter(|| {
            for query in &queries {
                black_box(big.route(query));
            }
        })
    });
    group.bench_function("plain BM25 (skill-reach keyword)", |b| {
        b.iter(|| {
            for query in &queries {
                black_box(big_plain.route(query));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
