//! `cargo skills install` beside `cp -r` of the same skill directories
//! (issue 43's target: at most twice `cp -r`), in interleaved rounds so that
//! a machine whose speed drifts slows both alike; each round's ratio is
//! printed with the medians.
//!
//!     cargo bench -p cargo-skills --bench install
//!     FROM=path/to/skills RUNS=15 cargo bench -p cargo-skills --bench install
//!
//! By default it installs `../shared/corpus-dirs/anthropics-skills/skills`
//! (12 skills, fonts and scripts included) and says it skipped when that is
//! absent (a fresh clone has no `../shared`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let from = std::env::var_os("FROM")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus-dirs/anthropics-skills/skills"));
    if !from.is_dir() {
        println!(
            "skipped: {} is absent (set FROM to a skills directory)",
            from.display()
        );
        return;
    }
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(9);
    let work = std::env::temp_dir().join(format!("skills-bench-install-{}", std::process::id()));
    let to = work.join("out");

    let install = |to: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-skills"));
        command
            .args(["skills", "install", "--from"])
            .arg(&from)
            .arg("--to")
            .arg(to);
        command
    };
    let copy = |to: &Path| {
        let mut command = Command::new("cp");
        command.arg("-r").arg(&from).arg(to);
        command
    };
    let mut installs = Vec::with_capacity(runs);
    let mut copies = Vec::with_capacity(runs);
    for _ in 0..runs {
        installs.push(timed(install(&to), &to));
        copies.push(timed(copy(&to), &to));
    }
    let _ = std::fs::remove_dir_all(&work);

    let mut ratios: Vec<f64> = installs
        .iter()
        .zip(&copies)
        .map(|(i, c)| i.as_secs_f64() / c.as_secs_f64())
        .collect();
    println!(
        "{} into a fresh folder, {runs} interleaved rounds:",
        from.display()
    );
    println!(
        "  cp -r                  median {:>7.1} ms",
        ms(median(&mut copies))
    );
    println!(
        "  cargo skills install   median {:>7.1} ms",
        ms(median(&mut installs))
    );
    ratios.sort_by(f64::total_cmp);
    println!(
        "  install / cp -r, per round: median {:.2}x (from {:.2}x to {:.2}x)",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1]
    );
}

/// How long `command` takes to write `to`, which is removed before and after.
fn timed(mut command: Command, to: &Path) -> Duration {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to.parent().expect("a parent")).expect("the bench's folder");
    let start = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the command starts");
    let took = start.elapsed();
    assert!(status.success(), "{command:?} failed: {status}");
    let _ = std::fs::remove_dir_all(to);
    took
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
