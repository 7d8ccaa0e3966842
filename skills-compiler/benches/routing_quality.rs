//! How well the offline router predicts a model: decision accuracy,
//! ranking top-1 and top-3, abstention on in-scope cases, and abstention
//! on out-of-scope ones, for today's router (`skills_core::route`), the
//! router before routing v2 (frozen in `support/router_v1.rs`) and plain
//! BM25 (skill-reach's `keyword`), in one run.
//!
//! Catalogues: ours (`tests/routing/catalogue.txt`, 22 publishers, from
//! `../shared/corpus`) and, when `SKILLS_ROUTING_PUBLISHER` names a
//! checkout of a publisher that ships `evals/evals.json` with its skills
//! (github.com/NVIDIA/skills), that publisher's. Cases, each split into a
//! development half (tuned on) and a held-out half (reported) by a hash of
//! the id:
//!
//! - ours: `tests/routing/{dev,held-out}.json` and the natural requests
//!   `tests/routing/natural-{dev,held-out}.json` (written as users type:
//!   names, versions, noise);
//! - the publisher's questions, as published;
//! - cross-catalogue out-of-scope sets: each side's should-trigger cases
//!   routed over the other's catalogue, where the right answer is none.
//!
//! Run-time routing (the body as a third field) is measured on the
//! publisher's questions: top-1 and top-5, with and without the body.
//!
//!     SKILLS_ROUTING_PUBLISHER=/path/to/NVIDIA-skills cargo bench -p skills-compiler --bench routing_quality
//!
//! `SWEEP=1` prints the decision constants' grid on the development halves.

use std::path::Path;
use std::time::Instant;

use skills_compiler::ir::Skill;
use skills_compiler::ops::budget::Budget;
use skills_compiler::ops::trigger::Catalogue;
use skills_compiler::ops::trigger::cases::{self, Case, Expected};
use skills_compiler::{Config, Profile, compile_skill};
use skills_core::route::{Doc, Params, Router};

#[path = "support/plain_bm25.rs"]
mod plain_bm25;
#[path = "support/router_v1.rs"]
mod router_v1;

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The valid skills below `roots`, one per name.
fn skills_of(roots: &[std::path::PathBuf]) -> Vec<Skill> {
    let config = Config {
        profile: Profile::Lenient,
        ..Config::default()
    };
    let mut skills = Vec::new();
    for root in roots {
        for dir in skills_compiler::collection::skill_dirs(root).skills {
            let compilation = compile_skill(Path::new("/"), &dir.path, &config);
            skills.extend(compilation.valid.skills.iter().map(|s| (**s).clone()));
        }
    }
    skills.sort_by(|a, b| a.name().cmp(b.name()).then(a.path().cmp(b.path())));
    skills.dedup_by(|b, a| a.name() == b.name());
    skills
}

fn our_skills() -> Vec<Skill> {
    let list = std::fs::read_to_string(workspace().join("tests/routing/catalogue.txt")).unwrap();
    let roots: Vec<_> = list.lines().map(|root| workspace().join(root)).collect();
    skills_of(&roots)
}

fn our_cases(file: &str, known: &[&str]) -> Vec<Case> {
    let path = workspace().join("tests/routing").join(file);
    if !path.exists() {
        return Vec::new();
    }
    let read = cases::load(&path, file, None, known);
    assert!(
        read.diagnostics.is_empty(),
        "{file}: {:?}",
        read.diagnostics
    );
    read.cases
}

/// FNV-1a of the id: which half a case is in.
fn dev_half(id: &str) -> bool {
    let mut hash: u64 = 0xcbf29ce484222325;
    for byte in id.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x100000001b3);
    }
    hash.is_multiple_of(2)
}

/// The publisher's questions, read as our case reader reads its
/// `evals/evals.json` files.
fn publisher_cases(root: &Path, known: &[&str]) -> Vec<Case> {
    let mut all = Vec::new();
    for dir in skills_compiler::collection::skill_dirs(root).skills {
        let path = dir.path.join("evals/evals.json");
        if !path.is_file() {
            continue;
        }
        let skill = dir.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let shown = format!("{skill}/evals/evals.json");
        let read = cases::load(&path, &shown, Some(skill), known);
        all.extend(read.cases);
    }
    all.sort_by(|a, b| a.file.cmp(&b.file).then(a.id.cmp(&b.id)));
    all
}

/// What a router does with one query: its best three and its choice.
struct Routed {
    top: Vec<String>,
    chosen: Option<String>,
}

/// The figures of one router on one set.
#[derive(Default, Clone, Copy)]
struct Figures {
    cases: usize,
    passed: usize,
    should: usize,
    top1: usize,
    top3: usize,
    abstained_in_scope: usize,
    misrouted: usize,
}

impl Figures {
    fn of(cases: &[Case], route: &dyn Fn(&str) -> Routed) -> Figures {
        let mut f = Figures::default();
        for case in cases {
            let routed = route(&case.query);
            f.cases += 1;
            if case.expected.passes(routed.chosen.as_deref()) {
                f.passed += 1;
            } else if routed.chosen.is_some() {
                f.misrouted += 1;
            }
            if let Expected::Skill { name, acceptable } = &case.expected {
                f.should += 1;
                let right = |s: &String| s == name || acceptable.contains(s);
                f.top1 += usize::from(routed.top.first().is_some_and(right));
                f.top3 += usize::from(routed.top.iter().take(3).any(right));
                f.abstained_in_scope += usize::from(routed.chosen.is_none());
            }
        }
        f
    }

    fn ratio(part: usize, whole: usize) -> f64 {
        if whole == 0 {
            0.0
        } else {
            part as f64 / whole as f64
        }
    }

    fn accuracy(&self) -> f64 {
        Self::ratio(self.passed, self.cases)
    }

    fn row(&self) -> String {
        format!(
            "{:.3} | {:.3} | {:.3} | {:.3} | {:.3}",
            self.accuracy(),
            Self::ratio(self.top1, self.should),
            Self::ratio(self.top3, self.should),
            Self::ratio(self.abstained_in_scope, self.should),
            Self::ratio(self.misrouted, self.cases),
        )
    }
}

/// Every case made out of scope: its right answer is none.
fn out_of_scope(cases: &[Case]) -> Vec<Case> {
    cases
        .iter()
        .filter(|case| case.expected.skill().is_some())
        .map(|case| Case {
            expected: Expected::Nothing {
                acceptable: Vec::new(),
            },
            ..case.clone()
        })
        .collect()
}

fn entries(catalogue: &Catalogue) -> Vec<(String, String)> {
    catalogue
        .names()
        .map(|n| {
            (
                n.to_owned(),
                catalogue.text(n).unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The three routers over one catalogue.
struct Routers {
    v2: Router,
    v1: router_v1::Router,
    plain: plain_bm25::PlainBm25,
}

impl Routers {
    fn new(catalogue: &Catalogue, params: Params) -> Routers {
        let entries = entries(catalogue);
        let docs: Vec<Doc<'_>> = entries.iter().map(|(n, t)| Doc::new(n, t)).collect();
        let v1_docs: Vec<router_v1::Doc<'_>> = entries
            .iter()
            .map(|(n, t)| router_v1::Doc::new(n, t))
            .collect();
        Routers {
            v2: Router::with_params(&docs, params),
            v1: router_v1::Router::new(&v1_docs),
            plain: plain_bm25::PlainBm25::new(&entries),
        }
    }

    fn v2(&self, query: &str) -> Routed {
        let ranked = self.v2.route(query);
        Routed {
            top: ranked.top(5).iter().map(|s| s.skill.clone()).collect(),
            chosen: ranked.chosen().map(str::to_owned),
        }
    }

    fn v1(&self, query: &str) -> Routed {
        let ranked = self.v1.route(query);
        Routed {
            top: ranked.top(5).iter().map(|s| s.skill.clone()).collect(),
            chosen: ranked.chosen().map(str::to_owned),
        }
    }

    fn plain(&self, query: &str) -> Routed {
        let top: Vec<String> = self
            .plain
            .rank(query)
            .into_iter()
            .take(5)
            .map(str::to_owned)
            .collect();
        Routed {
            chosen: top.first().cloned(),
            top,
        }
    }
}

/// The skills of the small catalogue.
const SMALL: &[&str] = &[
    "azure-cost",
    "commit",
    "create-branch",
    "diagnose",
    "find-bugs",
    "iterate-pr",
    "make-pdf",
    "pr-writer",
    "speech-to-text",
    "wrangler",
];

struct Set {
    name: String,
    cases: Vec<Case>,
    /// Which catalogue: 0 ours, 1 the publisher's.
    over: usize,
}

fn main() {
    if !workspace().join("../shared/corpus").is_dir() {
        eprintln!("skipped: ../shared/corpus is not here, so there is no catalogue to route over");
        return;
    }
    let ours = our_skills();
    let our_catalogue = Catalogue::of(Budget::ClaudeCode, &ours);
    let our_known: Vec<&str> = ours.iter().map(Skill::name).collect();
    let mut catalogues = vec![our_catalogue];
    let mut sets = Vec::new();
    let mut our_should = Vec::new();
    for (file, name) in [
        ("dev.json", "ours, dev"),
        ("held-out.json", "ours, held-out"),
        ("natural-dev.json", "ours natural, dev"),
        ("natural-held-out.json", "ours natural, held-out"),
    ] {
        let cases = our_cases(file, &our_known);
        if cases.is_empty() {
            continue;
        }
        our_should.push((name.to_owned(), out_of_scope(&cases)));
        sets.push(Set {
            name: name.to_owned(),
            cases,
            over: 0,
        });
    }
    let publisher = std::env::var_os("SKILLS_ROUTING_PUBLISHER").map(std::path::PathBuf::from);
    let mut publisher_skills = Vec::new();
    if let Some(root) = &publisher {
        publisher_skills = skills_of(&[root.join("skills")]);
        let known: Vec<&str> = publisher_skills.iter().map(Skill::name).collect();
        catalogues.push(Catalogue::of(Budget::ClaudeCode, &publisher_skills));
        let all = publisher_cases(&root.join("skills"), &known);
        let (dev, held): (Vec<Case>, Vec<Case>) = all
            .into_iter()
            .partition(|case| dev_half(&format!("{}#{}", case.file, case.id)));
        for (dev_side, cases) in [(true, dev), (false, held)] {
            let half = if dev_side { "dev" } else { "held-out" };
            sets.push(Set {
                name: format!("publisher, {half}"),
                cases: cases.clone(),
                over: 1,
            });
            sets.push(Set {
                name: format!("publisher's over ours (out of scope), {half}"),
                cases: out_of_scope(&cases),
                over: 0,
            });
        }
        for (name, cases) in &our_should {
            let (side, half) = name.rsplit_once(", ").unwrap_or((name, ""));
            sets.push(Set {
                name: format!("{side} over publisher's (out of scope), {half}"),
                cases: cases.clone(),
                over: 1,
            });
        }
    } else {
        eprintln!("note: SKILLS_ROUTING_PUBLISHER is not set: only our own catalogue is measured");
    }

    // A team's own few skills: ten of ours, and the natural requests. A
    // request for any other skill is out of scope for them.
    let few: Vec<Skill> = ours
        .iter()
        .filter(|skill| SMALL.contains(&skill.name()))
        .cloned()
        .collect();
    let over = catalogues.len();
    catalogues.push(Catalogue::of(Budget::ClaudeCode, &few));
    for (file, half) in [
        ("natural-dev.json", "dev"),
        ("natural-held-out.json", "held-out"),
    ] {
        let cases: Vec<Case> = our_cases(file, &our_known)
            .into_iter()
            .map(|case| match case.expected.skill() {
                Some(skill) if SMALL.contains(&skill) => case,
                _ => Case {
                    expected: Expected::Nothing {
                        acceptable: Vec::new(),
                    },
                    ..case
                },
            })
            .collect();
        sets.push(Set {
            name: format!("natural over {} skills of ours, {half}", few.len()),
            cases,
            over,
        });
    }

    match std::env::var("SWEEP").as_deref() {
        Ok("rank") => return sweep_ranking(&catalogues, &sets),
        Ok(_) => return sweep(&catalogues, &sets),
        Err(_) => {}
    }
    let routers: Vec<Routers> = catalogues
        .iter()
        .map(|c| Routers::new(c, Params::default()))
        .collect();
    if std::env::var_os("DUMP").is_some() {
        for set in sets.iter().filter(|s| s.name.ends_with("dev")) {
            for case in &set.cases {
                let routed = routers[set.over].v2(&case.query);
                if !case.expected.passes(routed.chosen.as_deref()) {
                    println!(
                        "[{}] {:?} want {:?} got {:?} top {:?}",
                        set.name,
                        case.query.chars().take(200).collect::<String>(),
                        case.expected,
                        routed.chosen,
                        routed.top
                    );
                }
            }
        }
        return;
    }
    println!(
        "| set | cases | router | decision accuracy | top-1 | top-3 | abstention (in scope) | misroute |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for set in &sets {
        let r = &routers[set.over];
        for (name, route) in [
            ("v2", &(|q: &str| r.v2(q)) as &dyn Fn(&str) -> Routed),
            ("v1 (before)", &|q: &str| r.v1(q)),
            ("plain BM25", &|q: &str| r.plain(q)),
        ] {
            let f = Figures::of(&set.cases, route);
            println!("| {} | {} | {name} | {} |", set.name, f.cases, f.row());
        }
    }
    if let Some(root) = &publisher {
        run_time(root, &publisher_skills);
    }
}

/// Today's router over each catalogue, with `params`.
fn routers_with(catalogues: &[Catalogue], params: Params) -> Vec<Router> {
    catalogues
        .iter()
        .map(|catalogue| {
            let entries = entries(catalogue);
            let docs: Vec<Doc<'_>> = entries.iter().map(|(n, t)| Doc::new(n, t)).collect();
            Router::with_params(&docs, params)
        })
        .collect()
}

/// The decision constants' grid on the development halves: each in-scope
/// set's decision accuracy and each out-of-scope set's abstention.
fn sweep(catalogues: &[Catalogue], sets: &[Set]) {
    let dev: Vec<&Set> = sets.iter().filter(|s| s.name.ends_with("dev")).collect();
    println!(
        "power scale threshold | {}",
        dev.iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    for power in [0.0, 0.25, 0.5, 0.75, 1.0] {
        for scale in [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] {
            for threshold in [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5] {
                let params = Params {
                    coverage_power: power,
                    evidence_scale: scale,
                    threshold,
                    ..Params::default()
                };
                let routers = routers_with(catalogues, params);
                let figures: Vec<f64> = dev
                    .iter()
                    .map(|set| {
                        let r = &routers[set.over];
                        Figures::of(&set.cases, &|q| {
                            let ranked = r.route(q);
                            Routed {
                                top: Vec::new(),
                                chosen: ranked.chosen().map(str::to_owned),
                            }
                        })
                        .accuracy()
                    })
                    .collect();
                let worst = figures.iter().copied().fold(1.0, f64::min);
                println!(
                    "{power} {scale} {threshold} | {} | worst {worst:.3}",
                    figures
                        .iter()
                        .map(|f| format!("{f:.3}"))
                        .collect::<Vec<_>>()
                        .join(" | ")
                );
            }
        }
    }
}

/// BM25F's constants on the development halves: top-1 of each in-scope
/// set.
fn sweep_ranking(catalogues: &[Catalogue], sets: &[Set]) {
    let dev: Vec<&Set> = sets
        .iter()
        .filter(|s| s.name.ends_with("dev") && !s.name.contains("out of scope"))
        .collect();
    println!(
        "k1 name_weight phrase_weight whole_name_weight | {}",
        dev.iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    for k1 in [0.9, 1.2] {
        for name_weight in [1.0, 3.0] {
            for phrase_weight in [0.0, 0.25, 0.5, 1.0] {
                for whole_name_weight in [0.0, 0.25, 0.5, 1.0] {
                    let params = Params {
                        k1,
                        name_weight,
                        phrase_weight,
                        whole_name_weight,
                        ..Params::default()
                    };
                    let routers = routers_with(catalogues, params);
                    let figures: Vec<f64> = dev
                        .iter()
                        .map(|set| {
                            let r = &routers[set.over];
                            let f = Figures::of(&set.cases, &|q| Routed {
                                top: r.route(q).top(3).iter().map(|s| s.skill.clone()).collect(),
                                chosen: None,
                            });
                            Figures::ratio(f.top1, f.should)
                        })
                        .collect();
                    println!(
                        "{k1} {name_weight} {phrase_weight} {whole_name_weight} | {}",
                        figures
                            .iter()
                            .map(|f| format!("{f:.3}"))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    );
                }
            }
        }
    }
}

/// Run-time routing over the publisher's catalogue as `SkillSet::route`
/// reads it (Claude Code's line with `when_to_use`, uncut), without and with the
/// body: top-1 and top-5 on every question that has a skill, and the time
/// the index takes to build.
fn run_time(root: &Path, skills: &[Skill]) {
    let known: Vec<&str> = skills.iter().map(Skill::name).collect();
    let cases: Vec<Case> = publisher_cases(&root.join("skills"), &known)
        .into_iter()
        .filter(|c| c.expected.skill().is_some())
        .collect();
    let texts: Vec<(String, String, String)> = skills
        .iter()
        .map(|s| {
            let when = s
                .extra("when_to_use")
                .and_then(|v| v.as_str().map(str::to_owned));
            let text = match when {
                Some(when) => format!("- {}: {} - {when}\n", s.name(), s.description()),
                None => format!("- {}: {}\n", s.name(), s.description()),
            };
            (s.name().to_owned(), text, s.body().to_owned())
        })
        .collect();
    println!();
    println!(
        "| run time, {} questions, {} skills | top-1 | top-5 | index built |",
        cases.len(),
        skills.len()
    );
    println!("|---|---|---|---|");
    for with_body in [false, true] {
        let docs: Vec<Doc<'_>> = texts
            .iter()
            .map(|(n, t, b)| {
                let doc = Doc::new(n, t);
                if with_body { doc.with_body(b) } else { doc }
            })
            .collect();
        let started = Instant::now();
        let router = Router::new(&docs);
        let built = started.elapsed();
        let (mut top1, mut top5) = (0, 0);
        for case in &cases {
            let ranked = router.route(&case.query);
            let right = |s: &&skills_core::route::Scored| case.expected.passes(Some(&s.skill));
            top1 += usize::from(ranked.top(1).iter().any(|s| right(&s)));
            top5 += usize::from(ranked.top(5).iter().any(|s| right(&s)));
        }
        let n = cases.len().max(1) as f64;
        println!(
            "| {} | {:.3} | {:.3} | {:.1} ms |",
            if with_body {
                "description, when_to_use and body"
            } else {
                "description and when_to_use"
            },
            top1 as f64 / n,
            top5 as f64 / n,
            built.as_secs_f64() * 1000.0
        );
    }
}
