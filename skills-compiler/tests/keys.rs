//! The frontmatter keys are declared once (`skills_compiler::keys`): the
//! editor schema and the canonical order of `fmt` follow the declaration,
//! whatever order a file gives (issue 41, item 1).

mod support;

use skills_compiler::emit::{editor_schema, json, lower};
use skills_compiler::keys::{FRONTMATTER, Group, TOOL, named};
use skills_compiler::ops::fmt;
use skills_compiler::{Code, Config, Profile};
use support::{find, one};

#[test]
fn the_editor_schema_offers_exactly_the_declared_keys_of_each_profile() {
    for (profile, groups) in [
        (Profile::Portable, &[Group::Spec][..]),
        (
            Profile::Extended,
            &[
                Group::Spec,
                Group::Extension,
                Group::Protocol,
                Group::Client,
            ],
        ),
    ] {
        let schema = editor_schema::frontmatter(profile);
        let mut offered: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut declared: Vec<&str> = groups.iter().flat_map(|g| named(*g)).collect();
        offered.sort_unstable();
        declared.sort_unstable();
        assert_eq!(offered, declared, "{profile:?}");
    }
}

#[test]
fn fmt_puts_every_key_in_declared_order() {
    // Every spec and extension key that a plain skill may have, written in
    // reverse order, each with a value it accepts.
    let value = |name: &str| match name {
        "name" => "a".to_owned(),
        "description" => "Does a. Use when asked.".to_owned(),
        "metadata" => "{k: v}".to_owned(),
        "allowed-tools" | "tags" | "triggers" => "[x]".to_owned(),
        "kind" => "skill".to_owned(),
        "version" => "1".to_owned(),
        "tools" => "[]".to_owned(),
        "permissions" => "{default_mode: readonly}".to_owned(),
        _ => "x".to_owned(),
    };
    let keys: Vec<&str> = FRONTMATTER
        .iter()
        .filter(|key| matches!(key.group, Group::Spec | Group::Extension))
        .map(|key| key.name)
        .collect();
    let mut text = String::from("---\n");
    for name in keys.iter().rev() {
        text.push_str(&format!("{name}: {}\n", value(name)));
    }
    text.push_str("---\nBody.\n");
    let formatted =
        fmt::text_of(&text, &Config::default()).unwrap_or_else(|reason| panic!("{reason}\n{text}"));
    let order: Vec<&str> = formatted
        .lines()
        .skip(1)
        .take_while(|line| *line != "---")
        .filter(|line| !line.starts_with(' ') && !line.starts_with('-'))
        .filter_map(|line| line.split(':').next())
        .collect();
    assert_eq!(order, keys, "{formatted}");
}

/// The options are declared once, as `Overrides`' fields: the README's
/// configuration block shows every one, and a bad manifest's help lists
/// every one (it lacked `lints`, `catalog_chars`, `catalog_location` and
/// `locked` while it was written by hand).
#[test]
fn every_option_is_documented_and_offered_from_its_one_declaration() {
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"),
    )
    .unwrap();
    let block = readme
        .split("```toml\n[package.metadata.skills]\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's configuration block");
    let documented: Vec<&str> = block
        .lines()
        .filter_map(|line| line.split_once(" = ").or_else(|| line.split_once('=')))
        .map(|(key, _)| key.trim())
        .collect();
    let tables = [
        "[package.metadata.skills.budget]",
        "[package.metadata.skills.lints]",
        "[package.metadata.skills.test]",
    ];
    for key in skills_compiler::option_keys::<skills_compiler::Overrides>() {
        let table = format!("[package.metadata.skills.{key}]");
        assert!(
            documented.contains(key) || tables.contains(&table.as_str()) && block.contains(&table),
            "`{key}` is not in the README's configuration block"
        );
    }

    let dir = std::env::temp_dir().join(format!("skills-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[package.metadata.skills]\nprofil = \"portable\"\n",
    )
    .unwrap();
    let error = Config::load(&dir, Default::default()).unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    let help = error.help.unwrap_or_default();
    for key in skills_compiler::option_keys::<skills_compiler::Overrides>() {
        assert!(help.contains(key), "`{key}` missing from: {help}");
    }
}

/// A tool's `title` is declared once (`keys::TOOL`) and held in the
/// runtime's table (`skills_core::Tool`): the declaration alone reads it,
/// checks its type, writes it back in canonical order (read back the same),
/// shows it, offers it
/// to editors, and the table serves it in MCP's tool list.
#[test]
fn a_tool_key_held_in_the_table_is_read_written_shown_and_served_by_its_declaration() {
    let tool = "  - description: Gets the weather. Call it when asked.\n    title: The weather\n    name: weather\n";
    let text =
        format!("---\nname: a\ndescription: Does a. Use when asked.\ntools:\n{tool}---\nBody.\n");
    let compilation = one(&text, &Config::default());
    let set = compilation
        .skills()
        .unwrap_or_else(|| panic!("{:#?}", compilation.diagnostics));
    let skill = &set.skills[0];
    assert_eq!(skill.tools[0].table.title(), Some("The weather"));

    let written = fmt::files(skill).skill_md;
    assert!(
        written.contains("  - name: weather\n    title: The weather\n    description: Gets"),
        "{written}"
    );
    let again = one(&written, &Config::default());
    let again = &again.skills().expect("the written skill compiles").skills[0];
    assert_eq!(again.tools[0].table, skill.tools[0].table);

    let shown = json::skill(skill, json::View::Full);
    assert_eq!(shown["tools"][0]["title"], "The weather");

    let schema = editor_schema::frontmatter(Profile::Extended);
    let offered = &schema["$defs"]["tool"]["properties"];
    for field in TOOL {
        assert!(
            offered.get(field.name).is_some(),
            "{}: {offered}",
            field.name
        );
    }

    let table = lower::skill(skill, Default::default());
    let mcp: serde_json::Value = serde_json::from_str(&table.tools()[0].mcp_json()).unwrap();
    assert_eq!(mcp["title"], "The weather");

    // A title that is not text is located like any other key's wrong type.
    let wrong = text.replace("title: The weather", "title: [The, weather]");
    let compilation = one(&wrong, &Config::default());
    let diagnostic = find(&compilation, Code::WrongType);
    assert_eq!(
        (diagnostic.line(), diagnostic.column()),
        (Some(6), Some(12))
    );
    assert!(compilation.skills().is_none());
}
