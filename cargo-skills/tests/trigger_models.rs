//! `cargo skills test --router anthropic:MODEL|openai:MODEL` against a local
//! server that speaks each API's wire format and records what it was sent:
//! the request (headers, model, the one tool, the catalogue), a run's votes,
//! and every way an API fails (no key, 400, 429 then success, a slow reply,
//! a reply that is not the format). No test calls the internet.

#![cfg(feature = "models")]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use support::{cargo_skills_in, fresh_dir};

/// One request as the server read it.
#[derive(Debug, Clone)]
struct Recorded {
    path: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Recorded {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the server answers: status, extra headers, body, and a delay.
struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: String,
    delay: Duration,
}

fn ok(body: Value) -> Reply {
    Reply {
        status: 200,
        headers: Vec::new(),
        body: body.to_string(),
        delay: Duration::ZERO,
    }
}

type Answer = dyn Fn(&Recorded, usize) -> Reply + Send + Sync;

/// A local HTTP/1.1 server (keep-alive) answering each request with
/// `answer(request, how many came before)`.
struct Server {
    origin: String,
    seen: Arc<Mutex<Vec<Recorded>>>,
}

impl Server {
    fn start(answer: impl Fn(&Recorded, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let seen: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let answer: Arc<Answer> = Arc::new(answer);
        let record = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (record, answer) = (record.clone(), answer.clone());
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut stream = stream;
                    while let Some(request) = read_request(&mut reader) {
                        let count = {
                            let mut seen = record.lock().unwrap();
                            seen.push(request.clone());
                            seen.len() - 1
                        };
                        let reply = answer(&request, count);
                        std::thread::sleep(reply.delay);
                        let mut head = format!(
                            "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
                            reply.status,
                            reply.body.len()
                        );
                        for (name, value) in &reply.headers {
                            head.push_str(&format!("{name}: {value}\r\n"));
                        }
                        head.push_str("\r\n");
                        if stream.write_all(head.as_bytes()).is_err()
                            || stream.write_all(reply.body.as_bytes()).is_err()
                        {
                            return;
                        }
                    }
                });
            }
        });
        Server { origin, seen }
    }

    fn seen(&self) -> Vec<Recorded> {
        self.seen.lock().unwrap().clone()
    }
}

fn read_request(reader: &mut impl BufRead) -> Option<Recorded> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Recorded {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn root(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    for (skill, description) in [
        (
            "pdf",
            "Fill in PDF forms, merge PDF files and extract their text.",
        ),
        ("deploy", "Deploy the app to staging or production."),
    ] {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            &format!(
                "---\nname: {skill}\ndescription: {description}\n---\nSECRET BODY of {skill}.\n"
            ),
        );
    }
    write(
        &dir.join("cases.json"),
        r#"{"queries": [
  {"id": "a", "text": "merge these PDFs", "expected_skill": "pdf"},
  {"id": "b", "text": "ship it to production", "expected_skill": "deploy"},
  {"id": "c", "text": "tell me a joke", "expected_skill": null}
]}"#,
    );
    dir
}

/// The skill a fake model picks for a query: the way a good one would.
fn pick(query: &str) -> Option<&'static str> {
    if query.contains("PDF") {
        Some("pdf")
    } else if query.contains("production") {
        Some("deploy")
    } else {
        None
    }
}

fn anthropic_reply(choice: Option<&str>) -> Value {
    let content = match choice {
        Some(name) => {
            json!([{"type": "tool_use", "id": "toolu_1", "name": "load_skill", "input": {"name": name}}])
        }
        None => json!([{"type": "text", "text": "Here is a joke."}]),
    };
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
           "content": content, "stop_reason": "tool_use",
           "usage": {"input_tokens": 10, "output_tokens": 5}})
}

fn openai_reply(choice: Option<&str>) -> Value {
    let output = match choice {
        Some(name) => json!([{"type": "function_call", "id": "fc_1", "call_id": "call_1",
                               "name": "load_skill", "arguments": json!({"name": name}).to_string()}]),
        None => json!([{"type": "message", "role": "assistant",
                        "content": [{"type": "output_text", "text": "A joke."}]}]),
    };
    json!({"id": "resp_1", "object": "response", "output": output})
}

/// A wire format's reply for a choice.
type ReplyFor = fn(Option<&str>) -> Value;

/// Both APIs: the router's name, and its reply for a choice.
const ROUTERS: [(&str, ReplyFor); 2] = [
    ("anthropic:claude-test", anthropic_reply),
    ("openai:gpt-test", openai_reply),
];

/// `cargo skills test` against `server`, with the key `key` (None: unset).
fn test(
    dir: &Path,
    server: &Server,
    router: &str,
    key: Option<&str>,
    extra: &[&str],
) -> (i32, String, String) {
    let mut command = cargo_skills_in(dir);
    command
        .args([
            "test",
            "skills",
            "--cases",
            "cases.json",
            "--router",
            router,
        ])
        .args(["--base-url", &server.origin, "--message-format", "json"])
        .args(extra)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY");
    if let Some(key) = key {
        command
            .env("ANTHROPIC_API_KEY", key)
            .env("OPENAI_API_KEY", key);
    }
    let output = command.output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn query_of(request: &Recorded) -> String {
    request.body["messages"][0]["content"]
        .as_str()
        .or_else(|| request.body["input"].as_str())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn anthropic_is_asked_as_a_host_asks_and_each_case_runs_three_times() {
    let dir = root("models-anthropic");
    let server = Server::start(|request, _| ok(anthropic_reply(pick(&query_of(request)))));
    let (code, stdout, stderr) = test(&dir, &server, "anthropic:claude-test", Some("sk-test"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["runs"], json!(["pdf", "pdf", "pdf"]));
    assert_eq!(lines[2]["runs"], json!([null, null, null]));
    assert_eq!(lines[3]["accuracy"], 1.0);
    let seen = server.seen();
    assert_eq!(seen.len(), 9);
    let request = seen
        .iter()
        .find(|r| query_of(r) == "merge these PDFs")
        .unwrap();
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some("sk-test"));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(request.header("content-type"), Some("application/json"));
    let body = &request.body;
    let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["max_tokens", "messages", "model", "system", "tools"]);
    assert_eq!(body["model"], "claude-test");
    assert_eq!(body["messages"].as_array().unwrap().len(), 1);
    assert_eq!(body["messages"][0]["role"], "user");
    let tools = body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "load_skill");
    assert_eq!(
        tools[0]["input_schema"]["properties"]["name"]["enum"],
        json!(["deploy", "pdf"])
    );
    let system = body["system"].as_str().unwrap();
    assert!(
        system.contains("- pdf: Fill in PDF forms, merge PDF files and extract their text."),
        "{system}"
    );
    assert!(!system.contains("SECRET BODY"), "{system}");
}

#[test]
fn openai_is_asked_through_the_responses_api() {
    let dir = root("models-openai");
    let server = Server::start(|request, _| ok(openai_reply(pick(&query_of(request)))));
    let (code, stdout, stderr) = test(
        &dir,
        &server,
        "openai:gpt-test",
        Some("sk-o"),
        &["--runs", "1"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"runs\":[\"deploy\"]"), "{stdout}");
    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    // Sent concurrently: found by its query.
    let request = seen
        .iter()
        .find(|r| query_of(r) == "merge these PDFs")
        .unwrap();
    assert_eq!(request.path, "/v1/responses");
    assert_eq!(request.header("authorization"), Some("Bearer sk-o"));
    assert_eq!(request.body["model"], "gpt-test");
    assert_eq!(request.body["input"], "merge these PDFs");
    assert_eq!(request.body["tools"][0]["type"], "function");
    assert_eq!(request.body["tools"][0]["name"], "load_skill");
    assert!(
        request.body["instructions"]
            .as_str()
            .unwrap()
            .contains("- deploy: ")
    );
}

#[test]
fn a_missing_key_sends_nothing_and_exits_2() {
    for (router, reply) in ROUTERS {
        let dir = root("models-no-key");
        let server = Server::start(move |_, _| ok(reply(None)));
        let (code, stdout, stderr) = test(&dir, &server, router, None, &[]);
        assert_eq!(code, 2, "{router}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("needs an API key in") && stderr.contains("nothing was sent"),
            "{stderr}"
        );
        assert!(server.seen().is_empty());
    }
}

/// A 400 (a model that does not exist) or a 401 (a key refused): the
/// server's message and exit 2, nothing counted as a routing failure.
#[test]
fn an_api_error_is_the_servers_message_and_exit_2_not_a_routing_failure() {
    for (router, _) in ROUTERS {
        for (status, text, message) in [
            (400, "400 Bad Request", "model: nope does not exist"),
            (401, "401 Unauthorized", "invalid x-api-key"),
        ] {
            let dir = root("models-api-error");
            let server = Server::start(move |_, _| {
                Reply {
                status,
                headers: Vec::new(),
                body: json!({"type": "error", "error": {"type": "invalid_request_error", "message": message}}).to_string(),
                delay: Duration::ZERO,
            }
            });
            let (code, stdout, stderr) = test(&dir, &server, router, Some("k"), &[]);
            assert_eq!(code, 2, "{router} {status}: {stderr}");
            assert!(stdout.is_empty(), "{stdout}");
            assert!(
                stderr.contains(&format!("the API answered {text}: {message}")),
                "{stderr}"
            );
        }
    }
}

#[test]
fn a_429_is_retried_after_the_wait_it_asks_for() {
    for (router, reply) in ROUTERS {
        let dir = root("models-429");
        let server = Server::start(move |request, count| {
            if count == 0 {
                Reply {
                    status: 429,
                    headers: vec![("retry-after", "1".to_owned())],
                    body: json!({"error": {"message": "rate limited"}}).to_string(),
                    delay: Duration::ZERO,
                }
            } else {
                ok(reply(pick(&query_of(request))))
            }
        });
        let (code, _, stderr) = test(
            &dir,
            &server,
            router,
            Some("k"),
            &["--runs", "1", "--concurrency", "1"],
        );
        assert_eq!(code, 0, "{router}: {stderr}");
        assert_eq!(server.seen().len(), 4);
    }
}

#[test]
fn a_slow_reply_times_out_with_exit_2() {
    for (router, reply) in ROUTERS {
        let dir = root("models-slow");
        let server = Server::start(move |request, _| Reply {
            delay: Duration::from_secs(4),
            ..ok(reply(pick(&query_of(request))))
        });
        let (code, _, stderr) = test(
            &dir,
            &server,
            router,
            Some("k"),
            &["--timeout", "1", "--runs", "1"],
        );
        assert_eq!(code, 2, "{router}: {stderr}");
        assert!(stderr.contains("did not answer within 1 s"), "{stderr}");
    }
}

#[test]
fn a_reply_that_is_not_the_wire_format_is_an_error() {
    for (router, _) in ROUTERS {
        for body in [
            "<html>proxy error</html>".to_owned(),
            json!({"content": 5, "output": 5}).to_string(),
        ] {
            let dir = root("models-garbage");
            let server = Server::start(move |_, _| Reply {
                status: 200,
                headers: Vec::new(),
                body: body.clone(),
                delay: Duration::ZERO,
            });
            let (code, _, stderr) = test(&dir, &server, router, Some("k"), &["--runs", "1"]);
            assert_eq!(code, 2, "{router}: {stderr}");
            assert!(
                stderr.contains("not JSON") || stderr.contains("not the API's shape"),
                "{stderr}"
            );
        }
    }
}

/// Nothing listens at the origin: one clear error, exit 2.
#[test]
fn a_router_that_cannot_be_reached_is_an_error() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = root("models-unreachable");
    let server = Server {
        origin: format!("http://127.0.0.1:{port}"),
        seen: Arc::default(),
    };
    for (router, _) in ROUTERS {
        let (code, _, stderr) = test(&dir, &server, router, Some("k"), &["--runs", "1"]);
        assert_eq!(code, 2, "{router}: {stderr}");
        assert!(stderr.contains("the API could not be reached"), "{stderr}");
    }
}

#[test]
fn the_spend_guard_refuses_before_sending() {
    let dir = root("models-guard");
    let server = Server::start(|_, _| ok(anthropic_reply(None)));
    let (code, _, stderr) = test(
        &dir,
        &server,
        "anthropic:claude-test",
        Some("k"),
        &["--max-requests", "5"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("9 requests would be sent, more than --max-requests 5"),
        "{stderr}"
    );
    assert!(server.seen().is_empty());
}

/// A local server that reads each request's head and body, then hands the
/// connection to `reply`: for replies the keep-alive `Server` cannot make
/// (an endless chunked body, a drip).
fn raw_server(reply: fn(&mut std::net::TcpStream)) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                if read_request(&mut reader).is_some() {
                    let mut stream = stream;
                    reply(&mut stream);
                }
            });
        }
    });
    Server {
        origin,
        seen: Arc::default(),
    }
}

/// Issue 71, item 10: a reply was read whole (1 GB cost 2.2 GB; an
/// endless chunked one aborted the process). The body is capped; the case's
/// request fails with why, exit 2. The server stops by itself when the
/// client hangs up (a write fails), and after 64 MiB in any case.
#[test]
fn an_endless_reply_is_cut_at_the_cap() {
    let server = raw_server(|stream| {
        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
        if stream.write_all(head.as_bytes()).is_err() {
            return;
        }
        let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, " ".repeat(64 * 1024));
        for _ in 0..1024 {
            if stream.write_all(chunk.as_bytes()).is_err() {
                return;
            }
        }
    });
    let dir = root("models-endless");
    let (code, _, stderr) = test(
        &dir,
        &server,
        "anthropic:claude-test",
        Some("k"),
        &["--runs", "1", "--concurrency", "1"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("the reply is larger than 4 MiB"),
        "{stderr}"
    );
}

/// Issue 71, item 15: a body dripped at a byte a second ended with
/// "error decoding response body", not the timeout it was.
#[test]
fn a_dripped_reply_times_out_as_a_timeout() {
    let server = raw_server(|stream| {
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n";
        if stream.write_all(head.as_bytes()).is_err() {
            return;
        }
        for _ in 0..100 {
            if stream.write_all(b" ").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let dir = root("models-drip");
    let (code, _, stderr) = test(
        &dir,
        &server,
        "anthropic:claude-test",
        Some("k"),
        &["--timeout", "2", "--runs", "1", "--concurrency", "1"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("did not answer within 2 s"), "{stderr}");
}

/// Issue 71, item 11: a 429 asking to wait 20 s made one query take 80 s
/// under `--timeout 5`. The run has a deadline, and a wait that would pass
/// it ends the run at once.
#[test]
fn the_run_has_a_deadline_that_retry_waits_count_against() {
    let server = Server::start(|_, _| Reply {
        status: 429,
        headers: vec![("retry-after", "20".to_owned())],
        body: json!({"error": {"message": "rate limited"}}).to_string(),
        delay: Duration::ZERO,
    });
    let dir = root("models-deadline");
    let started = std::time::Instant::now();
    let (code, _, stderr) = test(
        &dir,
        &server,
        "anthropic:claude-test",
        Some("k"),
        &["--deadline", "5", "--runs", "1", "--concurrency", "1"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("asks to wait 20 s, past the run's deadline (--deadline 5 s)"),
        "{stderr}"
    );
    // No retry was sent: at most each case's first request (those already
    // in flight when the first refusal ends the run).
    let sent = server.seen().len();
    assert!((1..=3).contains(&sent), "{sent} requests");
    // Not a timing assertion on the product: a hang here would be the bug.
    assert!(started.elapsed() < Duration::from_secs(60));

    // A run whose requests are slow is ended at the deadline.
    let slow = Server::start(|request, _| Reply {
        delay: Duration::from_secs(3),
        ..ok(anthropic_reply(pick(&query_of(request))))
    });
    let (code, _, stderr) = test(
        &dir,
        &slow,
        "anthropic:claude-test",
        Some("k"),
        &["--deadline", "4", "--runs", "1", "--concurrency", "1"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("did not end within --deadline 4 s"),
        "{stderr}"
    );
}

/// Issue 71, item 15: `--base-url` took any `http://` origin and sent the
/// key in clear. Plain HTTP is for loopback only; nothing is sent otherwise.
#[test]
fn plain_http_is_for_loopback_only() {
    let dir = root("models-base-url");
    for url in [
        "http://api.invalid:9",
        "http://localhost.invalid",
        "ftp://127.0.0.1",
        "https://x.invalid/v1",
    ] {
        let output = cargo_skills_in(&dir)
            .args(["test", "skills", "--cases", "cases.json"])
            .args(["--router", "anthropic:m", "--base-url", url])
            .env("ANTHROPIC_API_KEY", "k")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{url}: {stderr}");
        assert!(stderr.contains("--base-url"), "{url}: {stderr}");
    }
}

/// `cargo-skills ARGS` in `dir` with the key `key` (None: unset):
/// (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str], key: Option<&str>) -> (i32, String, String) {
    let mut command = cargo_skills_in(dir);
    command
        .args(args)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY");
    if let Some(key) = key {
        command.env("ANTHROPIC_API_KEY", key);
    }
    let output = command.output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Record a model's verdicts, replay them offline, edit a description and
/// see the stale cases named, re-record them with a key, and refuse a
/// record of another model or a truncated one.
#[test]
fn verdicts_are_recorded_replayed_offline_and_go_stale_with_the_catalogue() {
    let dir = root("models-record");
    let server = Server::start(|request, _| ok(anthropic_reply(pick(&query_of(request)))));
    let (code, _, stderr) = test(
        &dir,
        &server,
        "anthropic:claude-test",
        Some("sk-test"),
        &["--record", "record.json"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("recorded 3 verdicts of anthropic:claude-test to record.json"),
        "{stderr}"
    );
    assert_eq!(server.seen().len(), 9);
    let text = std::fs::read_to_string(dir.join("record.json")).unwrap();
    let record: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(record["model"], "anthropic:claude-test");
    assert_eq!(record["host"], "claude-code");
    let listed: Vec<&String> = record["listing"].as_object().unwrap().keys().collect();
    assert_eq!(listed, ["deploy", "pdf"]);
    // One verdict per query, sorted: a diff says which changed.
    let queries: Vec<&str> = record["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["query"].as_str().unwrap())
        .collect();
    assert_eq!(
        queries,
        [
            "merge these PDFs",
            "ship it to production",
            "tell me a joke"
        ]
    );
    assert_eq!(record["verdicts"][0]["runs"], json!(["pdf", "pdf", "pdf"]));
    // The same verdicts write the same bytes.
    test(
        &dir,
        &server,
        "anthropic:claude-test",
        Some("sk-test"),
        &["--record", "record.json"],
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("record.json")).unwrap(),
        text
    );
    let asked = server.seen().len();

    // Offline, no key: judged from the record, nothing sent.
    let replay = [
        "test",
        "skills",
        "--cases",
        "cases.json",
        "--replay",
        "record.json",
    ];
    let (code, stdout, stderr) = run(&dir, &replay, None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("decision accuracy 1.000"), "{stdout}");
    assert!(
        stderr.contains("router: anthropic:claude-test (replayed from record.json)"),
        "{stderr}"
    );
    assert_eq!(server.seen().len(), asked);

    // An edited description: the cases it touches are stale, by name.
    write(
        &dir.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fill in and merge PDF forms.\n---\nBody.\n",
    );
    let (code, _, stderr) = run(&dir, &replay, None);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("stale: case `a` (\"merge these PDFs\"): the listed text of `pdf` changed since it was recorded"),
        "{stderr}"
    );
    assert!(!stderr.contains("stale: case `b`"), "{stderr}");
    assert!(
        stderr.contains("1 of 3 cases cannot be replayed from record.json: record them again with `cargo skills test --router anthropic:claude-test --record record.json`"),
        "{stderr}"
    );
    // With the key, the stale ones are asked again and the record updated.
    let mut again: Vec<&str> = replay.to_vec();
    again.extend(["--base-url", &server.origin]);
    let (code, _, stderr) = run(&dir, &again, Some("sk-test"));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("re-recorded 1 stale verdict of anthropic:claude-test in record.json"),
        "{stderr}"
    );
    assert_eq!(server.seen().len(), asked + 3);
    let (code, _, stderr) = run(&dir, &replay, None);
    assert_eq!(code, 0, "{stderr}");

    // Another model's record: located, exit 2, nothing judged.
    let mut other: Vec<&str> = replay.to_vec();
    other.extend(["--router", "anthropic:claude-other"]);
    let (code, stdout, stderr) = run(&dir, &other, None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("error[S608]: this record is `anthropic:claude-test`'s verdicts, and the run is `anthropic:claude-other`'s")
            && stderr.contains("--> record.json:8:12"),
        "{stderr}"
    );
    // Another host's listing, or another package's record: S608, exit 2.
    let mut codex: Vec<&str> = replay.to_vec();
    codex.extend(["--host", "codex"]);
    let (code, _, stderr) = run(&dir, &codex, None);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "error[S608]: this record is of `claude-code`'s listing, and the run reads `codex`'s"
        ),
        "{stderr}"
    );
    let text = std::fs::read_to_string(dir.join("record.json")).unwrap();
    write(
        &dir.join("record.json"),
        &text
            .replace("\"deploy\":", "\"ship\":")
            .replace("\"pdf\":", "\"forms\":"),
    );
    let (code, _, stderr) = run(&dir, &replay, None);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("error[S608]: this record lists none of the skills of this catalogue"),
        "{stderr}"
    );
    write(&dir.join("record.json"), &text);
    // Truncated, or not a record: S608, exit 2.
    let text = std::fs::read_to_string(dir.join("record.json")).unwrap();
    for broken in [
        &text[..text.len() / 2],
        "{\"format\": \"something else\"}",
        "[]",
    ] {
        write(&dir.join("record.json"), broken);
        let (code, stdout, stderr) = run(&dir, &replay, None);
        assert_eq!(code, 2, "{broken}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("error[S608]") && stderr.contains("nothing was judged"),
            "{broken}: {stderr}"
        );
    }

    // The manifest's `replay`: CI runs `cargo skills test`, nothing more.
    write(&dir.join("record.json"), &text);
    write(
        &dir.join("Cargo.toml"),
        "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.skills.test]\nreplay = \"record.json\"\ncases = [\"cases.json\"]\n\n[workspace]\n",
    );
    write(&dir.join("src/lib.rs"), "");
    let (code, _, stderr) = run(&dir, &["test"], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("(replayed from record.json)"), "{stderr}");
    // `--record` needs a model.
    let (code, _, stderr) = run(
        &dir,
        &["test", "--record", "x.json", "--router", "lexical"],
        None,
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("`--record` writes a model's verdicts"),
        "{stderr}"
    );
}
