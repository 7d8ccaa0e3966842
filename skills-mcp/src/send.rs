//! A checked call's `http::Request`, sent for real, and the response as a
//! tool result.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// The most response bytes read by default: a tool result goes to a model,
/// and a larger body is refused, not buffered.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 4 * 1024 * 1024;

/// The HTTP client and what it may read back.
#[derive(Debug, Clone)]
pub(crate) struct Sender {
    pub(crate) client: reqwest::Client,
    /// The client's timeout, when this crate built the client (to say it).
    pub(crate) timeout: Option<std::time::Duration>,
    pub(crate) max_response_bytes: usize,
}

impl Sender {
    /// Sends `request` and turns the response into a tool result: the body as
    /// text, and as structured content when it is JSON. Every status but 2xx
    /// is an error result that says the status (and, for a redirect, where
    /// it points: redirects are not followed). A body over the limit is an
    /// error result that names the limit; it is never read whole.
    pub(crate) async fn send(&self, request: http::Request<Vec<u8>>) -> CallToolResult {
        let request = match reqwest::Request::try_from(request) {
            Ok(request) => request,
            Err(error) => return failure(format!("the request could not be built: {error}")),
        };
        let mut response = match self.client.execute(request).await {
            Ok(response) => response,
            Err(error) => return failure(self.failed("the request failed", &error)),
        };
        let status = response.status();
        let max = self.max_response_bytes;
        if let Some(length) = response.content_length().filter(|&n| n > max as u64) {
            return failure(format!(
                "HTTP {status}: the response is {length} bytes, over the limit of {max}; it was not read"
            ));
        }
        let location = response
            .headers()
            .get(http::header::LOCATION)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > max => {
                    return failure(format!(
                        "HTTP {status}: the response passed the limit of {max} bytes; the rest was not read"
                    ));
                }
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(error) => {
                    return failure(format!(
                        "HTTP {status}: the response could not be read: {error}"
                    ));
                }
            }
        }
        let text = String::from_utf8_lossy(&body).into_owned();
        if status.is_redirection() {
            let to = location.map_or_else(String::new, |to| format!(" to {to}"));
            return failure(format!(
                "HTTP {status}: the server redirects{to}; redirects are not followed, so the request may not have taken effect"
            ));
        }
        if !status.is_success() {
            return failure(format!("HTTP {status}: {text}"));
        }
        let mut result = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
        // MCP's structured content is an object.
        if let Ok(json @ Value::Object(_)) = serde_json::from_str::<Value>(&text) {
            result.structured_content = Some(json);
        }
        result
    }
}

impl Sender {
    /// What went wrong, in words: a timeout says so and for how long
    /// (reqwest says "error decoding response body" when it strikes mid-body).
    fn failed(&self, context: &str, error: &reqwest::Error) -> String {
        match self.timeout {
            Some(timeout) if error.is_timeout() => {
                format!("{context}: timed out after {} s", timeout.as_secs_f64())
            }
            None if error.is_timeout() => format!("{context}: timed out"),
            _ => format!("{context}: {error}"),
        }
    }
}

/// An error result: the model reads the text.
pub fn failure(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}
