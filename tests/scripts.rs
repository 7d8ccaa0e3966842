//! Skill scripts through the toolset (issue 42, item 2): real processes
//! from a compiled skill's embedded bytes, refused without approval, run
//! without a shell, cut, timed out and cleaned up, with a result the model
//! can read.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use skills::scripts::{Planned, Sandbox, Scripts};
use skills::toolset::{RUN_SKILL_SCRIPT, Toolset};

mod agent {
    skills::include_skills!("fixtures/scripts");
}

/// One run at a time: the zombie and orphan checks look at every process
/// this test binary started.
static SERIAL: Mutex<()> = Mutex::new(());

fn approved() -> Scripts {
    Scripts::new().approve(|_| Ok(()))
}

fn run(scripts: Scripts, path: &str, args: &[&str]) -> Result<Value, String> {
    let toolset = Toolset::new(&agent::SKILLS).with_scripts(scripts);
    let text = toolset
        .respond(
            RUN_SKILL_SCRIPT,
            &json!({"name": "runner", "path": path, "args": args}),
        )
        .expect("run_skill_script is a host tool once scripts are on")?;
    Ok(serde_json::from_str(&text).expect("the result is JSON"))
}

fn ok(path: &str, args: &[&str]) -> Value {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    run(approved(), path, args).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn refused(scripts: Scripts, path: &str, args: &[&str]) -> String {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    run(scripts, path, args).expect_err("refused")
}

/// Processes of this test binary's that are zombies, and processes anywhere
/// whose command line holds `marker`.
fn leftovers(marker: &str) -> (Vec<String>, Vec<String>) {
    let me = std::process::id().to_string();
    let mut zombies = Vec::new();
    let mut marked = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // pid (comm) state ppid ...
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.first() == Some(&"Z") && fields.get(1) == Some(&me.as_str()) {
            zombies.push(stat.clone());
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(marker) {
            marked.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    (zombies, marked)
}

#[test]
fn argv_is_passed_verbatim_without_a_shell() {
    let args = [
        "two words",
        "$HOME",
        "; rm -rf /",
        "'quoted'",
        "ünïcode",
        "",
    ];
    let ran = ok("scripts/argv.py", &args);
    assert_eq!(ran["exit_code"], 0, "{ran}");
    let echoed: Value = serde_json::from_str(ran["stdout"].as_str().unwrap().trim()).unwrap();
    assert_eq!(echoed, json!(args));
    assert_eq!(ran["timed_out"], false);
}

#[test]
fn a_failing_script_gives_its_exit_code_and_both_streams() {
    let ran = ok("scripts/exit3.sh", &[]);
    assert_eq!(
        ran,
        json!({"exit_code": 3, "signal": null, "timed_out": false,
               "stdout": "out\n", "stderr": "err\n", "stdout_cut": false, "stderr_cut": false})
    );
}

#[test]
fn a_script_runs_in_its_skill_directory_with_a_cleared_environment() {
    let ran = ok("scripts/sibling.py", &[]);
    assert_eq!(ran["stdout"], "sibling data\n", "{ran}");

    // SAFETY: set before any script of this test runs; the variable is
    // this test's own.
    unsafe { std::env::set_var("SKILLS_TEST_SECRET", "s3cret") };
    let ran = ok("scripts/env.sh", &[]);
    let stdout = ran["stdout"].as_str().unwrap();
    let mut lines = stdout.lines();
    let dir = lines.next().unwrap();
    assert!(dir.ends_with("/runner"), "{dir}");
    assert!(
        !dir.contains("fixtures"),
        "runs from the embedded copy: {dir}"
    );
    let names: Vec<&str> = lines.collect();
    assert!(!names.contains(&"SKILLS_TEST_SECRET"), "{names:?}");
    assert!(!names.contains(&"HOME"), "{names:?}");
    assert!(names.contains(&"PATH"), "{names:?}");

    let widened = {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        run(approved().env("SKILLS_TEST_SECRET"), "scripts/env.sh", &[]).unwrap()
    };
    assert!(
        widened["stdout"]
            .as_str()
            .unwrap()
            .lines()
            .any(|line| line == "SKILLS_TEST_SECRET"),
        "{widened}"
    );
}

#[test]
fn a_compiled_script_keeps_its_execute_bit() {
    let ran = ok("scripts/hello", &[]);
    assert_eq!(ran["stdout"], "executable\n", "{ran}");
}

#[test]
fn output_past_the_cap_is_cut_and_said_so() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ran = run(approved().output_cap(1000), "scripts/flood.py", &[]).unwrap();
    assert_eq!(ran["exit_code"], 0, "{}", ran["stderr"]);
    assert_eq!(ran["stdout_cut"], true);
    let stdout = ran["stdout"].as_str().unwrap();
    assert!(stdout.starts_with(&"x".repeat(1000)));
    assert!(
        stdout.ends_with("\n[output cut: 104857600 bytes written, the first 1000 shown]"),
        "{}",
        &stdout[1000..]
    );
}

#[test]
fn a_script_that_never_ends_is_killed_at_the_timeout_with_its_children() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let marker = format!("forever-marker-{}", std::process::id());
    let ran = run(
        approved().timeout(Duration::from_millis(300)),
        "scripts/forever.sh",
        &[&marker],
    )
    .unwrap();
    assert_eq!(ran["timed_out"], true, "{ran}");
    assert_eq!(ran["exit_code"], Value::Null);
    assert_eq!(ran["signal"], 9);
    let (zombies, marked) = leftovers(&marker);
    assert!(zombies.is_empty(), "zombies: {zombies:?}");
    assert!(marked.is_empty(), "left running: {marked:?}");
}

#[test]
fn a_child_that_holds_the_output_open_does_not_hold_the_call() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let marker = format!("hold-marker-{}", std::process::id());
    // The timeout is far away: the call ends when the script does.
    let ran = run(approved(), "scripts/fork_hold.sh", &[&marker]).unwrap();
    assert_eq!(ran["exit_code"], 0, "{ran}");
    assert_eq!(ran["timed_out"], false);
    assert_eq!(ran["stdout"], "started\n");
    let (zombies, marked) = leftovers(&marker);
    assert!(zombies.is_empty(), "zombies: {zombies:?}");
    assert!(marked.is_empty(), "an orphan is left: {marked:?}");
}

#[test]
fn nothing_runs_without_approval_and_a_refusal_says_why() {
    let refusal = refused(Scripts::new(), "scripts/argv.py", &[]);
    assert_eq!(
        refusal,
        "Error: not allowed: running `runner/scripts/argv.py` needs the host's approval, and it has given none"
    );
    let refusal = refused(
        Scripts::new().approve(|run| Err(format!("no {} today", run.script))),
        "scripts/argv.py",
        &[],
    );
    assert_eq!(refusal, "Error: not allowed: no scripts/argv.py today");

    let allowed = {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        run(
            Scripts::new().allow(["runner/scripts/exit3.sh"]),
            "scripts/exit3.sh",
            &[],
        )
        .unwrap()
    };
    assert_eq!(allowed["exit_code"], 3);
}

#[test]
fn the_approval_sees_the_skill_the_script_and_the_argv() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let scripts = Scripts::new().approve(move |run| {
        record
            .lock()
            .unwrap()
            .push(format!("{} {} {:?}", run.skill, run.script, run.argv));
        Ok(())
    });
    {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        run(scripts, "scripts/argv.py", &["a", "b c"]).unwrap();
    }
    assert_eq!(
        *seen.lock().unwrap(),
        ["runner scripts/argv.py [\"a\", \"b c\"]"]
    );
}

#[test]
fn paths_that_are_not_scripts_of_the_skill_are_refused_before_anything_runs() {
    let approvals = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&approvals);
    let counting = move || {
        let counted = Arc::clone(&counted);
        Scripts::new().approve(move |_| {
            *counted.lock().unwrap() += 1;
            Ok(())
        })
    };
    let list = "the scripts of `runner` are: scripts/argv.py, scripts/double_fork.sh, scripts/env.sh, scripts/escape.sh, scripts/exit3.sh, scripts/flood.py, scripts/forever.sh, scripts/fork_hold.sh, scripts/hello, scripts/notes.txt, scripts/setsid_return.sh, scripts/sibling.py, scripts/tamper.sh";
    for path in [
        "../runner/scripts/argv.py",
        "scripts/../../etc/passwd",
        "/etc/passwd",
        "scripts",
        "scripts/",
        "scripts/missing.py",
        "bin/tool.sh",
        "SKILL.md",
        "references/data.txt",
    ] {
        assert_eq!(
            refused(counting(), path, &[]),
            format!("Error: `{path}` is not a script of this skill; {list}"),
        );
    }
    assert_eq!(
        refused(counting(), "scripts/notes.txt", &[]),
        "Error: `scripts/notes.txt` names no interpreter: it has no `#!` line, and its extension is none of .py (python3), .sh (sh), .js (node)"
    );
    assert_eq!(
        refused(counting(), "scripts/argv.py", &["a\0b"]),
        "Error: an argument holds a NUL character, which no program can receive: \"a\\0b\""
    );
    // No run got as far as the approval: what cannot run is refused first
    // (issue 58, item 21).
    assert_eq!(*approvals.lock().unwrap(), 0);

    // A folder the host adds is open too.
    let widened = {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        run(approved().folder("bin"), "bin/tool.sh", &[]).unwrap()
    };
    assert_eq!(widened["stdout"], "outside\n");
}

#[test]
fn a_remote_skill_never_runs_scripts() {
    let refusal = refused(approved().remote(["runner"]), "scripts/argv.py", &[]);
    assert_eq!(
        refusal,
        "Error: the scripts of `runner` cannot run here: the host marks its origin remote"
    );
}

#[test]
fn a_sandbox_wraps_the_command() {
    /// Runs everything through `env -i` with one marker variable: a
    /// stand-in for bubblewrap that the test can see.
    struct Marked;
    impl Sandbox for Marked {
        fn wrap(&self, planned: Planned) -> Planned {
            let mut args = vec!["SANDBOXED=1".into(), planned.program];
            args.extend(planned.args);
            Planned {
                program: "env".into(),
                args,
                ..planned
            }
        }
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ran = run(approved().sandbox(Marked), "scripts/env.sh", &[]).unwrap();
    assert!(
        ran["stdout"]
            .as_str()
            .unwrap()
            .lines()
            .any(|l| l == "SANDBOXED"),
        "{ran}"
    );
}

#[test]
fn scripts_are_offered_only_when_the_host_turns_them_on() {
    let plain = Toolset::new(&agent::SKILLS);
    assert!(!plain.instructions().contains(RUN_SKILL_SCRIPT));
    assert!(plain.respond(RUN_SKILL_SCRIPT, &json!({})).is_none());
    let with = Toolset::new(&agent::SKILLS).with_scripts(Scripts::new());
    assert!(
        with.instructions()
            .contains("`run_skill_script(name, path, args?)`")
    );
    let definitions = with
        .definitions(skills::model::Provider::Anthropic)
        .to_string();
    assert!(
        definitions.contains("\"name\":\"run_skill_script\""),
        "{definitions}"
    );
}

/// Hostile input round 5 (issue 58, item 14): one run rewrote another
/// script's private copy, and the next approved run executed the rewritten
/// bytes. Each run gets a fresh copy now; and a script with no interpreter
/// is refused before the host is asked to approve it (item 21).
#[test]
fn a_run_cannot_change_what_the_next_run_runs() {
    let ran = ok("scripts/tamper.sh", &[]);
    assert_eq!(ran["stdout"], "done\n", "{ran}");
    let ran = ok("scripts/exit3.sh", &[]);
    assert_eq!(ran["exit_code"], 3, "{ran}");
    assert_eq!(ran["stdout"], "out\n", "{ran}");
    let asked = Arc::new(Mutex::new(0));
    let counter = Arc::clone(&asked);
    let refusal = refused(
        Scripts::new().approve(move |_| {
            *counter.lock().unwrap() += 1;
            Ok(())
        }),
        "scripts/notes.txt",
        &[],
    );
    assert!(refusal.contains("names no interpreter"), "{refusal}");
    assert_eq!(
        *asked.lock().unwrap(),
        0,
        "approval was asked for what cannot run"
    );
}

/// Hostile input round 5 (issue 58, item 11): a script that leaves its
/// process group (`setsid`) outlived its call. The processes below a script
/// are recorded while it runs and killed when it ends.
#[test]
fn a_process_that_left_the_group_ends_with_the_run() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let marker = format!("escape-marker-{}", std::process::id());
    let ran = run(approved(), "scripts/escape.sh", &[&marker]).unwrap();
    assert_eq!(ran["exit_code"], 0, "{ran}");
    assert_eq!(ran["stdout"], "left\n", "{ran}");
    let (zombies, marked) = leftovers(&marker);
    assert!(zombies.is_empty(), "zombies: {zombies:?}");
    assert!(marked.is_empty(), "left running: {marked:?}");
}

/// Hostile input round 6 (issue 71, item 12): a script that starts a
/// `setsid` child and returns at once, and one that double-forks, left a
/// process running: it left the tree before the first look. Each process
/// of a run carries the run's mark, and one handed to the host is found
/// by it and killed.
#[test]
fn processes_that_leave_the_tree_before_a_look_end_with_the_run() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (script, said) in [
        ("scripts/setsid_return.sh", "returned\n"),
        ("scripts/double_fork.sh", "forked\n"),
    ] {
        let marker = format!("{script}-marker-{}", std::process::id());
        let ran = run(approved(), script, &[&marker]).unwrap();
        assert_eq!(ran["exit_code"], 0, "{ran}");
        assert_eq!(ran["stdout"], said, "{ran}");
        let (zombies, marked) = leftovers(&marker);
        assert!(zombies.is_empty(), "{script}: zombies: {zombies:?}");
        assert!(marked.is_empty(), "{script}: left running: {marked:?}");
    }
}
