//! The host toolset (`skills::Toolset`): `load_skill` and
//! `read_skill_resource` for the three model APIs, answered from recorded
//! responses, with every error a result the model can read.

use proptest::prelude::*;
use serde_json::{Value, json};
use skills::model::{Provider, tool_uses};
use skills::toolset::{Access, TOOLS, Toolset, signature};

mod files {
    skills::include_skills!("fixtures/files");
}

mod example {
    skills::include_skills!("../examples/issue-tracker/skills");
}

const PROVIDERS: [Provider; 3] = [
    Provider::Anthropic,
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
];

/// A response of `provider` that calls `name` with `arguments`, as each API
/// records it.
fn response(provider: Provider, id: &str, name: &str, arguments: Value) -> Value {
    match provider {
        Provider::Anthropic => json!({"content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": id, "name": name, "input": arguments}
        ]}),
        Provider::OpenAiChat => {
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": id, "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}
            ]}}]})
        }
        Provider::OpenAiResponses => json!({"output": [
            {"type": "function_call", "call_id": id, "name": name, "arguments": arguments.to_string()}
        ]}),
    }
}

/// The answer's text, its id and whether it is an error, whatever the shape.
fn answered(
    toolset: &Toolset<'_>,
    provider: Provider,
    name: &str,
    arguments: Value,
) -> (String, String, bool) {
    let uses = tool_uses(provider, &response(provider, "call_7", name, arguments)).unwrap();
    let answer = toolset.answer(&uses[0]).expect("a host tool");
    match provider {
        Provider::Anthropic => (
            answer["content"].as_str().unwrap().to_owned(),
            answer["tool_use_id"].as_str().unwrap().to_owned(),
            answer["is_error"] == true,
        ),
        Provider::OpenAiChat => {
            let text = answer["content"].as_str().unwrap().to_owned();
            let error = text.starts_with("Error: ");
            (
                text,
                answer["tool_call_id"].as_str().unwrap().to_owned(),
                error,
            )
        }
        Provider::OpenAiResponses => {
            let text = answer["output"].as_str().unwrap().to_owned();
            let error = text.starts_with("Error: ");
            (text, answer["call_id"].as_str().unwrap().to_owned(), error)
        }
    }
}

#[test]
fn load_skill_gives_the_rendered_skill_and_its_files_in_every_shape() {
    let toolset = Toolset::new(&files::SKILLS);
    let skill = files::SKILLS.get("forms").unwrap();
    let expected = format!(
        "{}\nFiles of `forms`:\n\
         - assets/stamp.png (73 bytes, binary, image/png)\n\
         - references/check list.md (121 bytes, text)\n\
         - references/fields.md (64 bytes, text)\n\
         - scripts/fill.py (90 bytes, text)\n\
         Read one with read_skill_resource {{\"name\": \"forms\", \"path\": \"<path>\"}}.\n",
        skill.rendered()
    );
    for provider in PROVIDERS {
        let (text, id, error) =
            answered(&toolset, provider, "load_skill", json!({"name": "forms"}));
        assert_eq!(id, "call_7", "{provider:?}");
        assert!(!error, "{provider:?}: {text}");
        assert_eq!(text, expected, "{provider:?}");
    }
}

#[test]
fn read_skill_resource_gives_a_text_file_and_describes_a_binary_one() {
    let toolset = Toolset::new(&files::SKILLS);
    let skill = files::SKILLS.get("forms").unwrap();
    for provider in PROVIDERS {
        let (text, _, error) = answered(
            &toolset,
            provider,
            "read_skill_resource",
            json!({"name": "forms", "path": "references/fields.md"}),
        );
        assert!(!error);
        assert_eq!(
            text,
            "# Fields\n\n## Field types\n\nText, check box, radio group, choice.\n"
        );
        let stamp = skill.file("assets/stamp.png").unwrap();
        let (text, _, error) = answered(
            &toolset,
            provider,
            "read_skill_resource",
            json!({"name": "forms", "path": "assets/stamp.png"}),
        );
        assert!(!error);
        assert_eq!(
            text,
            format!(
                "`assets/stamp.png` is a binary file: 73 bytes, image/png, sha256 {}. Call read_skill_resource with \"binary\": true for its bytes in base64.",
                stamp.sha256_hex()
            )
        );
        let (text, _, error) = answered(
            &toolset,
            provider,
            "read_skill_resource",
            json!({"name": "forms", "path": "assets/stamp.png", "binary": true}),
        );
        assert!(!error);
        use base64::Engine;
        assert_eq!(
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .unwrap(),
            stamp.bytes()
        );
    }
}

/// A link in SKILL.md is written `./references/x.md` (as Anthropic's
/// skills write them): the model asks for it as written and gets the file;
/// `a/./b` too. `..`, absolute paths and `./../` are still refused.
#[test]
fn a_path_is_read_as_the_skill_links_it() {
    let toolset = Toolset::new(&files::SKILLS);
    let skill = files::SKILLS.get("forms").unwrap();
    for provider in PROVIDERS {
        for path in [
            "./references/fields.md",
            "references/./fields.md",
            "././references/fields.md",
        ] {
            let (text, _, error) = answered(
                &toolset,
                provider,
                "read_skill_resource",
                json!({"name": "forms", "path": path}),
            );
            assert!(!error, "{path}: {text}");
            assert!(text.starts_with("# Fields\n"), "{path}: {text}");
        }
        for path in [
            "./../forms/SKILL.md",
            "./",
            "/./references/fields.md",
            "references/../SKILL.md",
        ] {
            let (_, _, error) = answered(
                &toolset,
                provider,
                "read_skill_resource",
                json!({"name": "forms", "path": path}),
            );
            assert!(error, "{path}");
        }
        let (text, _, error) = answered(
            &toolset,
            provider,
            "read_skill_resource",
            json!({"name": "forms", "path": "./SKILL.md"}),
        );
        assert!(
            error && text.contains("SKILL.md is the skill itself"),
            "{text}"
        );
    }
    assert_eq!(
        skill.file("./assets/stamp.png").map(|f| f.path()),
        Some("assets/stamp.png")
    );
}

#[test]
fn content_over_the_cap_is_cut_at_a_line_and_says_how_to_read_on() {
    let toolset = Toolset::new(&files::SKILLS).cap(40);
    let path = "references/check list.md";
    let (first, _, error) = answered(
        &toolset,
        Provider::Anthropic,
        "read_skill_resource",
        json!({"name": "forms", "path": path}),
    );
    assert!(!error);
    assert_eq!(
        first,
        "# Check list\n\n[3 more lines of `references/check list.md` not shown; read on with read_skill_resource {\"name\": \"forms\", \"path\": \"references/check list.md\", \"offset\": 3}]"
    );
    // Reading on, line by line, gives the whole file back.
    let mut whole = String::from("# Check list\n\n");
    let mut offset = 3;
    while offset <= 5 {
        let (text, _, _) = answered(
            &toolset,
            Provider::Anthropic,
            "read_skill_resource",
            json!({"name": "forms", "path": path, "offset": offset, "limit": 1}),
        );
        whole.push_str(text.split("\n[").next().unwrap());
        if !whole.ends_with('\n') {
            whole.push('\n');
        }
        offset += 1;
    }
    let file = files::SKILLS.get("forms").unwrap().file(path).unwrap();
    assert_eq!(whole, file.text().unwrap());
    let (text, _, error) = answered(
        &toolset,
        Provider::Anthropic,
        "read_skill_resource",
        json!({"name": "forms", "path": path, "offset": 99}),
    );
    assert!(!error);
    assert_eq!(
        text,
        "`references/check list.md` has 5 lines; offset 99 is past its end."
    );
    // A binary file over the cap in base64 is an error that says the figures.
    let (text, _, error) = answered(
        &toolset,
        Provider::Anthropic,
        "read_skill_resource",
        json!({"name": "forms", "path": "assets/stamp.png", "binary": true}),
    );
    assert!(error);
    assert_eq!(
        text,
        "Error: `assets/stamp.png` is 73 bytes, 100 in base64, over the cap of 40 bytes: it cannot be read here"
    );
    // A line longer than the cap is cut inside, visibly.
    let (text, _, _) = answered(
        &Toolset::new(&files::SKILLS).cap(10),
        Provider::Anthropic,
        "read_skill_resource",
        json!({"name": "forms", "path": path, "offset": 3}),
    );
    assert!(text.starts_with("- Every re\n[... this line is 34 bytes, more than the cap of 10: the rest of it is not shown]\n"), "{text}");
}

#[test]
fn every_mistake_is_an_error_result_that_says_what_exists() {
    let toolset = Toolset::new(&files::SKILLS);
    let cases = [
        (
            "load_skill",
            json!({"name": "form"}),
            "Error: there is no skill named `form`; the skills are: forms",
        ),
        (
            "load_skill",
            json!({}),
            "Error: invalid arguments for `load_skill` at `name`: missing field `name`; call load_skill(name)",
        ),
        (
            "load_skill",
            json!({"name": 3}),
            "Error: invalid arguments for `load_skill` at `name`: invalid type: integer `3`, expected a string; call load_skill(name)",
        ),
        (
            "load_skill",
            json!(["forms"]),
            "Error: invalid arguments for `load_skill` at `.`: invalid type: sequence, expected a map; call load_skill(name)",
        ),
        (
            "load_skill",
            json!({"name": "forms", "x": 1}),
            "Error: invalid arguments for `load_skill` at `x`: unknown field `x`, expected `name`; call load_skill(name)",
        ),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "../forms/SKILL.md"}),
            "Error: `forms` has no file `../forms/SKILL.md`; its files are: assets/stamp.png, references/check list.md, references/fields.md, scripts/fill.py",
        ),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "/etc/passwd"}),
            "Error: `forms` has no file `/etc/passwd`; its files are: assets/stamp.png, references/check list.md, references/fields.md, scripts/fill.py",
        ),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "SKILL.md"}),
            "Error: SKILL.md is the skill itself: call load_skill {\"name\": \"forms\"}",
        ),
        (
            "read_skill_resource",
            json!({"name": "forms"}),
            "Error: invalid arguments for `read_skill_resource` at `path`: missing field `path`; call read_skill_resource(name, path, offset?, limit?, binary?)",
        ),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "references/fields.md", "offset": 0}),
            "Error: invalid arguments for `read_skill_resource` at `offset`: 0 is less than the minimum of 1; call read_skill_resource(name, path, offset?, limit?, binary?)",
        ),
        (
            "read_skill_resource",
            json!({"name": "forms", "path": "references/fields.md", "binary": "yes"}),
            "Error: invalid arguments for `read_skill_resource` at `binary`: invalid type: string \"yes\", expected a boolean; call read_skill_resource(name, path, offset?, limit?, binary?)",
        ),
    ];
    for provider in PROVIDERS {
        for (tool, arguments, expected) in &cases {
            let (text, _, error) = answered(&toolset, provider, tool, arguments.clone());
            assert!(error, "{provider:?} {arguments}: {text}");
            assert_eq!(&text, expected, "{provider:?} {arguments}");
        }
    }
    // Arguments that are not JSON (OpenAI sends text).
    let uses = tool_uses(Provider::OpenAiChat, &json!({"tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "load_skill", "arguments": "{not json"}}
    ]})).unwrap();
    let answer = toolset.answer(&uses[0]).unwrap();
    assert!(
        answer["content"].as_str().unwrap().starts_with("Error: "),
        "{answer}"
    );
    // Any other tool is the host's: no answer.
    let uses = tool_uses(
        Provider::Anthropic,
        &response(Provider::Anthropic, "t", "list_issues", json!({})),
    )
    .unwrap();
    assert!(toolset.answer(&uses[0]).is_none());
}

#[test]
fn the_approval_hook_sees_each_load_and_read_and_can_refuse() {
    let seen = std::sync::Mutex::new(Vec::new());
    let toolset = Toolset::new(&files::SKILLS).approve(|access| {
        seen.lock().unwrap().push(format!("{access:?}"));
        match access {
            Access::Read { path, .. } if path.starts_with("scripts/") => {
                Err("scripts are not shown".to_owned())
            }
            _ => Ok(()),
        }
    });
    let (_, _, error) = answered(
        &toolset,
        Provider::Anthropic,
        "load_skill",
        json!({"name": "forms"}),
    );
    assert!(!error);
    let (text, _, error) = answered(
        &toolset,
        Provider::Anthropic,
        "read_skill_resource",
        json!({"name": "forms", "path": "scripts/fill.py"}),
    );
    assert!(error);
    assert_eq!(text, "Error: not allowed: scripts are not shown");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "Load { skill: \"forms\" }",
            "Read { skill: \"forms\", path: \"scripts/fill.py\" }"
        ]
    );
}

/// The definitions: the two host tools first, then every HTTP tool that is
/// not denied; `definitions_for` offers a skill's tools once it is loaded.
#[test]
fn definitions_hold_the_host_tools_and_the_offered_http_tools() {
    let toolset = Toolset::new(&example::SKILLS);
    let names = |value: Value, provider: Provider| -> Vec<String> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|d| match provider {
                Provider::OpenAiChat => d["function"]["name"].as_str().unwrap().to_owned(),
                _ => d["name"].as_str().unwrap().to_owned(),
            })
            .collect()
    };
    let offered: Vec<String> = example::SKILLS
        .iter()
        .flat_map(|s| s.tools())
        .filter(|t| t.is_offered())
        .map(|t| t.name().to_owned())
        .collect();
    for provider in PROVIDERS {
        let all = names(toolset.definitions(provider), provider);
        assert_eq!(all[..2], ["load_skill", "read_skill_resource"]);
        assert_eq!(all[2..], offered[..], "{provider:?}");
        let none = names(toolset.definitions_for(provider, &[]), provider);
        assert_eq!(none, ["load_skill", "read_skill_resource"]);
    }
    let denied: Vec<&str> = example::SKILLS
        .iter()
        .flat_map(|s| s.tools())
        .filter(|t| !t.is_offered())
        .map(|t| t.name())
        .collect();
    let all = names(
        toolset.definitions(Provider::Anthropic),
        Provider::Anthropic,
    );
    assert!(denied.iter().all(|d| !all.iter().any(|n| n == d)));
}

/// The instructions name each tool with exactly the parameters its schema
/// has, required ones bare and optional ones with `?`: one table writes both.
#[test]
fn the_instructions_agree_with_the_schemas() {
    let toolset = Toolset::new(&files::SKILLS);
    let instructions = toolset.instructions();
    let definitions = toolset.definitions(Provider::Anthropic);
    for (tool, definition) in TOOLS.iter().zip(definitions.as_array().unwrap()) {
        assert_eq!(definition["name"], tool.name);
        let schema = &definition["input_schema"];
        let required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut from_schema: Vec<String> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| {
                if required.contains(&k.as_str()) {
                    k.clone()
                } else {
                    format!("{k}?")
                }
            })
            .collect();
        // The signature the instructions show, parsed back.
        let line = instructions
            .lines()
            .find(|l| l.starts_with(&format!("- `{}(", tool.name)))
            .unwrap_or_else(|| panic!("{} is not in the instructions:\n{instructions}", tool.name));
        let inside = line.split('(').nth(1).unwrap().split(')').next().unwrap();
        let mut from_text: Vec<String> = inside.split(", ").map(str::to_owned).collect();
        from_schema.sort();
        from_text.sort();
        assert_eq!(from_text, from_schema, "{line}");
        assert_eq!(
            line,
            format!("- `{}`: {}", signature(tool), tool.description)
        );
    }
    assert!(instructions.contains(files::SKILLS.catalog()));
}

#[test]
fn definitions_and_instructions_snapshots() {
    let toolset = Toolset::new(&files::SKILLS);
    insta::assert_snapshot!("toolset_instructions", toolset.instructions());
    for (provider, name) in [
        (Provider::Anthropic, "toolset_anthropic"),
        (Provider::OpenAiChat, "toolset_openai_chat"),
        (Provider::OpenAiResponses, "toolset_openai_responses"),
    ] {
        insta::assert_snapshot!(
            name,
            serde_json::to_string_pretty(&toolset.definitions(provider)).unwrap()
        );
    }
}

proptest! {
    /// Any arguments, and any path a model could send (dot segments,
    /// encodings, Unicode, separators), are answered without a panic; a
    /// read that is not an error gives the bytes of a file the skill has.
    #[test]
    fn any_arguments_are_answered_and_never_read_outside_the_skill(
        path in proptest::collection::vec(
            prop_oneof![
                Just(".."), Just("."), Just(""), Just("%2e%2e"), Just("references"),
                Just("fields.md"), Just("SKILL.md"), Just("\\"), Just("/"), Just("é"),
                Just("assets"), Just("stamp.png"), Just("forms"),
            ],
            0..5,
        ),
        offset in proptest::option::of(-2i64..8),
        name in prop_oneof![Just(json!("forms")), Just(json!("nope")), Just(json!(1)), Just(Value::Null)],
        extra in proptest::option::of(prop_oneof![Just(json!(true)), Just(json!("x")), Just(json!([1]))]),
    ) {
        let toolset = Toolset::new(&files::SKILLS).cap(64);
        let path = path.join("/");
        let mut arguments = json!({"name": name, "path": path});
        if let Some(offset) = offset {
            arguments["offset"] = json!(offset);
        }
        if let Some(extra) = extra {
            arguments["binary"] = extra;
        }
        for provider in PROVIDERS {
            let (text, _, error) = answered(&toolset, provider, "read_skill_resource", arguments.clone());
            if !error {
                let skill = files::SKILLS.get("forms").unwrap();
                let file = skill.file(&path);
                prop_assert!(file.is_some(), "{} answered for {:?}", text, path);
            }
        }
    }
}

/// One agent's own skills (issue 42, item 3): the catalog, the
/// instructions, the `load_skill` enum and the HTTP tools cover the subset
/// only, and the other skills cannot be loaded or read through it.
#[test]
fn a_subset_serves_only_its_skills() {
    let all = Toolset::new(&example::SKILLS);
    let only = Toolset::new(&example::SKILLS)
        .only(["writing-style"])
        .unwrap();
    assert!(all.instructions().contains("- github-issues: "));
    assert!(!only.instructions().contains("github-issues"));
    assert!(only.instructions().contains("- writing-style: "));
    for provider in PROVIDERS {
        let definitions = only.definitions(provider).to_string();
        assert!(!definitions.contains("github-issues"), "{definitions}");
        assert!(
            !definitions.contains("create_issue"),
            "{provider:?}: another skill's HTTP tool is offered: {definitions}"
        );
        assert!(
            all.definitions(provider)
                .to_string()
                .contains("create_issue"),
            "{provider:?}"
        );
    }
    let schema = only.parameters(&TOOLS[0]);
    assert_eq!(
        schema["properties"]["name"]["enum"],
        json!(["writing-style"])
    );

    let refused = only
        .respond("load_skill", &json!({"name": "github-issues"}))
        .unwrap()
        .unwrap_err();
    assert_eq!(
        refused,
        "Error: there is no skill named `github-issues`; the skills are: writing-style"
    );
    let refused = only
        .respond(
            "read_skill_resource",
            &json!({"name": "github-issues", "path": "SKILL.md"}),
        )
        .unwrap()
        .unwrap_err();
    assert!(
        refused.starts_with("Error: there is no skill named"),
        "{refused}"
    );
    assert!(
        only.respond("load_skill", &json!({"name": "writing-style"}))
            .unwrap()
            .is_ok()
    );
}

#[test]
fn a_subset_of_an_unknown_or_no_skill_is_an_error() {
    let error = example::SKILLS.subset(["writing-styel"]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "there is no skill named `writing-styel`; did you mean `writing-style`?"
    );
    let error = Toolset::new(&example::SKILLS).only(["deploy"]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "there is no skill named `deploy`; the skills are: github-issues, triage-protocol, writing-style"
    );
    let none: [&str; 0] = [];
    assert_eq!(
        example::SKILLS.subset(none).unwrap_err(),
        skills::SubsetError::Empty
    );
    // A name given twice is one skill.
    let twice = example::SKILLS
        .subset(["writing-style", "writing-style"])
        .unwrap();
    assert_eq!(twice.len(), 1);
}

/// A loaded set kept alive by the toolset (`Toolset::shared`): what a
/// `'static` host such as an agent framework's tools holds. It answers as
/// the toolset over the compiled set of the same directory.
#[test]
fn a_shared_loaded_set_answers_as_the_compiled_one() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/files");
    let loaded = skills::loader::Loader::new().load(&root).unwrap();
    let shared: Toolset<'static> = Toolset::shared(std::sync::Arc::new(loaded.into_set()));
    let compiled = Toolset::new(&files::SKILLS);
    assert_eq!(shared.skills().names().collect::<Vec<_>>(), ["forms"]);
    for (tool, arguments) in [
        ("load_skill", json!({"name": "forms"})),
        ("load_skill", json!({"name": "nope"})),
    ] {
        assert_eq!(
            shared.respond(tool, &arguments),
            compiled.respond(tool, &arguments),
            "{tool} {arguments}"
        );
    }
}
