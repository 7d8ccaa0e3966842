//! Editing a package manifest's text, keeping its formatting and comments
//! (`toml_edit`): each edit returns the new text and the entry it added,
//! or `None` when the entry is there already.

use std::path::Path;

use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

use crate::pipeline::embed::tracking::Source;

/// Adds the runtime to `[dependencies]` from `source`, under the
/// package's own name (`skills-runtime`, as `cargo add` writes it); code
/// says `skills::`, the library's name.
pub fn add_runtime_dependency(
    text: &str,
    source: &Source,
) -> Result<Option<(String, String)>, String> {
    let mut document = parse(text)?;
    let dependencies = document
        .entry("dependencies")
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(dependencies) = dependencies.as_table_like_mut() else {
        return Err("[dependencies] is not a table".to_owned());
    };
    let present = dependencies
        .iter()
        .any(|(key, item)| key == "skills-runtime" || package_of(item) == Some("skills-runtime"));
    if present {
        return Ok(None);
    }
    let entry: Value = match source {
        Source::Path(dir) => {
            let mut table = InlineTable::new();
            table.insert(
                "path",
                Value::from(dir.to_string_lossy().replace('\\', "/")),
            );
            Value::InlineTable(table)
        }
        Source::Version(version) => Value::from(version.as_str()),
    };
    let shown = format!("skills-runtime = {entry}");
    dependencies.insert("skills-runtime", Item::Value(entry));
    Ok(Some((document.to_string(), shown)))
}

/// Adds `skills-build` to `[build-dependencies]` from the same source as
/// the `skills` dependency: the sibling path, the same git repository and
/// revision, the same version, or the workspace's entry. `Err` says why it
/// cannot be derived.
///
/// ```
/// use skills_compiler::ops::new::manifest::add_build_dependency;
///
/// let text = "[dependencies]\nskills-runtime = \"0.1.0\"  # the runtime\n";
/// let (after, entry) = add_build_dependency(text).unwrap().unwrap();
/// assert_eq!(entry, "skills-build = \"0.1.0\"");
/// assert!(after.starts_with(text));
/// assert_eq!(add_build_dependency(&after), Ok(None));
/// ```
pub fn add_build_dependency(text: &str) -> Result<Option<(String, String)>, String> {
    let mut document = parse(text)?;
    let Some(entry) = added_entry(&document)? else {
        return Ok(None);
    };
    let shown = format!("skills-build = {entry}");
    let build = document
        .entry("build-dependencies")
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(build) = build.as_table_like_mut() else {
        return Err("[build-dependencies] is not a table".to_owned());
    };
    build.insert("skills-build", Item::Value(entry));
    Ok(Some((document.to_string(), shown)))
}

fn parse(text: &str) -> Result<DocumentMut, String> {
    text.parse()
        .map_err(|e| format!("Cargo.toml does not parse: {e}"))
}

/// The value for `skills-build`, or `None` when it is a build-dependency
/// already.
fn added_entry(document: &DocumentMut) -> Result<Option<Value>, String> {
    let present = document
        .get("build-dependencies")
        .and_then(Item::as_table_like)
        .is_some_and(|table| {
            table.iter().any(|(key, item)| {
                key == "skills-build" || package_of(item) == Some("skills-build")
            })
        });
    if present {
        return Ok(None);
    }
    let skills = document
        .get("dependencies")
        .and_then(Item::as_table_like)
        .and_then(|table| {
            table
                .iter()
                .find(|(key, item)| package_of(item).unwrap_or(key) == "skills-runtime")
                .map(|(_, item)| item.clone())
        })
        .ok_or("the `skills-runtime` dependency was not found")?;
    if let Some(version) = skills.as_str() {
        return Ok(Some(Value::from(version)));
    }
    let table = skills
        .as_table_like()
        .ok_or("the `skills` dependency has an unexpected shape")?;
    let mut entry = InlineTable::new();
    if table.get("workspace").and_then(Item::as_bool) == Some(true) {
        // The workspace must declare skills-build too; cargo says so if it does not.
        entry.insert("workspace", Value::from(true));
        return Ok(Some(Value::InlineTable(entry)));
    }
    if let Some(path) = table.get("path").and_then(Item::as_str) {
        let sibling = Path::new(path)
            .parent()
            .map(|parent| parent.join("skills-build"))
            .ok_or("the `skills` path has no parent")?;
        entry.insert(
            "path",
            Value::from(sibling.to_string_lossy().replace('\\', "/")),
        );
    }
    for key in ["git", "branch", "tag", "rev", "version", "registry"] {
        if let Some(value) = table.get(key).and_then(Item::as_str) {
            entry.insert(key, Value::from(value));
        }
    }
    if entry.is_empty() {
        return Err("the `skills` dependency names no version, path or git source".to_owned());
    }
    Ok(Some(Value::InlineTable(entry)))
}

fn package_of(item: &Item) -> Option<&str> {
    item.as_table_like()?.get("package")?.as_str()
}
