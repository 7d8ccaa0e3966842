//! A checked call's `http::Request`, sent for real, and the response as a
//! tool result.

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::Value;

pub use skills::response::DEFAULT_MAX_RESPONSE_BYTES;
use skills::response::{Limited, Reply, reply, reply_as_text};

/// The HTTP client and what it may read back.
#[derive(Debug, Clone)]
pub(crate) struct Sender {
    pub(crate) client: reqwest::Client,
    /// The client's timeout, when this crate built the client (to say it).
    pub(crate) timeout: Option<std::time::Duration>,
    pub(crate) max_response_bytes: usize,
    /// Whether a JSON object response is also sent as structured content.
    pub(crate) structured_content: bool,
}

impl Sender {
    /// Sends `request` and turns the response into a tool result: the body as
    /// text, and as structured content when it is a JSON object and the
    /// server was asked to send it. Every status but 2xx
    /// is an error result that says the status (and, for a redirect, where
    /// it points: redirects are not followed). A body over the limit is an
    /// error result that names the limit; it is never read whole.
    pub(crate) async fn send(&self, request: http::Request<Vec<u8>>) -> CallToolResult {
        let request = match reqwest::Request::try_from(request) {
            Ok(request) => request,
            Err(error) => return failure(format!("the request could not be built: {error}")),
        };
        let url = request.url().to_string();
        let mut response = match self.client.execute(request).await {
            Ok(response) => response,
            Err(error) => return failure(self.failed("the request failed", &error)),
        };
        let status = response.status();
        let mut body =
            match Limited::new(status, response.content_length(), self.max_response_bytes) {
                Ok(body) => body,
                Err(message) => return failure(message),
            };
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if let Err(message) = body.push(&chunk) {
                        return failure(message);
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    return failure(format!(
                        "HTTP {status}: the response could not be read: {error}"
                    ));
                }
            }
        }
        // Parsed as JSON only when it may go out as structured content.
        let read = if self.structured_content {
            reply
        } else {
            reply_as_text
        };
        match read(status, response.headers(), body.into_bytes()) {
            Reply::Text { text, json } => {
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                // MCP's structured content is an object.
                if let Some(json @ Value::Object(_)) = json {
                    result.structured_content = Some(json);
                }
                result
            }
            Reply::Binary { mime, bytes } => binary(&status, &url, &mime, &bytes),
            Reply::Error { message, .. } => failure(message),
        }
    }
}

/// A binary response: a line for the model, and the bytes in base64 as an
/// image, audio, or a resource named by the request's URL.
fn binary(status: &http::StatusCode, url: &str, mime: &str, bytes: &[u8]) -> CallToolResult {
    let data = skills::tables::base64(bytes);
    let note = ContentBlock::text(format!(
        "HTTP {status}: {} bytes of {mime}, attached as base64",
        bytes.len()
    ));
    let attached = if mime.starts_with("image/") {
        ContentBlock::image(data, mime)
    } else if mime.starts_with("audio/") {
        ContentBlock::audio(data, mime)
    } else {
        ContentBlock::resource(ResourceContents::blob(data, url).with_mime_type(mime))
    };
    CallToolResult::success(vec![note, attached])
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
