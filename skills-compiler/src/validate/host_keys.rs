//! The values of keys that hosts define (Claude Code's `effort`, `shell`,
//! `paths`, ...): each checked against what its host documents, so that a
//! skill written for a host passes `check` and a typo in a value is found
//! where it is, not when the host ignores it. The keys themselves are
//! declared in [`keys`](super::keys); what each takes is an [`Expect`].
//!
//! Across keys: `background` needs `context: fork`, a tool in both
//! `allowed-tools` and `disallowed-tools` is denied, and an alias
//! (`disallowedTools`) gets a fix-it to the documented spelling.

use super::ctx::Ctx;
use crate::config::Profile;
use crate::diagnostics::{Code, Severity, closest};
use crate::read::yaml::{Node, Value};

/// Claude Code's `effort` words (an integer is also taken).
pub(crate) const EFFORTS: &[&str] = &["low", "medium", "high", "max"];
/// Claude Code's `shell` values.
pub(crate) const SHELLS: &[&str] = &["bash", "powershell"];
/// Claude Code's `context` values.
pub(crate) const CONTEXTS: &[&str] = &["inline", "fork"];
/// Claude Code's model aliases (any full model ID is also taken).
pub(crate) const MODEL_ALIASES: &[&str] = &["haiku", "sonnet", "opus", "fable", "inherit"];
/// Codex's longest `metadata.short-description`, in characters.
pub(crate) const MAX_SHORT_DESCRIPTION_CHARS: usize = 1024;

/// What a host's key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// A string.
    String,
    /// `true` or `false`.
    Bool,
    /// A mapping.
    Map,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// One of these words, or an integer.
    WordOrInteger(&'static [&'static str]),
    /// One of these aliases, or a full model ID (any text with a digit or
    /// one of `-._:/@`: `claude-sonnet-4-5`, `us.anthropic.claude-...`).
    Model(&'static [&'static str]),
    /// Glob patterns: a list of strings, or one string of patterns
    /// separated by commas; each must compile.
    Globs,
    /// Tool names: a space-separated string or a list of strings (as
    /// `allowed-tools`).
    Tools,
    /// A string, a list of strings or a mapping (`arguments`, the typed
    /// form of `argument-hint`).
    Arguments,
    /// A string, a number or a boolean (a key the host reads but does not
    /// document the type of).
    Scalar,
}

impl Expect {
    /// As a sentence says it: "a string".
    pub(crate) const fn phrase(self) -> &'static str {
        match self {
            Expect::String => "a string",
            Expect::Bool => "a boolean",
            Expect::Map => "a mapping",
            Expect::OneOf(_) => "one of its words",
            Expect::WordOrInteger(_) => "one of its words or an integer",
            Expect::Model(_) => "a model alias or ID",
            Expect::Globs => "glob patterns",
            Expect::Tools => "tool names",
            Expect::Arguments => "a string, a list or a mapping",
            Expect::Scalar => "a string, a number or a boolean",
        }
    }
}

/// Whether the value of `key` is one its host reads, reporting it when
/// not; `true` when the value is to be kept (in `lenient`, always: the
/// host may read it anyway, and the problem is a warning).
pub(crate) fn check(ctx: &mut Ctx<'_>, node: &Node, key: &str, expect: Expect) -> bool {
    if expect == Expect::Tools {
        // Read as `allowed-tools` is: a list written with commas is W003.
        super::tool_list::comma_separated(ctx, node, key);
    }
    let problem = match problem(node, expect) {
        None => return true,
        Some(problem) => problem,
    };
    let (code, message, help) = match problem {
        Problem::Type(expected) => (
            Code::ClientExtra,
            format!("`{key}` must be {expected}, found {}", node.type_name()),
            None,
        ),
        Problem::Value { found, why, help } => (
            Code::HostKeyValue,
            format!("`{found}` is not a value of `{key}`: {why}"),
            Some(help),
        ),
    };
    let mut diagnostic = ctx.error(code, node.span.clone(), message);
    if let Some(help) = help {
        diagnostic = diagnostic.with_help(help);
    }
    if ctx.profile == Profile::Lenient {
        diagnostic.severity = Severity::Warning;
        diagnostic.message.push_str("; kept as it is");
        ctx.push(diagnostic);
        return true;
    }
    ctx.push(diagnostic);
    false
}

enum Problem {
    /// Not of the type the key takes.
    Type(&'static str),
    /// Of its type, and not a value the host reads.
    Value {
        found: String,
        why: String,
        help: String,
    },
}

fn problem(node: &Node, expect: Expect) -> Option<Problem> {
    let wrong = |expected| Some(Problem::Type(expected));
    match (expect, &node.value) {
        (Expect::String, Value::String(_))
        | (Expect::Bool, Value::Bool(_))
        | (Expect::Map, Value::Map(_))
        | (Expect::Arguments, Value::String(_) | Value::Map(_))
        | (Expect::Scalar, Value::String(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
            None
        }
        (Expect::Arguments, Value::Seq(items)) => {
            (!items.iter().all(|item| item.as_str().is_some()))
                .then_some(Problem::Type("a string, a list of strings or a mapping"))
        }
        (Expect::String, _) => wrong("a string"),
        (Expect::Bool, _) => wrong("a boolean (`true` or `false`)"),
        (Expect::Map, _) => wrong("a mapping"),
        (Expect::Arguments, _) => wrong("a string, a list of strings or a mapping"),
        (Expect::Scalar, _) => wrong("a string, a number or a boolean"),
        (Expect::OneOf(words), Value::String(word)) => not_one_of(word, words, ""),
        (Expect::OneOf(_), _) => wrong("a string (one of its words)"),
        (Expect::WordOrInteger(_), Value::Int(_)) => None,
        (Expect::WordOrInteger(words), Value::String(word)) => {
            not_one_of(word, words, " or an integer")
        }
        (Expect::WordOrInteger(_), _) => wrong("a word or an integer"),
        (Expect::Model(aliases), Value::String(model)) => {
            let is_id = model
                .chars()
                .any(|c| c.is_ascii_digit() || "-._:/@".contains(c));
            if is_id {
                None
            } else {
                not_one_of(model, aliases, " or a full model ID")
            }
        }
        (Expect::Model(_), _) => wrong("a string (a model alias or ID)"),
        (Expect::Globs, Value::String(text)) => bad_glob(text.split(',').map(str::trim)),
        (Expect::Globs, Value::Seq(items)) => {
            match items.iter().map(Node::as_str).collect::<Option<Vec<_>>>() {
                Some(globs) => bad_glob(globs.into_iter()),
                None => wrong("a list of glob patterns (strings)"),
            }
        }
        (Expect::Globs, _) => wrong("a list of glob patterns"),
        (Expect::Tools, Value::String(_)) => None,
        (Expect::Tools, Value::Seq(items)) => (!items.iter().all(|item| item.as_str().is_some()))
            .then_some(Problem::Type("a list of tool names (strings)")),
        (Expect::Tools, _) => wrong("a space-separated string of tool names"),
    }
}

fn not_one_of(word: &str, words: &[&str], or_else: &str) -> Option<Problem> {
    if words.contains(&word) {
        return None;
    }
    let list = words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let help = match closest(word, words.iter().copied()) {
        Some(near) => format!("did you mean `{near}`?"),
        None => format!("use one of {list}{or_else}"),
    };
    Some(Problem::Value {
        found: word.to_owned(),
        why: format!("the host reads {list}{or_else}"),
        help,
    })
}

fn bad_glob<'a>(globs: impl Iterator<Item = &'a str>) -> Option<Problem> {
    for glob in globs {
        if glob.is_empty() {
            return Some(Problem::Value {
                found: String::new(),
                why: "an empty pattern matches nothing".to_owned(),
                help: "remove the empty pattern".to_owned(),
            });
        }
        if let Err(error) = globset::Glob::new(glob) {
            return Some(Problem::Value {
                found: glob.to_owned(),
                why: format!("it is not a glob ({})", error.kind()),
                help: "write a glob such as `src/**/*.rs`; quote `[` and `{` that are meant literally as `[[]` and `[{]`".to_owned(),
            });
        }
    }
    None
}

/// The rules across a frontmatter's host keys (`root` is the mapping).
pub(crate) fn across(ctx: &mut Ctx<'_>, root: &Node) {
    short_description(ctx, root);
    // In `portable` each of Claude Code's keys is already an error.
    if ctx.profile != Profile::Portable {
        background_needs_fork(ctx, root);
        tools_in_both_lists(ctx, root);
        aliases(ctx, root);
    }
}

fn background_needs_fork(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(background) = root.get("background") else {
        return;
    };
    if background.value != Value::Bool(true)
        || root.get("context").and_then(Node::as_str) == Some("fork")
    {
        return;
    }
    ctx.push(
        ctx.error(
            Code::HostKeysDisagree,
            background.span.clone(),
            "`background: true` acts only with `context: fork`, which this skill does not set",
        )
        .with_severity(Severity::Warning)
        .with_help("add `context: fork` to run the skill in a background sub-agent, or remove `background`"),
    );
}

fn tools_in_both_lists(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(allowed) = root.get("allowed-tools") else {
        return;
    };
    let allowed = tool_names(allowed);
    for key in ["disallowed-tools", "disallowedTools"] {
        let Some(denied) = root.get(key) else {
            continue;
        };
        let both: Vec<&str> = tool_names(denied)
            .into_iter()
            .filter(|tool| allowed.contains(tool))
            .collect();
        if both.is_empty() {
            continue;
        }
        let list = both
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ");
        ctx.push(
            ctx.error(
                Code::HostKeysDisagree,
                denied.span.clone(),
                format!("{list} is in both `allowed-tools` and `{key}`; Claude Code denies it"),
            )
            .with_severity(Severity::Warning)
            .with_help("keep each tool in one of the two lists"),
        );
    }
}

/// The names a tool list holds: words of a string (spaces or commas), or
/// the strings of a list.
fn tool_names(node: &Node) -> Vec<&str> {
    match &node.value {
        Value::String(text) => text.split([' ', ',']).filter(|t| !t.is_empty()).collect(),
        Value::Seq(items) => items.iter().filter_map(Node::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Undocumented spellings a host reads, and the documented one.
const ALIASES: &[(&str, &str)] = &[("disallowedTools", "disallowed-tools")];

fn aliases(ctx: &mut Ctx<'_>, root: &Node) {
    for entry in root.as_map().unwrap_or(&[]) {
        let Some(&(_, documented)) = ALIASES.iter().find(|(alias, _)| *alias == entry.key) else {
            continue;
        };
        let mut diagnostic = ctx
            .error(
                Code::HostKeyAlias,
                entry.key_span.clone(),
                format!(
                    "`{}` is read as `{documented}`, its documented spelling",
                    entry.key
                ),
            )
            .with_severity(Severity::Warning);
        diagnostic = if root.get(documented).is_some() {
            diagnostic.with_help(format!(
                "`{documented}` is also set: merge the two into `{documented}`"
            ))
        } else {
            diagnostic.with_fix(
                ctx.source,
                entry.key_span.clone(),
                documented,
                format!("write `{documented}`"),
            )
        };
        ctx.push(diagnostic);
    }
}

/// Codex shows `metadata.short-description` in place of the description
/// when it is set, and reads at most 1,024 characters of it.
fn short_description(ctx: &mut Ctx<'_>, root: &Node) {
    let Some(node) = root
        .get("metadata")
        .and_then(|m| m.get("short-description"))
    else {
        return;
    };
    let Some(text) = node.as_str() else {
        return;
    };
    let chars = text.chars().count();
    if chars > MAX_SHORT_DESCRIPTION_CHARS {
        ctx.push(ctx.error_unless_lenient(
            Code::HostKeyValue,
            node.span.clone(),
            format!(
                "`metadata.short-description` has {chars} characters; Codex reads at most {MAX_SHORT_DESCRIPTION_CHARS}"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Node {
        Node {
            span: 0..0,
            value: Value::String(text.to_owned()),
        }
    }

    #[test]
    fn words_models_and_globs() {
        assert!(problem(&string("high"), Expect::WordOrInteger(EFFORTS)).is_none());
        let int = Node {
            span: 0..0,
            value: Value::Int(3),
        };
        assert!(problem(&int, Expect::WordOrInteger(EFFORTS)).is_none());
        assert!(problem(&string("extreme"), Expect::WordOrInteger(EFFORTS)).is_some());
        assert!(problem(&string("claude-opus-4-5"), Expect::Model(MODEL_ALIASES)).is_none());
        assert!(problem(&string("inherit"), Expect::Model(MODEL_ALIASES)).is_none());
        match problem(&string("sonet"), Expect::Model(MODEL_ALIASES)) {
            Some(Problem::Value { help, .. }) => assert_eq!(help, "did you mean `sonnet`?"),
            _ => panic!("`sonet` is not a model"),
        }
        assert!(problem(&string("src/**/*.rs, docs/*.md"), Expect::Globs).is_none());
        assert!(problem(&string("src/[a"), Expect::Globs).is_some());
        assert!(problem(&string("a,,b"), Expect::Globs).is_some());
    }
}
