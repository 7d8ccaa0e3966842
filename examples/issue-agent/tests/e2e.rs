//! End to end: the agent binary reads tool calls on stdin and sends them to a
//! real HTTP server on an ephemeral loopback port; the server records exactly
//! what arrived.

use std::io::Write;
use std::process::{Command, Stdio};

use issue_agent::server::{Recorded, Server};

/// Runs the agent on `lines` against `server`; returns its output.
fn agent(server: &Server, lines: &[&str], extra: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_issue-agent"))
        .args(["--origin", &server.origin()])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn only(server: &Server) -> Recorded {
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "{requests:#?}");
    requests.into_iter().next().unwrap()
}

#[test]
fn each_tool_sends_its_method_path_query_headers_and_body() {
    let server = Server::start().unwrap();
    agent(
        &server,
        &[
            r#"{"tool": "list_issues", "arguments": {"repo": "acme/app", "state": "all", "limit": 1}}"#,
        ],
        &[],
    );
    let list = only(&server);
    assert_eq!(
        (list.method.as_str(), list.target.as_str()),
        ("GET", "/repos/acme%2Fapp/issues?state=all&limit=1")
    );
    assert!(list.body.is_empty());
    assert_eq!(
        list.header("host"),
        Some(server.origin().trim_start_matches("http://"))
    );

    let server = Server::start().unwrap();
    agent(
        &server,
        &[r#"{"tool": "get_issue", "arguments": {"repo": "acme/app", "number": 2}}"#],
        &[],
    );
    assert_eq!(only(&server).target, "/repos/acme%2Fapp/issues/2");

    let server = Server::start().unwrap();
    let out = agent(
        &server,
        &[
            r#"{"tool": "create_issue", "arguments": {"repo": "acme/app", "title": "T", "labels": ["bug"]}}"#,
        ],
        &[],
    );
    let create = only(&server);
    assert_eq!(
        (create.method.as_str(), create.path()),
        ("POST", "/repos/acme%2Fapp/issues")
    );
    assert_eq!(create.header("content-type"), Some("application/json"));
    assert_eq!(create.header("x-agent"), Some("issue-agent"));
    assert_eq!(
        create.json(),
        // `body` was not given: it is left out, never sent as null.
        serde_json::json!({"title": "T", "labels": ["bug"]})
    );
    assert!(out.contains("  response: 201 "), "{out}");

    let server = Server::start().unwrap();
    agent(
        &server,
        &[
            r#"{"tool": "close_issue", "arguments": {"repo": "acme/app", "number": 1, "reason": "completed", "comment": "fixed in #2"}}"#,
        ],
        &[],
    );
    let close = only(&server);
    assert_eq!(
        (close.method.as_str(), close.path()),
        ("PATCH", "/repos/acme%2Fapp/issues/1")
    );
    assert_eq!(
        close.json(),
        serde_json::json!({"state": "closed", "state_reason": "completed", "comment": "closed by the agent: fixed in #2"})
    );

    let server = Server::start().unwrap();
    agent(
        &server,
        &[r#"{"tool": "delete_issue", "arguments": {"repo": "acme/app", "number": 1}}"#],
        &["--yes"],
    );
    let delete = only(&server);
    assert_eq!(
        (delete.method.as_str(), delete.target.as_str()),
        ("DELETE", "/repos/acme%2Fapp/issues/1")
    );
}

#[test]
fn hostile_values_stay_inside_their_segment_query_value_and_json_string() {
    // Sent, escaped; `../admin`, `\\` and `%2F` are refused (the next test).
    let hostile = [
        "a/b",
        "?x=1",
        "#frag",
        "\"",
        "a b&c=d",
        "é✓",
        "...",
        "a\\b",
        "\"}, \"admin\": true, \"x\": \"",
    ];
    for value in hostile {
        let server = Server::start().unwrap();
        let call = serde_json::json!({"tool": "create_issue", "arguments": {"repo": value, "title": value, "labels": [value]}});
        agent(&server, &[&call.to_string()], &[]);
        let request = only(&server);
        let segments: Vec<&str> = request.path().split('/').collect();
        assert_eq!(segments.len(), 4, "{value}: {}", request.target);
        assert_eq!((segments[1], segments[3]), ("repos", "issues"), "{value}");
        assert!(
            !segments[2].contains(['/', '?', '#']) && segments[2] != "..",
            "{value}: {}",
            segments[2]
        );
        assert_eq!(request.query(), None, "{value}: {}", request.target);
        assert_eq!(
            request.json(),
            serde_json::json!({"title": value, "labels": [value]}),
            "{value}"
        );

        let server = Server::start().unwrap();
        let call = serde_json::json!({"tool": "list_issues", "arguments": {"repo": "r", "limit": 1, "state": "open"}});
        agent(&server, &[&call.to_string()], &[]);
        assert_eq!(only(&server).query(), Some("state=open&limit=1"));
    }
}

#[test]
fn a_path_value_that_reads_as_a_dot_segment_never_reaches_the_server() {
    for value in [
        "..",
        ".",
        "",
        "%2e%2E",
        "%252e",
        "../private",
        "a%2F..%2Fb",
        "\\",
    ] {
        let server = Server::start().unwrap();
        let call =
            serde_json::json!({"tool": "create_issue", "arguments": {"repo": value, "title": "t"}});
        let out = agent(&server, &[&call.to_string()], &[]);
        assert!(server.requests().is_empty(), "{value:?} was sent");
        assert!(
            out.contains("path segment empty or hold a `.` or `..` segment"),
            "{out}"
        );
    }
}

#[test]
fn a_denied_tool_never_reaches_the_server_and_confirmation_needs_a_yes() {
    let server = Server::start().unwrap();
    let out = agent(
        &server,
        &[
            r#"{"tool": "lock_issue", "arguments": {"repo": "acme/app", "number": 1}}"#,
            // Without a terminal and without --yes, a confirmation cannot be given.
            r#"{"tool": "delete_issue", "arguments": {"repo": "acme/app", "number": 1}}"#,
        ],
        &[],
    );
    assert!(server.requests().is_empty(), "{:#?}", server.requests());
    assert!(
        out.contains("  policy: deny\n  refused: `lock_issue` changes state (PUT)"),
        "{out}"
    );
    assert!(
        out.contains(
            "  policy: confirm\n  refused: this call needs confirmation and there is no terminal"
        ),
        "{out}"
    );
}

#[test]
fn malformed_calls_get_a_clear_error_and_the_agent_keeps_going() {
    let server = Server::start().unwrap();
    let out = agent(
        &server,
        &[
            "not json",
            r#"{"arguments": {}}"#,
            r#"{"tool": "get_issue", "arguments": [1]}"#,
            r#"{"tool": "get_issue", "arguments": {"repo": "acme/app", "number": "one"}}"#,
            r#"{"tool": "get_issue", "arguments": {"repo": "acme/app", "number": 1, "extra": true}}"#,
            r#"{"tool": "nope", "arguments": {}}"#,
            "",
            r#"{"tool": "get_issue", "arguments": {"repo": "acme/app", "number": 1}}"#,
        ],
        &[],
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("  error: ")).collect();
    assert_eq!(errors.len(), 6, "{out}");
    assert!(errors[0].contains("not JSON"), "{out}");
    assert!(errors[1].contains("no `tool` name"), "{out}");
    assert!(errors[2].contains("`arguments` must be an object"), "{out}");
    assert!(errors[3].contains("at `number`: invalid type"), "{out}");
    assert!(errors[4].contains("at `extra`: unknown field"), "{out}");
    assert!(errors[5].contains("unknown tool `nope`"), "{out}");
    // The last, valid call still went through.
    assert_eq!(only(&server).target, "/repos/acme%2Fapp/issues/1");
    assert!(out.ends_with("\"title\":\"Crash on start\"}\n"), "{out}");
}

/// `--install DIR` (issue 43, item 1): the binary writes its own compiled
/// skills for other agents, exactly as on disk; a second run finds them up
/// to date, and an edited file is left alone.
#[test]
fn the_binary_installs_its_own_skills() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("issue-agent-install");
    let _ = std::fs::remove_dir_all(&dir);
    let install = || {
        let output = Command::new(env!("CARGO_BIN_EXE_issue-agent"))
            .arg("--install")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(
        install(),
        "issue-triage: missing, written\ntracker: missing, written\n"
    );
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/tracker");
    for file in ["SKILL.md", "references/labels.md"] {
        assert_eq!(
            std::fs::read(dir.join("tracker").join(file)).unwrap(),
            std::fs::read(source.join(file)).unwrap(),
            "{file}"
        );
    }
    assert_eq!(
        install(),
        "issue-triage: up to date, left as it is\ntracker: up to date, left as it is\n"
    );
    std::fs::write(dir.join("tracker/references/labels.md"), "mine\n").unwrap();
    assert!(install().contains("tracker: edited, left as it is\n"));
    assert_eq!(
        std::fs::read_to_string(dir.join("tracker/references/labels.md")).unwrap(),
        "mine\n"
    );
}

#[test]
fn the_demo_runs_against_its_own_server() {
    let output = Command::new(env!("CARGO_BIN_EXE_issue-agent"))
        .arg("--demo")
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    // The model opens the skill, then a file of it, through the toolset.
    assert!(
        out.contains("> load_skill {\"name\":\"tracker\"}\n  answer ("),
        "{out}"
    );
    assert!(
        out.contains("  | - references/labels.md (245 bytes, text)\n"),
        "{out}"
    );
    assert!(
        out.contains("  | - `bug`: something that worked no longer does"),
        "{out}"
    );
    assert!(
        out.contains("  | Error: `tracker` has no file `../issue-triage/SKILL.md`; its files are: references/labels.md"),
        "{out}"
    );
    assert!(out.contains("  response: 201 "), "{out}");
    assert!(out.contains("  response: 204"), "{out}");
    assert!(out.contains("request: GET http://127.0.0.1:"), "{out}");
    assert!(
        out.contains("/repos/acme%2Fapp%3Fadmin%3D1%23x/issues/1"),
        "{out}"
    );
    assert!(
        out.contains(
            "the value of `repo` would make a path segment empty or hold a `.` or `..` segment"
        ),
        "{out}"
    );
    assert!(out.ends_with("The tracker received 7 requests; the denied call and the refused ones never reached it.\n"), "{out}");
}

#[test]
fn confirmation_is_asked_on_the_terminal() {
    // `script` gives the agent a real terminal; the answers are typed into it,
    // while the tool calls still come from stdin.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed, so no terminal can be simulated");
        return;
    }
    let server = Server::start().unwrap();
    let calls =
        std::env::temp_dir().join(format!("issue-agent-calls-{}.jsonl", std::process::id()));
    std::fs::write(
        &calls,
        "{\"tool\": \"delete_issue\", \"arguments\": {\"repo\": \"acme/app\", \"number\": 1}}\n\
         {\"tool\": \"delete_issue\", \"arguments\": {\"repo\": \"acme/app\", \"number\": 2}}\n",
    )
    .unwrap();
    let command = format!(
        "{} --origin {} < {}",
        env!("CARGO_BIN_EXE_issue-agent"),
        server.origin(),
        calls.display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"y\nn\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&calls);
    let out = String::from_utf8_lossy(&output.stdout).replace('\r', "");
    assert!(
        out.contains("send DELETE ") && out.contains("[y/N]"),
        "{out}"
    );
    assert!(out.contains("declined. Not sent."), "{out}");
    // Only the approved call reached the server.
    let request = only(&server);
    assert_eq!(
        (request.method.as_str(), request.target.as_str()),
        ("DELETE", "/repos/acme%2Fapp/issues/1")
    );
}
