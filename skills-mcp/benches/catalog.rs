//! Loading thousands of skill directories at run time (issue 44, item 2):
//! `skills::loader::Loader`, every rule applied, beside rmcp's
//! `SkillCatalog::from_dir` (an in-memory snapshot with per-file digests
//! that checks little), on the same tree, in one run. Time is the median
//! of interleaved runs in this process; peak memory is each one's alone,
//! in a fresh process of this binary (`VmHWM`, minus the baseline of a
//! process that loads nothing).
//!
//!     cargo bench -p skills-mcp-server --bench catalog                 # 5,000 skills
//!     SKILLS=200 RUNS=3 cargo bench -p skills-mcp-server --bench catalog
//!
//! Each skill directory holds a SKILL.md of about 2 KB, a 4 KB reference,
//! a script and a 3 KB binary asset.
//!
//! Then a reload after one file changes (`skills::loader::Reloading`, what
//! `Watch` does on an edit), beside the whole load: the reference of one
//! skill rewritten, the root loaded again, the new bytes checked.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "support/measure.rs"]
mod measure;
#[path = "support/tree.rs"]
mod tree;
use measure::{env_or, median, mib, ms, peak_kib};

/// Which side a child process loads, and from where.
const ONE: &str = "CATALOG_BENCH_ONE";
const ROOT: &str = "CATALOG_BENCH_ROOT";

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the line.
    let count: usize = env_or("SKILLS", 5_000);
    if let (Ok(side), Ok(root)) = (std::env::var(ONE), std::env::var(ROOT)) {
        let root = PathBuf::from(root);
        let loaded = match side.as_str() {
            "loader" => load_with_loader(&root, count),
            "rmcp" => load_with_rmcp(&root),
            _ => 0,
        };
        println!("{loaded} {}", peak_kib());
        return;
    }
    let runs: usize = env_or("RUNS", 5);
    let root = tree::prepared(count, runs);

    let mut loader_times = Vec::new();
    let mut rmcp_times = Vec::new();
    for _ in 0..runs {
        loader_times.push(timed(|| assert_eq!(load_with_loader(&root, count), count)));
        rmcp_times.push(timed(|| assert_eq!(load_with_rmcp(&root), count)));
    }
    let mut reload_times = Vec::new();
    let mut reloading = skills::loader::Reloading::start(loader(count), &root)
        .unwrap_or_else(|error| panic!("{error}"));
    let edited = root.join(format!("skill-{:05}/references/guide.md", count / 2));
    let original = std::fs::read(&edited).unwrap();
    for run in 0..runs {
        let mut bytes = original.clone();
        bytes[0] = b'0' + (run % 10) as u8;
        std::fs::write(&edited, &bytes).unwrap();
        reload_times.push(timed(|| {
            reloading
                .reload([&edited])
                .unwrap_or_else(|error| panic!("{error}"))
        }));
        let skill = reloading
            .set()
            .get(&format!("skill-{:05}", count / 2))
            .unwrap();
        assert_eq!(
            skill.file("references/guide.md").unwrap().bytes(),
            &bytes[..]
        );
    }
    std::fs::write(&edited, &original).unwrap();
    let skills = count.to_string();
    let peak_of = |side: &str| measure::peak_of(&[(ONE, side), ("SKILLS", &skills)], ROOT, &root);
    let baseline = peak_of("none");
    let loader_peak = peak_of("loader").saturating_sub(baseline);
    let rmcp_peak = peak_of("rmcp").saturating_sub(baseline);
    let (loader, rmcp) = (median(&mut loader_times), median(&mut rmcp_times));
    println!("| | time (median) | peak memory |");
    println!("|---|---|---|");
    println!(
        "| `skills::loader::Loader::load` | {:.1} ms | {:.1} MiB |",
        ms(loader),
        mib(loader_peak)
    );
    println!(
        "| rmcp `SkillCatalog::from_dir` | {:.1} ms | {:.1} MiB |",
        ms(rmcp),
        mib(rmcp_peak)
    );
    println!(
        "| ratio | {:.2}x | {:.2}x |",
        loader.as_secs_f64() / rmcp.as_secs_f64(),
        loader_peak as f64 / rmcp_peak.max(1) as f64
    );
    let reload = median(&mut reload_times);
    println!(
        "| `Reloading::reload` after one file changed | {:.2} ms ({:.1}% of the whole load) | |",
        ms(reload),
        100.0 * reload.as_secs_f64() / loader.as_secs_f64()
    );
}

fn loader(count: usize) -> skills::loader::Loader {
    skills::loader::Loader::new().overrides(skills::loader::Overrides {
        max_skills: Some(count),
        ..Default::default()
    })
}

fn load_with_loader(root: &Path, count: usize) -> usize {
    let loaded = loader(count)
        .load(root)
        .unwrap_or_else(|error| panic!("{error}"));
    loaded.set().len()
}

fn load_with_rmcp(root: &Path) -> usize {
    let catalog = rmcp::handler::server::skill_catalog::SkillCatalog::from_dir(root)
        .unwrap_or_else(|error| panic!("{error}"));
    catalog.skills().len()
}

fn timed(run: impl FnOnce()) -> Duration {
    let start = Instant::now();
    run();
    start.elapsed()
}
