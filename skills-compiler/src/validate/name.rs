//! The Agent Skills name rules.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

use super::ctx::Ctx;
use crate::diagnostics::Code;
use crate::ir::SkillName;
use crate::read::yaml::Node;

pub(crate) const MAX_NAME_CHARS: usize = 64;

/// Validates `name` against the rules and against `directory` (the skill's
/// directory, or the file stem of a flat skill), both NFKC-normalised.
///
/// Returns the name when it can identify the skill (in `lenient`, after
/// warnings); `None` when it cannot.
pub(crate) fn check(ctx: &mut Ctx<'_>, node: &Node, directory: &str) -> Option<SkillName> {
    let raw = ctx.string(node, "name")?;
    let name = nfkc(raw.trim()).into_owned();
    let span = node.span.clone();
    if name.is_empty() {
        ctx.push(
            ctx.error(Code::EmptyName, span, "the skill name is empty")
                .with_help(format!("use the directory name: `name: {directory}`")),
        );
        return None;
    }
    if ctx.profile == crate::config::Profile::Lenient && !is_valid(&name) {
        return slug(ctx, node, &name, directory);
    }
    let mut usable = true;
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        let diagnostic = ctx.error_unless_lenient(
            Code::NameTooLong,
            span.clone(),
            format!("the skill name is {count} characters long; the limit is {MAX_NAME_CHARS}"),
        );
        usable &= !diagnostic.is_error();
        ctx.push(diagnostic);
    }
    if name.to_lowercase() != name {
        ctx.push(
            ctx.error(
                Code::NameCharacters,
                span.clone(),
                format!("the skill name `{name}` must be lowercase"),
            )
            .with_help(format!("use `{}`", suggest(&name))),
        );
        usable = false;
    } else if let Some(bad) = name.chars().find(|&c| !(c.is_alphanumeric() || c == '-')) {
        ctx.push(ctx
            .error(
                Code::NameCharacters,
                span.clone(),
                format!("the skill name `{name}` contains `{bad}`: only letters, digits and hyphens are allowed"),
            )
            .with_help(format!("use `{}`", suggest(&name))));
        usable = false;
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        let what = if name.contains("--") {
            "must not contain `--`"
        } else {
            "must not start or end with `-`"
        };
        ctx.push(
            ctx.error(
                Code::NameHyphens,
                span.clone(),
                format!("the skill name `{name}` {what}"),
            )
            .with_help(format!("use `{}`", suggest(&name))),
        );
        usable = false;
    }
    if usable && !name.is_ascii() {
        ctx.push(
            ctx.error(
                Code::NonAsciiName,
                span.clone(),
                format!("the skill name `{name}` is not ASCII"),
            )
            .with_severity(crate::diagnostics::Severity::Warning)
            .with_help("valid, but some clients and file systems mishandle non-ASCII names"),
        );
    }
    if nfkc(directory) != name {
        let diagnostic = ctx
            .error_unless_lenient(
                Code::NameMismatch,
                span.clone(),
                format!("the skill name `{name}` does not match its directory `{directory}`"),
            )
            .with_help(format!(
                "rename the directory to `{name}`, or set `name: {directory}`"
            ));
        usable &= !diagnostic.is_error();
        ctx.push(diagnostic);
    }
    usable.then_some(SkillName(name))
}

/// `lenient`: a name that breaks the rules (upper case, spaces, `:`, a
/// leading `-`, too long) is read as its slug, as other clients tolerate it,
/// with a warning; the caller keeps the original as an extra.
fn slug(ctx: &mut Ctx<'_>, node: &Node, name: &str, directory: &str) -> Option<SkillName> {
    let slug = suggest(name);
    if !is_valid(&slug) {
        ctx.push(
            ctx.error(
                Code::NameCharacters,
                node.span.clone(),
                format!("the skill name `{name}` has no usable letters or digits"),
            )
            .with_help(format!("use the directory name: `name: {directory}`")),
        );
        return None;
    }
    ctx.push(ctx
        .error(
            Code::NameCharacters,
            node.span.clone(),
            format!("the skill name `{name}` breaks the naming rules; read as `{slug}`"),
        )
        .with_severity(crate::diagnostics::Severity::Warning)
        .with_help(format!(
            "names are lower-case letters, digits and single hyphens: `name: {slug}` (the original is kept as `x-original-name`)"
        )));
    if nfkc(directory) != slug {
        ctx.push(
            ctx.error_unless_lenient(
                Code::NameMismatch,
                node.span.clone(),
                format!("the skill name `{slug}` does not match its directory `{directory}`"),
            )
            .with_help(format!(
                "rename the directory to `{slug}`, or set `name: {directory}`"
            )),
        );
    }
    Some(SkillName(slug))
}

/// A valid name close to `text`: `My Skill` -> `my-skill`.
pub(crate) fn suggest(text: &str) -> String {
    let lowered: String = text
        .nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let collapsed = lowered
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    collapsed
        .chars()
        .take(MAX_NAME_CHARS)
        .collect::<String>()
        .trim_end_matches('-')
        .to_owned()
}

/// Whether `text` is a valid skill name on its own (no directory to compare).
pub(crate) fn is_valid(text: &str) -> bool {
    let name = nfkc(text);
    let lower_case = if name.is_ascii() {
        !name.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        name.to_lowercase() == name
    };
    !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && lower_case
        && name.chars().all(|c| c.is_alphanumeric() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// `text` in NFKC. ASCII is its own NFKC form, and nearly every name and
/// directory is ASCII: they are not copied through the normaliser.
fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_valid_names() {
        assert_eq!(suggest("My Skill"), "my-skill");
        assert_eq!(suggest("--a__b--"), "a-b");
        assert_eq!(suggest("НАВЫК"), "навык");
        for input in ["My Skill", "x".repeat(80).as_str(), "a--b", "Ünïcode_Name"] {
            assert!(is_valid(&suggest(input)), "{input}");
        }
    }

    proptest::proptest! {
        /// The ASCII shortcuts agree with the normaliser and with
        /// `to_lowercase` on any text, ASCII or not.
        #[test]
        fn shortcuts_agree_with_the_full_rules(text in "[a-zA-Z0-9-]{1,10}|[ -~]{0,12}|[a-zA-Z0-9 _-]{0,8}[^\\x00]{0,4}|\\PC{0,12}") {
            proptest::prop_assert_eq!(nfkc(&text), text.nfkc().collect::<String>());
            let name: String = text.nfkc().collect();
            let slow = !name.is_empty()
                && name.chars().count() <= MAX_NAME_CHARS
                && name.to_lowercase() == name
                && name.chars().all(|c| c.is_alphanumeric() || c == '-')
                && !name.starts_with('-')
                && !name.ends_with('-')
                && !name.contains("--");
            proptest::prop_assert_eq!(is_valid(&text), slow);
        }
    }
}
