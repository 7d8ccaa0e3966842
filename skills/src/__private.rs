//! What generated code uses. Not a public API: it changes with the code generator.

pub use http;
pub use serde;
pub use serde_json;
#[cfg(feature = "macros")]
pub use skills_macros::include_skills;

use crate::error::{RequestError, ToolCallError};
use crate::tool::Method;

/// Deserialises a tool's arguments, naming the failing field by JSON path.
pub fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &'static str,
    json: &str,
) -> Result<T, ToolCallError> {
    let deserializer = &mut serde_json::Deserializer::from_str(json);
    let result: Result<T, _> = serde_path_to_error::deserialize(deserializer);
    let value = result.map_err(|error| {
        let message = error.inner().to_string();
        let mut path = error.path().to_string();
        // serde reports a missing field at its parent; name the field itself.
        if let Some(field) = missing_field(&message) {
            path = if path == "." {
                field.to_owned()
            } else {
                format!("{path}.{field}")
            };
        }
        ToolCallError::InvalidArguments {
            tool,
            path,
            message,
        }
    })?;
    Ok(value)
}

fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// A value that can stand in a URL path segment, a query value, a header or
/// inside a JSON string: its text.
pub trait Param {
    fn write_text(&self, out: &mut String);
}

impl Param for str {
    fn write_text(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Param for String {
    fn write_text(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Param for i64 {
    fn write_text(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
}

impl Param for f64 {
    fn write_text(&self, out: &mut String) {
        // JSON's spelling: `1.0`, `1e100`; non-finite numbers cannot occur in parsed JSON.
        out.push_str(
            &serde_json::Number::from_f64(*self)
                .map_or_else(|| "null".to_owned(), |n| n.to_string()),
        );
    }
}

impl Param for bool {
    fn write_text(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn write_text(&self, out: &mut String) {
        (**self).write_text(out);
    }
}

/// The text of a parameter.
pub fn text(value: &dyn Param) -> String {
    let mut out = String::new();
    value.write_text(&mut out);
    out
}

/// Builds a request URL: the fixed origin, then path literals and encoded
/// parameter values, then form-encoded query pairs.
pub struct Url {
    url: String,
    has_query: bool,
}

impl Url {
    pub fn new(origin: &str) -> Self {
        Url {
            url: origin.to_owned(),
            has_query: false,
        }
    }

    /// Template text, written as the skill declares it (validated at build time).
    pub fn literal(&mut self, text: &str) {
        self.url.push_str(text);
    }

    /// A parameter value inside a path segment. Everything but letters,
    /// digits, `-`, `_` and `~` is percent-encoded, so `/`, `?`, `#`, `%` and
    /// dot segments (`.`, `..`) can never change the path's structure.
    pub fn segment(&mut self, value: &dyn Param) {
        percent_encode(&text(value), &mut self.url, b"-_~", false);
    }

    /// A `name=value` query pair; `value` is form-encoded.
    pub fn query(&mut self, name: &str, value: &str) {
        self.url.push(if self.has_query { '&' } else { '?' });
        self.has_query = true;
        percent_encode(name, &mut self.url, b"-._~", true);
        self.url.push('=');
        percent_encode(value, &mut self.url, b"-._~", true);
    }

    pub fn finish(self) -> String {
        self.url
    }
}

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

/// A JSON body built from template text and typed values.
#[derive(Default)]
pub struct Body {
    bytes: Vec<u8>,
}

impl Body {
    pub fn new() -> Self {
        Body::default()
    }

    pub fn literal(&mut self, json: &str) {
        self.bytes.extend_from_slice(json.as_bytes());
    }

    /// A whole JSON value.
    pub fn value<T: serde::Serialize + ?Sized>(&mut self, value: &T) {
        if serde_json::to_writer(&mut self.bytes, value).is_err() {
            // Only maps with non-string keys fail, and generated types have none.
            self.bytes.extend_from_slice(b"null");
        }
    }

    /// A value's text inside a JSON string: escaped, without quotes, so it can
    /// never end the string.
    pub fn in_string(&mut self, value: &dyn Param) {
        let quoted = serde_json::Value::String(text(value)).to_string();
        self.bytes
            .extend_from_slice(&quoted.as_bytes()[1..quoted.len() - 1]);
    }

    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// `scheme://host[:port]` with an optional trailing `/`, nothing else.
pub fn origin(origin: &str) -> Result<&str, RequestError> {
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
pub fn header_value(
    tool: &'static str,
    header: &'static str,
    value: &str,
) -> Result<http::HeaderValue, RequestError> {
    let bad = || RequestError::InvalidHeaderValue { tool, header };
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(bad());
    }
    http::HeaderValue::from_bytes(value.as_bytes()).map_err(|_| bad())
}

/// Assembles the request.
pub fn request(
    tool: &'static str,
    method: Method,
    url: String,
    headers: Vec<(&'static str, http::HeaderValue)>,
    body: Option<Vec<u8>>,
) -> Result<http::Request<Vec<u8>>, RequestError> {
    let mut builder = http::Request::builder().method(method.to_http()).uri(url);
    let has_content_type = headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("content-type"));
    for (name, value) in headers {
        builder = builder.header(name, value);
    }
    if body.is_some() && !has_content_type {
        builder = builder.header(http::header::CONTENT_TYPE, "application/json");
    }
    builder
        .body(body.unwrap_or_default())
        .map_err(|error| RequestError::Http {
            tool,
            message: error.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(value: &str) -> String {
        let mut url = Url::new("");
        url.segment(&value);
        url.finish()
    }

    #[test]
    fn path_values_never_change_the_path_structure() {
        assert_eq!(segment("../admin"), "%2E%2E%2Fadmin");
        assert_eq!(segment("a/b"), "a%2Fb");
        assert_eq!(segment("?x=1#frag"), "%3Fx%3D1%23frag");
        assert_eq!(segment("%2F"), "%252F");
        assert_eq!(segment(".."), "%2E%2E");
        assert_eq!(segment("é"), "%C3%A9");
        assert_eq!(segment("a-b_c~1"), "a-b_c~1");
    }

    #[test]
    fn query_values_are_form_encoded() {
        let mut url = Url::new("https://h");
        url.literal("/p");
        url.query("q", "a b&c=d+e");
        url.query("n", "1");
        assert_eq!(url.finish(), "https://h/p?q=a+b%26c%3Dd%2Be&n=1");
    }

    #[test]
    fn body_strings_cannot_be_broken_out_of() {
        let mut body = Body::default();
        body.literal("{\"t\": \"x ");
        body.in_string(&"\"}, \"admin\": true, \"a\": \"\n");
        body.literal("\", \"n\": ");
        body.value(&1.5f64);
        body.literal("}");
        let value: serde_json::Value = serde_json::from_slice(&body.finish()).unwrap();
        assert_eq!(value["t"], "x \"}, \"admin\": true, \"a\": \"\n");
        assert_eq!(value["n"], 1.5);
        assert!(value.get("admin").is_none());
    }

    #[test]
    fn origins_and_headers() {
        assert_eq!(
            origin("http://127.0.0.1:8080/").unwrap(),
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
            assert!(origin(bad).is_err(), "{bad}");
        }
        assert!(header_value("t", "X", "a\r\nEvil: 1").is_err());
        assert!(header_value("t", "X", "a\0").is_err());
        assert_eq!(
            header_value("t", "X", "héllo\tok").unwrap().as_bytes(),
            "héllo\tok".as_bytes()
        );
    }
}
