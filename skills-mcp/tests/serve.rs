//! An rmcp client against the server, in process, with a real local HTTP
//! server behind the tools: what the client sees, and what arrives (or,
//! when a call is refused, that nothing does).

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ErrorData, GetPromptRequestParams, GetSkillRequestParams,
    Implementation, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

mod agent {
    skills::include_skills!("tests/skills", track = false);
}

#[path = "support/http.rs"]
mod http;

use http::http_server;

/// A client that may answer elicitations: `None` declares no elicitation.
#[derive(Clone)]
struct Client {
    answer: Option<ElicitationAction>,
    asked: Arc<Mutex<Vec<String>>>,
    /// Asks for this protocol version instead of the newest.
    version: Option<ProtocolVersion>,
    /// Declares the skills extension (SEP-2640).
    skills_extension: bool,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.answer.is_some() {
            capabilities.elicitation = Some(Default::default());
        }
        if self.skills_extension {
            let mut extensions = rmcp::model::ExtensionCapabilities::new();
            extensions.insert(
                rmcp::model::SKILLS_EXTENSION_ID.to_owned(),
                Default::default(),
            );
            capabilities.extensions = Some(extensions);
        }
        let mut config = ClientConfig::new(capabilities, Implementation::new("test-client", "1"));
        if let Some(version) = &self.version {
            config.protocol_version = version.clone();
        }
        config
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = &request {
            self.asked.lock().unwrap().push(message.clone());
        }
        Ok(ElicitResult::new(
            self.answer.clone().unwrap_or(ElicitationAction::Decline),
        ))
    }
}

type Connected = RunningService<RoleClient, Client>;

async fn connect(
    origin: &str,
    answer: Option<ElicitationAction>,
) -> (Connected, Arc<Mutex<Vec<String>>>) {
    let server = skills_mcp::Builder::new(&agent::SKILLS)
        .origin(origin)
        .local_tools(|call| match call.name() {
            "local_note" => Ok(format!("noted: {}", call.arguments()["text"])),
            other => Err(format!("no handler for {other}")),
        })
        .build()
        .unwrap();
    connect_to(server, answer).await
}

/// A client in process, over a pipe, to `server`.
async fn connect_to(
    server: skills_mcp::SkillsServer,
    answer: Option<ElicitationAction>,
) -> (Connected, Arc<Mutex<Vec<String>>>) {
    connect_as(server, answer, false).await
}

/// The same, declaring the skills extension or not.
async fn connect_as(
    server: skills_mcp::SkillsServer,
    answer: Option<ElicitationAction>,
    skills_extension: bool,
) -> (Connected, Arc<Mutex<Vec<String>>>) {
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_side).await {
            let _ = running.waiting().await;
        }
    });
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = Client {
        answer,
        asked: Arc::clone(&asked),
        version: None,
        skills_extension,
    };
    (client.serve(client_side).await.unwrap(), asked)
}

async fn call(client: &Connected, name: &'static str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
        .await
        .unwrap()
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

#[tokio::test]
async fn tools_are_listed_with_their_hints_and_denied_ones_are_absent() {
    let (origin, _) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        ["list_items", "create_item", "delete_item", "local_note"]
    );
    let hints = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        let a = tool.annotations.clone().unwrap();
        (
            a.read_only_hint,
            a.destructive_hint,
            a.idempotent_hint,
            a.open_world_hint,
        )
    };
    assert_eq!(
        hints("list_items"),
        (Some(true), Some(false), Some(true), Some(true))
    );
    assert_eq!(
        hints("create_item"),
        (Some(false), Some(false), Some(false), Some(true))
    );
    assert_eq!(
        hints("delete_item"),
        (Some(false), Some(true), Some(true), Some(true))
    );
    let schema = &tools
        .iter()
        .find(|t| t.name == "create_item")
        .unwrap()
        .input_schema;
    assert_eq!(schema["required"], json!(["project", "title"]));
    assert_eq!(schema["additionalProperties"], json!(false));
    client.cancel().await.unwrap();
}

/// `structured_content(true)`: a JSON object response also comes back as
/// MCP structured content, beside the same text.
#[tokio::test]
async fn structured_content_is_sent_when_asked_for() {
    let (origin, _received) = http_server().await;
    let server = skills_mcp::Builder::new(&agent::SKILLS)
        .origin(&origin)
        .structured_content(true)
        .build()
        .unwrap();
    let (client, _) = connect_to(server, None).await;
    let listed = call(&client, "list_items", json!({"project": "a/b"})).await;
    assert_eq!(listed.structured_content, Some(json!({"number": 7})));
    assert_eq!(text(&listed), "{\"number\": 7}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn calls_send_real_requests_and_return_the_response() {
    let (origin, received) = http_server().await;
    let (client, _) = connect(&origin, None).await;

    let listed = call(&client, "list_items", json!({"project": "a/b"})).await;
    assert_eq!(listed.is_error, Some(false), "{}", text(&listed));
    // The JSON is the text; structured content only when asked for.
    assert_eq!(text(&listed), "{\"number\": 7}");
    assert_eq!(listed.structured_content, None);
    let created = call(
        &client,
        "create_item",
        json!({"project": "app", "title": "Crash \"quoted\"", "labels": ["bug"]}),
    )
    .await;
    assert_eq!(text(&created), "{\"number\": 7}");

    let arrived = received.lock().unwrap().clone();
    assert_eq!(arrived.len(), 2);
    assert_eq!(
        (arrived[0].method.as_str(), arrived[0].target.as_str()),
        ("GET", "/v1/projects/a%2Fb/items?state=open")
    );
    assert!(
        arrived[0]
            .headers
            .contains(&("x-project".to_owned(), "a/b".to_owned()))
    );
    assert_eq!(
        (arrived[1].method.as_str(), arrived[1].target.as_str()),
        ("POST", "/v1/projects/app/items")
    );
    assert_eq!(
        arrived[1].body,
        r#"{"title":"Crash \"quoted\"","labels":["bug"]}"#
    );
    assert!(
        arrived[1]
            .headers
            .contains(&("content-type".to_owned(), "application/json".to_owned()))
    );

    // An HTTP error is an error result that says the status.
    let broken = call(&client, "list_items", json!({"project": "broken"})).await;
    assert_eq!(broken.is_error, Some(true));
    assert!(text(&broken).starts_with("HTTP 500"), "{}", text(&broken));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_and_refused_values_send_nothing() {
    let (origin, received) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let bad = call(
        &client,
        "create_item",
        json!({"project": "app", "title": ""}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("at `title`"), "{}", text(&bad));
    let missing = call(&client, "create_item", json!({"project": "app"})).await;
    assert!(
        text(&missing).contains("missing field `title`"),
        "{}",
        text(&missing)
    );
    // Dot segments, and a header value with control characters (a response
    // splitting attempt): refused before anything is sent.
    for project in ["..", "%2e%2E", ".", "app\r\nX-Evil: 1"] {
        let refused = call(&client, "list_items", json!({"project": project})).await;
        assert_eq!(refused.is_error, Some(true));
        assert!(
            text(&refused).contains("nothing was sent"),
            "{}",
            text(&refused)
        );
    }
    let split = call(
        &client,
        "list_items",
        json!({"project": "app\r\nX-Evil: 1"}),
    )
    .await;
    assert!(
        text(&split).contains("header `X-Project` holds a control character"),
        "{}",
        text(&split)
    );
    // A denied tool is not served, even when called by name.
    let denied = call(&client, "purge_project", json!({"project": "app"})).await;
    assert_eq!(denied.is_error, Some(true));
    assert!(text(&denied).contains("unknown tool"), "{}", text(&denied));
    // An unknown name lists what is served, and never names a denied tool.
    for name in ["no_such_tool", "purge_project"] {
        let unknown = call(&client, name, json!({})).await;
        assert_eq!(unknown.is_error, Some(true));
        let said = text(&unknown);
        assert!(said.contains("list_items"), "{said}");
        let listed = said.replacen(&format!("`{name}`"), "", 1);
        assert!(!listed.contains("purge_project"), "{said}");
    }
    assert!(received.lock().unwrap().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn confirmation_asks_through_elicitation_and_sends_only_when_accepted() {
    let arguments = json!({"project": "app", "number": 7});
    // No elicitation: refused, nothing sent.
    let (origin, received) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let refused = call(&client, "delete_item", arguments.clone()).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("cannot ask for it"),
        "{}",
        text(&refused)
    );
    client.cancel().await.unwrap();
    // Declined: nothing sent. Through `initialize`, rmcp agrees on
    // 2025-11-25, where the server asks with `elicitation/create` itself.
    let (client, asked) = connect(&origin, Some(ElicitationAction::Decline)).await;
    assert_eq!(
        client.peer_info().unwrap().protocol_version,
        ProtocolVersion::V_2025_11_25
    );
    let declined = call(&client, "delete_item", arguments.clone()).await;
    assert!(
        text(&declined).contains("did not confirm"),
        "{}",
        text(&declined)
    );
    assert_eq!(asked.lock().unwrap().len(), 1);
    assert_eq!(
        asked.lock().unwrap()[0],
        "Allow `delete_item` with {\"number\":7,\"project\":\"app\"}?"
    );
    // What the model chose is shown for what it is: a text-direction
    // override is escaped, and a long value is cut, visibly.
    let hidden = format!("app\u{202e}txt.exe{}", "x".repeat(300));
    let hostile = call(
        &client,
        "delete_item",
        json!({"project": hidden, "number": 7}),
    )
    .await;
    assert_eq!(hostile.is_error, Some(true));
    let question = asked.lock().unwrap()[1].clone();
    assert!(
        question.starts_with(
            "Allow `delete_item` with {\"number\":7,\"project\":\"app\\u{202e}txt.exe"
        ),
        "{question}"
    );
    assert!(question.contains("… (111 more characters)\""), "{question}");
    assert!(!question.contains('\u{202e}'), "{question}");
    client.cancel().await.unwrap();
    assert!(received.lock().unwrap().is_empty());
    // Accepted: sent.
    let (client, asked) = connect(&origin, Some(ElicitationAction::Accept)).await;
    let done = call(&client, "delete_item", arguments).await;
    assert_eq!(done.is_error, Some(false), "{}", text(&done));
    assert_eq!(asked.lock().unwrap().len(), 1);
    let arrived = received.lock().unwrap().clone();
    assert_eq!(
        (arrived[0].method.as_str(), arrived[0].target.as_str()),
        ("DELETE", "/v1/projects/app/items/7")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_tool_without_endpoint_goes_to_the_applications_handler() {
    let (origin, received) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let noted = call(&client, "local_note", json!({"text": "hi"})).await;
    assert_eq!(text(&noted), "noted: \"hi\"");
    assert!(received.lock().unwrap().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn skill_text_is_served_as_prompts_resources_and_skills() {
    let (origin, _) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let skill = &agent::tracker::SKILL;

    let prompts = client.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0].name, "tracker");
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("tracker"))
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0]).unwrap();
    assert_eq!(message["content"]["text"], skill.rendered());

    let resources = client.list_all_resources().await.unwrap();
    assert_eq!(resources[0].uri, "skill://tracker/SKILL.md");
    let read = client
        .read_resource(ReadResourceRequestParams::new("skill://tracker/SKILL.md"))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("text contents")
    };
    let on_disk = std::fs::read_to_string("tests/skills/tracker/SKILL.md").unwrap();
    assert_eq!(text, &on_disk);

    let skills = client.list_all_skills().await.unwrap();
    assert_eq!(skills.len(), 1);
    let entry = serde_json::to_value(&skills[0]).unwrap();
    assert_eq!(entry["uri"], "skill://tracker/SKILL.md");
    assert_eq!(entry["frontmatter"]["name"], "tracker");
    assert_eq!(entry["frontmatter"]["license"], "MIT");
    let digest = format!("sha256:{}", skill.sha256_hex());
    assert_eq!(entry["resources"][0]["digest"], digest);
    assert_eq!(entry["resources"][0]["size"], on_disk.len());
    // The digest verifies against the bytes served.
    let rmcp::model::SkillResources::Files(files) = &skills[0].resources else {
        panic!("files")
    };
    files[0].verify(text.as_bytes()).unwrap();
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://tracker/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(serde_json::to_value(&got.skill).unwrap(), entry);
    client.cancel().await.unwrap();
}

/// Protocol 2026-07-28 forbids server-to-client requests: the call returns
/// an input request (MRTR), and rmcp's client answers it and calls again.
/// The pair is wired as the discover lifecycle leaves it (no `initialize`).
async fn connect_2026(
    origin: &str,
    answer: ElicitationAction,
) -> (RunningService<RoleClient, Client>, Arc<Mutex<Vec<String>>>) {
    use rmcp::ServerHandler;
    use rmcp::model::InitializeResult;
    use rmcp::service::serve_directly;
    let server = skills_mcp::Builder::new(&agent::SKILLS)
        .origin(origin)
        .build()
        .unwrap();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let client = Client {
        answer: Some(answer),
        asked: Arc::clone(&asked),
        version: Some(ProtocolVersion::V_2026_07_28),
        skills_extension: false,
    };
    let mut server_info = InitializeResult::new(server.get_info().capabilities);
    server_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    let running = serve_directly::<rmcp::RoleServer, _, _, _, _>(
        server,
        server_side,
        Some(client.get_info()),
    );
    tokio::spawn(async move {
        let _ = running.waiting().await;
    });
    let client =
        serve_directly::<RoleClient, _, _, _, _>(client, client_side, Some(server_info.into()));
    (client, asked)
}

#[tokio::test]
async fn confirmation_on_protocol_2026_07_28_goes_through_an_input_request() {
    let arguments = json!({"project": "app", "number": 9});
    let (origin, received) = http_server().await;
    let (client, asked) = connect_2026(&origin, ElicitationAction::Decline).await;
    let Value::Object(object) = arguments.clone() else {
        unreachable!()
    };
    // One round by hand: the server answers with an input request and sends nothing.
    let first = client
        .call_tool_once(CallToolRequestParams::new("delete_item").with_arguments(object))
        .await
        .unwrap();
    assert!(
        matches!(first, rmcp::model::CallToolResponse::InputRequired(_)),
        "{first:?}"
    );
    assert!(received.lock().unwrap().is_empty());
    // The client's own loop: declined, nothing sent.
    let declined = call(&client, "delete_item", arguments.clone()).await;
    assert!(
        text(&declined).contains("did not confirm"),
        "{}",
        text(&declined)
    );
    assert_eq!(asked.lock().unwrap().len(), 1);
    assert!(received.lock().unwrap().is_empty());
    client.cancel().await.unwrap();
    // Accepted: sent, once.
    let (client, _) = connect_2026(&origin, ElicitationAction::Accept).await;
    let done = call(&client, "delete_item", arguments).await;
    assert_eq!(done.is_error, Some(false), "{}", text(&done));
    let arrived = received.lock().unwrap().clone();
    assert_eq!(arrived.len(), 1);
    assert_eq!(arrived[0].target, "/v1/projects/app/items/9");
    client.cancel().await.unwrap();
}

/// A redirect is not a success (the write may not have happened), and a
/// response is read only up to the limit, whatever the server sends.
#[tokio::test]
async fn redirects_are_errors_and_responses_are_read_up_to_a_limit() {
    let (origin, received) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let moved = call(
        &client,
        "create_item",
        json!({"project": "moved", "title": "T"}),
    )
    .await;
    assert_eq!(moved.is_error, Some(true), "{}", text(&moved));
    assert_eq!(
        text(&moved),
        "HTTP 307 Temporary Redirect: the server redirects to https://elsewhere.invalid/v1/items; redirects are not followed, so the request may not have taken effect"
    );
    let huge = call(&client, "list_items", json!({"project": "huge"})).await;
    assert_eq!(huge.is_error, Some(true));
    assert_eq!(
        text(&huge),
        "HTTP 200 OK: the response is 1073741824 bytes, over the limit of 4194304; it was not read"
    );
    let endless = call(&client, "list_items", json!({"project": "endless"})).await;
    assert_eq!(endless.is_error, Some(true));
    assert_eq!(
        text(&endless),
        "HTTP 200 OK: the response passed the limit of 4194304 bytes; the rest was not read"
    );
    assert_eq!(received.lock().unwrap().len(), 3);
    client.cancel().await.unwrap();
}

/// A response is text in its own charset, and bytes that are not text come
/// back as base64 with their MIME type: never U+FFFD (issue 23, item 21).
#[tokio::test]
async fn responses_keep_their_charset_and_binary_comes_back_as_base64() {
    let (origin, _) = http_server().await;
    let (client, _) = connect(&origin, None).await;
    let latin1 = call(&client, "list_items", json!({"project": "latin1"})).await;
    assert_eq!(latin1.is_error, Some(false));
    assert_eq!(text(&latin1), "café crème");

    for (project, mime, base64) in [
        ("binary", "application/octet-stream", "AJ+Slg=="),
        ("png", "image/png", "iVBORw0KGgo="),
        // Says text, is not UTF-8: passed on as it is, not as U+FFFD.
        ("mislabelled", "text/plain", "Y2Fm6Q=="),
    ] {
        let result = call(&client, "list_items", json!({"project": project})).await;
        assert_eq!(result.is_error, Some(false), "{project}");
        let blob = serde_json::to_value(&result.content).unwrap();
        let blobs: Vec<(&str, &str)> = blob
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|block| {
                let data = block
                    .get("data")
                    .or_else(|| block.pointer("/resource/blob"))?
                    .as_str()?;
                let mime = block
                    .get("mimeType")
                    .or_else(|| block.pointer("/resource/mimeType"))?
                    .as_str()?;
                Some((mime, data))
            })
            .collect();
        assert_eq!(blobs, [(mime, base64)], "{project}: {blob}");
        assert!(!text(&result).contains('\u{fffd}'), "{project}");
        assert!(text(&result).contains(mime), "{project}: {}", text(&result));
    }
    client.cancel().await.unwrap();
}

/// A bad origin is refused when the server is built, not on every call, and
/// a timeout says that it is one, and how long it was.
#[tokio::test]
async fn a_bad_origin_is_refused_at_start_and_a_timeout_says_so() {
    for origin in [
        "ftp://host",
        "http://host/path",
        "not a url",
        "http://user@host",
    ] {
        let built = skills_mcp::Builder::new(&agent::SKILLS)
            .origin(origin)
            .build();
        let error = built
            .err()
            .unwrap_or_else(|| panic!("{origin} was accepted"));
        assert!(error.to_string().starts_with("invalid origin"), "{error}");
    }
    let (origin, _) = http_server().await;
    let server = skills_mcp::Builder::new(&agent::SKILLS)
        .origin(&origin)
        .timeout(std::time::Duration::from_millis(300))
        .build()
        .unwrap();
    let (client, _) = connect_to(server, None).await;
    let silent = call(&client, "list_items", json!({"project": "silent"})).await;
    assert_eq!(silent.is_error, Some(true));
    assert_eq!(text(&silent), "the request failed: timed out after 0.3 s");
    client.cancel().await.unwrap();
}

/// The host tools are offered only when asked for, and then only to a
/// client that does not declare the skills extension (which opens skills
/// through `skills/get` and resources instead).
#[tokio::test]
async fn host_tools_go_to_clients_without_the_skills_extension() {
    let (origin, _) = http_server().await;
    let tool_names = |tools: Vec<rmcp::model::Tool>| -> Vec<String> {
        tools.into_iter().map(|t| t.name.to_string()).collect()
    };
    let build = |host: bool| {
        skills_mcp::Builder::new(&agent::SKILLS)
            .origin(&origin)
            .host_tools(host)
            .build()
            .unwrap()
    };
    let (plain, _) = connect_as(build(false), None, false).await;
    let without = tool_names(plain.list_all_tools().await.unwrap());
    assert!(!without.iter().any(|n| n == "load_skill"), "{without:?}");
    let (client, _) = connect_as(build(true), None, false).await;
    let with = tool_names(client.list_all_tools().await.unwrap());
    assert_eq!(with[..2], ["load_skill", "read_skill_resource"]);
    assert_eq!(with[2..], without[..]);
    // SEP-2640: a client must not run a server's scripts, so none is offered.
    assert!(!with.iter().any(|n| n == "run_skill_script"), "{with:?}");
    let refused = call(
        &client,
        "run_skill_script",
        json!({"name": "tracker", "path": "scripts/x.sh"}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    let result = call(&client, "load_skill", json!({"name": "tracker"})).await;
    assert_eq!(result.is_error, Some(false));
    assert!(
        text(&result).starts_with(agent::tracker::SKILL.rendered()),
        "{}",
        text(&result)
    );
    let (extended, _) = connect_as(build(true), None, true).await;
    assert_eq!(
        tool_names(extended.list_all_tools().await.unwrap()),
        without
    );
    let refused = call(&extended, "load_skill", json!({"name": "tracker"})).await;
    assert_eq!(refused.is_error, Some(true));
    for client in [plain, client, extended] {
        client.cancel().await.unwrap();
    }
}
