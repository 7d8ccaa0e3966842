//! The writer: `parse(write(skill)) == skill` for every valid skill of the
//! project's fixtures and examples (in each profile that accepts it) and of
//! the corpus when it is present; what it writes is already canonical.

mod support;

use std::path::{Path, PathBuf};

use skills_compiler::SkillFiles;
use skills_compiler::ops::fmt::{self as format, Outcome};
use skills_compiler::{Config, Profile, compile, compile_skill};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes `skill` under `tree` at its own relative path, reads it back and
/// compares; returns how many skills round-tripped.
fn round_trip(root: &Path, config: &Config, tree: &support::Tree) -> usize {
    let Some(set) = compile(root, config).into_skills() else {
        return 0;
    };
    for skill in &set.skills {
        let written = format::files(skill);
        tree.write(skill.path(), written.skill_md.as_bytes());
        write_files(tree, skill);
        if let (Some(path), Some(text)) = (&skill.tools_path, &written.tools_yaml) {
            tree.write(path, text.as_bytes());
        }
        let dir = Path::new(skill.path()).parent().unwrap();
        let again = compile_skill(&tree.dir, dir, config);
        let read = again.skills().unwrap_or_else(|| {
            panic!(
                "{}: the written file does not compile: {:?}\n{}",
                skill.path(),
                support::located(&again),
                written.skill_md
            )
        });
        if !format::same_skill(skill, &read.skills[0]) {
            let strip = |s: &skills_compiler::ir::Skill| {
                let mut table = s.table.clone();
                table.source = s.body().to_owned().into();
                table.body_start = 0;
                skills_compiler::ir::Skill {
                    table,
                    description_span: None,
                    ..s.clone()
                }
            };
            let (a, b) = (
                format!("{:#?}", strip(skill)),
                format!("{:#?}", strip(&read.skills[0])),
            );
            let first = a
                .lines()
                .zip(b.lines())
                .enumerate()
                .find(|(_, (x, y))| x != y);
            panic!(
                "{}: not the same skill; first difference (line, before, after): {first:?}\n{}",
                skill.path(),
                written.skill_md
            );
        }
        assert_eq!(read.skills[0].body(), skill.body(), "{}", skill.path());
        // Written once, written again: the same text, and canonical.
        assert_eq!(format::files(&read.skills[0]), written, "{}", skill.path());
        let files = SkillFiles {
            dir: None,
            path: skill.path().to_owned(),
            directory: dir.file_name().unwrap().to_string_lossy().into_owned(),
            bytes: written.skill_md.clone().into_bytes(),
            tools_yaml: None,
        };
        if skill.tools_path.is_none() {
            assert_eq!(
                format::skill(&files, config),
                Outcome::Unchanged,
                "{}",
                skill.path()
            );
        }
    }
    set.skills.len()
}

#[test]
fn every_valid_fixture_and_example_skill_reads_back_the_same() {
    let roots = [
        "tests/fixtures/codegen",
        "tests/fixtures/hostile",
        "tests/fixtures/policies",
        "tests/fixtures/sixty-four",
        "examples/issue-tracker/skills",
        "examples/issue-agent/skills",
        "examples/skill-host/skills",
    ];
    let tree = support::Tree::new(&[]);
    let mut total = 0;
    for root in roots {
        let root_dir = workspace().join(root);
        if !root_dir.is_dir() {
            continue;
        }
        for profile in [Profile::Portable, Profile::Extended, Profile::Lenient] {
            let config = Config {
                dir: root.into(),
                profile,
                ..Config::default()
            };
            total += round_trip(&workspace(), &config, &tree);
        }
    }
    assert!(total > 100, "{total} skills written and read back");
}

/// The skill's other files, as they were: `write` rewrites SKILL.md only.
fn write_files(tree: &support::Tree, skill: &skills_compiler::ir::Skill) {
    let dir = skill.dir.as_deref().unwrap_or_default();
    for file in skills_compiler::emit::lower::read_files(skill).unwrap() {
        tree.write(&format!("{dir}/{}", file.path()), file.bytes());
    }
}

#[test]
fn the_corpus_reads_back_the_same_in_lenient() {
    let root = workspace().join("../shared/corpus/anthropics-skills");
    if !root.is_dir() {
        eprintln!(
            "skipped: the corpus is not at {} (a fresh clone has no ../shared)",
            root.display()
        );
        return;
    }
    let tree = support::Tree::new(&[]);
    let config = Config {
        dir: "skills".into(),
        profile: Profile::Lenient,
        ..Config::default()
    };
    // claude-api's description is too long in every profile: the set has an
    // error, so the valid skills are written one by one.
    let compilation = compile(&root, &config);
    let mut written = 0;
    for skill in &compilation.valid.skills {
        let dir = Path::new(skill.path()).parent().unwrap();
        let text = format::files(skill);
        tree.write(skill.path(), text.skill_md.as_bytes());
        write_files(&tree, skill);
        let again = compile_skill(&tree.dir, dir, &config);
        let read = again.skills().expect("the written file compiles");
        assert!(
            format::same_skill(skill, &read.skills[0]),
            "{}",
            skill.path()
        );
        written += 1;
    }
    assert!(written >= 10, "{written}");
}

#[test]
fn the_builder_writes_a_skill_the_compiler_reads_back_field_by_field() {
    use skills_compiler::ir::{DefaultMode, Kind};
    use skills_compiler::ops::new::{EndpointSpec, ProtocolSpec, SkillBuilder, ToolSpec};
    let builder = SkillBuilder::new(
        "release",
        "Ships a release. Use when the user asks to ship.",
    )
    .license("MIT")
    .metadata("owner", "team: infra")
    .allowed_tool("Bash")
    .tag("ops")
    .trigger("ship it")
    .protocol(ProtocolSpec {
        steps: vec!["Tag the commit.".into(), "Publish.".into()],
        post_checks: vec!["The version is listed.".into()],
        on_deviation: "Stop and ask.".into(),
        on_blocked: "Say what is missing.".into(),
        on_already_done: "Skip it.".into(),
        ..ProtocolSpec::default()
    })
    .tool(ToolSpec {
        name: "publish".into(),
        title: Some("Publish a release".into()),
        description: "Publishes a version. Call it after tagging.".into(),
        parameters: serde_json::json!({
            "type": "object",
            "required": ["version"],
            "properties": {"version": {"type": "string"}, "notes": {"type": "string"}}
        }),
        endpoint: Some(EndpointSpec {
            method: "POST".into(),
            url: "https://releases.example.com/v1/{{version}}".into(),
            header: vec![("X-Notes".into(), "{{notes}}".into())],
            body: Some("{\"version\": \"{{version}}\"}".into()),
            ..EndpointSpec::default()
        }),
    })
    .confirm_by_default()
    .allow_write("publish")
    .body("# Release\n\nFollow the steps.\n");
    for sidecar in [false, true] {
        let written = builder
            .clone()
            .tools_in_sidecar(sidecar)
            .build(&Config::default())
            .unwrap();
        assert_eq!(written.tools_yaml.is_some(), sidecar);
        let tree = support::Tree::new(&[]);
        tree.write("skills/release/SKILL.md", written.skill_md.as_bytes());
        if let Some(tools) = &written.tools_yaml {
            tree.write("skills/release/tools.yaml", tools.as_bytes());
        }
        let compilation = compile(&tree.dir, &Config::default());
        assert!(
            compilation.diagnostics.is_empty(),
            "{:?}",
            support::located(&compilation)
        );
        let skill = &compilation.skills().unwrap().skills[0];
        assert_eq!(
            skill.table.metadata().collect::<Vec<_>>(),
            [("owner", "team: infra")]
        );
        assert_eq!(*skill.table.allowed_tools, ["Bash"]);
        assert!(matches!(&skill.table.kind, Kind::Protocol(p) if p.steps.len() == 2));
        assert_eq!(skill.permissions.default_mode, DefaultMode::Confirm);
        let tool = &skill.tools[0];
        assert_eq!(tool.table.title.as_deref(), Some("Publish a release"));
        let endpoint = tool.endpoint().unwrap();
        assert_eq!(endpoint.origin, "https://releases.example.com");
        assert_eq!(endpoint.headers[0].0, "X-Notes");
        assert!(endpoint.body.is_some());
        assert_eq!(skill.body(), "# Release\n\nFollow the steps.\n");
        // And the writer gives back what the builder wrote, with what the
        // checker enforces made explicit (`additionalProperties: false`).
        let again = format::files(skill);
        let explicit = |text: &str| {
            text.replace(
                "type: object\n      properties:",
                "type: object\n      additionalProperties: false\n      properties:",
            )
            .replace(
                "type: object\n    properties:",
                "type: object\n    additionalProperties: false\n    properties:",
            )
        };
        assert_eq!(again.skill_md, explicit(&written.skill_md));
        assert_eq!(
            again.tools_yaml,
            written.tools_yaml.as_deref().map(explicit)
        );
    }
}

#[test]
fn the_builder_returns_the_compilers_errors() {
    use skills_compiler::ops::new::SkillBuilder;
    let errors = SkillBuilder::new("Bad_Name", "Does things. Use when asked.")
        .build(&Config::default())
        .unwrap_err();
    assert_eq!(errors[0].code, skills_compiler::Code::NameCharacters);
}

/// A tool spec that leaves out what a tool may leave out builds a valid
/// skill: no title, and no arguments (the empty object schema a tool
/// without `parameters` is read with), not a `parameters: null` the
/// compiler refuses.
#[test]
fn a_tool_spec_with_its_defaults_builds_a_tool_without_arguments() {
    use skills_compiler::ops::new::{SkillBuilder, ToolSpec};
    let written = SkillBuilder::new("deploy", "Deploys the app. Use when asked to ship.")
        .tool(ToolSpec {
            name: "run_job".into(),
            description: "Runs the deploy job. Call it once the user confirms.".into(),
            ..ToolSpec::default()
        })
        .body("# Deploy\n\nRun the job.\n")
        .build(&Config::default())
        .unwrap_or_else(|errors| panic!("{:?}", errors.iter().map(|d| d.code).collect::<Vec<_>>()));
    let tree = support::Tree::new(&[("skills/deploy/SKILL.md", written.skill_md.as_bytes())]);
    let compilation = compile(&tree.dir, &Config::default());
    let tool = &compilation.skills().expect("valid").skills[0].tools[0];
    assert_eq!(tool.table.title, None);
    let parameters = tool.parameters_json();
    assert_eq!(parameters["type"], "object");
    assert_eq!(parameters["properties"], serde_json::json!({}));
}
