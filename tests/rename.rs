//! The expansion works when the `skills` dependency is renamed, and needs no
//! other dependency in the user's crate (serde, http, serde_json all come
//! through `skills`). A real cargo build of a temporary crate.

use skills_tests::{TempCrate, manifest};

#[test]
fn a_renamed_skills_dependency_and_no_other_dependency() {
    let krate = TempCrate::new(
        "renamed",
        &[
            ("Cargo.toml", &manifest("renamed", "agent_runtime", true)),
            (
                "build.rs",
                "fn main() {\n    skills_build::track(\"skills\");\n}\n",
            ),
            (
                "src/main.rs",
                "mod agent {\n    agent_runtime::include_skills!(\"skills\");\n}\n\n\
                 use agent_runtime::TypedCall;\n\n\
                 fn main() {\n    let call = agent::hello::ToolCall::parse(\"greet\", r#\"{\"who\": \"a/b\"}\"#).unwrap();\n    \
                 let request = call.request().unwrap();\n    println!(\"{} {} {}\", agent::SKILLS.len(), request.method(), request.uri());\n}\n",
            ),
            (
                "skills/hello/SKILL.md",
                "---\nname: hello\ndescription: Greets.\ntools:\n  - name: greet\n    description: Greet someone.\n    parameters: {type: object, required: [who], properties: {who: {type: string}}}\n    endpoint: {method: GET, url: \"https://greet.example.com/hello/{{who}}\"}\n---\nSay hello.\n",
            ),
        ],
    );
    let output = krate.cargo(&["run", "--quiet"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "1 GET https://greet.example.com/hello/a%2Fb\n"
    );
}
