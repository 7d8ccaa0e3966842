//! Endpoint templates as static tables, and the one function that turns a
//! checked call into an `http::Request`.
//!
//! The rules every request obeys, whoever built the arguments:
//! - the origin is the skill's (or the one given to `request_to`), never a value's;
//! - a path value is percent-encoded inside its segment, and a segment that
//!   would read as empty, or hold a `.` or `..` component between `/` or
//!   `\`, after any number of percent-decodings, is refused: WHATWG URL
//!   parsers turn `%2E%2E` into `..`, and servers that decode before they
//!   resolve turn `..%2Fprivate` into `../private`;
//! - an absent optional value leaves out its query pair, its header and its
//!   JSON member or array item; it is never sent as `null` or `""`;
//! - a value inside a JSON string is escaped, so it cannot end the string;
//! - header values with control characters are refused.

use serde_json::{Map, Value};

use crate::error::RequestError;
use crate::policy::Method;
use crate::tables::{List, Str};

/// Where a tool's request goes and what it carries. The origin is fixed at build time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    #[doc(hidden)]
    pub method: Method,
    #[doc(hidden)]
    pub origin: Str,
    #[doc(hidden)]
    pub url: Str,
    #[doc(hidden)]
    pub path: List<Part>,
    #[doc(hidden)]
    pub query: List<(Str, List<Part>)>,
    #[doc(hidden)]
    pub headers: List<(Str, List<Part>)>,
    #[doc(hidden)]
    pub body: Option<Json>,
}

/// A piece of a URL path, query value or header template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Template text, validated at build time.
    Text(Str),
    /// The value of the named (top-level) parameter.
    Param(Str),
}

/// A JSON body template, parsed at build time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    /// A complete JSON value without placeholders, compact.
    Text(Str),
    /// The parameter's JSON value; left out of its object or array when absent.
    Param(Str),
    /// A JSON string: literal parts are already escaped JSON string content.
    String(List<Part>),
    /// Members with their keys as JSON strings (quotes included).
    Object(List<(Str, Json)>),
    /// Items, in order.
    Array(List<Json>),
}

/// Literal text and `{{name}}` placeholders, as the skill wrote them.
pub fn template_text(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|part| match part {
            Part::Text(text) => text.to_string(),
            Part::Param(name) => format!("{{{{{name}}}}}"),
        })
        .collect()
}

/// The parameters a template names, in order.
pub fn template_params(parts: &[Part]) -> impl Iterator<Item = &str> {
    parts.iter().filter_map(|part| match part {
        Part::Param(name) => Some(name.as_ref()),
        Part::Text(_) => None,
    })
}

impl Json {
    /// The body as JSON text with `{{name}}` placeholders; `spaced` puts a
    /// space after each `:` and `,` (as a person writes it), else compact.
    pub fn text(&self, spaced: bool) -> String {
        let (colon, comma) = if spaced { (": ", ", ") } else { (":", ",") };
        match self {
            Json::Text(text) => text.to_string(),
            Json::Param(name) => format!("{{{{{name}}}}}"),
            Json::String(parts) => format!("\"{}\"", template_text(parts)),
            Json::Object(members) => {
                let members: Vec<String> = members
                    .iter()
                    .map(|(key, value)| format!("{key}{colon}{}", value.text(spaced)))
                    .collect();
                format!("{{{}}}", members.join(comma))
            }
            Json::Array(items) => {
                let items: Vec<String> = items.iter().map(|item| item.text(spaced)).collect();
                format!("[{}]", items.join(comma))
            }
        }
    }
}

impl Endpoint {
    /// An endpoint from its validated parts; [`Endpoint::url`] is written
    /// from them, as the skill wrote it.
    pub fn new(
        method: Method,
        origin: Str,
        path: List<Part>,
        query: List<(Str, List<Part>)>,
        headers: List<(Str, List<Part>)>,
        body: Option<Json>,
    ) -> Endpoint {
        let mut url = origin.to_string();
        url.push_str(&template_text(&path));
        for (i, (name, value)) in query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(name);
            url.push('=');
            url.push_str(&template_text(value));
        }
        Endpoint {
            method,
            origin,
            url: Str::Owned(url),
            path,
            query,
            headers,
            body,
        }
    }

    /// The HTTP method the endpoint uses.
    pub fn method(&self) -> Method {
        self.method
    }

    /// `scheme://host[:port]`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The URL template as declared, placeholders included.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The path template, `/` first.
    pub fn path(&self) -> &[Part] {
        &self.path
    }

    /// Query names with their value templates, in declared order.
    pub fn query(&self) -> &[(Str, List<Part>)] {
        &self.query
    }

    /// Header names with their value templates, in declared order.
    pub fn headers(&self) -> &[(Str, List<Part>)] {
        &self.headers
    }

    /// The JSON body template, when the request has a body.
    pub fn body(&self) -> Option<&Json> {
        self.body.as_ref()
    }

    /// Builds the request for `arguments` (a checked arguments object), sent to
    /// `origin` when given (`scheme://host[:port]`), else to the declared origin.
    pub(crate) fn request(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        origin: Option<&str>,
    ) -> Result<http::Request<Vec<u8>>, RequestError> {
        let origin = match origin {
            Some(origin) => check_origin(origin)?,
            None => &self.origin,
        };
        let builder = Builder { tool, arguments };
        let mut url = origin.to_owned();
        builder.path(&self.path, &mut url)?;
        let mut separator = '?';
        for (name, template) in self.query.iter() {
            if let Some(value) = builder.text(template)? {
                url.push(separator);
                separator = '&';
                percent_encode(name, &mut url, b"-._~", true);
                url.push('=');
                percent_encode(&value, &mut url, b"-._~", true);
            }
        }
        let mut request = http::Request::builder()
            .method(self.method.to_http())
            .uri(url);
        let mut has_content_type = false;
        for (name, template) in self.headers.iter() {
            if let Some(value) = builder.text(template)? {
                has_content_type |= name.eq_ignore_ascii_case("content-type");
                request = request.header(name.as_ref(), header_value(tool, name, &value)?);
            }
        }
        let body = match &self.body {
            Some(template) => {
                if !has_content_type {
                    request = request.header(http::header::CONTENT_TYPE, "application/json");
                }
                let mut out = Vec::new();
                builder.json(template, &mut out)?;
                out
            }
            None => Vec::new(),
        };
        request.body(body).map_err(|error| RequestError::Http {
            tool: tool.to_owned(),
            message: error.to_string(),
        })
    }
}

struct Builder<'a> {
    tool: &'a str,
    arguments: &'a Map<String, Value>,
}

impl Builder<'_> {
    /// A parameter's text, or `None` when it is absent or null.
    fn scalar(&self, name: &str) -> Option<String> {
        match self.arguments.get(name)? {
            Value::Null => None,
            Value::String(text) => Some(text.clone()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            // Validation lets only scalars stand in text; compact JSON otherwise.
            other => Some(other.to_string()),
        }
    }

    fn missing(&self, name: &str) -> RequestError {
        RequestError::MissingValue {
            tool: self.tool.to_owned(),
            parameter: name.to_owned(),
        }
    }

    /// The text of a query or header template; `None` when one of its values is absent.
    fn text(&self, template: &[Part]) -> Result<Option<String>, RequestError> {
        let mut out = String::new();
        for part in template {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Param(name) => match self.scalar(name) {
                    Some(value) => out.push_str(&value),
                    None => return Ok(None),
                },
            }
        }
        Ok(Some(out))
    }

    fn path(&self, template: &[Part], url: &mut String) -> Result<(), RequestError> {
        let mut segment = Segment {
            start: url.len(),
            param: None,
        };
        for part in template {
            match part {
                Part::Text(text) => {
                    for (i, piece) in text.split('/').enumerate() {
                        if i > 0 {
                            self.close(&segment, url)?;
                            url.push('/');
                            segment = Segment {
                                start: url.len(),
                                param: None,
                            };
                        }
                        url.push_str(piece);
                    }
                }
                Part::Param(name) => {
                    let value = self.scalar(name).ok_or_else(|| self.missing(name))?;
                    percent_encode(&value, url, b"-_~", false);
                    segment.param = Some(name.as_ref());
                }
            }
        }
        self.close(&segment, url)
    }

    /// Refuses a segment holding a value that reads as empty, `.` or `..`.
    fn close(&self, segment: &Segment<'_>, url: &str) -> Result<(), RequestError> {
        match segment.param {
            Some(name) if is_dot_or_empty(&url[segment.start..]) => {
                Err(RequestError::PathSegment {
                    tool: self.tool.to_owned(),
                    parameter: name.to_owned(),
                })
            }
            _ => Ok(()),
        }
    }

    fn json(&self, template: &Json, out: &mut Vec<u8>) -> Result<(), RequestError> {
        match template {
            Json::Text(text) => out.extend_from_slice(text.as_bytes()),
            Json::Param(name) => {
                let value = self.arguments.get(name.as_ref()).unwrap_or(&Value::Null);
                write_value(value, out);
            }
            Json::String(parts) => {
                out.push(b'"');
                for part in parts.iter() {
                    match part {
                        Part::Text(text) => out.extend_from_slice(text.as_bytes()),
                        Part::Param(name) => {
                            let value = self.scalar(name).ok_or_else(|| self.missing(name))?;
                            let quoted = Value::String(value).to_string();
                            out.extend_from_slice(&quoted.as_bytes()[1..quoted.len() - 1]);
                        }
                    }
                }
                out.push(b'"');
            }
            Json::Object(members) => {
                out.push(b'{');
                let mut first = true;
                for (key, value) in members.iter() {
                    if self.is_absent(value) {
                        continue;
                    }
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    out.extend_from_slice(key.as_bytes());
                    out.push(b':');
                    self.json(value, out)?;
                }
                out.push(b'}');
            }
            Json::Array(items) => {
                out.push(b'[');
                let mut first = true;
                for item in items.iter() {
                    if self.is_absent(item) {
                        continue;
                    }
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    self.json(item, out)?;
                }
                out.push(b']');
            }
        }
        Ok(())
    }

    fn is_absent(&self, template: &Json) -> bool {
        matches!(template, Json::Param(name) if !self.arguments.contains_key(name.as_ref()))
    }
}

struct Segment<'a> {
    start: usize,
    /// The last parameter placed in the segment, if any.
    param: Option<&'a str>,
}

fn write_value(value: &Value, out: &mut Vec<u8>) {
    // Writing a `Value` to a Vec cannot fail: its keys are strings.
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.extend_from_slice(b"null");
    }
}

/// Whether `segment`, however often a server percent-decodes it, reads as
/// nothing but separators (`""`, `/`, `\\`: the segment vanishes), or holds
/// a `.` or `..` component between `/` or `\\`. A server that decodes before
/// it resolves (Python's `http.server` did) serves `/api/..%2Fprivate` from
/// `/private`. Each round shortens the text, so this ends.
fn is_dot_or_empty(segment: &str) -> bool {
    let mut text = segment.as_bytes().to_vec();
    loop {
        let mut parts = text.split(|b| *b == b'/' || *b == b'\\');
        if parts.clone().any(|part| matches!(part, b"." | b"..")) || parts.all(<[u8]>::is_empty) {
            return true;
        }
        let decoded = percent_decode(&text);
        if decoded == text {
            return false;
        }
        text = decoded;
    }
}

fn percent_decode(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if text[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                text.get(i + 1).copied().and_then(hex),
                text.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// Everything but ASCII letters, digits and `keep` is percent-encoded; in a
/// form-encoded query value a space becomes `+`.
fn percent_encode(text: &str, out: &mut String, keep: &[u8], space_as_plus: bool) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || keep.contains(&byte) {
            out.push(byte as char);
        } else if byte == b' ' && space_as_plus {
            out.push('+');
        } else {
            out.push('%');
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 0xF)] as char);
        }
    }
}

/// `origin` as requests are sent to it (`Call::request_to`), when it is
/// `scheme://host[:port]` with an optional trailing `/` and nothing else:
/// what a server checks once at start-up instead of failing every call.
///
/// ```
/// assert_eq!(skills_core::check_origin("http://127.0.0.1:8080/"), Ok("http://127.0.0.1:8080"));
/// assert!(skills_core::check_origin("http://host/path").is_err());
/// ```
pub fn check_origin(origin: &str) -> Result<&str, RequestError> {
    let bad = |reason| RequestError::InvalidOrigin {
        origin: origin.to_owned(),
        reason,
    };
    let trimmed = origin.strip_suffix('/').unwrap_or(origin);
    let uri: http::Uri = trimmed.parse().map_err(|_| bad("not a URL"))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        _ => return Err(bad("the scheme must be http or https")),
    }
    let authority = uri.authority().ok_or_else(|| bad("no host"))?;
    if authority.as_str().contains('@') {
        return Err(bad("credentials are not allowed"));
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err(bad("an origin has no path or query"));
    }
    Ok(trimmed)
}

/// A header value; control characters (CR and LF above all) are refused.
fn header_value(tool: &str, header: &str, value: &str) -> Result<http::HeaderValue, RequestError> {
    let bad = || RequestError::InvalidHeaderValue {
        tool: tool.to_owned(),
        header: header.to_owned(),
    };
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(bad());
    }
    http::HeaderValue::from_bytes(value.as_bytes()).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow::Borrowed as B;

    static ENDPOINT: Endpoint = Endpoint {
        method: Method::Patch,
        origin: B("https://api.example.com"),
        url: B(""),
        path: B(&[
            Part::Text(B("/v1/items/")),
            Part::Param(B("id")),
            Part::Text(B("/notes")),
        ]),
        query: B(&[
            (B("q"), B(&[Part::Param(B("q"))])),
            (B("fixed"), B(&[Part::Text(B("1"))])),
        ]),
        headers: B(&[(
            B("X-Trace"),
            B(&[Part::Text(B("t-")), Part::Param(B("trace"))]),
        )]),
        body: Some(Json::Object(B(&[
            (B("\"title\""), Json::Param(B("title"))),
            (
                B("\"note\""),
                Json::String(B(&[Part::Text(B("by ")), Part::Param(B("id"))])),
            ),
            (
                B("\"tags\""),
                Json::Array(B(&[Json::Param(B("tag")), Json::Text(B("\"x\""))])),
            ),
            (B("\"n\""), Json::Text(B("{\"a\":1}"))),
        ]))),
    };

    fn build(arguments: Value) -> Result<http::Request<Vec<u8>>, RequestError> {
        let Value::Object(map) = arguments else {
            panic!("an object")
        };
        ENDPOINT.request("t", &map, None)
    }

    fn body(request: &http::Request<Vec<u8>>) -> &str {
        std::str::from_utf8(request.body()).unwrap()
    }

    #[test]
    fn absent_values_are_left_out_never_sent_as_null() {
        let request = build(json!({"id": "7"})).unwrap();
        assert_eq!(
            request.uri().to_string(),
            "https://api.example.com/v1/items/7/notes?fixed=1"
        );
        assert!(request.headers().get("x-trace").is_none());
        assert_eq!(
            body(&request),
            r#"{"note":"by 7","tags":["x"],"n":{"a":1}}"#
        );
    }

    #[test]
    fn given_values_land_in_their_places() {
        let request =
            build(json!({"id": "a b", "q": "x&y=z", "trace": "1", "title": null, "tag": [1]}))
                .unwrap();
        assert_eq!(
            request.uri().to_string(),
            "https://api.example.com/v1/items/a%20b/notes?q=x%26y%3Dz&fixed=1"
        );
        assert_eq!(request.headers()["x-trace"], "t-1");
        assert_eq!(request.headers()["content-type"], "application/json");
        // An explicit null is what the model said; it is sent.
        assert_eq!(
            body(&request),
            r#"{"title":null,"note":"by a b","tags":[[1],"x"],"n":{"a":1}}"#
        );
    }

    #[test]
    fn dot_segments_are_refused_in_every_spelling() {
        for id in [
            "",
            ".",
            "..",
            "%2e",
            "%2E%2e",
            ".%2E",
            "%252e%252e",
            "%25252E",
            // Components a decoding server resolves (issue 23, item 18).
            "../private",
            "..%2Fprivate",
            "%2E%2E%2Fprivate",
            "a/../b",
            "a/./b",
            "..\\secret",
            "a%5C..%5Cb",
            "%252e%252e%252fx",
            // Nothing but separators: the segment vanishes.
            "/",
            "\\",
            "%2F%2F",
        ] {
            let error = build(json!({"id": id})).unwrap_err();
            assert_eq!(
                error,
                RequestError::PathSegment {
                    tool: "t".into(),
                    parameter: "id".into()
                },
                "{id:?}"
            );
        }
        for id in [
            "...",
            "a.",
            ".a",
            "%2e%2e%2e",
            "%2",
            "a/b",
            "a..b/c",
            ".../x",
            "a\\b",
        ] {
            assert!(build(json!({"id": id})).is_ok(), "{id:?}");
        }
    }

    #[test]
    fn missing_and_hostile_values() {
        assert!(matches!(
            build(json!({})),
            Err(RequestError::MissingValue { .. })
        ));
        assert!(matches!(
            build(json!({"id": "1", "trace": "a\r\nEvil: 1"})),
            Err(RequestError::InvalidHeaderValue { .. })
        ));
        let request = build(json!({"id": "\"}, \"admin\": true"})).unwrap();
        let sent: Value = serde_json::from_slice(request.body()).unwrap();
        assert_eq!(sent["note"], "by \"}, \"admin\": true");
        assert!(sent.get("admin").is_none());
    }

    #[test]
    fn origins() {
        assert_eq!(
            check_origin("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        for bad in [
            "ftp://h",
            "h:80",
            "https://h/api",
            "https://u:p@h",
            "https://h?x=1",
            "",
        ] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
        assert_eq!(
            header_value("t", "X", "héllo\tok").unwrap().as_bytes(),
            "héllo\tok".as_bytes()
        );
    }
}
