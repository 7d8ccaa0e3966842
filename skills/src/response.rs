//! An HTTP tool's response as a model gets it: the one rule every host
//! applies (the MCP server, `skills-rig`, your own loop), whatever client
//! sent the request.
//!
//! - The body is read up to a limit ([`DEFAULT_MAX_RESPONSE_BYTES`]); a
//!   longer one is refused, never buffered whole ([`Limited`]).
//! - Text comes in the charset the server named (UTF-8 when it named none);
//!   a body that is not text, or not text in that charset, stays bytes with
//!   its MIME type: never U+FFFD in place of bytes the server sent.
//! - Every status but 2xx is an error that says the status; a redirect says
//!   where it points, and that it was not followed.
//!
//! ```
//! use skills::response::{Limited, Reply, reply};
//!
//! let mut body = Limited::new(http::StatusCode::OK, Some(7), 1024)?;
//! body.push(b"{\"a\":1}")?;
//! let headers = http::HeaderMap::new();
//! match reply(http::StatusCode::OK, &headers, body.into_bytes()) {
//!     Reply::Text { text, json } => {
//!         assert_eq!(text, "{\"a\":1}");
//!         assert_eq!(json.unwrap()["a"], 1);
//!     }
//!     other => panic!("{other:?}"),
//! }
//! // A caller with no use for the value gets the same text, unparsed.
//! let text = skills::response::reply_as_text(http::StatusCode::OK, &headers, b"{\"a\":1}".to_vec());
//! assert_eq!(text, Reply::Text { text: "{\"a\":1}".into(), json: None });
//! # Ok::<(), String>(())
//! ```

use http::{HeaderMap, StatusCode};
use serde_json::Value;

/// The most response bytes read by default: a tool result goes to a model,
/// and a larger body is refused, not buffered.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 4 * 1024 * 1024;

/// A response body read chunk by chunk, refused once it passes the limit.
#[derive(Debug)]
pub struct Limited {
    status: StatusCode,
    max: usize,
    bytes: Vec<u8>,
}

impl Limited {
    /// A body of a response with `status`; a declared `content_length`
    /// over `max` is refused before anything is read.
    pub fn new(
        status: StatusCode,
        content_length: Option<u64>,
        max: usize,
    ) -> Result<Limited, String> {
        if let Some(length) = content_length.filter(|&n| n > max as u64) {
            return Err(format!(
                "HTTP {status}: the response is {length} bytes, over the limit of {max}; it was not read"
            ));
        }
        Ok(Limited {
            status,
            max,
            bytes: Vec::new(),
        })
    }

    /// Adds the next chunk, or refuses the body when it passes the limit.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), String> {
        if self.bytes.len() + chunk.len() > self.max {
            return Err(format!(
                "HTTP {}: the response passed the limit of {} bytes; the rest was not read",
                self.status, self.max
            ));
        }
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    /// The body read.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// What a response says to a model.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A 2xx response with a text body, and the body as JSON when it is.
    Text {
        /// The body, decoded.
        text: String,
        /// The body parsed, when it is JSON.
        json: Option<Value>,
    },
    /// A 2xx response whose body is not text.
    Binary {
        /// Its MIME type (`application/octet-stream` when the server named none).
        mime: String,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// Any other status: what went wrong, for the model to read.
    Error {
        /// The status.
        status: StatusCode,
        /// `HTTP <status>: <body or what it was>`.
        message: String,
    },
}

/// The reply to a response with `status`, `headers` and the `body` read.
pub fn reply(status: StatusCode, headers: &HeaderMap, body: Vec<u8>) -> Reply {
    reply_with(status, headers, body, true)
}

/// [`reply`] for a caller with no use for the body as JSON (an MCP server
/// that sends no structured content): the text is not parsed, and `json`
/// is `None`.
pub fn reply_as_text(status: StatusCode, headers: &HeaderMap, body: Vec<u8>) -> Reply {
    reply_with(status, headers, body, false)
}

fn reply_with(status: StatusCode, headers: &HeaderMap, body: Vec<u8>, parse_json: bool) -> Reply {
    let content_type = headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let body = Body::read(body, content_type);
    if status.is_redirection() {
        let to = headers
            .get(http::header::LOCATION)
            .map(|value| format!(" to {}", String::from_utf8_lossy(value.as_bytes())))
            .unwrap_or_default();
        return Reply::Error {
            status,
            message: format!(
                "HTTP {status}: the server redirects{to}; redirects are not followed, so the request may not have taken effect"
            ),
        };
    }
    match body {
        Body::Text(text) if status.is_success() => {
            let json = parse_json
                .then(|| serde_json::from_str(&text).ok())
                .flatten();
            Reply::Text { text, json }
        }
        Body::Binary { mime, bytes } if status.is_success() => Reply::Binary { mime, bytes },
        Body::Text(text) => Reply::Error {
            status,
            message: format!("HTTP {status}: {text}"),
        },
        Body::Binary { mime, bytes } => Reply::Error {
            status,
            message: format!("HTTP {status}: ({} bytes of {mime})", bytes.len()),
        },
    }
}

/// A response body: text in the charset the server named, or bytes.
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
