//! `cargo skills serve` as an MCP host runs it: a child process spoken to
//! over stdio by an rmcp client, with a real HTTP server behind `--origin`.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::mpsc;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

mod support;

/// The handshake a raw client opens with.
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Answers one HTTP request with `200 {"ok": true}` and reports its request line.
fn one_request_server() -> (String, mpsc::Receiver<String>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            if header.trim().is_empty() {
                break;
            }
            if let Some(value) = header.to_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let _ = send.send(line.trim().to_owned());
        let body = "{\"ok\": true}";
        let mut stream = reader.into_inner();
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    (origin, receive)
}

fn example_skills() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/skills")
}

#[tokio::test]
async fn serve_speaks_mcp_over_stdio_and_sends_to_the_origin_given() {
    let (origin, requests) = one_request_server();
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"));
    command
        .arg("serve")
        .arg(example_skills())
        .args(["--origin", &origin, "--structured-content"]);
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(
        names.contains(&"list_issues") && names.contains(&"create_issue"),
        "{names:?}"
    );

    let Some(arguments) = json!({"repo": "acme/app"}).as_object().cloned() else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new("list_issues").with_arguments(arguments))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(result.structured_content, Some(json!({"ok": true})));
    assert_eq!(
        requests.recv().unwrap(),
        "GET /api/repos/acme%2Fapp/issues?state=open HTTP/1.1"
    );
    let skills = client.list_all_skills().await.unwrap();
    assert_eq!(skills.len(), 3);
    client.cancel().await.unwrap();
}

#[test]
fn serve_refuses_to_start_on_invalid_skills_and_says_why_on_stderr() {
    let dir = std::env::temp_dir().join(format!("cargo-skills-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bad")).unwrap();
    std::fs::write(dir.join("bad/SKILL.md"), "---\nname: Bad\n---\n").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg("serve")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "stdout is the protocol's");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[S"), "{stderr}");
    assert!(stderr.contains("not serving"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--skip-invalid` serves the valid skills of a root with a broken one, and
/// says on stderr what it skipped and why (issue 24, item 3).
#[test]
fn serve_skip_invalid_serves_the_rest_and_prints_the_skips() {
    let dir = support::fresh_dir("serve-skip-invalid");
    std::fs::create_dir_all(dir.join("bad")).unwrap();
    std::fs::write(dir.join("bad/SKILL.md"), "---\nname: Bad\n---\n").unwrap();
    std::fs::create_dir_all(dir.join("good")).unwrap();
    std::fs::write(
        dir.join("good/SKILL.md"),
        "---\nname: good\ndescription: Fine. Use when testing.\n---\nBody.\n",
    )
    .unwrap();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg("serve")
        .arg(&dir)
        .arg("--skip-invalid")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    stdin.write_all(INITIALIZE.as_bytes()).unwrap();
    stdin
        .write_all(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\"}\n")
        .unwrap();
    drop(stdin);
    let output = server.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[S"), "{stderr}");
    assert!(stderr.contains("skipped"), "{stderr}");
    assert!(stderr.contains("serving 1 skill"), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let prompts = stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|reply| reply["id"] == 1)
        .unwrap_or_else(|| panic!("no reply to prompts/list: {stdout}"));
    let names: Vec<&str> = prompts["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|prompt| prompt["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["good"], "{prompts}");
}

/// Issue 40, item 6: `--skip-invalid` with every skill invalid served zero
/// skills without a word; it refuses, as without the flag.
#[test]
fn serve_skip_invalid_refuses_when_no_skill_is_left() {
    let dir = support::fresh_dir("serve-skip-all-invalid");
    std::fs::create_dir_all(dir.join("bad")).unwrap();
    std::fs::write(dir.join("bad/SKILL.md"), "---\nname: Bad\n---\n").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg("serve")
        .arg(&dir)
        .arg("--skip-invalid")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("skipped"), "{stderr}");
    assert!(
        stderr.contains("error: not serving: no valid skill was found in"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

/// The skills a `serve` of `paths` lists over MCP.
async fn served_skills(paths: &[&Path]) -> Vec<String> {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"));
    command.arg("serve").args(paths);
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let mut names: Vec<String> = client
        .list_all_skills()
        .await
        .unwrap()
        .into_iter()
        .map(|skill| skill.name().to_string())
        .collect();
    names.sort();
    client.cancel().await.unwrap();
    names
}

#[tokio::test]
async fn serve_reads_a_flat_skill_a_skill_directory_and_a_root_as_check_does() {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("root/one")).unwrap();
    std::fs::create_dir_all(dir.join("root/two")).unwrap();
    let skill = |name: &str| {
        format!("---\nname: {name}\ndescription: Does {name}. Use when testing.\n---\nBody\n")
    };
    std::fs::write(dir.join("root/one/SKILL.md"), skill("one")).unwrap();
    std::fs::write(dir.join("root/two/SKILL.md"), skill("two")).unwrap();
    std::fs::write(dir.join("deploy.md"), skill("deploy")).unwrap();

    assert_eq!(served_skills(&[&dir.join("deploy.md")]).await, ["deploy"]);
    assert_eq!(served_skills(&[&dir.join("root/one")]).await, ["one"]);
    assert_eq!(served_skills(&[&dir.join("root")]).await, ["one", "two"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_refuses_a_bad_origin_before_it_starts() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg("serve")
        .arg(example_skills())
        .args(["--origin", "http://127.0.0.1:9/some/path"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "error: invalid origin `http://127.0.0.1:9/some/path`: an origin has no path or query"
        ),
        "{stderr}"
    );
}

/// Every file of a skill directory over MCP, as a host reads it: the
/// SEP-2640 manifest lists each with its digest and size, `resources/read`
/// serves text as text and the rest as a base64 blob, each verifies against
/// its manifest entry, and nothing outside the manifest can be read.
#[tokio::test]
async fn serve_lists_and_reads_every_file_of_a_skill() {
    use base64::Engine;
    use rmcp::model::{ReadResourceRequestParams, ResourceContents, SkillResources};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/files");
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"));
    command.arg("serve").arg(&dir);
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();

    let skills = client.list_all_skills().await.unwrap();
    rmcp::model::validate_skills(&skills).unwrap();
    let SkillResources::Files(files) = &skills[0].resources else {
        panic!("a manifest of files")
    };
    let uris: Vec<&str> = files.iter().map(|f| f.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "skill://forms/SKILL.md",
            "skill://forms/assets/stamp.png",
            "skill://forms/references/check%20list.md",
            "skill://forms/references/fields.md",
            "skill://forms/scripts/fill.py"
        ]
    );
    let resources = client.list_all_resources().await.unwrap();
    // What the list says of each resource is what a read gets: the same
    // MIME type, and the size of its bytes (issue 24, item 6).
    for resource in &resources {
        let read = client
            .read_resource(ReadResourceRequestParams::new(resource.uri.clone()))
            .await
            .unwrap();
        let (mime, size) = match &read.contents[0] {
            ResourceContents::TextResourceContents {
                text, mime_type, ..
            } => (mime_type.clone(), text.len()),
            ResourceContents::BlobResourceContents {
                blob, mime_type, ..
            } => (
                mime_type.clone(),
                base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .unwrap()
                    .len(),
            ),
            other => panic!("{other:?}"),
        };
        assert_eq!(resource.mime_type, mime, "{}", resource.uri);
        assert_eq!(resource.size, Some(size as u64), "{}", resource.uri);
    }
    let listed: Vec<(&str, Option<&str>)> = resources
        .iter()
        .map(|r| (r.uri.as_str(), r.mime_type.as_deref()))
        .collect();
    assert_eq!(
        listed,
        [
            ("skill://forms/SKILL.md", Some("text/markdown")),
            ("skill://forms/assets/stamp.png", Some("image/png")),
            (
                "skill://forms/references/check%20list.md",
                Some("text/markdown")
            ),
            ("skill://forms/references/fields.md", Some("text/markdown")),
            ("skill://forms/scripts/fill.py", Some("text/plain")),
        ]
    );
    for entry in files {
        let read = client
            .read_resource(ReadResourceRequestParams::new(entry.uri.clone()))
            .await
            .unwrap();
        let bytes = match &read.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => text.clone().into_bytes(),
            ResourceContents::BlobResourceContents {
                blob, mime_type, ..
            } => {
                assert_eq!(mime_type.as_deref(), Some("image/png"));
                base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .unwrap()
            }
            other => panic!("{other:?}"),
        };
        entry.verify(&bytes).unwrap();
        let path = entry
            .uri
            .strip_prefix("skill://")
            .unwrap()
            .replace("%20", " ");
        assert_eq!(
            bytes,
            std::fs::read(dir.join(path)).unwrap(),
            "{}",
            entry.uri
        );
    }
    // A path as a link in SKILL.md writes it (issue 57, item 7).
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://forms/./references/fields.md",
        ))
        .await
        .unwrap();
    assert!(
        matches!(&read.contents[0], ResourceContents::TextResourceContents { text, .. } if text.starts_with("# Fields")),
        "{read:?}"
    );
    for outside in [
        "skill://forms/../forms/SKILL.md",
        "skill://forms/references/../SKILL.md",
        "skill://forms/%2e%2e/forms/SKILL.md",
        "skill://forms/%2E%2E%2Fforms/SKILL.md",
        "skill://forms/references%2Ffields.md",
        "skill://forms//references/fields.md",
        "skill://forms/./../forms/SKILL.md",
        "skill://forms/references/fields.md?x=1",
        "skill://forms/missing.md",
        "skill://other/SKILL.md",
        "file:///etc/passwd",
    ] {
        let error = client
            .read_resource(ReadResourceRequestParams::new(outside))
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("no resource at"),
            "{outside}: {error}"
        );
    }
    client.cancel().await.unwrap();
}

/// A client without the skills extension gets the host toolset: it lists
/// `load_skill` and `read_skill_resource`, and their answers are what
/// `skills::Toolset` answers any model API. `--no-host-tools` leaves them out.
#[tokio::test]
async fn serve_offers_the_host_toolset_to_clients_without_the_skills_extension() {
    use rmcp::model::CallToolRequestParams;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/files");
    let loaded = skills::loader::Loader::new().load(&dir).unwrap();
    let toolset = skills::Toolset::new(loaded.set());
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"));
    command.arg("serve").arg(&dir);
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["load_skill", "read_skill_resource"]);
    assert_eq!(
        serde_json::Value::Object((*tools[1].input_schema).clone()),
        toolset.parameters(&skills::toolset::TOOLS[1])
    );
    for (name, arguments) in [
        ("load_skill", json!({"name": "forms"})),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "references/fields.md"}),
        ),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "../forms/SKILL.md"}),
        ),
    ] {
        let result = client
            .call_tool(
                CallToolRequestParams::new(name)
                    .with_arguments(arguments.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        let text: String = result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        let expected = toolset.respond(name, &arguments).unwrap();
        assert_eq!(
            result.is_error == Some(true),
            expected.is_err(),
            "{name} {arguments}"
        );
        assert_eq!(text, expected.unwrap_or_else(|e| e), "{name} {arguments}");
    }
    client.cancel().await.unwrap();

    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"));
    command.arg("serve").arg(&dir).arg("--no-host-tools");
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    assert!(client.list_all_tools().await.unwrap().is_empty());
    client.cancel().await.unwrap();
}

/// A child `cargo skills serve` spoken to in raw lines: what a host whose
/// JSON encoder misbehaves sends, byte for byte.
struct RawServer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    replies: mpsc::Receiver<serde_json::Value>,
}

impl RawServer {
    fn start(root: &Path) -> RawServer {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
            .arg("serve")
            .arg(root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                // Every line the server writes is JSON.
                let reply: serde_json::Value = serde_json::from_str(&line).unwrap();
                if send.send(reply).is_err() {
                    return;
                }
            }
        });
        let mut server = RawServer {
            child,
            stdin,
            replies,
        };
        server.send(INITIALIZE.as_bytes());
        assert_eq!(server.reply()["id"], 0);
        server.send(INITIALIZED.as_bytes());
        server
    }

    fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next reply; a server that stays silent fails the test instead of
    /// hanging it.
    fn reply(&self) -> serde_json::Value {
        self.replies
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the server did not answer within 30 s")
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Arguments nested `depth` levels deep under `key`: `{"key": {"a": {"a": ... 1}}}`.
fn nested(key: &str, depth: usize) -> String {
    format!(
        "{{\"{key}\":{}1{}}}",
        "{\"a\":".repeat(depth - 1),
        "}".repeat(depth - 1)
    )
}

#[test]
fn unparseable_json_rpc_gets_a_parse_error_with_its_id_and_the_server_carries_on() {
    let mut server = RawServer::start(&example_skills());
    let bad: [&[u8]; 6] = [
        br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}"#,
        br#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":Infinity}}"#,
        br#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":1e400}}"#,
        br#"{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"\ud800"}}"#,
        b"{\"jsonrpc\":\"2.0\",\"id\":\"five\",\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}",
        b"not json at all",
    ];
    let expected_ids = [
        json!(1),
        json!(2),
        json!(3),
        json!(4),
        json!("five"),
        json!(null),
    ];
    for (line, id) in bad.iter().zip(expected_ids) {
        server.send(line);
        let reply = server.reply();
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["error"]["code"], -32700, "{reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Parse error")),
            "{reply}"
        );
    }
    // Still serving.
    server.send(br#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#);
    let reply = server.reply();
    assert_eq!(reply["id"], 9);
    assert!(reply.get("result").is_some(), "{reply}");
}

#[test]
fn deep_arguments_reach_the_checkers_depth_error_however_deep() {
    let root = support::fresh_dir("serve-deep-arguments");
    let skill = root.join("notes");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: notes\ndescription: Keeps notes. Use when asked to remember something.\ntools:\n  - name: save_note\n    description: Saves a note.\n    parameters:\n      type: object\n      properties:\n        note: {type: object, additionalProperties: true}\n    endpoint: {method: POST, url: \"https://notes.example/api\"}\npermissions: {allow_write: [save_note]}\n---\nSave notes.\n",
    )
    .unwrap();
    let mut server = RawServer::start(&root);
    // 100 levels fit in the transport's own limit; 300 do not. Both get the
    // checker's answer, a tool error result, and nothing is sent.
    for (id, depth) in [(1, 100), (2, 300)] {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"save_note","arguments":{}}}}}"#,
            nested("note", depth)
        );
        server.send(line.as_bytes());
        let reply = server.reply();
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("invalid arguments for `save_note` at `")
                && text.ends_with(&format!(
                    "nested more than {} levels deep",
                    skills::tables::MAX_DEPTH
                )),
            "{text}"
        );
    }
}

/// Issue 40, item 20 (and item 6's `skills/get`): JSON lines that are not
/// JSON-RPC requests got no reply at all, and `skills/get` with a wrong
/// parameter got `-32601`. Each gets the error its kind calls for, and the
/// server carries on.
#[test]
fn json_that_is_not_json_rpc_gets_the_error_its_kind_calls_for() {
    let mut server = RawServer::start(&example_skills());
    let cases: [(&[u8], Value, i64, &str); 10] = [
        (br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, json!(null), -32600, "batch"),
        (br#"[]"#, json!(null), -32600, "batch"),
        (br#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#, json!(2), -32600, "`jsonrpc`"),
        (br#"{"jsonrpc":"2.0","id":3}"#, json!(3), -32600, "no `method`"),
        (br#"{"jsonrpc":"2.0","id":4,"method":"ping","params":"x"}"#, json!(4), -32600, "`params`"),
        (br#"{"jsonrpc":"2.0","id":5.5,"method":"ping"}"#, json!(null), -32600, "`id`"),
        (br#"{"jsonrpc":"2.0","id":6,"method":7}"#, json!(6), -32600, "`method`"),
        (br#"42"#, json!(null), -32600, "object"),
        (br#"{"jsonrpc":"2.0","id":8,"method":"skills/get","params":{"url":"skill://a/SKILL.md"}}"#, json!(8), -32602, "`uri`"),
        // Parameters by position: JSON-RPC allows them, MCP reads none.
        (br#"{"jsonrpc":"2.0","id":10,"method":"ping","params":[]}"#, json!(10), -32600, "not a message this server reads"),
    ];
    for (line, id, code, says) in cases {
        server.send(line);
        let reply = server.reply();
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["error"]["code"], code, "{reply}");
        let message = reply["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(says),
            "{}: {reply}",
            String::from_utf8_lossy(line)
        );
    }
    server.send(br#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#);
    let reply = server.reply();
    assert_eq!(reply["id"], 9);
    assert!(reply.get("result").is_some(), "{reply}");
}

/// The peak resident memory of process `pid`, in bytes (`VmHWM`).
#[cfg(target_os = "linux")]
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

/// Issue 40, item 14: a client that sends many large `resources/read` and
/// does not read the replies grew the server to 5.6 GB, every reply built
/// at once. The server works on at most a few requests at a time and stops
/// reading while their replies wait: its peak memory stays a few replies'
/// worth, and every request is still answered once the client reads.
#[cfg(target_os = "linux")]
#[test]
fn requests_sent_without_reading_the_replies_hold_a_few_replies_in_memory() {
    let dir = support::fresh_dir("serve-back-pressure");
    let skill = dir.join("skills/big");
    std::fs::create_dir_all(skill.join("assets")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: big\ndescription: Holds a big file. Use when asked.\n---\nBody.\n",
    )
    .unwrap();
    let size = 4 * 1024 * 1024;
    std::fs::write(skill.join("assets/big.txt"), "a".repeat(size)).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg("serve")
        .arg(dir.join("skills"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut reply = || {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap()
    };
    writeln!(stdin, "{INITIALIZE}").unwrap();
    assert_eq!(reply()["id"], 0);
    writeln!(stdin, "{INITIALIZED}").unwrap();
    let requests = 100;
    for id in 1..=requests {
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{"uri":"skill://big/assets/big.txt"}}}}"#
        )
        .unwrap();
    }
    stdin.flush().unwrap();
    // The client reads nothing for a while: an unbounded server builds
    // every reply meanwhile.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let mut answered = 0;
    while answered < requests {
        let message = reply();
        if message.get("id").is_some() {
            let text = message["result"]["contents"][0]["text"].as_str().unwrap();
            assert_eq!(text.len(), size);
            answered += 1;
        }
    }
    let peak = peak_memory(child.id());
    let _ = child.kill();
    let _ = child.wait();
    // Eight replies in flight, each held a few times over (the text, the
    // JSON, the line): 111 MB measured. Without the cap: 489 MB.
    assert!(
        peak < 250 * 1024 * 1024,
        "peak memory {} MB for {requests} reads of a {} MB file",
        peak / (1024 * 1024),
        size / (1024 * 1024)
    );
}

/// The cap on requests in flight frees a place when the client cancels a
/// request (the server then sends no reply): eight calls that hang on their
/// endpoint, all cancelled, leave room for the next request at once. Were
/// a cancelled request to keep its place, the ninth would wait for the
/// endpoints' 30-second timeout.
#[test]
fn a_cancelled_request_frees_its_place_among_those_in_flight() {
    // An origin that accepts and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-skills"))
        .arg("serve")
        .arg(example_skills())
        .args(["--origin", &origin])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, replies) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let reply: Value = serde_json::from_str(&line).unwrap();
            if send.send(reply).is_err() {
                return;
            }
        }
    });
    let reply = |within: u64| {
        replies
            .recv_timeout(std::time::Duration::from_secs(within))
            .ok()
    };
    writeln!(stdin, "{INITIALIZE}").unwrap();
    assert_eq!(reply(30).expect("initialize")["id"], 0);
    writeln!(stdin, "{INITIALIZED}").unwrap();
    for id in 1..=8 {
        writeln!(stdin, r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"list_issues","arguments":{{"repo":"acme/app"}}}}}}"#).unwrap();
    }
    for id in 1..=8 {
        writeln!(stdin, r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"test"}}}}"#).unwrap();
    }
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":9,"method":"tools/list"}}"#).unwrap();
    stdin.flush().unwrap();
    let mut listed = false;
    while let Some(message) = reply(20) {
        if message["id"] == 9 {
            listed = message["result"]["tools"].is_array();
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(listed, "tools/list waited behind cancelled requests");
}
