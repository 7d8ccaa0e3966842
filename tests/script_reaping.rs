//! Hostile input round 5 (issue 58), items 13 and 15: a host that is PID 1
//! or a subreaper (a container's init, a supervisor) is where a killed
//! script's children are reparented; they must not stay its zombies. And a
//! timeout of `Duration::MAX` runs the script instead of panicking on every
//! run. In a test binary of its own: it makes itself a subreaper.

use std::time::Duration;

use serde_json::{Value, json};
use skills::scripts::Scripts;
use skills::toolset::{RUN_SKILL_SCRIPT, Toolset};

mod agent {
    skills::include_skills!("fixtures/scripts");
}

fn run(scripts: Scripts, path: &str, args: &[&str]) -> Value {
    let toolset = Toolset::new(&agent::SKILLS).with_scripts(scripts);
    let text = toolset
        .respond(
            RUN_SKILL_SCRIPT,
            &json!({"name": "runner", "path": path, "args": args}),
        )
        .expect("run_skill_script is a host tool once scripts are on")
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("the result is JSON")
}

/// This process's children that are zombies.
fn zombies() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.first() == Some(&"Z") && fields.get(1) == Some(&me.as_str()) {
            out.push(stat.clone());
        }
    }
    out
}

#[test]
fn a_subreaper_host_is_left_no_zombie_and_an_endless_timeout_runs() {
    // SAFETY: a plain prctl with integer arguments, on this process.
    let made = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    assert_eq!(made, 0, "prctl: {}", std::io::Error::last_os_error());
    let approved = || Scripts::new().approve(|_| Ok(()));
    // The script leaves a child holding its output; killed with the group,
    // that child is reparented here.
    let marker = format!("reap-marker-{}", std::process::id());
    let ran = run(approved(), "scripts/fork_hold.sh", &[&marker]);
    assert_eq!(ran["exit_code"], 0, "{ran}");
    assert_eq!(zombies(), Vec::<String>::new());
    // `Instant + Duration::MAX` overflowed: every run panicked.
    let ran = run(approved().timeout(Duration::MAX), "scripts/exit3.sh", &[]);
    assert_eq!(ran["exit_code"], 3, "{ran}");
    assert_eq!(ran["timed_out"], false);
}
