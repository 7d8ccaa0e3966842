//! The generated code at run time: static tables, typed tool calls, errors
//! that name the failing field, policies, and requests whose hostile values
//! stay inside their path segment, query value, header or JSON string.

// `навык` warns on purpose (W002): skill warnings are `deprecated` warnings.
#[allow(deprecated)]
mod zoo {
    skills::include_skills!("fixtures/codegen");
}

mod example {
    skills::include_skills!("../examples/issue-tracker/skills");
}

mod sixty_four {
    skills::include_skills!("fixtures/sixty-four");
}

mod hostile {
    skills::include_skills!("fixtures/hostile");
}

mod policies {
    skills::include_skills!("fixtures/policies");
}

use skills::tables::Method;
use skills::{Kind, Policy, RequestError, ToolCallError, TypedCall};
use skills_tests::percent_decode;
use zoo::schema_zoo::{SearchArgs, SearchScopesItem, SearchSort, ToolCall};

#[test]
fn the_skill_set_is_static_sorted_and_searchable() {
    let set = &zoo::SKILLS;
    assert_eq!(
        set.names().collect::<Vec<_>>(),
        [
            "3d-printing",
            "local-tools",
            "no-tools",
            "schema-zoo",
            "type",
            "навык"
        ]
    );
    assert_eq!(set.len(), 6);
    // Non-ASCII names get ASCII module names: each character as `u<hex>`.
    assert_eq!(zoo::u43d_u430_u432_u44b_u43a::SKILL.name(), "навык");
    assert!(set.get("schema-zoo").is_some());
    assert!(set.get("missing").is_none());
    assert!(std::ptr::eq(
        set.get("type").unwrap(),
        zoo::r#type::SKILL.skill()
    ));
    assert!(std::ptr::eq(
        set.get("3d-printing").unwrap(),
        zoo::_3d_printing::SKILL.skill()
    ));
    assert_eq!(set.iter().count(), 6);
    assert!(
        set.catalog()
            .starts_with("- 3d-printing: A name that starts with a digit.\n")
    );
    assert!(
        set.catalog_xml()
            .starts_with("<available_skills>\n<skill>\n<name>\n3d-printing\n</name>")
    );
}

#[test]
fn get_finds_every_skill_of_a_full_set_and_nothing_else() {
    let set = &sixty_four::SKILLS;
    assert_eq!(set.len(), 64);
    for (i, skill) in set.iter().enumerate() {
        let name = format!("skill-{i:02}");
        assert_eq!(skill.name(), name);
        assert!(std::ptr::eq(set.get(&name).unwrap(), skill));
        assert!(set.get(&format!("{name}x")).is_none());
    }
    for absent in ["", "skill-64", "SKILL-00", "skill-0", "skill-00 "] {
        assert!(set.get(absent).is_none(), "{absent}");
    }
}

#[test]
fn skills_expose_their_fields_sections_and_rendered_text() {
    let skill = &zoo::local_tools::SKILL;
    let Kind::Protocol(protocol) = skill.kind() else {
        panic!("a protocol")
    };
    assert_eq!(*protocol.steps, ["Think", "Act"]);
    assert_eq!(skill.version().to_string(), "1.2.0");
    assert_eq!(
        skill.rendered(),
        "PROTOCOL: local-tools (v1.2.0)\nTools the application carries out itself, without an endpoint.\n\n\
         Preconditions:\n- A clean tree\n\nSteps (follow in order):\n1. Think\n2. Act\n\nPost-checks:\n- It worked\n\n\
         If the run goes off plan: Stop and ask.\nIf the protocol cannot be completed: Report what is missing.\n\
         If a step is already done: Skip it.\n\nBody of the protocol.\n"
    );
    let zoo_skill = &zoo::schema_zoo::SKILL;
    assert_eq!(
        zoo_skill.section("Search"),
        Some("## Search\nUse `search` first.\n")
    );
    assert_eq!(zoo_skill.section("Nope"), None);
    assert_eq!(zoo_skill.sha256_hex().len(), 64);
    let extras: Vec<_> = zoo::no_tools::SKILL.extras().collect();
    assert_eq!(
        extras,
        [
            ("x-owner", r#"{"team":"docs"}"#),
            ("argument-hint", r#""[topic]""#)
        ]
    );
    assert_eq!(
        example::writing_style::SKILL.metadata_value("version"),
        Some("1.0")
    );
}

#[test]
fn tool_definitions_for_each_model_api() {
    let search = zoo::schema_zoo::SKILL.tool("search").unwrap();
    let anthropic: serde_json::Value = serde_json::from_str(&search.anthropic_json()).unwrap();
    assert_eq!(anthropic["name"], "search");
    assert_eq!(anthropic["input_schema"]["type"], "object");
    let openai: serde_json::Value = serde_json::from_str(&search.openai_json()).unwrap();
    assert_eq!(openai["function"]["parameters"]["required"][0], "query");
    // `search` has optional properties and defaults: no strict variant.
    assert_eq!(search.openai_strict_json(), None);
    let delete = example::github_issues::SKILL.tool("delete_issue").unwrap();
    let strict: serde_json::Value =
        serde_json::from_str(&delete.openai_strict_json().unwrap()).unwrap();
    assert_eq!(strict["function"]["strict"], true);
    assert_eq!(
        strict["function"]["parameters"]["additionalProperties"],
        false
    );
    let mcp: serde_json::Value = serde_json::from_str(&delete.mcp_json()).unwrap();
    assert_eq!(mcp["annotations"]["readOnlyHint"], false);
    assert_eq!(mcp["annotations"]["destructiveHint"], true);
    assert_eq!(mcp["annotations"]["idempotentHint"], true);
    assert_eq!(mcp["annotations"]["openWorldHint"], true);
    let list = example::github_issues::SKILL.tool("list_issues").unwrap();
    assert!(!list.is_consequential() && delete.is_consequential());
    let mcp: serde_json::Value = serde_json::from_str(&list.mcp_json()).unwrap();
    assert_eq!(mcp["annotations"]["readOnlyHint"], true);
    assert_eq!(mcp["annotations"]["destructiveHint"], false);
    // OpenAI's API shapes hold only documented keys: the GPT Actions flag
    // is not among them (issue 24, item 6; docs/decisions.md). The policy
    // is still the tool's, and enforced here.
    for tool in [list, delete] {
        let openai: serde_json::Value = serde_json::from_str(&tool.openai_json()).unwrap();
        assert!(openai["function"].get("x-openai-isConsequential").is_none());
        let responses: serde_json::Value =
            serde_json::from_str(&tool.openai_responses_json()).unwrap();
        assert!(responses.get("x-openai-isConsequential").is_none());
    }
    let create = example::github_issues::SKILL.tool("create_issue").unwrap();
    let hints = create.hints();
    assert!(!hints.read_only && !hints.destructive && !hints.idempotent && hints.consequential);
    // The schema sent to models says what the checker enforces.
    let schema: serde_json::Value = serde_json::from_str(create.parameters_json()).unwrap();
    assert_eq!(schema["additionalProperties"], false);
}

const SEARCH: &str = r#"{"query": "q", "page": 2, "filter": {"owner": "me", "labels": [{"name": "bug"}]}, "scopes": ["public"]}"#;

#[test]
fn tool_calls_become_typed_values_with_defaults() {
    let ToolCall::Search(args) = ToolCall::parse("search", SEARCH).unwrap() else {
        panic!()
    };
    let SearchArgs {
        query,
        page,
        exact,
        sort,
        tags,
        filter,
        scopes,
        note,
        ..
    } = args;
    assert_eq!(
        (query.as_str(), page, exact, sort),
        ("q", 2, false, SearchSort::Relevance)
    );
    assert_eq!(tags, ["a", "b"]);
    assert_eq!(filter.owner, "me");
    assert_eq!(filter.labels.unwrap()[0].name, "bug");
    assert_eq!(scopes, [SearchScopesItem::Public]);
    assert_eq!(note, None);
    let call = ToolCall::parse("search", SEARCH).unwrap();
    assert_eq!(
        (call.name(), call.policy(), call.tool().name()),
        ("search", Policy::Allow, "search")
    );
}

fn error_path(json: &str) -> String {
    match ToolCall::parse("search", json).unwrap_err() {
        ToolCallError::InvalidArguments { tool, path, .. } => {
            assert_eq!(tool, "search");
            path
        }
        other => panic!("{other}"),
    }
}

#[test]
fn bad_arguments_name_the_failing_field_by_json_path() {
    let with = |field: &str| SEARCH.replacen('{', &format!("{{{field}, "), 1);
    // unknown field, wrong type, missing required field, bad enum value
    assert_eq!(error_path(&with(r#""surprise": 1"#)), "surprise");
    assert_eq!(
        error_path(&SEARCH.replace(r#""page": 2"#, r#""page": "2""#)),
        "page"
    );
    assert_eq!(error_path(&SEARCH.replace(r#""page": 2, "#, "")), "page");
    assert_eq!(error_path(&with(r#""sort": "oldest""#)), "sort");
    // nested: a field of an object, an item of a list
    assert_eq!(
        error_path(&SEARCH.replace(r#""owner": "me""#, r#""owner": 1"#)),
        "filter.owner"
    );
    assert_eq!(
        error_path(&SEARCH.replace(r#""owner": "me", "#, "")),
        "filter.owner"
    );
    // `pattern` is enforced, in the typed parse as in the untyped one.
    assert_eq!(
        error_path(&SEARCH.replace(r#""owner": "me""#, r#""owner": "Me; rm -rf""#)),
        "filter.owner"
    );
    assert_eq!(
        error_path(&SEARCH.replace(r#"["public"]"#, r#"["public", "secret"]"#)),
        "scopes[1]"
    );
    assert_eq!(
        error_path(&SEARCH.replace(r#"{"name": "bug"}"#, r#"{"name": "bug", "x": 1}"#)),
        "filter.labels[0].x"
    );
    assert_eq!(error_path("not json"), ".");
    let unknown = ToolCall::parse("serch", "{}").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "unknown tool `serch`; expected one of: search, upsert"
    );
    // A skill without tools has no `ToolCall` (tests/ui: no_tool_call_without_tools.rs);
    // the set still refuses a call of a tool nobody declares.
    assert!(zoo::SKILLS.find_tool("x").is_err());
}

const HOSTILE: &[&str] = &[
    "../admin",
    "a/b",
    "?x=1",
    "#frag",
    "\"",
    "%2F",
    "é✓ 漢字",
    "..",
    ".",
    "a b&c=d",
    "\\",
    "@evil.com",
];

/// The hostile values that the request builder refuses in a path segment.
fn refused_in_a_path(value: &str) -> bool {
    matches!(value, "." | ".." | "../admin" | "%2F" | "\\")
}

#[test]
fn hostile_values_stay_in_their_path_segment_and_query_value() {
    for value in HOSTILE {
        let json = serde_json::json!({"query": value, "page": 1, "filter": {"owner": "o"}, "scopes": [], "type": value, "note": value});
        let call = ToolCall::parse("search", &json.to_string()).unwrap();
        if refused_in_a_path(value) {
            // URL parsers resolve a `.` or `..` segment, even percent-encoded,
            // and decoding servers a `..` inside one, or an empty one: refused.
            assert_eq!(
                call.request().unwrap_err(),
                RequestError::PathSegment {
                    tool: "search".into(),
                    parameter: "query".into()
                }
            );
            continue;
        }
        let request = call.request().unwrap();
        let uri = request.uri();
        assert_eq!(uri.host(), Some("search.example.com"), "{value}");
        assert_eq!(uri.scheme_str(), Some("https"));
        let segments: Vec<&str> = uri.path().split('/').collect();
        assert_eq!(segments.len(), 5, "{value}: {}", uri.path());
        assert_eq!((segments[1], segments[3]), ("v1", "page"));
        assert_eq!(
            String::from_utf8(percent_decode(segments[2], false)).unwrap(),
            *value
        );
        let pairs: Vec<(String, String)> = uri
            .query()
            .unwrap()
            .split('&')
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap();
                (
                    String::from_utf8(percent_decode(k, true)).unwrap(),
                    String::from_utf8(percent_decode(v, true)).unwrap(),
                )
            })
            .collect();
        let names: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["sort", "exact", "q"], "{value}");
        assert_eq!(pairs[2].1, format!("in:{value} {value}"));
    }
}

#[test]
fn hostile_values_stay_inside_their_json_string_and_headers_refuse_control_characters() {
    for value in HOSTILE
        .iter()
        .copied()
        .filter(|value| !refused_in_a_path(value))
        .chain(["\"}, \"admin\": true, \"x\": \"", "\n", "\u{0}"])
    {
        let json = serde_json::json!({"id": value, "doc": {"title": value}, "note": value});
        let call = zoo::schema_zoo::ToolCall::parse("upsert", &json.to_string()).unwrap();
        let request = call.request().unwrap();
        assert_eq!(request.method(), "PUT");
        let body: serde_json::Value = serde_json::from_slice(request.body()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"doc": {"title": value}, "note": format!("by agent: {value}"), "id": value})
        );
        assert_eq!(request.headers()["content-type"], "application/json");
    }
    for bad in ["a\r\nX-Evil: 1", "a\nb", "a\0"] {
        let json = serde_json::json!({"query": "q", "page": 1, "filter": {"owner": "o"}, "scopes": [], "camelCase": bad});
        let call = ToolCall::parse("search", &json.to_string()).unwrap();
        assert_eq!(
            call.request().unwrap_err(),
            RequestError::InvalidHeaderValue {
                tool: "search".into(),
                header: "X-Scope".into()
            }
        );
    }
    let json = serde_json::json!({"query": "q", "page": 1, "filter": {"owner": "o"}, "scopes": [], "camelCase": "é ok"});
    let request = ToolCall::parse("search", &json.to_string())
        .unwrap()
        .request()
        .unwrap();
    assert_eq!(request.headers()["x-scope"].as_bytes(), "é ok".as_bytes());
}

#[test]
fn request_to_changes_only_the_origin() {
    let call = ToolCall::parse("search", SEARCH).unwrap();
    let staged = call.request_to("http://127.0.0.1:8080/").unwrap();
    let normal = call.request().unwrap();
    assert_eq!(
        staged.uri().to_string(),
        normal
            .uri()
            .to_string()
            .replace("https://search.example.com", "http://127.0.0.1:8080")
    );
    for bad in ["ftp://x", "http://h/path", "not a url"] {
        assert!(
            matches!(
                call.request_to(bad),
                Err(RequestError::InvalidOrigin { .. })
            ),
            "{bad}"
        );
    }
}

#[test]
fn a_tool_without_an_endpoint_is_carried_out_by_the_application() {
    let call = zoo::local_tools::ToolCall::parse("run_shell", r#"{"command": "ls"}"#).unwrap();
    assert_eq!(
        call.request().unwrap_err(),
        RequestError::NoEndpoint {
            tool: "run_shell".into()
        }
    );
    assert!(
        call.request()
            .unwrap_err()
            .to_string()
            .contains("carries it out itself")
    );
    assert_eq!(call.policy(), Policy::Confirm);
}

#[test]
fn the_example_requests() {
    let call = example::github_issues::ToolCall::parse(
        "list_issues",
        r#"{"repo": "acme/app", "limit": 5}"#,
    )
    .unwrap();
    let request = call.request().unwrap();
    assert_eq!(request.method(), "GET");
    assert_eq!(
        request.uri(),
        "https://tracker.example.com/api/repos/acme%2Fapp/issues?state=open&limit=5"
    );
    assert!(request.body().is_empty());
    let call = example::github_issues::ToolCall::parse(
        "create_issue",
        r#"{"repo": "r", "title": "T", "priority": "high"}"#,
    )
    .unwrap();
    let request = call.request().unwrap();
    assert_eq!(request.headers()["x-request-source"], "agent");
    assert_eq!(
        std::str::from_utf8(request.body()).unwrap(),
        // `labels` was not given: left out, never sent as null.
        r#"{"title":"T","priority":"high"}"#
    );
    let call =
        example::github_issues::ToolCall::parse("delete_issue", r#"{"repo": "r", "number": 3}"#)
            .unwrap();
    assert_eq!(call.policy(), Policy::Confirm);
    assert_eq!(
        call.request().unwrap_err(),
        RequestError::NotConfirmed {
            tool: "delete_issue".into()
        }
    );
    let confirmed = call.to_call().confirmed();
    assert_eq!(confirmed.request().unwrap().method().as_str(), "DELETE");
}

/// `from_call` reads a checked call by the place of its tool in the skill
/// (not by its name): a call of the same skill comes back as it was, a call
/// checked against another skill's tool of the same name is refused.
#[test]
fn from_call_takes_only_calls_of_its_own_skills_tools() {
    let call = example::github_issues::ToolCall::parse(
        "create_issue",
        r#"{"repo": "r", "title": "T", "priority": "high"}"#,
    )
    .unwrap();
    let again = example::github_issues::ToolCall::from_call(call.to_call()).unwrap();
    assert_eq!(again, call);
    // A call the compiled set checked is one of the skill's own.
    let checked = example::SKILLS
        .parse_call(
            "create_issue",
            r#"{"repo": "r", "title": "T", "priority": "high"}"#,
        )
        .unwrap();
    let from_set = example::github_issues::ToolCall::from_call(checked).unwrap();
    assert_eq!(from_set, call);
    let other = policies::confirm_policies::ToolCall::parse("post_plain", "{}").unwrap();
    let same_name = skills::Tool {
        name: "create_issue".into(),
        ..other.tool().clone()
    };
    let foreign = skills::Call::new(Box::leak(Box::new(same_name)), Default::default());
    assert_eq!(
        example::github_issues::ToolCall::from_call(foreign).unwrap_err(),
        ToolCallError::UnknownTool {
            name: "create_issue".into(),
            expected: vec![
                "list_issues".into(),
                "create_issue".into(),
                "delete_issue".into()
            ],
        }
    );
}

#[test]
fn the_policy_of_every_method_under_every_permission_setting() {
    for (set, mode_confirms) in [
        (&policies::readonly_policies::SKILL, false),
        (&policies::confirm_policies::SKILL, true),
    ] {
        for tool in set.tools() {
            let (method, setting) = tool.name().split_once('_').unwrap();
            let safe = tool.endpoint().is_some_and(|e| e.method().is_safe());
            let expected = match setting {
                "confirm" => Policy::Confirm,
                "allow" => Policy::Allow,
                _ if safe => Policy::Allow,
                _ if mode_confirms => Policy::Confirm,
                _ => Policy::Deny,
            };
            assert_eq!(tool.policy(), expected, "{} ({method})", tool.name());
        }
        assert_eq!(set.tools().len(), 22);
    }
    // The same decisions reach the typed calls.
    let call = policies::readonly_policies::ToolCall::parse("delete_plain", "{}").unwrap();
    assert_eq!(call.policy(), Policy::Deny);
    // The short path never sends what the policy forbids, confirmed or not.
    let denied = RequestError::Denied {
        tool: "delete_plain".into(),
    };
    assert_eq!(call.request().unwrap_err(), denied);
    assert_eq!(call.request_to("http://127.0.0.1:9").unwrap_err(), denied);
    assert_eq!(call.to_call().confirmed().request().unwrap_err(), denied);
    let call = policies::confirm_policies::ToolCall::parse("post_plain", "{}").unwrap();
    assert_eq!(call.policy(), Policy::Confirm);
    assert_eq!(Method::Options.as_str(), "OPTIONS");
}

#[test]
fn skill_text_lands_in_the_binary_as_data_never_as_code() {
    let skill = hostile::SKILLS.get("hostile").unwrap();
    assert_eq!(
        skill.description(),
        "\"); } fn injected() { panic!() } /* r#\"raw\"# */ {{placeholder}} </description><skill> \\ \\\" ' Use when testing escapes."
    );
    assert!(skill.body().contains("include_bytes!(\"/etc/passwd\")"));
    assert_eq!(
        skill.extras().collect::<Vec<_>>(),
        [("x-note", "\"a NUL \\u0000 and a BEL \\u0007\"")]
    );
    let xml = hostile::SKILLS.catalog_xml();
    assert!(xml.contains("&lt;/description&gt;&lt;skill&gt;"), "{xml}");
    assert!(!xml.contains("</description><skill>"));
}
