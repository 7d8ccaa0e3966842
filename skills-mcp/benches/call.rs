//! What serving a tool over MCP adds to a call: `tools/call` through an rmcp
//! client and the server in process (JSON-RPC both ways, the schema check,
//! the policy, the request built, sent and read back), by default and with
//! the response also sent as structured content, beside sending the
//! same request directly with the same HTTP client to the same local server.
//!
//! Two more lines say how much of the difference is rmcp's own: the same
//! `tools/call` answered by an rmcp server that does nothing (a constant
//! result), and by an rmcp server whose handler sends the same request with
//! the same client and returns the body (no check, no policy, no limits):
//! the floor of any tool over rmcp that makes this HTTP call.
//!
//!     cargo bench -p skills-mcp-server --bench call
//!
//! On tokio's multi-thread runtime by default (as `cargo skills serve`
//! runs); `SKILLS_BENCH_RUNTIME=current` runs every task on the bench's
//! own thread, which tells the cost of rmcp's hand-offs between threads
//! from the cost of the work itself.

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

mod agent {
    skills::include_skills!("tests/skills", track = false);
}

#[path = "../tests/support/http.rs"]
mod http;

/// An rmcp client connected to `handler`, served in process over a pipe.
fn connect<H: ServerHandler>(
    runtime: &tokio::runtime::Runtime,
    handler: H,
) -> RunningService<RoleClient, ()> {
    runtime.block_on(async {
        let (server_side, client_side) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = handler.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_side).await.unwrap()
    })
}

/// An rmcp client connected to the skills server as `cargo skills serve`
/// serves it: newline-delimited JSON-RPC through the server's line reader.
fn connect_lines(
    runtime: &tokio::runtime::Runtime,
    server: skills_mcp::SkillsServer,
) -> RunningService<RoleClient, ()> {
    runtime.block_on(async {
        let (client_out, server_in) = tokio::io::duplex(64 * 1024);
        let (server_out, client_in) = tokio::io::duplex(64 * 1024);
        tokio::spawn(server.serve_lines(server_in, server_out));
        ().serve((client_in, client_out)).await.unwrap()
    })
}

fn calls(c: &mut Criterion) {
    let runtime = match std::env::var("SKILLS_BENCH_RUNTIME").as_deref() {
        Ok("current") => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap(),
        _ => tokio::runtime::Runtime::new().unwrap(),
    };
    let (origin, received) = runtime.block_on(http::http_server());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let skills_server = |structured: bool| {
        skills_mcp::Builder::new(&agent::SKILLS)
            .origin(origin.clone())
            .client(client.clone())
            .structured_content(structured)
            .build()
            .unwrap()
    };
    let arguments = json!({"project": "app", "title": "Crash", "labels": ["bug"]});
    let object = arguments.as_object().cloned().unwrap();
    let over_mcp = [
        (
            "tools/call over MCP (in process)",
            connect(&runtime, skills_server(false)),
        ),
        (
            "the same through the stdio line reader (as cargo skills serve)",
            connect_lines(&runtime, skills_server(false)),
        ),
        (
            "the same with structured content",
            connect(&runtime, skills_server(true)),
        ),
        (
            "tools/call answered by an rmcp server that does nothing",
            connect(&runtime, Bare::Constant),
        ),
        (
            "tools/call answered by an rmcp handler that sends the same request",
            connect(
                &runtime,
                Bare::Forward {
                    client: client.clone(),
                    origin: origin.clone(),
                },
            ),
        ),
    ];

    let mut group = c.benchmark_group("one create_item call");
    for (name, mcp) in &over_mcp {
        group.bench_function(*name, |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let params =
                        CallToolRequestParams::new("create_item").with_arguments(object.clone());
                    mcp.call_tool(params).await.unwrap()
                })
            })
        });
    }
    group.bench_function("the same request sent directly (reqwest)", |b| {
        let tool = agent::tracker::SKILL.tool("create_item").unwrap();
        b.iter(|| {
            runtime.block_on(async {
                let request = tool.parse(&arguments).unwrap().request_to(&origin).unwrap();
                let request = reqwest::Request::try_from(request).unwrap();
                client.execute(request).await.unwrap().text().await.unwrap()
            })
        })
    });
    group.finish();
    // What the local server answered, to put per-call figures of a profile
    // taken with `--profile-time` (which runs an unknown number of calls).
    eprintln!(
        "requests answered by the local HTTP server: {}",
        received.lock().unwrap().len()
    );
}

/// An rmcp server with none of the skills server's work behind its calls
/// (no argument check, no policy, no response limit): what a call costs
/// in rmcp itself.
#[derive(Clone)]
enum Bare {
    /// Every call returns the same text: JSON-RPC both ways and rmcp's
    /// tasks, with no work behind it.
    Constant,
    /// Every call sends the bench's request and returns the body as text:
    /// rmcp's cost and the HTTP exchange's.
    Forward {
        client: reqwest::Client,
        origin: String,
    },
}

impl ServerHandler for Bare {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = match self {
            Bare::Constant => "{\"id\":1}".to_owned(),
            Bare::Forward { client, origin } => {
                let request = ::http::Request::post(format!("{origin}/v1/projects/app/items"))
                    .header("content-type", "application/json")
                    .body(br#"{"title": "Crash", "labels": ["bug"]}"#.to_vec())
                    .unwrap();
                let request = reqwest::Request::try_from(request).unwrap();
                let response = client.execute(request).await.unwrap();
                response.text().await.unwrap()
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

criterion_group!(benches, calls);
criterion_main!(benches);
