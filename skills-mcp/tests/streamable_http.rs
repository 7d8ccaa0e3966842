//! The server over streamable HTTP, mounted in a real HTTP server (axum),
//! driven by rmcp's streamable HTTP client.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;

mod agent {
    skills::include_skills!("tests/skills", track = false);
}

#[path = "support/http.rs"]
mod http;

#[tokio::test]
async fn tools_are_served_and_called_over_streamable_http() {
    let (origin, received) = http::http_server().await;
    let service = skills_mcp::Builder::new(&agent::SKILLS)
        .origin(origin)
        .structured_content(true)
        .build()
        .unwrap()
        .streamable_http(Default::default());
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });

    // reqwest is built without a default crypto provider (issue 62): the
    // client takes the configuration every client of skills takes.
    let http_client = reqwest::Client::builder()
        .tls_backend_preconfigured(skills::https::client_config().unwrap())
        .build()
        .unwrap();
    let transport = StreamableHttpClientTransport::with_client(
        http_client,
        StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp")),
    );
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 4);
    let arguments = json!({"project": "x y"}).as_object().cloned().unwrap();
    let result = client
        .call_tool(CallToolRequestParams::new("list_items").with_arguments(arguments))
        .await
        .unwrap();
    assert_eq!(result.structured_content, Some(json!({"number": 7})));
    let arrived = received.lock().unwrap().clone();
    assert_eq!(arrived[0].target, "/v1/projects/x%20y/items?state=open");
    assert_eq!(client.list_all_skills().await.unwrap().len(), 1);
    client.cancel().await.unwrap();
}
