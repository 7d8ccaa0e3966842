//! The `lenient` profile's repair of a skill file as other clients read
//! it: `description: Use when: ...` read as if the value were quoted.
//! What `lenient` then makes of the fields (a name from the directory,
//! Claude Code's `tools`) is judged in `validate/lenient.rs`.

use std::ops::Range;

use super::{frontmatter, yaml};
use crate::config::Config;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, FixIt, Severity};

/// The most lines `lenient` quotes in one frontmatter. Real collections
/// have at most three (BENCHMARKS.md's corpus).
pub const MAX_QUOTED_LINES: usize = 64;

/// The text a skill is read as, and what reading it found.
pub(super) struct Repaired {
    pub(super) source: SourceFile,
    /// The file's own text, when the repair patched it.
    pub(super) original: Option<String>,
    /// The frontmatter of `source` as parsed, so that it is parsed once.
    pub(super) parsed: Option<Parsed>,
}

/// A frontmatter already parsed: the range parsed, and the outcome.
pub(super) struct Parsed {
    pub(super) range: Range<usize>,
    pub(super) result: Result<Option<yaml::Node>, Vec<Diagnostic>>,
}

/// `lenient` reads `description: Use when: ...` as other clients do: the
/// value quoted (S007's fix-it applied), with a warning per line. The file
/// is then read, and its diagnostics shown, as patched; lines keep their
/// numbers. At most one fix per frontmatter line, so this ends.
///
/// Each fix means parsing the frontmatter again (the parser stops at the
/// first problem), so fixes are bounded: a frontmatter over the size limit
/// is left to the reader to refuse, unparsed, and after [`MAX_QUOTED_LINES`]
/// lines the next unquoted colon stays the error it is in other profiles.
/// Unbounded, a hostile file of 3,000 such lines took 5 s.
pub(super) fn quote_unquoted_colons(
    mut source: SourceFile,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Repaired {
    let mut patched_lines = Vec::new();
    let mut original = None;
    let mut parsed = None;
    while let Ok(framing) = frontmatter::split(&source, true) {
        let Some(range) = framing.yaml else { break };
        if range.len() > config.max_frontmatter_bytes {
            break;
        }
        let result = yaml::parse(&source, range.clone(), config.max_yaml_depth);
        let edit = match &result {
            Err(problems) => match problems.as_slice() {
                [problem] if problem.code == Code::UnquotedColon => problem
                    .fix
                    .as_ref()
                    .and_then(FixIt::replace)
                    .map(|(span, replacement)| (span.clone(), replacement.to_owned())),
                _ => None,
            },
            Ok(_) => None,
        };
        let Some((span, replacement)) = edit.filter(|(span, _)| {
            patched_lines.len() < MAX_QUOTED_LINES && !patched_lines.contains(&span.start.line)
        }) else {
            parsed = Some(Parsed { range, result });
            break;
        };
        let line = span.start.line;
        patched_lines.push(line);
        let mut text = source.text().to_owned();
        text.replace_range(span.bytes.clone(), &replacement);
        if original.is_none() {
            original = Some(source.text().to_owned());
        }
        source = SourceFile::new(source.path(), text);
        let line_range = source.line_range(line);
        diagnostics.push(
            Diagnostic::at(
                Code::UnquotedColon,
                &source,
                line_range,
                "unquoted `: ` inside a value; read as if the value were quoted (shown as read)",
            )
            .with_severity(Severity::Warning)
            .with_help("quote the value: other profiles and YAML parsers read a nested mapping"),
        );
    }
    Repaired {
        source,
        original,
        parsed,
    }
}
