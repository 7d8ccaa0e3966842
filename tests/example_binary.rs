//! The example agent binary, run as a user runs it.

use std::process::Command;

use skills_tests::workspace;

fn run(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO"))
        .args(["run", "--quiet", "-p", "issue-tracker", "--"])
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("run cargo");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn prints_the_catalog_and_turns_a_call_into_a_request() {
    let (ok, stdout, _) = run(&[
        "create_issue",
        r#"{"repo": "acme/app", "title": "Crash", "labels": ["bug"]}"#,
    ]);
    assert!(ok);
    assert!(
        stdout.starts_with("3 skills:\n- github-issues: "),
        "{stdout}"
    );
    assert!(stdout.contains("policy:  allow\n"), "{stdout}");
    assert!(
        stdout.contains("request: POST https://tracker.example.com/api/repos/acme%2Fapp/issues\n"),
        "{stdout}"
    );
    assert!(
        // `priority` was not given: left out, never sent as null.
        stdout.contains(r#"{"title":"Crash","labels":["bug"]}"#),
        "{stdout}"
    );

    let (ok, stdout, _) = run(&["delete_issue", r#"{"repo": "a", "number": 1}"#]);
    assert!(ok && stdout.contains("policy:  confirm\n"), "{stdout}");

    let (ok, _, stderr) = run(&["create_issue", r#"{"repo": "a"}"#]);
    assert!(!ok);
    assert!(
        stderr.contains("invalid arguments for `create_issue` at `title`"),
        "{stderr}"
    );
}
