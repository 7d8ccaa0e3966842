//! The frontmatter keys: the Agent Skills fields, this project's extensions,
//! keys of well-known clients, and `x-` extras.

use std::borrow::Cow;

use super::ctx::Ctx;
use super::host_keys::Expect;
use super::name;
use crate::config::{Config, Profile};
use crate::diagnostics::{Code, Severity, closest};
use crate::ir::{self, Kind, List, Protocol, SkillName, Str, Version};
use crate::read::yaml::{Entry, Node, Value};

pub(super) const MAX_DESCRIPTION_CHARS: usize = 1024;
pub(super) const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The frontmatter's fields, each already validated: `name` and
/// `description`, which a skill must have, and every other key's value
/// where the runtime's table holds it.
#[derive(Default)]
pub(crate) struct Fields {
    pub name: Option<SkillName>,
    pub description: Option<String>,
    /// Every other key's value; the validator adds the rest of the skill.
    pub table: skills_core::Skill,
    /// `x-` keys and other clients' keys, their values as read (the table
    /// holds their JSON text once the whole frontmatter is read).
    pub extras: Vec<(String, serde_json::Value)>,
}

/// How the validator reads a frontmatter key (its declaration says which).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Read {
    /// By this function, into [`Fields`].
    With(ReadFn),
    /// By the shape its table field has ([`Held`]), with no check of its own.
    Held,
    /// Kept as an extra once its type is checked: another client's key,
    /// or a key of this project that no field of the skill holds.
    Extra(Expect),
    /// A protocol's key: read once the whole frontmatter says `kind: protocol`.
    WithKind,
    /// `tools` and `permissions`: read by their own modules, which a
    /// sidecar `tools.yaml` shares.
    Elsewhere,
}

/// Where the runtime's table `T` holds a key's value: a skill's
/// (`skills_core::Skill`, the frontmatter's keys) or a tool's
/// (`skills_core::Tool`). A key held as text or as a list of texts needs
/// no code of its own: the validator reads it by its shape (unless its
/// declaration names a reader with more checks), and the writer and
/// `show --json` write and show it through these accessors.
#[derive(Debug)]
pub(crate) enum Held<T = skills_core::Skill> {
    /// Text, in an `Option<Str>` field of the table (`license`, `area`).
    Text {
        get: fn(&T) -> Option<&str>,
        set: fn(&mut T, Option<Str>),
    },
    /// A list of texts, in a `List<Str>` field (`tags`, `triggers`).
    Texts {
        get: fn(&T) -> &[Str],
        set: fn(&mut T, List<Str>),
    },
    /// By code of its own: the name, the description, `metadata`,
    /// `allowed-tools`, `kind` and a protocol's keys, `version`, tools,
    /// permissions and extras; a tool's name, description, parameters and
    /// endpoint.
    Elsewhere,
}

// By hand: a derive would ask `T: Clone` of a table that is only pointed at.
impl<T> Clone for Held<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Held<T> {}

/// Reads a key by the shape `table` holds it in: text or a list of texts.
pub(crate) fn held<T>(ctx: &mut Ctx<'_>, table: &mut T, entry: &Entry, held: Held<T>) {
    match held {
        Held::Text { set, .. } => {
            if let Some(text) = ctx.string(&entry.value, &entry.key) {
                set(table, Some(Str::Owned(text)));
            }
        }
        Held::Texts { set, .. } => {
            let texts = ctx.string_list(&entry.value, &entry.key);
            set(table, ir::texts(texts));
        }
        Held::Elsewhere => {}
    }
}

/// Reads one frontmatter entry into the fields.
pub(crate) type ReadFn = fn(&mut Ctx<'_>, &mut Fields, &Entry, &Place<'_>);

/// Where the frontmatter is read: what a key's reader may consult.
pub(crate) struct Place<'a> {
    pub config: &'a Config,
    /// The skill directory's name (what `name` must equal).
    pub directory: &'a str,
}

pub(crate) fn name(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, place: &Place<'_>) {
    let value = &entry.value;
    fields.name = name::check(ctx, value, place.directory);
    if let (Some(used), Some(written)) = (&fields.name, value.as_str())
        && !name::is_valid(written)
        && used.as_str() != written.trim()
    {
        // A lenient slug: what the skill said stays known.
        let original = serde_json::Value::String(written.to_owned());
        fields.extras.push(("x-original-name".to_owned(), original));
    }
}

pub(crate) fn description(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, _: &Place<'_>) {
    fields.description = description_of(ctx, &entry.value);
}

pub(crate) fn compatibility(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, _: &Place<'_>) {
    fields.table.compatibility = compatibility_of(ctx, &entry.value).map(Str::from);
}

pub(crate) fn metadata(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, _: &Place<'_>) {
    let value = &entry.value;
    if ctx.profile == Profile::Lenient && value.as_str().is_some() {
        ctx.push(
            ctx.error(
                Code::Metadata,
                value.span.clone(),
                "`metadata` is text, not a mapping; kept as the extra `metadata`",
            )
            .with_severity(Severity::Warning)
            .with_help("metadata maps keys to strings: `metadata:` then `  key: value` lines"),
        );
        fields.extras.push((entry.key.clone(), value.to_json()));
        return;
    }
    fields.table.metadata = metadata_of(ctx, value);
}

pub(crate) fn allowed_tools(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, _: &Place<'_>) {
    fields.table.allowed_tools = ir::texts(allowed_tools_of(ctx, &entry.value));
}

pub(crate) fn kind(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, _: &Place<'_>) {
    // A kind that is not one is an error: the skill is not kept.
    fields.table.kind = kind_of(ctx, &entry.value).unwrap_or_default();
}

pub(crate) fn area(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, place: &Place<'_>) {
    fields.table.area = area_of(ctx, &entry.value, place.config.areas.as_deref()).map(Str::from);
}

pub(crate) fn version(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, _: &Place<'_>) {
    // A version that is not one is an error: the skill is not kept.
    fields.table.version = version_of(ctx, &entry.value).unwrap_or_default();
}

/// A key kept as an extra, when it has the type its readers expect (in
/// `lenient`, whatever it has).
pub(crate) fn extra(ctx: &mut Ctx<'_>, fields: &mut Fields, entry: &Entry, expect: Expect) {
    if super::host_keys::check(ctx, &entry.value, &entry.key, expect) {
        fields
            .extras
            .push((entry.key.clone(), entry.value.to_json()));
    }
}

fn description_of(ctx: &mut Ctx<'_>, node: &Node) -> Option<String> {
    let text = ctx.string(node, "description")?;
    if text.trim().is_empty() {
        ctx.push(
            ctx.error(
                Code::EmptyDescription,
                node.span.clone(),
                "the description is empty",
            )
            .with_help("say what the skill does and when a model should use it"),
        );
        return None;
    }
    let count = text.chars().count();
    if count > MAX_DESCRIPTION_CHARS {
        // Every host loads it (or says why not): an error only where the
        // profile promises the specification, a warning that says what
        // each host will do otherwise (issue 40, item 7).
        let severity = if ctx.profile == Profile::Portable {
            Severity::Error
        } else {
            Severity::Warning
        };
        let diagnostic = ctx
            .error(
                Code::DescriptionTooLong,
                node.span.clone(),
                format!("the description is {count} characters long; the specification's limit is {MAX_DESCRIPTION_CHARS}"),
            )
            .with_severity(severity)
            .with_help(format!(
                "it is sent on every model turn: keep what decides when to use the skill, move the rest into the body; as it is, {}",
                crate::budget::cuts::long_description(&text)
            ));
        let loads = !diagnostic.is_error();
        ctx.push(diagnostic);
        return loads.then_some(text);
    }
    // `portable` promises "loads everywhere", and Zed counts bytes.
    if ctx.profile == Profile::Portable && text.len() > MAX_DESCRIPTION_CHARS {
        ctx.push(
            ctx.error(
                Code::DescriptionBytes,
                node.span.clone(),
                format!(
                    "the description is {count} characters but {} bytes long: Zed refuses a description over {MAX_DESCRIPTION_CHARS} bytes when it loads the skill",
                    text.len()
                ),
            )
            .with_severity(Severity::Warning)
            .with_help("shorten it until it fits in 1,024 bytes (UTF-8); every other host counts characters"),
        );
    }
    Some(text)
}

fn compatibility_of(ctx: &mut Ctx<'_>, node: &Node) -> Option<String> {
    let text = ctx.string(node, "compatibility")?;
    let count = text.chars().count();
    if text.trim().is_empty() || count > MAX_COMPATIBILITY_CHARS {
        let empty = text.trim().is_empty();
        let what = if empty {
            "empty".to_owned()
        } else {
            format!("{count} characters long")
        };
        let message = format!(
            "`compatibility` is {what}; it must be 1 to {MAX_COMPATIBILITY_CHARS} characters"
        );
        // An over-long one loads in `lenient` (hosts show it as written).
        let diagnostic = if empty {
            ctx.error(Code::Compatibility, node.span.clone(), message)
        } else {
            ctx.error_unless_lenient(Code::Compatibility, node.span.clone(), message)
        }
        .with_help(
            "say briefly what the skill needs (tools, network, platform), or remove the field",
        );
        let loads = !diagnostic.is_error();
        ctx.push(diagnostic);
        return loads.then_some(text);
    }
    Some(text)
}

/// The `metadata` key prefix SEP-2640 reserves for MCP extensions.
pub(crate) const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

fn metadata_of(ctx: &mut Ctx<'_>, node: &Node) -> List<(Str, Str)> {
    let entries = ctx.map(node, "metadata", Code::Metadata);
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        if entry.key.starts_with(RESERVED_METADATA_PREFIX) {
            ctx.push(
                ctx.error(
                    Code::ReservedMetadataKey,
                    entry.key_span.clone(),
                    format!(
                        "`metadata.{}` is under `{RESERVED_METADATA_PREFIX}`, which MCP reserves for the metadata its extensions define",
                        entry.key
                    ),
                )
                .with_help("rename the key with a prefix of your own (`acme/...`): hosts that serve skills over MCP ignore or misread reserved keys"),
            );
            continue;
        }
        let value = &entry.value;
        let text = match &value.value {
            Value::String(s) => s.clone(),
            // Coerce to the text as written: `1.0` stays "1.0", not "1".
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
                ctx.source.text()[value.span.clone()].trim().to_owned()
            }
            Value::Seq(_) | Value::Map(_) if ctx.profile == Profile::Lenient => {
                ctx.push(
                    ctx.error(
                        Code::Metadata,
                        value.span.clone(),
                        format!("`metadata.{}` is nested; kept as JSON text", entry.key),
                    )
                    .with_severity(Severity::Warning),
                );
                value.to_json().to_string()
            }
            _ => {
                ctx.push(ctx
                    .error(Code::Metadata, value.span.clone(), format!("`metadata.{}` must be a string, found {}", entry.key, value.type_name()))
                    .with_help("metadata maps strings to strings: flatten nested values into their own keys"));
                continue;
            }
        };
        if entry.key == "skills-lints"
            && let Err(why) = text.parse::<crate::diagnostics::levels::LintLevels>()
        {
            ctx.push(
                ctx.error(
                    Code::SkillLints,
                    value.span.clone(),
                    format!("`metadata.skills-lints`: {why}"),
                )
                .with_severity(Severity::Warning)
                .with_help("write a level, then lint codes: `allow W008 W010; deny W009`"),
            );
        }
        out.push((Str::from(entry.key.clone()), Str::from(text)));
    }
    List::Owned(out)
}

fn allowed_tools_of(ctx: &mut Ctx<'_>, node: &Node) -> Vec<String> {
    match &node.value {
        Value::String(text) => {
            super::tool_list::comma_separated(ctx, node, "allowed-tools");
            text.split_whitespace().map(str::to_owned).collect()
        }
        Value::Seq(items) => {
            let tools: Vec<String> = items
                .iter()
                .filter_map(|item| ctx.string(item, "allowed-tools"))
                .collect();
            if ctx.profile == Profile::Portable {
                ctx.push(ctx
                    .error(Code::AllowedTools, node.span.clone(), "`allowed-tools` must be a space-separated string in the `portable` profile")
                    .with_fix(ctx.source, node.span.clone(), crate::read::yaml::quote(&tools.join(" ")), "write the list as one string"));
            }
            tools
        }
        _ => {
            ctx.push(ctx.error(
                Code::AllowedTools,
                node.span.clone(),
                format!(
                    "`allowed-tools` must be a string, found {}",
                    node.type_name()
                ),
            ));
            Vec::new()
        }
    }
}

fn kind_of(ctx: &mut Ctx<'_>, node: &Node) -> Option<Kind> {
    match ctx.string(node, "kind")?.as_str() {
        "skill" => Some(Kind::Skill),
        // The protocol's fields are read once every key has been seen.
        "protocol" => Some(Kind::Protocol(Cow::Owned(Protocol {
            steps: List::Owned(Vec::new()),
            post_checks: List::Owned(Vec::new()),
            preconditions: List::Owned(Vec::new()),
            on_deviation: Str::Owned(String::new()),
            on_blocked: Str::Owned(String::new()),
            on_already_done: Str::Owned(String::new()),
        }))),
        other => {
            ctx.push(
                ctx.error(
                    Code::Kind,
                    node.span.clone(),
                    format!("`{other}` is not a kind"),
                )
                .with_help("use `skill` (the default) or `protocol`"),
            );
            None
        }
    }
}

fn area_of(ctx: &mut Ctx<'_>, node: &Node, allowed: Option<&[String]>) -> Option<String> {
    let area = ctx.string(node, "area")?;
    if let Some(allowed) = allowed
        && !allowed.contains(&area)
    {
        let mut diagnostic = ctx.error(
            Code::Area,
            node.span.clone(),
            format!("`{area}` is not one of the configured areas"),
        );
        diagnostic = match closest(&area, allowed.iter().map(String::as_str)) {
            Some(s) => diagnostic.with_help(format!("did you mean `{s}`?")),
            None => diagnostic.with_help(format!("configured areas: {}", allowed.join(", "))),
        };
        ctx.push(diagnostic);
        return None;
    }
    Some(area)
}

fn version_of(ctx: &mut Ctx<'_>, node: &Node) -> Option<Version> {
    let version = match &node.value {
        Value::Int(n) if *n > 0 => u64::try_from(*n).ok().map(Version::Number),
        Value::String(s) if is_semver(s) => Some(Version::Semver(s.clone().into())),
        _ => None,
    };
    if version.is_none() && ctx.profile == Profile::Lenient && node.is_scalar() {
        // Other clients read any scalar: keep it as written.
        let text = ctx.source.text()[node.span.clone()].trim();
        let text = node.as_str().unwrap_or(text).to_owned();
        if !text.is_empty() && node.value != Value::Null {
            ctx.push(ctx
                .error(
                    Code::Version,
                    node.span.clone(),
                    format!("`version` is neither a positive integer nor semver; kept as the text `{text}`"),
                )
                .with_severity(Severity::Warning)
                .with_help("write `version: 2` or `version: \"1.2.0\"`"));
            return Some(Version::Text(text.into()));
        }
    }
    if version.is_none() {
        ctx.push(
            ctx.error(
                Code::Version,
                node.span.clone(),
                "`version` must be a positive integer or a quoted semver string",
            )
            .with_help("write `version: 2` or `version: \"1.2.0\"`"),
        );
    }
    version
}

/// `MAJOR.MINOR.PATCH` with optional `-pre` and `+build`.
fn is_semver(text: &str) -> bool {
    let core = text.split(['-', '+']).next().unwrap_or("");
    let numbers: Vec<&str> = core.split('.').collect();
    numbers.len() == 3
        && numbers.iter().all(|n| {
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
                && (n.len() == 1 || !n.starts_with('0'))
        })
        && text[core.len()..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-+.".contains(&b))
}

/// A protocol must say what to do, how to check it, and what to do when
/// reality differs from the plan.
pub(super) fn protocol_fields(ctx: &mut Ctx<'_>, root: &Node, required: &[&str]) -> Option<Kind> {
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|key| root.get(key).is_none())
        .collect();
    let mut complete = missing.is_empty();
    if !complete {
        let at = root
            .get("kind")
            .map_or(root.span.start..root.span.start, |k| k.span.clone());
        let list = missing
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        ctx.push(ctx
            .error(Code::ProtocolIncomplete, at, format!("this protocol does not declare {list}"))
            .with_help(
                "a protocol must declare its steps, how each step is checked (`post_checks`), and what to do when \
                 the run drifts off plan (`on_deviation`), when it cannot be completed (`on_blocked`), and when a \
                 step is already done (`on_already_done`)",
            ));
    }
    let mut list = |ctx: &mut Ctx<'_>, key: &str, non_empty: bool| -> Vec<String> {
        let Some(node) = root.get(key) else {
            return Vec::new();
        };
        let items = ctx.string_list(node, key);
        if non_empty && items.is_empty() && node.as_seq().is_some_and(<[Node]>::is_empty) {
            ctx.push(ctx.error(
                Code::ProtocolIncomplete,
                node.span.clone(),
                format!("`{key}` must not be empty"),
            ));
            complete = false;
        }
        items
    };
    let steps = list(ctx, "steps", true);
    let post_checks = list(ctx, "post_checks", true);
    let preconditions = list(ctx, "preconditions", false);
    let mut text = |key: &str| -> String {
        root.get(key)
            .and_then(|node| ctx.non_empty_string(node, key, Code::ProtocolIncomplete))
            .unwrap_or_default()
    };
    let on_deviation = text("on_deviation");
    let on_blocked = text("on_blocked");
    let on_already_done = text("on_already_done");
    complete.then_some(Kind::Protocol(Cow::Owned(Protocol {
        steps: ir::texts(steps),
        post_checks: ir::texts(post_checks),
        preconditions: ir::texts(preconditions),
        on_deviation: on_deviation.into(),
        on_blocked: on_blocked.into(),
        on_already_done: on_already_done.into(),
    })))
}

#[cfg(test)]
mod tests {
    use super::is_semver;

    #[test]
    fn semver() {
        for ok in ["1.0.0", "0.1.2", "1.2.3-beta.1", "1.2.3+build"] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in ["1", "1.0", "01.0.0", "a.b.c", "1.0.0 x"] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
