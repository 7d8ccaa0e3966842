//! Property tests on model-chosen arguments, the other untrusted input: any
//! JSON never panics the parser, and any string value lands escaped in its
//! own path segment, query value, header or JSON string, never changing the
//! request's host, scheme or path structure.

use proptest::prelude::*;
use skills_tests::percent_decode;

// `навык` warns on purpose (W002): skill warnings are `deprecated` warnings.
#[allow(deprecated)]
mod zoo {
    skills::include_skills!("fixtures/codegen");
}

use skills::TypedCall;
use zoo::schema_zoo::ToolCall;

/// Any JSON value, up to a few levels deep.
fn json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        ".*".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-z_]{0,8}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Strings, with dots, slashes and percent signs over-represented.
fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        ".*",
        "[./%2eEfF\\\\?#a]{0,10}",
        prop::sample::select(vec![
            "",
            ".",
            "..",
            "%2e",
            "%2E%2e",
            ".%2E",
            "%252e%252E",
            "...",
            "%2",
            "%%2e",
            "../private",
            "a/../b",
            "..\\secret",
            "%2e%2e%2fprivate",
            "x/./y",
            "%252e%252e/etc"
        ])
        .prop_map(str::to_owned),
    ]
}

/// Whether `value` reads as nothing but separators (empty included), or
/// holds a `.` or `..` component between `/` or `\`, after some number of
/// percent-decodings (what a server that decodes, twice, would resolve).
fn reads_as_dot_segment(value: &str) -> bool {
    let mut text = value.as_bytes().to_vec();
    for _ in 0..=text.len() {
        let parts: Vec<&[u8]> = text.split(|b| *b == b'/' || *b == b'\\').collect();
        if parts.iter().all(|part| part.is_empty())
            || parts.iter().any(|part| matches!(*part, b"." | b".."))
        {
            return true;
        }
        let Ok(as_text) = std::str::from_utf8(&text) else {
            return false;
        };
        let decoded = lenient_decode(as_text);
        if decoded == text {
            return false;
        }
        text = decoded;
    }
    false
}

/// The path a server resolves, as Python's `posixpath.normpath(unquote(path))`
/// does, with `\` read as `/` too: `.` dropped, `..` taking off the last part.
fn normpath(path: &[u8]) -> Vec<Vec<u8>> {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for part in path.split(|b| *b == b'/' || *b == b'\\') {
        match part {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            other => parts.push(other.to_vec()),
        }
    }
    parts
}

/// Percent-decoding that leaves a malformed escape as it is.
fn lenient_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let escape = bytes
            .get(i + 1..i + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .filter(|hex| hex.chars().all(|c| c.is_ascii_hexdigit()))
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[i], escape) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_json_is_a_typed_call_or_an_error_never_a_panic(name in prop::sample::select(vec!["search", "upsert", "other"]), arguments in json()) {
        if let Ok(call) = ToolCall::parse(name, &arguments.to_string()) {
            // Whatever parsed also builds a request or says why not.
            let _ = call.request();
        }
        let _ = ToolCall::parse(name, "{\"query\":");
    }

    #[test]
    fn any_string_stays_in_its_place_as_http_and_url_parse_it(value in hostile(), other in "\\PC*") {
        let arguments = serde_json::json!({
            "query": value, "page": 1, "filter": {"owner": "o"}, "scopes": [], "type": other, "note": value,
        });
        let call = ToolCall::parse("search", &arguments.to_string()).unwrap();
        let request = match call.request() {
            Ok(request) => request,
            Err(error) => {
                // Refused exactly when some percent-decoding reads as a dot segment.
                prop_assert!(reads_as_dot_segment(&value), "{value:?}: {error}");
                let is_path_segment = matches!(error, skills::RequestError::PathSegment { .. });
                prop_assert!(is_path_segment, "{error}");
                return Ok(());
            }
        };
        prop_assert!(!reads_as_dot_segment(&value), "{value:?} was sent");
        // As the `http` crate reads it.
        let uri = request.uri();
        prop_assert_eq!(uri.scheme_str(), Some("https"));
        prop_assert_eq!(uri.host(), Some("search.example.com"));
        let segments: Vec<&str> = uri.path().split('/').collect();
        prop_assert_eq!(segments.len(), 5);
        prop_assert_eq!(percent_decode(segments[2], false), value.as_bytes());
        let pairs: Vec<&str> = uri.query().unwrap().split('&').collect();
        prop_assert_eq!(pairs.len(), 3);
        let q = pairs[2].strip_prefix("q=").unwrap();
        prop_assert_eq!(percent_decode(q, true), format!("in:{other} {value}").into_bytes());
        // As the `url` crate (WHATWG: reqwest, browsers) reads it.
        let parsed = url::Url::parse(&uri.to_string()).unwrap();
        prop_assert_eq!(parsed.scheme(), "https");
        prop_assert_eq!(parsed.host_str(), Some("search.example.com"));
        prop_assert_eq!(parsed.port(), None);
        let segments: Vec<&str> = parsed.path_segments().unwrap().collect();
        prop_assert_eq!(segments.len(), 4, "{}", parsed);
        prop_assert_eq!((segments[0], segments[2], segments[3]), ("v1", "page", "1"));
        prop_assert_eq!(percent_decode(segments[1], false), value.as_bytes());
        let query: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
        let keys: Vec<&str> = query.iter().map(|(k, _)| k.as_str()).collect();
        prop_assert_eq!(keys, ["sort", "exact", "q"]);
        prop_assert_eq!(&query[2].1, &format!("in:{other} {value}"));
        prop_assert_eq!(parsed.fragment(), None);

        let body_arguments = serde_json::json!({"id": value, "doc": {"title": other}, "note": value});
        let upsert = zoo::schema_zoo::ToolCall::parse("upsert", &body_arguments.to_string()).unwrap();
        let request = upsert.request().unwrap();
        let body: serde_json::Value = serde_json::from_slice(request.body()).unwrap();
        prop_assert_eq!(body, serde_json::json!({"doc": {"title": other}, "note": format!("by agent: {value}"), "id": value}));
        let parsed = url::Url::parse(&request.uri().to_string()).unwrap();
        let segments: Vec<&str> = parsed.path_segments().unwrap().collect();
        prop_assert_eq!(segments.len(), 3, "{}", parsed);
        prop_assert_eq!(percent_decode(segments[2], false), value.as_bytes());
    }

    /// A server that percent-decodes the path (once, or until nothing
    /// changes) and then resolves it never leaves the template's prefix.
    #[test]
    fn a_decoding_server_resolves_every_sent_path_under_its_prefix(value in hostile()) {
        let arguments = serde_json::json!({
            "query": value, "page": 1, "filter": {"owner": "o"}, "scopes": [], "type": "t",
        });
        let call = ToolCall::parse("search", &arguments.to_string()).unwrap();
        let Ok(request) = call.request() else { return Ok(()) };
        let parsed = url::Url::parse(&request.uri().to_string()).unwrap();
        let mut path = parsed.path().as_bytes().to_vec();
        for _ in 0..8 {
            // A `/` in the value may add parts once decoded (that is the
            // server's routing); nothing may take one away.
            let resolved = normpath(&path);
            prop_assert!(resolved.len() >= 4, "{:?} resolves to {:?}", parsed.path(), resolved);
            prop_assert_eq!(&resolved[0], b"v1");
            prop_assert_eq!(&resolved[resolved.len() - 2..], [b"page".to_vec(), b"1".to_vec()]);
            let Ok(text) = std::str::from_utf8(&path) else { break };
            let decoded = lenient_decode(text);
            if decoded == path {
                break;
            }
            path = decoded;
        }
    }

    #[test]
    fn header_values_are_sent_intact_or_refused(value in ".*") {
        let arguments = serde_json::json!({"query": "q", "page": 1, "filter": {"owner": "o"}, "scopes": [], "camelCase": value});
        let call = ToolCall::parse("search", &arguments.to_string()).unwrap();
        match call.request() {
            Ok(request) => {
                prop_assert!(!value.chars().any(|c| c.is_control() && c != '\t'));
                prop_assert_eq!(request.headers()["x-scope"].as_bytes(), value.as_bytes());
            }
            Err(error) => {
                prop_assert!(value.chars().any(|c| c.is_control() && c != '\t'), "{error}");
            }
        }
    }
}
