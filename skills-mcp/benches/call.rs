//! What serving a tool over MCP adds to a call: `tools/call` through an rmcp
//! client and the server in process (JSON-RPC both ways, the schema check,
//! the policy, the request built, sent and read back), by default and with
//! the response also sent as structured content, beside sending the
//! same request directly with the same HTTP client to the same local server;
//! and, to say how much of the difference is rmcp's own, the same
//! `tools/call` answered by an rmcp server that does nothing (a constant
//! result): the floor of a call over rmcp in process.
//!
//!     cargo bench -p skills-mcp-server --bench call
//!
//! On tokio's multi-thread runtime by default (as `cargo skills serve`
//! runs); `SKILLS_BENCH_RUNTIME=current` runs every task on the bench's
//! own thread, which tells the cost of rmcp's hand-offs between threads
//! from the cost of the work itself.

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

mod agent {
    skills::include_skills!("tests/skills", track = false);
}

#[path = "../tests/support/http.rs"]
mod http;

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
    let connect = |structured: bool| {
        let server = skills_mcp::Builder::new(&agent::SKILLS)
            .origin(origin.clone())
            .client(client.clone())
            .structured_content(structured)
            .build()
            .unwrap();
        runtime.block_on(async {
            let (server_side, client_side) = tokio::io::duplex(64 * 1024);
            tokio::spawn(async move {
                if let Ok(running) = server.serve(server_side).await {
                    let _ = running.waiting().await;
                }
            });
            ().serve(client_side).await.unwrap()
        })
    };
    let mcp = connect(false);
    let structured = connect(true);
    let arguments = json!({"project": "app", "title": "Crash", "labels": ["bug"]});
    let object = arguments.as_object().cloned().unwrap();

    let mut group = c.benchmark_group("one create_item call");
    for (name, mcp) in [
        ("tools/call over MCP (in process)", &mcp),
        ("the same with structured content", &structured),
    ] {
        group.bench_function(name, |b| {
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
    let floor = runtime.block_on(async {
        let (server_side, client_side) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            if let Ok(running) = Constant.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_side).await.unwrap()
    });
    group.bench_function(
        "tools/call answered by an rmcp server that does nothing",
        |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let params =
                        CallToolRequestParams::new("create_item").with_arguments(object.clone());
                    floor.call_tool(params).await.unwrap()
                })
            })
        },
    );
    group.finish();
    received.lock().unwrap().clear();
}

/// An rmcp server whose every call returns the same text: what a call costs
/// in rmcp itself (JSON-RPC both ways, its tasks), with no work behind it.
#[derive(Clone)]
struct Constant;

impl rmcp::ServerHandler for Constant {
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
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        Ok(
            rmcp::model::CallToolResult::success(vec![rmcp::model::ContentBlock::text(
                "{\"id\":1}",
            )])
            .into(),
        )
    }
}

criterion_group!(benches, calls);
criterion_main!(benches);
