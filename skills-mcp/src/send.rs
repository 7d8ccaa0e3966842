//! A checked call's `http::Request`, sent for real, and the response as a
//! tool result.

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
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
        let url = request.url().to_string();
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
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
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
        let body = Body::read(body, content_type.as_deref());
        if status.is_redirection() {
            let to = location.map_or_else(String::new, |to| format!(" to {to}"));
            return failure(format!(
                "HTTP {status}: the server redirects{to}; redirects are not followed, so the request may not have taken effect"
            ));
        }
        let text = match body {
            Body::Text(text) => text,
            Body::Binary { mime, bytes } if status.is_success() => {
                return binary(&status, &url, &mime, &bytes);
            }
            Body::Binary { mime, bytes } => format!("({} bytes of {mime})", bytes.len()),
        };
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

/// A response body as the model gets it: text in the charset the server
/// named (UTF-8 when it named none), or the bytes with their MIME type when
/// they are not text, or not text in that charset. Never U+FFFD in place
/// of bytes the server sent.
enum Body {
    Text(String),
    Binary { mime: String, bytes: Vec<u8> },
}

impl Body {
    fn read(bytes: Vec<u8>, content_type: Option<&str>) -> Body {
        let mut parts = content_type.unwrap_or_default().split(';');
        let mime = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let charset = parts.find_map(|part| {
            let (key, value) = part.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("charset")
                .then(|| value.trim().trim_matches('"').to_owned())
        });
        let binary = |bytes| Body::Binary {
            mime: if mime.is_empty() {
                "application/octet-stream".to_owned()
            } else {
                mime.clone()
            },
            bytes,
        };
        if !mime.is_empty() && !is_textual(&mime) {
            return binary(bytes);
        }
        let encoding = match &charset {
            None => encoding_rs::UTF_8,
            Some(label) => match encoding_rs::Encoding::for_label(label.as_bytes()) {
                Some(encoding) => encoding,
                None => return binary(bytes),
            },
        };
        match encoding.decode_without_bom_handling_and_without_replacement(&bytes) {
            Some(text) => Body::Text(text.into_owned()),
            None => binary(bytes),
        }
    }
}

/// Types whose bodies are text: `text/*`, JSON, XML, YAML, JavaScript,
/// forms, and any `+json` or `+xml`.
fn is_textual(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.ends_with("+json")
        || mime.ends_with("+xml")
        || matches!(
            mime,
            "application/json"
                | "application/xml"
                | "application/yaml"
                | "application/x-yaml"
                | "application/javascript"
                | "application/x-www-form-urlencoded"
                | "application/x-ndjson"
                | "application/graphql"
        )
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
