//! What the catalog and serve benchmarks measure with: medians, peak
//! memory of a fresh process of the bench, and the sizes they print.

use std::path::Path;
use std::time::Duration;

/// `name` from the environment as a number, or `default`.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// The peak memory, in KiB, of a fresh process of this binary run with
/// `vars` (which tell it what to do alone), read off the last word it
/// prints (its [`peak_kib`]).
pub fn peak_of(vars: &[(&str, &str)], root_var: &str, root: &Path) -> u64 {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command.env(root_var, root);
    for (name, value) in vars {
        command.env(name, value);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{vars:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().last().unwrap().parse().unwrap()
}

/// `VmHWM`: this process's peak resident memory, in KiB.
pub fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The median of `times`.
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Milliseconds.
pub fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

/// KiB as MiB.
pub fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}
