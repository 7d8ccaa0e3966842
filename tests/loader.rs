//! Skills loaded at run time against the same skills compiled in: the same
//! values field by field, the same requests byte for byte, and layers.

#[allow(deprecated)]
mod zoo {
    skills::include_skills!("fixtures/codegen");
}

mod example {
    skills::include_skills!("../examples/issue-tracker/skills");
}

mod hostile {
    skills::include_skills!("fixtures/hostile");
}

mod policies {
    skills::include_skills!("fixtures/policies");
}

mod sixty_four {
    skills::include_skills!("fixtures/sixty-four");
}

mod files {
    skills::include_skills!("fixtures/files");
}

use serde_json::{Map, Value, json};
use skills::loader::{Loader, Overrides, Profile, conventional_roots};
use skills::tables::Node;
use skills::{Layers, SkillSet, Tool};

/// Each compiled set with the root it was compiled from.
fn compiled() -> [(&'static SkillSet, &'static str); 6] {
    [
        (&files::SKILLS, "fixtures/files"),
        (&zoo::SKILLS, "fixtures/codegen"),
        (&example::SKILLS, "../examples/issue-tracker/skills"),
        (&hostile::SKILLS, "fixtures/hostile"),
        (&policies::SKILLS, "fixtures/policies"),
        (&sixty_four::SKILLS, "fixtures/sixty-four"),
    ]
}

fn load(root: &str) -> SkillSet {
    // The macro reads the crate's configuration: none, so the defaults.
    match Loader::new().load(root) {
        Ok(loaded) => loaded.into_set(),
        Err(error) => panic!("{error}"),
    }
}

#[test]
fn a_loaded_set_holds_exactly_what_the_compiled_set_holds() {
    for (compiled, root) in compiled() {
        let loaded = load(root);
        assert_eq!(loaded.len(), compiled.len(), "{root}");
        for (a, b) in compiled.iter().zip(loaded.iter()) {
            // `Cow`'s Debug shows the value, borrowed or owned: this compares
            // every field, tables included.
            assert_eq!(format!("{a:#?}"), format!("{b:#?}"), "{root}");
            for (ta, tb) in a.tools().iter().zip(b.tools()) {
                assert_eq!(ta.anthropic_json(), tb.anthropic_json());
                assert_eq!(ta.openai_json(), tb.openai_json());
                assert_eq!(ta.openai_strict_json(), tb.openai_strict_json());
                assert_eq!(ta.mcp_json(), tb.mcp_json());
            }
            assert!(std::ptr::eq(loaded.get(a.name()).unwrap(), b));
            // Every file byte for byte, with what was computed from it.
            assert_eq!(a.files(), b.files(), "{root}");
            // The file as read, whose hash the skill carries (MCP serves it).
            assert_eq!(sha256_hex(a.source().as_bytes()), a.sha256_hex());
            assert_eq!(
                a.source(),
                std::fs::read_to_string(std::path::Path::new(a.path())).unwrap()
            );
        }
        assert_eq!(compiled.catalog(), loaded.catalog(), "{root}");
        assert_eq!(compiled.catalog_xml(), loaded.catalog_xml(), "{root}");
        assert_eq!(
            compiled.names().collect::<Vec<_>>(),
            loaded.names().collect::<Vec<_>>()
        );
    }
}

/// Arguments for a tool, valid or not: both sides must agree either way.
/// `variant` picks among ordinary, hostile and absent values.
fn arguments(nodes: &[Node], index: u32, variant: usize, depth: usize) -> Value {
    const TEXTS: [&str; 6] = ["v1", "..", "a/b?c=d#e", "é \u{7}\r\nx", "%2e%2E", ""];
    let Some(node) = nodes.get(index as usize) else {
        return Value::Null;
    };
    match node {
        Node::String(checks) => {
            let text = TEXTS[variant % TEXTS.len()];
            match checks.min_length {
                Some(min) if (text.chars().count() as u64) < min => json!("x".repeat(min as usize)),
                _ => json!(text),
            }
        }
        Node::Integer(checks) => json!(checks.minimum.map_or(variant as i64, |m| m as i64)),
        Node::Number(_) => json!(1.5 + variant as f64),
        Node::Boolean => json!(variant.is_multiple_of(2)),
        Node::Enum(values) => values
            .get(variant % values.len().max(1))
            .map_or(Value::Null, |v| json!(v.as_ref())),
        Node::Nullable(_) if variant.is_multiple_of(3) => Value::Null,
        Node::Nullable(inner) => arguments(nodes, *inner, variant, depth),
        Node::Array { items, .. } if depth < 4 => {
            json!([arguments(nodes, *items, variant, depth + 1)])
        }
        Node::Map { values, .. } if depth < 4 => {
            json!({"k": arguments(nodes, *values, variant, depth + 1)})
        }
        Node::Array { .. } => json!([]),
        Node::Map { .. } => json!({}),
        Node::Object { properties, .. } => {
            let mut members = Map::new();
            for (i, property) in properties.iter().enumerate() {
                if property.required || (variant + i).is_multiple_of(2) {
                    if depth >= 4 && !property.required {
                        continue;
                    }
                    let value = arguments(nodes, property.node, variant + i, depth + 1);
                    members.insert(property.name.to_string(), value);
                }
            }
            Value::Object(members)
        }
    }
}

/// What a call gives: the request's bytes as one text, or the error.
fn outcome(tool: &Tool, arguments: &Value) -> String {
    match tool.parse(arguments) {
        Err(error) => format!("parse error: {error}"),
        Ok(call) => match call.request_to("http://127.0.0.1:9") {
            Err(error) => format!("request error: {error}"),
            Ok(request) => {
                let mut text = format!("{} {}\n", request.method(), request.uri());
                for (name, value) in request.headers() {
                    text.push_str(&format!("{name}: {value:?}\n"));
                }
                text.push_str(&String::from_utf8_lossy(request.body()));
                text
            }
        },
    }
}

#[test]
fn compiled_and_loaded_tools_build_the_same_requests_byte_for_byte() {
    let (mut compared, mut sent) = (0, 0);
    for (compiled, root) in compiled() {
        let loaded = load(root);
        for (a, b) in compiled.iter().zip(loaded.iter()) {
            for (ta, tb) in a.tools().iter().zip(b.tools()) {
                for variant in 0..12 {
                    let arguments = arguments(&ta.schema().nodes, 0, variant, 0);
                    let (oa, ob) = (outcome(ta, &arguments), outcome(tb, &arguments));
                    assert_eq!(oa, ob, "{} {} {arguments}", a.name(), ta.name());
                    compared += 1;
                    sent += usize::from(!oa.contains(" error: "));
                }
                // And through JSON text, as model APIs hand arguments over.
                let text = arguments(&ta.schema().nodes, 0, 1, 0).to_string();
                let (pa, pb) = (ta.parse(&text), tb.parse(&text));
                assert_eq!(format!("{pa:?}"), format!("{pb:?}"));
            }
        }
    }
    // The comparison must have reached real requests, not only errors.
    assert!(sent > 50, "{sent} of {compared} calls became requests");
}

#[test]
fn a_broken_root_is_an_error_with_the_compilers_diagnostics_and_never_a_set() {
    let dir = temp_dir("broken");
    write(
        &dir,
        "good/SKILL.md",
        "---\nname: good\ndescription: Fine. Use when testing.\n---\nBody.\n",
    );
    write(
        &dir,
        "bad/SKILL.md",
        "---\nname: Bad Name\ndescription: x\n---\n",
    );
    let error = Loader::new().load(&dir).unwrap_err();
    let expected = skills_compiler::compile(
        std::path::Path::new(""),
        &skills_compiler::Config {
            dir: dir.clone(),
            ..Default::default()
        },
    );
    assert_eq!(
        format!("{:?}", error.diagnostics()),
        format!("{:?}", expected.diagnostics)
    );
    let rendered = error.to_string();
    assert!(rendered.contains("error[S"), "{rendered}");
    assert!(rendered.contains("bad/SKILL.md:2:7"), "{rendered}");
    assert!(error.render_short().contains("bad/SKILL.md:2:7: error[S"));
    // Lenient takes the name as its slug, with a warning that says so.
    match Loader::new().profile(Profile::Lenient).load(&dir) {
        Ok(loaded) => {
            assert!(loaded.set().get("good").is_some());
            assert!(!loaded.warnings().is_empty());
            assert!(loaded.render_warnings().contains("warning["));
        }
        Err(error) => assert!(error.errors().count() > 0, "{error}"),
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A load error under `expect` (issue 75, item 9): its `Debug` is the
/// diagnostics rendered, never the text of the files behind them.
#[test]
fn a_load_errors_debug_is_its_diagnostics_and_never_the_sources() {
    let dir = temp_dir("debug");
    let body = "A line of a long body that no error points at.\n".repeat(3_000);
    write(
        &dir,
        "bad/SKILL.md",
        &format!("---\nname: Bad Name\ndescription: x\n---\n{body}"),
    );
    let error = Loader::new().load(&dir).unwrap_err();
    let debug = format!("{error:?}");
    assert!(debug.starts_with("LoadError:\n"), "{debug}");
    assert!(debug.contains("bad/SKILL.md:2:7"), "{debug}");
    assert!(debug.contains("could not load the skills: "), "{debug}");
    assert!(!debug.contains("no error points at"), "{debug}");
    assert!(debug.len() < 4_000, "{} bytes", debug.len());
    // A panic message, as `expect` writes it.
    let panic = std::panic::catch_unwind(|| Loader::new().load(&dir).expect("skills"));
    let message = panic.unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(message.starts_with("skills: LoadError:\n"), "{message}");
    assert!(message.len() < 4_000, "{} bytes", message.len());
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 75, item 5: lenient loads what hosts load. A publisher-shaped
/// root of 70 skills, one with `permissions` written as a list (no host
/// reads it), loaded whole with the lenient profile, with and without
/// `skip_invalid`; the permissions are left out with a warning. The
/// build's profile still refuses both, and a package's own `max_skills`
/// still holds in lenient.
#[test]
fn lenient_loads_every_skill_a_host_loads() {
    let dir = temp_dir("lenient-hosts");
    for n in 0..70 {
        write(
            &dir,
            &format!("skill-{n:02}/SKILL.md"),
            &format!(
                "---\nname: skill-{n:02}\ndescription: Does task {n}. Use when asked for task {n}.\n---\nBody.\n"
            ),
        );
    }
    write(
        &dir,
        "shell-tools/SKILL.md",
        "---\nname: shell-tools\ndescription: Runs shell tools. Use when asked to run a tool.\npermissions: [file_read, file_write, shell]\n---\nBody.\n",
    );
    for loader in [
        Loader::new().profile(Profile::Lenient),
        Loader::new().profile(Profile::Lenient).skip_invalid(true),
    ] {
        let loaded = loader.load(&dir).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(loaded.set().len(), 71);
        assert!(loaded.skipped().is_empty());
        let warnings = loaded.render_warnings();
        assert!(
            warnings.contains("`permissions` must be a mapping, found a list; ignored"),
            "{warnings}"
        );
    }
    let refused = Loader::new().load(&dir).unwrap_err();
    let codes: Vec<&str> = refused.errors().map(|d| d.code.as_str()).collect();
    assert!(
        codes.contains(&"S505") && codes.contains(&"S404"),
        "{codes:?}"
    );
    let capped = Loader::new()
        .profile(Profile::Lenient)
        .overrides(Overrides {
            max_skills: Some(64),
            ..Overrides::default()
        })
        .load(&dir)
        .unwrap_err();
    assert!(
        capped
            .to_string()
            .contains("71 skills found; the limit is 64"),
        "{capped}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The Agent Plugins rule (issue 24, item 3): with `skip_invalid`, a broken
/// skill is left out with every diagnostic that made it so, and the rest
/// load, in every profile. Errors of the set as a whole (a limit) still
/// refuse it.
#[test]
fn skip_invalid_loads_the_good_skills_and_reports_each_skipped_one() {
    let dir = temp_dir("skip-invalid");
    for name in ["alpha", "omega"] {
        write(
            &dir,
            &format!("{name}/SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: Fine. Use when testing {name}.\n---\nBody.\n"
            ),
        );
    }
    // Broken in every profile: a YAML error, and a tool whose endpoint is not a URL.
    write(
        &dir,
        "broken/SKILL.md",
        "---\nname: broken\ndescription: [unclosed\n---\nBody.\n",
    );
    write(
        &dir,
        "tooled/SKILL.md",
        "---\nname: tooled\ndescription: Calls. Use when testing.\ntools:\n  - name: go\n    description: Goes.\n    endpoint: {method: GET, url: \"not a url\"}\n---\nBody.\n",
    );
    for profile in [Profile::Portable, Profile::Extended, Profile::Lenient] {
        assert!(Loader::new().profile(profile).load(&dir).is_err());
        let loaded = Loader::new()
            .profile(profile)
            .skip_invalid(true)
            .load(&dir)
            .unwrap_or_else(|error| panic!("{profile:?}: {error}"));
        let names: Vec<&str> = loaded.set().iter().map(|skill| skill.name()).collect();
        assert_eq!(names, ["alpha", "omega"], "{profile:?}");
        let skipped: Vec<&str> = loaded.skipped().iter().map(|s| s.path.as_str()).collect();
        let root = dir.display().to_string();
        assert_eq!(
            skipped,
            [format!("{root}/broken"), format!("{root}/tooled")],
            "{profile:?}"
        );
        for skip in loaded.skipped() {
            assert!(skip.diagnostics.iter().any(|d| d.is_error()), "{skip:?}");
            assert!(
                skip.diagnostics
                    .iter()
                    .all(|d| d.file.starts_with(&skip.path)),
                "{skip:?}"
            );
        }
        let report = loaded.render_skipped();
        assert!(
            report.contains("error[S006]") && report.contains("broken/SKILL.md:4:1"),
            "{report}"
        );
        assert!(report.contains("skipped"), "{report}");
    }
    // A limit is the set's, not a skill's: still refused.
    let error = Loader::new()
        .skip_invalid(true)
        .overrides(Overrides {
            max_skills: Some(2),
            ..Overrides::default()
        })
        .load(&dir)
        .unwrap_err();
    assert!(error.to_string().contains("the limit is 2"), "{error}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The loader takes the build's `lints` option (issue 24, item 5).
#[test]
fn lint_levels_apply_at_run_time_as_at_build_time() {
    let dir = temp_dir("lint-levels");
    write(
        &dir,
        "vendored/SKILL.md",
        "---\nname: vendored\ndescription: Formats release notes.\n---\nBody.\n",
    );
    let warned = Loader::new().load(&dir).unwrap();
    assert!(warned.render_warnings().contains("W008"));
    let lints = |text: &str| Overrides {
        lints: Some(text.parse().unwrap()),
        ..Overrides::default()
    };
    let quiet = Loader::new()
        .overrides(lints("allow W008"))
        .load(&dir)
        .unwrap();
    assert!(quiet.warnings().is_empty(), "{}", quiet.render_warnings());
    let error = Loader::new()
        .overrides(lints("deny W008"))
        .load(&dir)
        .unwrap_err();
    assert!(error.render_short().contains("error[W008]"), "{error}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn limits_apply_at_run_time_as_at_build_time() {
    let error = Loader::new()
        .overrides(Overrides {
            max_skills: Some(10),
            ..Overrides::default()
        })
        .load("fixtures/sixty-four")
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("64 skills found; the limit is 10"),
        "{error}"
    );
    let error = Loader::new()
        .overrides(Overrides {
            deny_warnings: Some(true),
            ..Overrides::default()
        })
        .load("fixtures/codegen")
        .unwrap_err();
    assert!(error.errors().count() > 0);
}

#[test]
fn layers_keep_the_higher_skill_and_report_the_hidden_one() {
    let dir = temp_dir("layers");
    // `no-tools` exists in the compiled zoo too; `extra` only here.
    write(
        &dir,
        "no-tools/SKILL.md",
        "---\nname: no-tools\ndescription: The user's own no-tools. Use when testing.\n---\nMine.\n",
    );
    write(
        &dir,
        "extra/SKILL.md",
        "---\nname: extra\ndescription: Only in the user's layer. Use when testing.\n---\nExtra.\n",
    );
    let user = load(dir.to_str().unwrap());
    let merged = Layers::new()
        .layer("user", &user)
        .layer("built-in", &zoo::SKILLS)
        .merge();
    assert_eq!(merged.shadowed.len(), 1);
    let shadowed = &merged.shadowed[0];
    assert_eq!(
        (
            shadowed.name.as_str(),
            shadowed.kept.as_str(),
            shadowed.hidden.as_str()
        ),
        ("no-tools", "user", "built-in")
    );
    assert!(
        shadowed
            .to_string()
            .contains("fixtures/codegen/no-tools/SKILL.md")
    );
    let set = &merged.set;
    assert_eq!(set.len(), zoo::SKILLS.len() + 1);
    assert_eq!(set.get("no-tools").unwrap().body(), "Mine.\n");
    assert!(set.get("schema-zoo").is_some() && set.get("extra").is_some());
    let names: Vec<&str> = set.names().collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(
        set.catalog()
            .contains("- no-tools: The user's own no-tools.")
    );
    assert!(set.catalog().contains("- extra: Only in the user's layer."));
    assert!(!set.catalog().contains("A skill without tools."));
    assert_eq!(set.catalog().lines().count(), set.len());
    // The other order: the built-in skill wins.
    let merged = Layers::new()
        .layer("built-in", &zoo::SKILLS)
        .layer("user", &user)
        .merge();
    assert_eq!(
        merged.set.get("no-tools").unwrap().body(),
        zoo::no_tools::SKILL.body()
    );
    assert_eq!(merged.shadowed[0].hidden, "user");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn conventional_roots_are_listed_nearest_first_and_only_when_they_exist() {
    let dir = temp_dir("roots");
    let project = dir.join("work/project");
    let home = dir.join("home");
    for sub in [
        "work/.agents/skills",
        "work/project/.claude/skills",
        "work/project/.agents/skills",
        "home/.codex/skills",
        "home/.agents/skills",
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::create_dir_all(project.join("src")).unwrap();
    let roots = conventional_roots(&project.join("src"), Some(&home));
    let relative: Vec<String> = roots
        .iter()
        .map(|root| root.strip_prefix(&dir).unwrap().display().to_string())
        .collect();
    assert_eq!(
        relative,
        [
            "work/project/.agents/skills",
            "work/project/.claude/skills",
            "work/.agents/skills",
            "home/.agents/skills",
            "home/.codex/skills",
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skills-loader-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &std::path::Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `cargo tree` of the runtime crate: which crates a binary links.
fn linked_crates(features: &[&str]) -> Vec<String> {
    skills_tests::crates_in_tree("skills-runtime", "normal,no-proc-macro", features)
}

#[test]
fn the_default_runtime_links_no_compiler_yaml_or_snippet_crate() {
    const HEAVY: [&str; 5] = [
        "skills-compiler",
        "saphyr",
        "saphyr-parser",
        "annotate-snippets",
        "pulldown-cmark",
    ];
    let default = linked_crates(&[]);
    assert!(default.iter().any(|c| c == "serde_json"), "{default:?}");
    for heavy in HEAVY {
        assert!(
            !default.iter().any(|c| c == heavy),
            "{heavy} in {default:?}"
        );
    }
    // The loader is what brings them in: the check above can fail.
    let loader = linked_crates(&["loader"]);
    for heavy in HEAVY {
        assert!(
            loader.iter().any(|c| c == heavy),
            "{heavy} not in {loader:?}"
        );
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The compiled files are the files on disk: bytes, digest, execute bit,
/// text, and nothing else in the directory.
#[test]
fn compiled_files_are_the_files_on_disk() {
    let skill = files::SKILLS.get("forms").unwrap();
    let dir = std::path::Path::new("fixtures/files/forms");
    let paths: Vec<&str> = skill.files().iter().map(|f| f.path()).collect();
    assert_eq!(
        paths,
        [
            "assets/stamp.png",
            "references/check list.md",
            "references/fields.md",
            "scripts/fill.py"
        ]
    );
    for file in skill.files() {
        let on_disk = std::fs::read(dir.join(file.path())).unwrap();
        assert_eq!(file.bytes(), on_disk, "{}", file.path());
        assert_eq!(file.len(), on_disk.len());
        assert_eq!(file.sha256_hex(), sha256_hex(&on_disk), "{}", file.path());
        assert_eq!(
            file.text(),
            std::str::from_utf8(&on_disk).ok(),
            "{}",
            file.path()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(file.path()))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(file.is_executable(), mode & 0o100 != 0, "{}", file.path());
        }
    }
    assert!(skill.file("scripts/fill.py").unwrap().is_executable() || cfg!(not(unix)));
    assert_eq!(skill.file("assets/stamp.png").unwrap().text(), None);
    assert_eq!(
        skill.file("assets/stamp.png").unwrap().mime(),
        Some("image/png")
    );
    assert_eq!(
        skill.file("references/fields.md").unwrap().mime(),
        Some("text/markdown")
    );
    for outside in [
        "SKILL.md",
        "../forms/SKILL.md",
        "/etc/passwd",
        "references/../SKILL.md",
        "./../forms/SKILL.md",
        "references//fields.md",
        "",
    ] {
        assert!(skill.file(outside).is_none(), "{outside}");
    }
    // A path as a link writes it (issue 57, item 7).
    assert_eq!(
        skill.file("./scripts/fill.py").map(|f| f.path()),
        Some("scripts/fill.py")
    );
}

/// `write_to` writes the skill directory back out byte for byte, with the
/// execute bits, and refuses to overwrite a different file unless told to.
#[test]
fn a_compiled_skill_writes_its_directory_back_out() {
    use skills::Overwrite;
    let skill = files::SKILLS.get("forms").unwrap();
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("write-to");
    let _ = std::fs::remove_dir_all(&out);
    let written = skill.write_to(&out, Overwrite::Refuse).unwrap();
    assert_eq!(written, out.join("forms"));
    assert_eq!(
        std::fs::read_to_string(written.join("SKILL.md")).unwrap(),
        std::fs::read_to_string("fixtures/files/forms/SKILL.md").unwrap()
    );
    for file in skill.files() {
        assert_eq!(
            std::fs::read(written.join(file.path())).unwrap(),
            file.bytes()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(written.join(file.path()))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o100 != 0, file.is_executable(), "{}", file.path());
        }
    }
    // The same bytes again: nothing to refuse.
    skill.write_to(&out, Overwrite::Refuse).unwrap();
    // A file changed by the host is not overwritten unless asked.
    std::fs::write(written.join("references/fields.md"), "mine").unwrap();
    let error = skill.write_to(&out, Overwrite::Refuse).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(
        std::fs::read_to_string(written.join("references/fields.md")).unwrap(),
        "mine"
    );
    skill.write_to(&out, Overwrite::Allow).unwrap();
    assert_eq!(
        std::fs::read(written.join("references/fields.md")).unwrap(),
        skill.file("references/fields.md").unwrap().bytes()
    );
    // A folder that is a link out of the directory is not written through.
    #[cfg(unix)]
    {
        let elsewhere = out.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::remove_dir_all(written.join("scripts")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, written.join("scripts")).unwrap();
        let inner = out.join("inner");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir_all(inner.join("forms")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, inner.join("forms/scripts")).unwrap();
        assert!(skill.write_to(&inner, Overwrite::Allow).is_err());
        assert!(!elsewhere.join("fill.py").exists());
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The whole set writes out too: one directory per skill.
#[test]
fn a_set_writes_every_skill_directory() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("set-write-to");
    let _ = std::fs::remove_dir_all(&out);
    example::SKILLS
        .write_to(&out, skills::Overwrite::Refuse)
        .unwrap();
    for skill in example::SKILLS.iter() {
        assert_eq!(
            std::fs::read_to_string(out.join(skill.name()).join("SKILL.md")).unwrap(),
            skill.source()
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// `Loader::locked` (issue 39): the build's lock check, at run time.
#[test]
fn a_locked_loader_refuses_a_skill_that_differs_from_its_lock() {
    use skills_compiler::ops::vendor::lock::{Entry, EntryFields, Limits, LockFile, hash_folder};

    let dir = temp_dir("locked");
    write(
        &dir,
        "skills/a/SKILL.md",
        "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody.\n",
    );
    write(&dir, "skills/a/references/notes.md", "# Notes\n");
    let digest = hash_folder(&dir.join("skills/a"), Limits::default()).unwrap();
    let mut lock = LockFile::default();
    lock.insert(
        "a",
        Entry::new(EntryFields {
            source: "./skills/a".into(),
            source_type: "local".into(),
            computed_hash: digest.computed_hash.clone(),
            files: digest.files.iter().map(|f| f.line()).collect(),
            ..EntryFields::default()
        }),
    );
    std::fs::write(dir.join("agent.lock.json"), lock.to_text()).unwrap();
    let loader = Loader::new().locked(dir.join("agent.lock.json"));
    let loaded = loader.load(dir.join("skills")).unwrap();
    assert_eq!(loaded.set().len(), 1);

    write(&dir, "skills/a/references/notes.md", "# Notes, edited\n");
    let error = loader.load(dir.join("skills")).unwrap_err();
    let text = error.render_short();
    assert!(text.contains("error[S520]"), "{text}");
    assert!(text.contains("references/notes.md (edited)"), "{text}");
    // One skill loaded alone is held to its own entry too.
    let error = loader.load_skill(dir.join("skills/a")).unwrap_err();
    assert!(
        error.render_short().contains("error[S520]"),
        "{}",
        error.render_short()
    );
    // Without the lock the same root loads.
    assert!(Loader::new().load(dir.join("skills")).is_ok());
}

/// Issue 40, item 21: every ancestor up to `/` was trusted, nearest first,
/// whoever owned it. The walk stops at the repository (or home), and a
/// root owned by someone other than the user or root is left out. (The
/// ownership half needs root to give a folder another owner; without it
/// the case cannot arise, and the test says so.)
#[test]
fn conventional_roots_stop_at_the_repository_and_skip_roots_of_other_users() {
    let dir = temp_dir("roots-trust");
    let project = dir.join("work/project");
    let home = dir.join("home");
    for sub in [
        "work/.agents/skills",
        "work/project/.git",
        "work/project/.claude/skills",
        "work/project/.agents/skills",
        "home/.agents/skills",
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::create_dir_all(project.join("src")).unwrap();
    let relative = |roots: Vec<std::path::PathBuf>| -> Vec<String> {
        roots
            .iter()
            .map(|root| root.strip_prefix(&dir).unwrap().display().to_string())
            .collect()
    };
    // `work/.agents/skills` is above the repository: not the project's.
    assert_eq!(
        relative(conventional_roots(&project.join("src"), Some(&home))),
        [
            "work/project/.agents/skills",
            "work/project/.claude/skills",
            "home/.agents/skills",
        ]
    );
    #[cfg(unix)]
    {
        let theirs = project.join(".claude/skills");
        if std::os::unix::fs::chown(&theirs, Some(4242), Some(4242)).is_err() {
            eprintln!("skipped: giving a folder another owner needs root");
        } else {
            assert_eq!(
                relative(conventional_roots(&project.join("src"), Some(&home))),
                ["work/project/.agents/skills", "home/.agents/skills"]
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 40, item 16: a file flipped between itself and a symlink to a
/// file outside the skill while the loader runs. The listing and the read
/// are two moments; the loader returned the outside file's bytes in 50 of
/// 1,500 loads. A file is read only when the handle opened is the file
/// listed, so no load ever holds the outside bytes (a load may fail, or
/// hold the file's own bytes).
#[cfg(unix)]
#[test]
fn a_file_swapped_for_a_symlink_while_loading_never_yields_the_outside_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("loader-swap");
    let _ = std::fs::remove_dir_all(&dir);
    let skill = dir.join("skills/a");
    std::fs::create_dir_all(skill.join("assets")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: a\ndescription: Does a. Use when asked.\n---\nBody.\n",
    )
    .unwrap();
    // The same length as the outside file, so that only identity tells.
    std::fs::write(skill.join("assets/data.txt"), "inside!\n").unwrap();
    std::fs::write(dir.join("secret.txt"), "SECRET!\n").unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flipper = {
        let (skill, dir, stop) = (skill.clone(), dir.clone(), stop.clone());
        std::thread::spawn(move || {
            let file = skill.join("assets/data.txt");
            let link = skill.join("assets/link.tmp");
            let copy = skill.join("assets/copy.tmp");
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::remove_file(&link);
                std::os::unix::fs::symlink(dir.join("secret.txt"), &link).unwrap();
                std::fs::rename(&link, &file).unwrap();
                std::fs::write(&copy, "inside!\n").unwrap();
                std::fs::rename(&copy, &file).unwrap();
            }
        })
    };
    let (mut held_secret, mut held_own) = (0, 0);
    for _ in 0..1500 {
        if let Ok(loaded) = Loader::new().load(skill.parent().unwrap()) {
            let set = loaded.into_set();
            if let Some(file) = set.get("a").and_then(|a| a.file("assets/data.txt"))
                && file.bytes() == b"SECRET!\n"
            {
                held_secret += 1;
            } else {
                held_own += 1;
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flipper.join().unwrap();
    assert_eq!(held_secret, 0, "loads held the outside file's bytes");
    // Not vacuous: loads did succeed while the file flipped.
    assert!(held_own > 0, "no load succeeded");
}

/// Issue 40, item 17: `write_to` created folders outside the target
/// through a symlinked folder before refusing, left a half-written skill
/// when it refused, and changed the mode of an identical file that is
/// hard-linked from outside. Everything is checked before anything is
/// created; a new skill directory is written beside and renamed in whole;
/// an identical file whose mode differs is replaced, never chmod-ed.
#[cfg(unix)]
#[test]
fn write_to_checks_everything_first_and_never_reaches_outside() {
    use skills::Overwrite;
    use std::os::unix::fs::PermissionsExt;
    let skill = files::SKILLS.get("forms").unwrap();
    let script = skill.files().iter().find(|f| f.is_executable()).unwrap();
    let folder = script.path().rsplit_once('/').unwrap().0;
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("write-to-hostile");
    let _ = std::fs::remove_dir_all(&out);
    let elsewhere = out.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();

    // A symlinked folder inside an existing skill directory: refused, and
    // nothing created through it, nothing else written.
    let target = out.join("target");
    std::fs::create_dir_all(target.join("forms")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, target.join("forms").join(folder)).unwrap();
    assert!(skill.write_to(&target, Overwrite::Allow).is_err());
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "created outside"
    );
    let written: Vec<_> = std::fs::read_dir(target.join("forms")).unwrap().collect();
    assert_eq!(
        written.len(),
        1,
        "a refusal left a half-written skill: {written:?}"
    );

    // A refusal for a changed file leaves the rest as it was.
    let partial = out.join("partial");
    skill.write_to(&partial, Overwrite::Refuse).unwrap();
    let last = skill.files().last().unwrap();
    std::fs::write(partial.join("forms").join(last.path()), "mine").unwrap();
    std::fs::remove_file(partial.join("forms/SKILL.md")).unwrap();
    assert!(skill.write_to(&partial, Overwrite::Refuse).is_err());
    assert!(
        !partial.join("forms/SKILL.md").exists(),
        "a refused write wrote SKILL.md first"
    );

    // An identical file hard-linked from outside, its execute bit off: the
    // outside file keeps its mode.
    let linked = out.join("linked");
    skill.write_to(&linked, Overwrite::Refuse).unwrap();
    let inside = linked.join("forms").join(script.path());
    let outside = out.join("outside-script");
    std::fs::write(&outside, script.bytes()).unwrap();
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::remove_file(&inside).unwrap();
    std::fs::hard_link(&outside, &inside).unwrap();
    skill.write_to(&linked, Overwrite::Allow).unwrap();
    let mode = |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode();
    assert_eq!(
        mode(&outside) & 0o777,
        0o644,
        "the outside file's mode changed"
    );
    assert_ne!(mode(&inside) & 0o100, 0, "the skill's script is executable");
    let _ = std::fs::remove_dir_all(&out);
}
