//! Applying fix-its: the machine-applicable ones, to the bytes they name and
//! no others, so the body, comments, key order, line endings and a BOM stay
//! as they were. `cargo skills fix` is a thin front end over [`skill`].
//!
//! ```
//! use skills_compiler::{Config, fix, validate::SkillFiles};
//!
//! let files = SkillFiles {
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
use crate::diagnostics::{Applicability, Code, Diagnostic, FixIt};
use crate::source::Sources;
use crate::validate::{self, SkillFiles};

/// A fix can uncover another (an unquoted `: ` hides the rest of the YAML
/// from the parser): fixing repeats until nothing applies, at most this often.
pub const MAX_PASSES: usize = 8;

/// One fix-it applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub code: Code,
    pub message: String,
}

/// A file whose text the fixes changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub before: String,
    pub after: String,
}

/// What fixing one skill did.
#[derive(Debug, Clone, Default)]
pub struct Fixed {
    /// Each changed file once, with its text before and after every pass.
    pub changes: Vec<Change>,
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
    Applied {
        file: path.to_owned(),
        line: fix.span.start.line,
        column: fix.span.start.column,
        code: diagnostic.code,
        message: fix.message.clone(),
    }
}

fn diagnose(files: &SkillFiles, config: &Config) -> Vec<Diagnostic> {
    let mut sources = Sources::default();
    let mut diagnostics = Vec::new();
    validate::skill(files.clone(), config, &mut sources, &mut diagnostics);
    diagnostics
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
pub fn apply<'a>(text: &str, fixes: impl IntoIterator<Item = &'a FixIt>) -> (String, Vec<usize>) {
    let mut fixes: Vec<(usize, &FixIt)> = fixes.into_iter().enumerate().collect();
    fixes.sort_by_key(|(_, fix)| (fix.span.bytes.start, fix.span.bytes.end));
    let mut out = String::with_capacity(text.len());
    let mut used = Vec::new();
    let mut at = 0;
    for (index, fix) in fixes {
        let range = fix.span.bytes.clone();
        let fits = range.start >= at
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end);
        if !fits || text[range.clone()] == fix.replacement {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&fix.replacement);
        at = range.end;
        used.push(index);
    }
    out.push_str(&text[at..]);
    (out, used)
}
