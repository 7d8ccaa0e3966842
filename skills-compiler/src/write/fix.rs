//! Applying fix-its: the machine-applicable ones, to the bytes they name and
//! no others, so the body, comments, key order, line endings and a BOM stay
//! as they were. `cargo skills fix` is a thin front end over [`skill`].
//!
//! ```
//! use skills_compiler::ops::fix;
//! use skills_compiler::{Config, SkillFiles};
//!
//! let files = SkillFiles {
//!     dir: None,
//!     path: "skills/a/SKILL.md".into(),
//!     directory: "a".into(),
//!     bytes: b"---\nname: a\ndescription: Does a. Use when: asked\n---\nBody\n".to_vec(),
//!     tools_yaml: None,
//! };
//! let fixed = fix::skill(files, &Config::default());
//! assert_eq!(
//!     fixed.changes[0].after,
//!     "---\nname: a\ndescription: \"Does a. Use when: asked\"\n---\nBody\n"
//! );
//! assert!(fixed.remaining.is_empty());
//! ```

use crate::config::{Config, Profile};
use crate::diagnostics::{Applicability, Code, Diagnostic, FixIt, Span};
use crate::read::discover::SkillFiles;

/// A fix can uncover another (an unquoted `: ` hides the rest of the YAML
/// from the parser): fixing repeats until nothing applies, at most this often.
pub(crate) const MAX_PASSES: usize = 8;

/// One fix-it applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The file, as diagnostics show it.
    pub file: String,
    /// The line of the fixed place.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// The diagnostic's code.
    pub code: Code,
    /// What the fix did.
    pub message: String,
}

/// A file whose text the fixes changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The file, as diagnostics show it.
    pub path: String,
    /// Its text before.
    pub before: String,
    /// Its text after.
    pub after: String,
}

/// What fixing one skill did.
#[derive(Debug, Clone, Default)]
pub struct Fixed {
    /// Each changed file once, with its text before and after every pass.
    pub changes: Vec<Change>,
    /// Each fix-it applied.
    pub applied: Vec<Applied>,
    /// The diagnostics of the fixed files: the problems no fix-it settles.
    pub remaining: Vec<Diagnostic>,
}

/// Applies every machine-applicable fix-it to one skill's files, in memory,
/// pass after pass until none applies; the files on disk are the caller's.
pub fn skill(files: SkillFiles, config: &Config) -> Fixed {
    let mut current = files;
    let mut fixed = Fixed::default();
    let originals = texts(&current);
    for _ in 0..MAX_PASSES {
        let diagnostics = fixable(&current, config);
        let mut changed = false;
        for (path, text) in texts(&current) {
            let fixes: Vec<(&Diagnostic, &FixIt)> = diagnostics
                .iter()
                .filter(|d| d.file == path)
                .filter_map(|d| Some((d, d.fix.as_ref()?)))
                .filter(|(_, fix)| fix.replace().is_some())
                .filter(|(_, fix)| fix.applicability == Applicability::MachineApplicable)
                .collect();
            let (after, used) = apply(&text, fixes.iter().map(|(_, fix)| *fix));
            if after == text {
                continue;
            }
            changed = true;
            fixed
                .applied
                .extend(used.into_iter().map(|index| applied(&path, fixes[index])));
            set_text(&mut current, &path, after);
        }
        if !changed {
            break;
        }
    }
    fixed.remaining = diagnose(&current, config);
    fixed.changes = originals
        .into_iter()
        .zip(texts(&current))
        .filter(|((_, before), (_, after))| before != after)
        .map(|((path, before), (_, after))| Change {
            path,
            before,
            after,
        })
        .collect();
    fixed
}

/// The diagnostics whose fix-its apply to the files as they are. `lenient`
/// reads an unquoted `: ` as if quoted and reports everything else against
/// that patched text, whose offsets are not the file's: then the quoting
/// comes first, one line per pass, as `extended` reports it.
fn fixable(files: &SkillFiles, config: &Config) -> Vec<Diagnostic> {
    let diagnostics = diagnose(files, config);
    let patched = config.profile == Profile::Lenient
        && diagnostics
            .iter()
            .any(|d| d.code == Code::UnquotedColon && d.fix.is_none());
    if !patched {
        return diagnostics;
    }
    let strict = Config {
        profile: Profile::Extended,
        ..config.clone()
    };
    diagnose(files, &strict)
        .into_iter()
        .filter(|d| d.code == Code::UnquotedColon)
        .collect()
}

fn applied(path: &str, (diagnostic, fix): (&Diagnostic, &FixIt)) -> Applied {
    let (line, column) = fix
        .replace()
        .map_or((0, 0), |(span, _)| (span.start.line, span.start.column));
    Applied {
        file: path.to_owned(),
        line,
        column,
        code: diagnostic.code,
        message: fix.message.clone(),
    }
}

fn diagnose(files: &SkillFiles, config: &Config) -> Vec<Diagnostic> {
    crate::pipeline::compile_one(files.clone(), config).1
}

/// The skill file and its sidecar as text; files that are not UTF-8 have
/// no fix-it (S001) and are left out.
fn texts(files: &SkillFiles) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Ok(text) = std::str::from_utf8(&files.bytes) {
        out.push((files.path.clone(), text.to_owned()));
    }
    if let Some((path, bytes)) = &files.tools_yaml
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        out.push((path.clone(), text.to_owned()));
    }
    out
}

fn set_text(files: &mut SkillFiles, path: &str, text: String) {
    if files.path == path {
        files.bytes = text.into_bytes();
    } else if let Some((tools_path, bytes)) = &mut files.tools_yaml
        && tools_path == path
    {
        *bytes = text.into_bytes();
    }
}

/// `text` with `fixes` applied, in order of position; a fix that overlaps
/// an earlier one, or whose span is not in `text`, is left for the next
/// pass. Returns the text and the indices of the fixes applied.
/// Renames are not text edits: they are the caller's (see [`FixIt::renamed_to`]).
pub(crate) fn apply<'a>(
    text: &str,
    fixes: impl IntoIterator<Item = &'a FixIt>,
) -> (String, Vec<usize>) {
    let mut fixes: Vec<(usize, &Span, &str)> = fixes
        .into_iter()
        .enumerate()
        .filter_map(|(index, fix)| {
            let (span, replacement) = fix.replace()?;
            Some((index, span, replacement))
        })
        .collect();
    fixes.sort_by_key(|(_, span, _)| (span.bytes.start, span.bytes.end));
    let mut out = String::with_capacity(text.len());
    let mut used = Vec::new();
    let mut at = 0;
    for (index, span, replacement) in fixes {
        let range = span.bytes.clone();
        let fits = range.start >= at
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end);
        if !fits || text[range.clone()] == *replacement {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(replacement);
        at = range.end;
        used.push(index);
    }
    out.push_str(&text[at..]);
    (out, used)
}

/// What `fix --to <profile>` does to one skill: what `lenient` assumed,
/// written out explicitly by the writer, and the folder renamed when the
/// skill's name became a slug.
#[derive(Debug, Clone, Default)]
pub struct Migration {
    /// Each file changed, with its text before and after.
    pub changes: Vec<Change>,
    /// The skill's directory and the one it must be renamed to.
    pub rename: Option<(String, String)>,
    /// The diagnostics of the written skill under the target profile: what
    /// no rewrite settles (an extension key in `portable`, say).
    pub remaining: Vec<Diagnostic>,
    /// What the migration costs a host: a key it read at the top level that
    /// is now in `metadata`.
    pub notes: Vec<String>,
}

/// A skill `fix --to` left as it is: why, and its problems under the target
/// profile, which remain.
#[derive(Debug, Clone)]
pub struct Skipped {
    /// Why it was left.
    pub reason: String,
    /// Its problems under the target profile.
    pub remaining: Vec<Diagnostic>,
}

/// Reads the skill as `lenient` does and writes what it assumed into the
/// source, for `config`'s profile: a slug for a bad name (the original kept
/// as `x-original-name`), `version` quoted, Claude Code's `tools` as
/// `allowed-tools`, `: ` quoted, and, for `portable`, tools in a sidecar
/// `tools.yaml`. The frontmatter is rewritten in the canonical style, so a
/// file with a comment is refused rather than stripped.
pub fn to_profile(files: SkillFiles, config: &Config) -> Result<Migration, Skipped> {
    let texts = texts(&files);
    let commented = |(path, text): &&(String, String)| {
        if *path == files.path {
            crate::write::format::has_comment(text)
        } else {
            crate::write::format::yaml_has_comment(text)
        }
    };
    if let Some((path, _)) = texts.iter().find(commented) {
        return Err(Skipped {
            reason: format!(
                "{path} has a comment, which rewriting would lose; move it into the body or remove it first"
            ),
            remaining: diagnose(&files, config),
        });
    }
    let lenient = Config {
        profile: Profile::Lenient,
        ..config.clone()
    };
    let (skill, _) = crate::pipeline::compile_one(files.clone(), &lenient);
    let Some(mut skill) = skill else {
        return Err(Skipped {
            reason: format!(
                "{} does not load even in `lenient`: run `cargo skills check --profile lenient {}`",
                files.path, files.path
            ),
            remaining: diagnose(&files, config),
        });
    };
    let dir = std::path::Path::new(&files.path)
        .parent()
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    let flat = !files.path.ends_with("/SKILL.md") && files.path != "SKILL.md";
    let rename = (!flat && skill.name() != files.directory).then(|| {
        let parent = std::path::Path::new(&dir)
            .parent()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let to = if parent.is_empty() {
            skill.name().to_owned()
        } else {
            format!("{parent}/{}", skill.name())
        };
        (dir.clone(), to)
    });
    let new_dir = rename.as_ref().map_or(dir.clone(), |(_, to)| to.clone());
    let tools_path = format!("{dir}/tools.yaml");
    let mut notes = Vec::new();
    if config.profile == Profile::Portable {
        let before = skill.clone();
        let as_json = into_metadata(&mut skill);
        notes = host_notes(&before, &skill);
        if !as_json.is_empty() {
            notes.push(format!(
                "{}: {} moved into `metadata` as JSON text (the specification's metadata values are strings; `lenient` reads them back as text)",
                files.path,
                as_json
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !skill.tools.is_empty() || files.tools_yaml.is_some() {
            skill.tools_path = Some(tools_path.clone());
        }
    }
    let written = crate::write::files(&skill);
    let mut changes = Vec::new();
    let before = |path: &str| {
        texts
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    };
    if written.skill_md != before(&files.path) {
        changes.push(Change {
            path: files.path.clone(),
            before: before(&files.path),
            after: written.skill_md.clone(),
        });
    }
    if let Some(tools) = &written.tools_yaml
        && *tools != before(&tools_path)
    {
        changes.push(Change {
            path: tools_path.clone(),
            before: before(&tools_path),
            after: tools.clone(),
        });
    }
    let target = SkillFiles {
        dir: None,
        path: format!("{new_dir}/{}", file_name(&files.path)),
        directory: skill.name().to_owned(),
        bytes: written.skill_md.into_bytes(),
        tools_yaml: written
            .tools_yaml
            .map(|text| (format!("{new_dir}/tools.yaml"), text.into_bytes())),
    };
    let remaining = diagnose(&target, config);
    // What could not move: a key `metadata` already has, or a protocol's
    // part. Said with the way out.
    for left in remaining.iter().filter(|d| d.code == Code::NotPortable) {
        notes.push(format!(
            "{}: {} stays where it is: it cannot move into `metadata` (the key is taken there, or it is a protocol's part); `--to extended` keeps the skill valid",
            left.file,
            left.message
                .split('`')
                .nth(1)
                .map_or_else(|| "a key".to_owned(), |key| format!("`{key}`"))
        ));
    }
    Ok(Migration {
        changes,
        rename,
        remaining,
        notes,
    })
}

/// `portable` has no `version` and no `x-` keys: a version other than the
/// default and the original of a slugged name move into `metadata`, the
/// specification's place for them (`metadata.version` is its own example).
/// Moves what `portable` has no key for into `metadata`; the keys whose
/// values went in as JSON text (lists and mappings).
fn into_metadata(skill: &mut crate::ir::Skill) -> Vec<String> {
    use crate::ir::{List, Str, Version};
    use crate::validate::keys::{Group, Held, KeyList};
    let extras = skill.extras();
    let table = &mut skill.table;
    let mut metadata: Vec<(String, String)> = (table.metadata())
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect();
    match std::mem::take(&mut table.version) {
        Version::Number(1) => {}
        Version::Number(n) => metadata.push(("version".to_owned(), n.to_string())),
        Version::Semver(text) | Version::Text(text) => {
            metadata.push(("version".to_owned(), text.into_owned()));
        }
    }
    let mut moved: Vec<(String, serde_json::Value)> = Vec::new();
    for (key, value) in extras {
        match (key.as_str(), value) {
            ("x-original-name", serde_json::Value::String(name)) => {
                metadata.push(("original-name".to_owned(), name));
            }
            (_, value) => moved.push((key, value)),
        }
    }
    // The extension fields the specification has no key for, and every
    // other extension key: `metadata` is the specification's place for
    // additional properties, string to string. A scalar moves as its text;
    // a list or a mapping as its JSON text (issue 40, item 8: `tags`,
    // `triggers`, `requires: {mcp: [rube]}` were left behind and failed
    // S113), which is lossless and which `lenient` reads back as text.
    let mut extensions: Vec<(String, serde_json::Value)> = Vec::new();
    for key in KeyList::DECLARED
        .0
        .iter()
        .filter(|key| key.group != Group::Spec)
    {
        let value = match key.held {
            Held::Text { get, set } => {
                let value = get(table).map(serde_json::Value::from);
                set(table, None);
                value
            }
            Held::Texts { get, set } => {
                let items = get(table);
                let value = (!items.is_empty()).then(|| serde_json::json!(items));
                set(table, List::default());
                value
            }
            Held::Elsewhere => None,
        };
        extensions.extend(value.map(|value| (key.name.to_owned(), value)));
    }
    extensions.extend(moved);
    let mut as_json = Vec::new();
    let mut kept = Vec::new();
    for (key, value) in extensions {
        if metadata.iter().any(|(k, _)| *k == key) {
            kept.push((Str::Owned(key), Str::Owned(value.to_string())));
            continue;
        }
        let text = match &value {
            serde_json::Value::String(text) => text.clone(),
            serde_json::Value::Bool(flag) => flag.to_string(),
            serde_json::Value::Number(number) => number.to_string(),
            other => {
                as_json.push(key.clone());
                other.to_string()
            }
        };
        metadata.push((key, text));
    }
    table.metadata = (metadata.into_iter())
        .map(|(key, value)| (Str::Owned(key), Str::Owned(value)))
        .collect();
    table.extras = kept.into();
    as_json
}

/// What a move into `metadata` costs: for each key a host reads at the top
/// level, which host stops seeing it.
fn host_notes(before: &crate::ir::Skill, after: &crate::ir::Skill) -> Vec<String> {
    before
        .table.extras
        .iter()
        .filter(|(key, _)| after.table.metadata.iter().any(|(k, _)| k == key))
        .filter_map(|(key, _)| {
            // Another client's key, which that client reads at the top level.
            let host = crate::validate::keys::find(key)?.host?;
            Some(format!(
                "{}: `{key}` moved into `metadata`, where {host} no longer reads it; for a skill written for {host}, `--to extended` keeps it",
                before.path()
            ))
        })
        .collect()
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
