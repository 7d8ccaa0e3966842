//! The frontmatter read key by key: each known key by the reader its
//! declaration names (`keys`), `x-` keys kept as extras, any other key an
//! unknown-key diagnostic with a did-you-mean among the declared ones; then
//! what must be there (`name`, `description`, a protocol's keys).

use super::ctx::Ctx;
use super::fields::{self, Fields, Place, Read};
use super::keys::{Group, KeyList};
use super::name;
use crate::config::{Config, Profile};
use crate::diagnostics::{Code, Severity, closest};
use crate::ir::SkillName;
use crate::read::yaml::{Entry, Node};

/// Reads every key of the frontmatter mapping `root`.
pub(super) fn check(ctx: &mut Ctx<'_>, root: &Node, directory: &str, config: &Config) -> Fields {
    check_in(ctx, root, &Place { config, directory }, KeyList::DECLARED)
}

/// Reads every key of `root` as `list` declares them.
pub(crate) fn check_in(
    ctx: &mut Ctx<'_>,
    root: &Node,
    place: &Place<'_>,
    list: KeyList<'_>,
) -> Fields {
    let directory = place.directory;
    let entries = root.as_map().unwrap_or(&[]);
    let mut fields = Fields::default();
    for entry in entries {
        let key = entry.key.as_str();
        if !list.is_spec(key) && ctx.profile == Profile::Portable {
            not_portable(ctx, entry, list);
            continue;
        }
        match list.find(key).map(|key| (key.read, key.held)) {
            Some((Read::With(read), _)) => read(ctx, &mut fields, entry, place),
            Some((Read::Held, held)) => fields::held(ctx, &mut fields.table, entry, held),
            Some((Read::Extra(expect), _)) => fields::extra(ctx, &mut fields, entry, expect),
            // Read with the kind, once it is known; tools and permissions by their own module.
            Some((Read::WithKind | Read::Elsewhere, _)) => {}
            None if key.starts_with("x-") => {
                fields
                    .extras
                    .push((entry.key.clone(), entry.value.to_json()));
            }
            None => unknown(ctx, entry, &mut fields, list),
        }
    }
    super::host_keys::across(ctx, root);
    if fields.name.is_none() && root.get("name").is_none() {
        missing_name(ctx, root, directory, &mut fields);
    }
    if root.get("description").is_none() && !misspelled(ctx, "description") {
        ctx.push(
            ctx.error(
                Code::MissingField,
                root.span.start..root.span.start,
                "missing required field `description`",
            )
            .with_help("say what the skill does and when to use it: `description: ...`"),
        );
    }
    let protocol = root.get("kind").and_then(Node::as_str) == Some("protocol");
    if ctx.profile != Profile::Portable {
        if protocol {
            let required: Vec<&str> = list.required_in(Group::Protocol).collect();
            // An incomplete protocol is an error: the skill is not kept.
            if let Some(kind) = fields::protocol_fields(ctx, root, &required) {
                fields.table.kind = kind;
            }
        } else {
            reject_protocol_keys(ctx, entries, list);
        }
    }
    fields
}

fn not_portable(ctx: &mut Ctx<'_>, entry: &Entry, list: KeyList<'_>) {
    let key = entry.key.as_str();
    let (message, help) = if list
        .find(key)
        .is_some_and(|k| matches!(k.group, Group::Extension | Group::Protocol))
    {
        let place = match key {
            "tools" | "permissions" => "a sidecar `tools.yaml` next to SKILL.md",
            _ => "`metadata` (as a string)",
        };
        (
            format!("`{key}` is not part of the Agent Skills specification (profile `portable`)"),
            format!("move it to {place}, or use the `extended` profile"),
        )
    } else if super::provenance::is_extra_provenance(key) {
        (
            format!("`{key}` is not part of the Agent Skills specification (profile `portable`)"),
            "it is install provenance that another tool wrote: remove it with `cargo skills fix --strip-provenance`".to_owned(),
        )
    } else if let Some(suggestion) = closest(key, list.named(Group::Spec)) {
        (
            format!("unknown key `{key}`"),
            format!("did you mean `{suggestion}`?"),
        )
    } else {
        (
            format!("`{key}` is not part of the Agent Skills specification (profile `portable`)"),
            format!(
                "the specification allows: {}; put other data in `metadata`",
                list.named(Group::Spec).collect::<Vec<_>>().join(", ")
            ),
        )
    };
    let code = if help.starts_with("did you mean") {
        Code::UnknownKey
    } else {
        Code::NotPortable
    };
    ctx.push(
        ctx.error(code, entry.key_span.clone(), message)
            .with_help(help),
    );
}

fn unknown(ctx: &mut Ctx<'_>, entry: &Entry, fields: &mut Fields, list: KeyList<'_>) {
    let known: Vec<&str> = list.0.iter().map(|key| key.name).collect();
    let mut diagnostic = ctx.unknown_key(Code::UnknownKey, entry, "the frontmatter", &known);
    if diagnostic.fix.is_none() {
        diagnostic = diagnostic.with_help("prefix your own keys with `x-` to keep them as extras");
    }
    if ctx.profile == Profile::Lenient {
        // Importing a real-world collection: keep the data, say so.
        diagnostic.severity = Severity::Warning;
        fields
            .extras
            .push((entry.key.clone(), entry.value.to_json()));
    }
    ctx.push(diagnostic);
}

/// A required `field` that is missing because a key misspells it: the
/// unknown-key error (with its fix-it) already says so, and one error says
/// it better than two. That error gains the consequence; `true` when found.
fn misspelled(ctx: &mut Ctx<'_>, field: &str) -> bool {
    let Some(typo) = ctx.diagnostics.iter_mut().find(|d| {
        d.code == Code::UnknownKey
            && d.fix.as_ref().and_then(|fix| fix.replacement()) == Some(field)
    }) else {
        return false;
    };
    typo.message.push_str(&format!(
        "; `{field}` is required, so it is missing until this key is renamed"
    ));
    typo.severity = Severity::Error;
    true
}

fn missing_name(ctx: &mut Ctx<'_>, root: &Node, directory: &str, fields: &mut Fields) {
    let at = root.span.start..root.span.start;
    if ctx.profile == Profile::Lenient && name::is_valid(directory) {
        ctx.push(
            ctx.error(
                Code::MissingField,
                at,
                format!("missing field `name`; using the directory name `{directory}`"),
            )
            .with_severity(Severity::Warning),
        );
        fields.name = Some(SkillName(directory.to_owned()));
        return;
    }
    if misspelled(ctx, "name") {
        return;
    }
    ctx.push(
        ctx.error(Code::MissingField, at, "missing required field `name`")
            .with_help(format!(
                "add `name: {directory}` (the name must match the directory)"
            )),
    );
}

fn reject_protocol_keys(ctx: &mut Ctx<'_>, entries: &[Entry], list: KeyList<'_>) {
    for entry in entries.iter().filter(|e| {
        list.find(&e.key)
            .is_some_and(|k| k.group == Group::Protocol)
    }) {
        ctx.push(ctx
            .error(Code::ProtocolKeyOnSkill, entry.key_span.clone(), format!("`{}` is a protocol key, but this is a plain skill", entry.key))
            .with_help("add `kind: protocol` (and declare steps, post_checks and the three escape hatches), or remove the key"));
    }
}

#[cfg(test)]
mod tests {
    //! Adding a key is adding its declaration (issue 41, item 1): the same
    //! list with one line more makes a key read, kept, written in its
    //! declared place and offered to editors; without the line, the same
    //! file gets S103.

    use super::*;
    use crate::diagnostics::source::SourceFile;
    use crate::emit::editor_schema;
    use crate::read::yaml;
    use crate::validate::host_keys::Expect;
    use crate::validate::keys::{FRONTMATTER, Key};
    // The writer is built only with `ops`: the tests that write, too.
    #[cfg(feature = "ops")]
    use crate::write::format;

    const TEXT: &str = "name: a\ndescription: Does a. Use when asked.\nx-own: 1\nmodel_config: m\naudience: developers\nkind: skill\n";

    /// The declared keys with `audience` after `kind`: a key of this
    /// project that no field of the skill holds.
    fn with_audience() -> Vec<Key> {
        let mut list = FRONTMATTER.to_vec();
        let after_kind = list.iter().position(|key| key.name == "kind").unwrap() + 1;
        list.insert(
            after_kind,
            Key {
                name: "audience",
                group: Group::Extension,
                required: false,
                doc: "Who the skill is for.",
                schema: || serde_json::json!({"type": "string", "minLength": 1}),
                read: Read::Extra(Expect::String),
                held: crate::validate::keys::Held::Elsewhere,
                host: None,
                read_by: &[],
            },
        );
        list
    }

    fn read(list: KeyList<'_>) -> (Fields, Vec<crate::diagnostics::Diagnostic>, Node) {
        read_text(TEXT, list)
    }

    /// The frontmatter `text` read with the keys `list` declares.
    fn read_text(
        text: &str,
        list: KeyList<'_>,
    ) -> (Fields, Vec<crate::diagnostics::Diagnostic>, Node) {
        let source = SourceFile::new("skills/a/SKILL.md", text);
        let root = yaml::parse(&source, 0..text.len(), 64).unwrap().unwrap();
        let mut diagnostics = Vec::new();
        let mut ctx = Ctx::new(&source, Profile::Extended, &mut diagnostics);
        let config = Config::default();
        let place = Place {
            config: &config,
            directory: "a",
        };
        let fields = check_in(&mut ctx, &root, &place, list);
        (fields, diagnostics, root)
    }

    #[test]
    fn a_declared_key_is_read_and_kept() {
        let list = with_audience();
        let (fields, diagnostics, _) = read(KeyList(&list));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let audience = fields.extras.iter().find(|(key, _)| key == "audience");
        assert_eq!(
            audience.map(|(_, value)| value),
            Some(&serde_json::json!("developers"))
        );

        let (_, diagnostics, _) = read(KeyList::DECLARED);
        assert_eq!(
            diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
            [Code::UnknownKey]
        );
    }

    #[test]
    #[cfg(feature = "ops")]
    fn a_declared_key_is_written_in_its_declared_place() {
        let list = with_audience();
        let (_, _, root) = read(KeyList(&list));
        let entries = root.as_map().unwrap();
        let order = |written: String| -> Vec<String> {
            written
                .lines()
                .filter_map(|line| line.split(':').next())
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(
            order(format::emit_in(entries, KeyList(&list))),
            [
                "name",
                "description",
                "kind",
                "audience",
                "model_config",
                "x-own"
            ]
        );
        // Undeclared, it would be another client's key: after this project's.
        assert_eq!(
            order(format::emit_in(entries, KeyList::DECLARED)),
            [
                "name",
                "description",
                "kind",
                "model_config",
                "audience",
                "x-own"
            ]
        );
    }

    /// A key the table holds in a field of its own needs its declaration
    /// and that field, nothing else: read by the shape the field has,
    /// written in its declared place, shown by `show --json`. Here the
    /// field is `model_config`'s, declared under another name.
    #[test]
    #[cfg(feature = "ops")]
    fn a_key_held_in_the_table_is_read_written_and_shown_by_its_declaration() {
        let mut list = FRONTMATTER.to_vec();
        let at = list
            .iter()
            .position(|key| key.name == "model_config")
            .unwrap();
        list[at].name = "model-settings";
        let list = KeyList(&list);
        let text = "name: a\ndescription: Does a. Use when asked.\nmodel-settings: fast\n";
        let (mut fields, diagnostics, _) = read_text(text, list);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(fields.table.model_config(), Some("fast"));

        fields.table.name = "a".into();
        fields.table.description = "Does a. Use when asked.".into();
        let shown: Vec<(String, serde_json::Value)> =
            crate::emit::json::held(&fields.table, list.held()).collect();
        assert!(shown.contains(&("model_settings".to_owned(), "fast".into())));
        let written = crate::write::SkillBuilder::frontmatter_of(fields.table, list);
        assert_eq!(
            written,
            "name: a\ndescription: Does a. Use when asked.\nmodel-settings: fast\n"
        );
    }

    #[test]
    fn a_declared_key_is_offered_to_editors() {
        let list = with_audience();
        let schema = editor_schema::frontmatter_in(Profile::Extended, KeyList(&list));
        assert_eq!(
            schema["properties"]["audience"],
            serde_json::json!({"type": "string", "minLength": 1})
        );
        let portable = editor_schema::frontmatter_in(Profile::Portable, KeyList(&list));
        assert!(portable["properties"].get("audience").is_none());
        let declared = editor_schema::frontmatter(Profile::Extended);
        assert!(declared["properties"].get("audience").is_none());
    }
}
