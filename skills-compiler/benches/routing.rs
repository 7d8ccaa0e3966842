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

use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use skills_compiler::budget::Budget;
use skills_compiler::ir::Skill;
use skills_compiler::routing::cases::{self, Case};
use skills_compiler::routing::{Catalogue, Gates, evaluate};
use skills_compiler::{Config, Profile, compile_skill};
use skills_core::route::{Doc, Ranked, Router};

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

/// skill-reach's `keyword` runtime: plain BM25 over name + description.
struct PlainBm25 {
    names: Vec<String>,
    docs: Vec<HashMap<String, f64>>,
    lengths: Vec<f64>,
    df: HashMap<String, f64>,
    average: f64,
}

fn plain_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

impl PlainBm25 {
    fn new(entries: &[(String, String)]) -> PlainBm25 {
        let mut docs = Vec::new();
        let mut lengths = Vec::new();
        let mut df: HashMap<String, f64> = HashMap::new();
        for (name, text) in entries {
            let words = plain_words(&format!("{name} {text}"));
            lengths.push(words.len() as f64);
            let mut tf: HashMap<String, f64> = HashMap::new();
            for word in words {
                *tf.entry(word).or_default() += 1.0;
            }
            for word in tf.keys() {
                *df.entry(word.clone()).or_default() += 1.0;
            }
            docs.push(tf);
        }
        let average = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
        PlainBm25 {
            names: entries.iter().map(|(n, _)| n.clone()).collect(),
            docs,
            lengths,
            df,
            average,
        }
    }

    fn route(&self, query: &str) -> Option<&str> {
        let lower = query.to_lowercase();
        if let Some(named) = self
            .names
            .iter()
            .filter(|n| lower.contains(n.as_str()))
            .max_by_key(|n| n.len())
        {
            return Some(named);
        }
        let words = plain_words(query);
        let n = self.names.len() as f64;
        let (k1, b) = (1.5, 0.75);
        let mut best: Option<(f64, &str)> = None;
        for (at, doc) in self.docs.iter().enumerate() {
            let mut score = 0.0;
            for word in &words {
                let Some(tf) = doc.get(word) else { continue };
                let df = self.df[word];
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                score += idf * tf * (k1 + 1.0)
                    / (tf + k1 * (1.0 - b + b * self.lengths[at] / self.average));
            }
            if score > 0.0 && best.is_none_or(|(s, _)| score > s) {
                best = Some((score, &self.names[at]));
            }
        }
        best.map(|(_, name)| name)
    }
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
