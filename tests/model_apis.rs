//! Tool calls read out of model API responses, in each provider's recorded
//! shape, dispatched by tool name across a whole set, and results written
//! back in the shape the same provider takes.

mod example {
    skills::include_skills!("../examples/issue-tracker/skills");
}

use serde_json::{Value, json};
use skills::model::{ModelApiError, Provider, ToolUse, tool_uses};
use skills::{Policy, ToolCallError};

/// An Anthropic Messages response (stop_reason tool_use), as the API returns it.
fn anthropic_response() -> Value {
    json!({
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "text", "text": "I'll open the issue and then list what is open."},
            {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "create_issue",
             "input": {"repo": "acme/app", "title": "Crash on start", "labels": ["bug"]}},
            {"type": "tool_use", "id": "toolu_01B", "name": "list_issues", "input": {"repo": "acme/app"}}
        ],
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "usage": {"input_tokens": 512, "output_tokens": 96}
    })
}

/// An OpenAI Chat Completions response with parallel tool calls.
fn openai_chat_response() -> Value {
    json!({
        "id": "chatcmpl-9x0",
        "object": "chat.completion",
        "created": 1_730_000_000,
        "model": "gpt-4.1",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [
                    {"id": "call_abc123", "type": "function",
                     "function": {"name": "create_issue", "arguments": "{\"repo\":\"acme/app\",\"title\":\"Crash on start\",\"labels\":[\"bug\"]}"}},
                    {"id": "call_def456", "type": "function",
                     "function": {"name": "list_issues", "arguments": "{\"repo\":\"acme/app\"}"}}
                ],
                "refusal": null
            },
            "logprobs": null,
            "finish_reason": "tool_calls"
        }],
        "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99}
    })
}

/// An OpenAI Responses API response: reasoning, then function calls.
fn openai_responses_response() -> Value {
    json!({
        "id": "resp_67ccd2bed1ec8190",
        "object": "response",
        "status": "completed",
        "model": "gpt-4.1",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "function_call", "id": "fc_12345xyz", "call_id": "call_12345xyz",
             "name": "create_issue",
             "arguments": "{\"repo\":\"acme/app\",\"title\":\"Crash on start\",\"labels\":[\"bug\"]}",
             "status": "completed"},
            {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "list_issues",
             "arguments": "{\"repo\":\"acme/app\"}", "status": "completed"}
        ]
    })
}

fn responses() -> [(Provider, Value, [&'static str; 2]); 3] {
    [
        (
            Provider::Anthropic,
            anthropic_response(),
            ["toolu_01A09q90qw90lq917835lq9", "toolu_01B"],
        ),
        (
            Provider::OpenAiChat,
            openai_chat_response(),
            ["call_abc123", "call_def456"],
        ),
        (
            Provider::OpenAiResponses,
            openai_responses_response(),
            ["call_12345xyz", "call_2"],
        ),
    ]
}

#[test]
fn each_providers_calls_dispatch_across_the_set_to_the_same_requests() {
    let mut requests = Vec::new();
    for (provider, response, ids) in responses() {
        let uses = tool_uses(provider, &response).unwrap();
        assert_eq!(uses.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ids);
        assert_eq!(
            uses.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(),
            ["create_issue", "list_issues"]
        );
        let call = uses[0].parse(&example::SKILLS).unwrap();
        assert_eq!(call.policy(), Policy::Allow);
        let request = call.request().unwrap();
        requests.push((
            request.uri().to_string(),
            String::from_utf8(request.body().clone()).unwrap(),
        ));
        let list = uses[1].parse(&example::SKILLS).unwrap().request().unwrap();
        assert_eq!(
            list.uri(),
            "https://tracker.example.com/api/repos/acme%2Fapp/issues?state=open"
        );
    }
    // Whichever provider the call came from, the same request.
    assert!(requests.windows(2).all(|w| w[0] == w[1]), "{requests:?}");
    assert_eq!(
        requests[0].1,
        r#"{"title":"Crash on start","labels":["bug"]}"#
    );
}

#[test]
fn results_go_back_in_each_providers_shape() {
    let [anthropic, chat, responses] = responses()
        .map(|(provider, response, _)| tool_uses(provider, &response).unwrap().remove(0));
    assert_eq!(
        anthropic.result("{\"number\":7}", false),
        json!({"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "{\"number\":7}"})
    );
    assert_eq!(
        anthropic.result("refused: needs confirmation", true),
        json!({"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
               "content": "refused: needs confirmation", "is_error": true})
    );
    assert_eq!(
        chat.result("{\"number\":7}", false),
        json!({"role": "tool", "tool_call_id": "call_abc123", "content": "{\"number\":7}"})
    );
    assert_eq!(
        responses.result("{\"number\":7}", false),
        json!({"type": "function_call_output", "call_id": "call_12345xyz", "output": "{\"number\":7}"})
    );
}

#[test]
fn bad_calls_are_typed_errors_that_name_the_tool_and_field() {
    let bad_text = ToolUse {
        provider: Provider::OpenAiChat,
        id: "call_1".into(),
        name: "create_issue".into(),
        raw_arguments: json!("{\"repo\": \"a/b\", "),
    };
    match bad_text.parse(&example::SKILLS) {
        Err(ToolCallError::InvalidArguments { tool, path, .. }) => {
            assert_eq!((tool.as_str(), path.as_str()), ("create_issue", "."));
        }
        other => panic!("{other:?}"),
    }
    let wrong_field = ToolUse {
        provider: Provider::Anthropic,
        id: "toolu_1".into(),
        name: "create_issue".into(),
        raw_arguments: json!({"repo": "a/b", "title": 7}),
    };
    assert_eq!(
        wrong_field.parse(&example::SKILLS).unwrap_err().path(),
        Some("title")
    );
    let unknown = ToolUse {
        name: "drop_database".into(),
        ..wrong_field
    };
    match unknown.parse(&example::SKILLS) {
        Err(ToolCallError::UnknownTool { name, expected }) => {
            assert_eq!(name, "drop_database");
            assert!(expected.contains(&"list_issues".to_owned()), "{expected:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn responses_without_the_providers_shape_say_where() {
    let error = tool_uses(
        Provider::Anthropic,
        &json!({"content": [{"type": "tool_use", "name": "x"}]}),
    )
    .unwrap_err();
    assert_eq!(
        error,
        ModelApiError {
            path: "content[0].id".into(),
            message: "missing".into()
        }
    );
    let error = tool_uses(
        Provider::OpenAiChat,
        &json!({"choices": [{"message": {"tool_calls": [{"id": "c", "type": "function", "function": {"name": "x", "arguments": {"a": 1}}}]}}]}),
    )
    .unwrap_err();
    assert_eq!(
        error.path,
        "choices[0].message.tool_calls[0].function.arguments"
    );
    assert!(tool_uses(Provider::OpenAiResponses, &json!({"output": 3})).is_err());
    // No calls at all is not an error.
    assert!(
        tool_uses(
            Provider::OpenAiChat,
            &json!({"choices": [{"message": {"content": "hi"}}]})
        )
        .unwrap()
        .is_empty()
    );
}

#[test]
fn a_tool_name_two_skills_declare_is_reported_and_never_guessed() {
    let dir = std::env::temp_dir().join(format!("skills-model-apis-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for skill in ["alpha", "beta"] {
        std::fs::create_dir_all(dir.join(skill)).unwrap();
        std::fs::write(
            dir.join(skill).join("SKILL.md"),
            format!("---\nname: {skill}\ndescription: Use when testing.\ntools:\n  - name: search\n    description: Search.\n---\nBody.\n"),
        )
        .unwrap();
    }
    let set = skills::loader::Loader::new().load(&dir).unwrap().into_set();
    assert_eq!(
        set.ambiguous_tools(),
        [(
            "search".to_owned(),
            vec!["alpha".to_owned(), "beta".to_owned()]
        )]
    );
    match set.parse_call("search", "{}") {
        Err(ToolCallError::AmbiguousTool { name, skills }) => {
            assert_eq!(name, "search");
            assert_eq!(skills, ["alpha", "beta"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(example::SKILLS.ambiguous_tools().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `SkillSet::parse_call` is the one untyped way in, whatever form the
/// arguments come in: JSON text gives the very request a parsed value
/// gives, and text that is not JSON is an error at `.` that names the tool.
#[test]
fn the_set_parses_text_and_values_to_the_same_request() {
    let value = json!({"repo": "acme/app", "title": "Crash", "labels": ["bug"]});
    let text = value.to_string();
    let request = |call: skills::Call<'_>| {
        let request = call.request().unwrap();
        (request.uri().to_string(), request.body().clone())
    };
    let from_text = request(example::SKILLS.parse_call("create_issue", &text).unwrap());
    let from_value = request(example::SKILLS.parse_call("create_issue", &value).unwrap());
    assert_eq!(from_text, from_value);
    assert_eq!(
        from_text.0,
        "https://tracker.example.com/api/repos/acme%2Fapp/issues"
    );
    match example::SKILLS.parse_call("create_issue", "{\"repo\": ") {
        Err(ToolCallError::InvalidArguments { tool, path, .. }) => {
            assert_eq!((tool.as_str(), path.as_str()), ("create_issue", "."));
        }
        other => panic!("{other:?}"),
    }
}
