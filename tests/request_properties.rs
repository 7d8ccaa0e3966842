//! Property tests on model-chosen arguments, the other untrusted input: any
//! JSON never panics the parser, and any string value lands escaped in its
//! own path segment, query value, header or JSON string, never changing the
//! request's host, scheme or path structure.

use proptest::prelude::*;
use skills_tests::percent_decode;

mod zoo {
    skills::include_skills!("fixtures/codegen");
}

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
    fn any_string_stays_in_its_place(value in ".*", other in "\\PC*") {
        let arguments = serde_json::json!({
            "query": value, "page": 1, "filter": {"owner": "o"}, "scopes": [], "type": other, "note": value,
        });
        let call = ToolCall::parse("search", &arguments.to_string()).unwrap();
        let request = call.request().unwrap();
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

        let body_arguments = serde_json::json!({"id": value, "doc": {"title": other}, "note": value});
        let upsert = zoo::schema_zoo::ToolCall::parse("upsert", &body_arguments.to_string()).unwrap();
        let request = upsert.request().unwrap();
        let body: serde_json::Value = serde_json::from_slice(request.body()).unwrap();
        prop_assert_eq!(body, serde_json::json!({"doc": {"title": other}, "note": format!("by agent: {value}"), "id": value}));
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
