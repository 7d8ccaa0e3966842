//! A checked call's `http::Request`, sent for real, and the response as a
//! tool result.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// Sends `request` and turns the response into a tool result: the body as
/// text, and as structured content when it is JSON; a status of 400 or
/// more is an error result that says the status.
pub async fn send(client: &reqwest::Client, request: http::Request<Vec<u8>>) -> CallToolResult {
    let request = match reqwest::Request::try_from(request) {
        Ok(request) => request,
        Err(error) => return failure(format!("the request could not be built: {error}")),
    };
    let response = match client.execute(request).await {
        Ok(response) => response,
        Err(error) => return failure(format!("the request failed: {error}")),
    };
    let status = response.status();
    let text = match response.text().await {
        Ok(text) => text,
        Err(error) => return failure(format!("the response could not be read: {error}")),
    };
    if status.is_client_error() || status.is_server_error() {
        return failure(format!("HTTP {status}: {text}"));
    }
    let mut result = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
    // MCP's structured content is an object.
    if let Ok(json @ Value::Object(_)) = serde_json::from_str::<Value>(&text) {
        result.structured_content = Some(json);
    }
    result
}

/// An error result: the model reads the text.
pub fn failure(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}
