//! The skills as rig tools (issue 42, item 1): the same definitions as the
//! toolset gives every model API, each result or error in rig's types, HTTP
//! tools sent through the sender to a real local server.

use std::sync::{Arc, Mutex};

use rig_core::tool::{DynamicTool, ToolErrorKind, ToolExecutionError, ToolOutput};
use serde_json::{Value, json};
use skills::Toolset;
use skills::model::Provider;
use skills::scripts::Scripts;
use skills_rig::{BoxFuture, HttpSender, Received, SkillTools};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

mod issues {
    skills::include_skills!("../../examples/issue-tracker/skills", track = false);
}

mod policies {
    skills::include_skills!("../../tests/fixtures/policies", track = false);
}

mod scripts {
    skills::include_skills!("../../tests/fixtures/scripts", track = false);
}

/// What the local server was sent: method, path and body.
type Seen = Arc<Mutex<Vec<(String, String, String)>>>;

/// A local HTTP/1.1 server that answers every request with `status`,
/// `content_type` and `body`, and records what it was sent.
async fn server(status: u16, content_type: &'static str, body: &'static str) -> (String, Seen) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let seen: Seen = Arc::default();
    let record = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut request = Vec::new();
            let mut buffer = [0u8; 4096];
            // Headers, then as much body as Content-Length says.
            let (head, length) = loop {
                let n = stream.read(&mut buffer).await.unwrap_or(0);
                if n == 0 {
                    break (String::new(), 0);
                }
                request.extend_from_slice(&buffer[..n]);
                if let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&request[..end]).into_owned();
                    let length = head
                        .lines()
                        .find_map(|line| {
                            let (name, value) = line.split_once(':')?;
                            name.eq_ignore_ascii_case("content-length")
                                .then(|| value.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    request.drain(..end + 4);
                    break (head, length);
                }
            };
            while request.len() < length {
                let n = stream.read(&mut buffer).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buffer[..n]);
            }
            let mut first = head.lines().next().unwrap_or_default().split(' ');
            let method = first.next().unwrap_or_default().to_owned();
            let path = first.next().unwrap_or_default().to_owned();
            record.lock().unwrap().push((
                method,
                path,
                String::from_utf8_lossy(&request).into_owned(),
            ));
            let reply = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
        }
    });
    (origin, seen)
}

/// A sender of the test's own: HTTP/1.1 over a plain TCP connection,
/// proving the client is the host's choice.
struct Plain;

impl HttpSender for Plain {
    fn send(
        &self,
        request: http::Request<Vec<u8>>,
        limit: usize,
    ) -> BoxFuture<Result<Received, String>> {
        Box::pin(async move {
            let authority = request.uri().authority().unwrap().to_string();
            let mut stream = tokio::net::TcpStream::connect(&authority)
                .await
                .map_err(|error| format!("the request failed: {error}"))?;
            let mut head = format!(
                "{} {} HTTP/1.1\r\nhost: {authority}\r\nconnection: close\r\ncontent-length: {}\r\n",
                request.method(),
                request.uri().path_and_query().unwrap(),
                request.body().len()
            );
            for (name, value) in request.headers() {
                head.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap()));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).await.unwrap();
            stream.write_all(request.body()).await.unwrap();
            let mut reply = Vec::new();
            stream.read_to_end(&mut reply).await.unwrap();
            let end = reply.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
            let head = String::from_utf8_lossy(&reply[..end]).into_owned();
            let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
            let mut headers = http::HeaderMap::new();
            for line in head.lines().skip(1) {
                let (name, value) = line.split_once(':').unwrap();
                headers.insert(
                    http::HeaderName::from_bytes(name.trim().as_bytes()).unwrap(),
                    value.trim().parse().unwrap(),
                );
            }
            let status = http::StatusCode::from_u16(status).unwrap();
            let mut body = skills::response::Limited::new(status, None, limit)?;
            body.push(&reply[end + 4..])?;
            Ok(Received {
                status,
                headers,
                body: body.into_bytes(),
            })
        })
    }
}

fn tool(tools: &[DynamicTool], name: &str) -> DynamicTool {
    tools
        .iter()
        .find(|tool| tool.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .clone()
}

fn names(tools: &[DynamicTool]) -> Vec<String> {
    tools.iter().map(|tool| tool.name().to_string()).collect()
}

async fn call(
    tools: &[DynamicTool],
    name: &str,
    arguments: Value,
) -> Result<ToolOutput, ToolExecutionError> {
    tool(tools, name).execute(arguments).await
}

#[test]
fn the_tools_are_the_toolsets_definitions() {
    let toolset = Toolset::new(&issues::SKILLS);
    let definitions = toolset.definitions(Provider::Anthropic);
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS))
        .sender(Plain)
        .tools();
    let made: Vec<Value> = tools
        .iter()
        .map(|tool| {
            let definition = tool.definition();
            json!({
                "name": definition.name.to_string(),
                "description": definition.description,
                "input_schema": definition.parameters,
            })
        })
        .collect();
    let expected: Vec<Value> = definitions
        .as_array()
        .unwrap()
        .iter()
        .map(|d| json!({"name": d["name"], "description": d["description"], "input_schema": d["input_schema"]}))
        .collect();
    assert_eq!(made, expected);
    assert_eq!(
        names(&tools),
        [
            "load_skill",
            "read_skill_resource",
            "list_issues",
            "create_issue",
            "delete_issue"
        ]
    );

    // Without a sender, no HTTP tool is offered; Deny tools never are.
    let plain = SkillTools::new(Toolset::new(&issues::SKILLS)).tools();
    assert_eq!(names(&plain), ["load_skill", "read_skill_resource"]);
    let readonly = SkillTools::new(
        Toolset::new(&policies::SKILLS)
            .only(["readonly-policies"])
            .unwrap(),
    )
    .sender(Plain)
    .tools();
    let offered = names(&readonly);
    assert!(offered.contains(&"get_plain".to_owned()), "{offered:?}");
    assert!(
        !offered.contains(&"post_plain".to_owned()),
        "a Deny tool is offered: {offered:?}"
    );
}

#[test]
fn the_preamble_is_the_catalog_and_the_instructions() {
    let skills = SkillTools::new(Toolset::new(&issues::SKILLS));
    assert_eq!(
        skills.preamble(),
        Toolset::new(&issues::SKILLS).instructions()
    );
    assert!(skills.preamble().contains("- github-issues: "));
}

#[tokio::test]
async fn host_tools_answer_with_text_and_typed_errors() {
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS)).tools();
    let loaded = call(&tools, "load_skill", json!({"name": "writing-style"}))
        .await
        .unwrap();
    assert!(
        loaded.as_text().unwrap().contains("writing-style"),
        "{loaded:?}"
    );

    let error = call(&tools, "load_skill", json!({"name": "nope"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::NotFound);
    assert!(
        error
            .message()
            .starts_with("there is no skill named `nope`"),
        "{}",
        error.message()
    );

    let error = call(
        &tools,
        "read_skill_resource",
        json!({"name": "github-issues", "path": "x.md"}),
    )
    .await
    .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::NotFound);

    let error = call(&tools, "load_skill", json!({"name": 3}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    assert_eq!(error.code(), Some("invalid_arguments at name"));
    assert_eq!(
        error.message(),
        "invalid arguments for `load_skill` at `name`: invalid type: integer `3`, expected a string; call load_skill(name)"
    );

    let refusing =
        SkillTools::new(Toolset::new(&issues::SKILLS).approve(|_| Err("not today".into()))).tools();
    let error = call(&refusing, "load_skill", json!({"name": "writing-style"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::PermissionDenied);
    assert!(error.is_refusal());
    assert_eq!(error.message(), "not allowed: not today");
}

#[tokio::test]
async fn http_tools_are_sent_and_answered_as_rig_outputs() {
    let (origin, seen) = server(200, "application/json", r#"[{"number": 7}]"#).await;
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS))
        .sender(Plain)
        .send_to(&origin)
        .tools();
    let output = call(
        &tools,
        "list_issues",
        json!({"repo": "acme/app", "limit": 5}),
    )
    .await
    .unwrap();
    assert_eq!(output.as_json(), Some(&json!([{"number": 7}])));
    assert_eq!(
        seen.lock().unwrap().as_slice(),
        [(
            "GET".to_owned(),
            "/api/repos/acme%2Fapp/issues?state=open&limit=5".to_owned(),
            String::new()
        )]
    );

    let error = call(&tools, "list_issues", json!({"repo": 5}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    assert_eq!(error.code(), Some("invalid_arguments at repo"));

    let error = call(
        &tools,
        "delete_issue",
        json!({"repo": "acme/app", "number": 1}),
    )
    .await
    .unwrap_err();
    assert!(error.is_refusal(), "{error:?}");
    assert_eq!(
        error.message(),
        "`delete_issue` needs the user's confirmation, and this agent has no way to ask: nothing was sent"
    );
    assert_eq!(seen.lock().unwrap().len(), 1, "nothing more was sent");
}

#[tokio::test]
async fn a_confirm_tool_asks_first() {
    let (origin, seen) = server(204, "text/plain", "").await;
    let asked = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&asked);
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS))
        .sender(Plain)
        .send_to(&origin)
        .confirm(move |call| {
            record.lock().unwrap().push(call.confirmation_text());
            if call.arguments()["number"] == 13 {
                Err("unlucky".to_owned())
            } else {
                Ok(())
            }
        })
        .tools();
    call(
        &tools,
        "delete_issue",
        json!({"repo": "acme/app", "number": 1}),
    )
    .await
    .unwrap();
    let error = call(
        &tools,
        "delete_issue",
        json!({"repo": "acme/app", "number": 13}),
    )
    .await
    .unwrap_err();
    assert!(error.is_refusal());
    assert_eq!(error.message(), "the user did not confirm: unlucky");
    assert_eq!(
        *asked.lock().unwrap(),
        [
            // rig turns on serde_json's `preserve_order`: the arguments
            // keep the order the model gave them in.
            r#"`delete_issue` with {"repo":"acme/app","number":1}"#,
            r#"`delete_issue` with {"repo":"acme/app","number":13}"#
        ]
    );
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn an_http_error_is_a_provider_error_with_the_status_and_the_body() {
    let (origin, _) = server(404, "application/json", r#"{"message": "no such repo"}"#).await;
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS))
        .sender(Plain)
        .send_to(&origin)
        .tools();
    let error = call(&tools, "list_issues", json!({"repo": "acme/none"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::Provider);
    assert_eq!(error.http_status(), Some(404));
    assert_eq!(
        error.message(),
        r#"HTTP 404 Not Found: {"message": "no such repo"}"#
    );
}

#[tokio::test]
async fn a_request_that_cannot_be_sent_is_a_network_error() {
    // A port nothing listens on: bound, then closed.
    let origin = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS))
        .sender(Plain)
        .send_to(&origin)
        .tools();
    let error = call(&tools, "list_issues", json!({"repo": "acme/app"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::Network);
    assert!(
        error.message().starts_with("the request failed: "),
        "{}",
        error.message()
    );
}

#[tokio::test]
async fn a_response_over_the_limit_is_refused_unread() {
    let (origin, _) = server(200, "text/plain", "0123456789").await;
    let tools = SkillTools::new(Toolset::new(&issues::SKILLS))
        .sender(Plain)
        .send_to(&origin)
        .max_response_bytes(4)
        .tools();
    let error = call(&tools, "list_issues", json!({"repo": "acme/app"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::Network);
    assert_eq!(
        error.message(),
        "HTTP 200 OK: the response passed the limit of 4 bytes; the rest was not read"
    );
}

#[tokio::test]
async fn a_script_runs_off_the_executor_and_answers_json() {
    let toolset = Toolset::new(&scripts::SKILLS)
        .with_scripts(Scripts::new().allow(["runner/scripts/exit3.sh"]));
    let tools = SkillTools::new(toolset).tools();
    assert_eq!(
        names(&tools),
        ["load_skill", "read_skill_resource", "run_skill_script"]
    );
    let output = call(
        &tools,
        "run_skill_script",
        json!({"name": "runner", "path": "scripts/exit3.sh"}),
    )
    .await
    .unwrap();
    assert_eq!(output.as_json().unwrap()["exit_code"], 3);
    let error = call(
        &tools,
        "run_skill_script",
        json!({"name": "runner", "path": "scripts/argv.py"}),
    )
    .await
    .unwrap_err();
    assert!(error.is_refusal(), "{error:?}");
    let error = call(
        &tools,
        "run_skill_script",
        json!({"name": "runner", "path": "../x"}),
    )
    .await
    .unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::NotFound);
}

/// Hostile input round 5 (issue 58, item 13): a host tool that panics (here
/// the host's own approval callback) left the call waiting forever. It
/// ends with an error now. The harness's deadline (a second thread that
/// gives up) keeps a regression from hanging the suite.
#[tokio::test(flavor = "multi_thread")]
async fn a_host_tool_that_panics_ends_the_call_with_an_error() {
    let tools = SkillTools::new(
        Toolset::new(&issues::SKILLS).approve(|_| panic!("the host's callback broke")),
    )
    .tools();
    let load = tool(&tools, "load_skill");
    let call = async move { load.execute(json!({"name": "writing-style"})).await };
    let (sender, receiver) = std::sync::mpsc::channel();
    let runtime = tokio::runtime::Handle::current();
    std::thread::spawn(move || {
        let _ = sender.send(
            runtime
                .block_on(call)
                .map(|_| ())
                .map_err(|e| e.message().to_owned()),
        );
    });
    let ended = tokio::task::spawn_blocking(move || {
        receiver.recv_timeout(std::time::Duration::from_secs(60))
    })
    .await
    .unwrap();
    let error = ended.expect("the call must end").unwrap_err();
    assert_eq!(error, "the tool stopped without an answer");
}
