//! The four ways a diagnostic is printed: rustc-style (plain or coloured),
//! short, JSON lines and GitHub workflow annotations.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Patch, Renderer, Snippet};
use serde_json::json;

use super::source::{SourceFile, Sources};
use super::{Applicability, Diagnostic, Edit, FixIt, Severity, Span};
use std::ops::Range;

/// Output style for [`human`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// Plain text.
    Never,
    /// ANSI colours, as rustc prints them on a terminal.
    Always,
}

/// rustc-style: header with code, `--> file:line:col`, the source snippet with
/// a caret under the span, labels, help and the fix-it as a suggested edit.
pub fn human(diagnostic: &Diagnostic, sources: &Sources, color: Color) -> String {
    let source = sources.get(&diagnostic.file);
    let diagnostic = &*printable(diagnostic);
    if color == Color::Never
        && let Some(text) = source.and_then(|source| super::plain::render(diagnostic, source))
    {
        return text;
    }
    let rendered = annotated(diagnostic, source, color);
    match diagnostic.span {
        Some(_) => rendered,
        None => with_gutter(&rendered),
    }
}

/// A diagnostic of a whole file, laid out as one with a line: its ` --> `
/// and `= help` one column in, where a one-digit line number's gutter puts
/// them (annotate-snippets gives a file-only origin no gutter, so S524's
/// `--> skills/x/SKILL.md` stood a column left of S520's ` --> ` beside it).
fn with_gutter(rendered: &str) -> String {
    let mut lines = rendered.split('\n');
    let mut out = String::with_capacity(rendered.len() + 16);
    out.push_str(lines.next().unwrap_or_default());
    for line in lines {
        out.push('\n');
        if !line.is_empty() {
            out.push(' ');
        }
        out.push_str(line);
    }
    out
}

/// `diagnostic` with the text it quotes from files (message, labels, path,
/// fix) printed by the one rule, [`skills_core::printable`]: a key or
/// directory name holding a line break could otherwise print a line of its
/// own, such as GitHub's `::warning title=...::` workflow command. (The
/// help is escaped where it is set, [`Diagnostic::with_help`], because a
/// few helps are several lines on purpose.) Borrowed when nothing needs
/// it.
fn printable(diagnostic: &Diagnostic) -> std::borrow::Cow<'_, Diagnostic> {
    let texts = std::iter::once(diagnostic.message.as_str())
        .chain(std::iter::once(diagnostic.file.as_str()))
        .chain(diagnostic.labels.iter().map(|label| label.message.as_str()))
        .chain(diagnostic.fix.as_ref().map(|fix| fix.message.as_str()));
    if !texts
        .into_iter()
        .any(|text| matches!(skills_core::printable(text), std::borrow::Cow::Owned(_)))
    {
        return std::borrow::Cow::Borrowed(diagnostic);
    }
    let escape_acting = |text: &str| skills_core::printable(text).into_owned();
    let mut shown = diagnostic.clone();
    shown.message = escape_acting(&shown.message);
    shown.file = escape_acting(&shown.file);
    for label in &mut shown.labels {
        label.message = escape_acting(&label.message);
    }
    if let Some(fix) = &mut shown.fix {
        fix.message = escape_acting(&fix.message);
    }
    std::borrow::Cow::Owned(shown)
}

/// `human`, laid out by annotate-snippets: every shape and colour.
fn annotated(diagnostic: &Diagnostic, source: Option<&SourceFile>, color: Color) -> String {
    let renderer = match color {
        Color::Never => Renderer::plain(),
        Color::Always => Renderer::styled(),
    };
    let level = match diagnostic.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = level
        .primary_title(diagnostic.message.as_str())
        .id(diagnostic.code.as_str());
    let mut group = match (&diagnostic.span, source) {
        (Some(span), Some(source)) => {
            let spans = std::iter::once(span).chain(diagnostic.labels.iter().map(|l| &l.span));
            let excerpt = Excerpt::of(source, spans);
            let snippet = excerpt
                .snippet(&diagnostic.file)
                .annotation(AnnotationKind::Primary.span(excerpt.local(span)))
                .annotations(diagnostic.labels.iter().map(|label| {
                    AnnotationKind::Context
                        .span(excerpt.local(&label.span))
                        .label(label.message.as_str())
                }));
            title.element(snippet)
        }
        (Some(span), None) => title.element(
            Origin::path(diagnostic.file.as_str())
                .line(span.start.line as usize)
                .char_column(span.start.column as usize),
        ),
        (None, _) => title.element(Origin::path(diagnostic.file.as_str())),
    };
    if let Some(help) = &diagnostic.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    let mut report: Vec<Group<'_>> = vec![group];
    // A rename has no text to show: the help says it.
    if let (Some((span, replacement)), Some(fix), Some(source)) = (
        diagnostic.fix.as_ref().and_then(FixIt::replace),
        &diagnostic.fix,
        source,
    ) {
        let excerpt = Excerpt::of(source, [span]);
        report.push(
            Level::HELP.secondary_title(fix.message.as_str()).element(
                excerpt
                    .snippet(&diagnostic.file)
                    .patch(Patch::new(excerpt.local(span), replacement)),
            ),
        );
    }
    renderer.render(&report)
}

/// The whole lines of a file that some spans touch, quoted instead of the
/// file: annotate-snippets splits its whole source into lines on every
/// render, so quoting the file made each warning cost a pass over a body that
/// can be 50 KB: 13% of a check of the real corpus, on one thread. Rendered
/// text is the same, byte for byte (a property test below).
struct Excerpt<'a> {
    text: &'a str,
    offset: usize,
    first_line: usize,
}

impl<'a> Excerpt<'a> {
    fn of(source: &'a SourceFile, spans: impl IntoIterator<Item = &'a Span>) -> Self {
        let (start, end) = spans
            .into_iter()
            .fold((usize::MAX, 0), |(start, end), span| {
                (start.min(span.bytes.start), end.max(span.bytes.end))
            });
        // annotate-snippets counts the end of a file that ends with a line
        // break as the end of its last line, not as a line of its own.
        let text = source.text();
        let start = if start >= text.len() && text.ends_with('\n') {
            text.len() - 1
        } else {
            start
        };
        let (lines, first_line) = source.lines_around(start..end);
        Excerpt {
            text: &source.text()[lines.clone()],
            offset: lines.start,
            first_line,
        }
    }

    fn snippet<T: Clone>(&self, path: &'a str) -> Snippet<'a, T> {
        Snippet::source(self.text)
            .line_start(self.first_line)
            .path(path)
    }

    /// `span`'s bytes within the excerpt.
    fn local(&self, span: &Span) -> Range<usize> {
        span.bytes.start - self.offset..span.bytes.end - self.offset
    }
}

/// `file:line:col: error[S101]: message` (line and column omitted for whole-file problems).
pub fn short(diagnostic: &Diagnostic) -> String {
    let diagnostic = &*printable(diagnostic);
    let location = match &diagnostic.span {
        Some(span) => format!(
            "{}:{}:{}",
            diagnostic.file, span.start.line, span.start.column
        ),
        None => diagnostic.file.clone(),
    };
    format!(
        "{location}: {}[{}]: {}",
        diagnostic.severity.as_str(),
        diagnostic.code,
        diagnostic.message
    )
}

/// One JSON object on one line. Lines and columns are 1-based; `null` when the
/// problem concerns a whole file or directory. `rendered` holds the plain
/// rustc-style text, as cargo's JSON messages do.
pub fn json(diagnostic: &Diagnostic, sources: &Sources) -> String {
    let span = diagnostic.span.as_ref();
    let value = json!({
        "severity": diagnostic.severity.as_str(),
        "code": diagnostic.code.as_str(),
        "message": diagnostic.message,
        "file": diagnostic.file,
        "line": span.map(|s| s.start.line),
        "column": span.map(|s| s.start.column),
        "end_line": span.map(|s| s.end.line),
        "end_column": span.map(|s| s.end.column),
        "byte_start": span.map(|s| s.bytes.start),
        "byte_end": span.map(|s| s.bytes.end),
        "labels": diagnostic.labels.iter().map(|label| json!({
            "message": label.message,
            "line": label.span.start.line,
            "column": label.span.start.column,
            "byte_start": label.span.bytes.start,
            "byte_end": label.span.bytes.end,
        })).collect::<Vec<_>>(),
        "help": diagnostic.help,
        "fix": diagnostic.fix.as_ref().map(|fix| match &fix.edit {
            Edit::Replace { span, replacement } => json!({
                "message": fix.message,
                "replacement": replacement,
                "line": span.start.line,
                "column": span.start.column,
                "byte_start": span.bytes.start,
                "byte_end": span.bytes.end,
                "applicability": fix.applicability.as_str(),
            }),
            Edit::Rename { to } => json!({
                "message": fix.message,
                "rename_to": to,
                "applicability": fix.applicability.as_str(),
            }),
        }),
        "rendered": human(diagnostic, sources, Color::Never),
    });
    value.to_string()
}

/// One rustc JSON diagnostic (`{"$message_type": "diagnostic", "message",
/// "code": {"code"}, "level", "spans", "children", "rendered"}`), the shape
/// cargo forwards and editors such as rust-analyzer read (point its
/// `check.overrideCommand` at `cargo skills check --message-format rustc-json`).
/// Whole-file problems get a span at the start of the file so editors can show them.
pub fn rustc_json(diagnostic: &Diagnostic, sources: &Sources) -> String {
    let source = sources.get(&diagnostic.file);
    let span = |span: Option<&Span>,
                primary: bool,
                label: Option<&str>,
                replacement: Option<(&str, Applicability)>| {
        let (bytes, start, end) = match span {
            Some(span) => (
                span.bytes.clone(),
                (span.start.line, span.start.column),
                (span.end.line, span.end.column),
            ),
            None => (0..0, (1, 1), (1, 1)),
        };
        let text = match (span, source) {
            (Some(span), Some(source)) => {
                let line = &source.text()[source.line_range(span.start.line)];
                let end_column = if span.end.line == span.start.line {
                    span.end.column
                } else {
                    line.chars().count() as u32 + 1
                };
                vec![
                    json!({"text": line, "highlight_start": span.start.column, "highlight_end": end_column}),
                ]
            }
            _ => Vec::new(),
        };
        json!({
            "file_name": diagnostic.file,
            "byte_start": bytes.start, "byte_end": bytes.end,
            "line_start": start.0, "line_end": end.0,
            "column_start": start.1, "column_end": end.1,
            "is_primary": primary,
            "text": text,
            "label": label,
            "suggested_replacement": replacement.map(|(text, _)| text),
            "suggestion_applicability": replacement.map(|(_, applicability)| applicability.as_str()),
            "expansion": null,
        })
    };
    let child = |level: &str, message: &str, spans: Vec<serde_json::Value>| json!({"message": message, "code": null, "level": level, "spans": spans, "children": [], "rendered": null});
    let mut spans = vec![span(diagnostic.span.as_ref(), true, None, None)];
    spans.extend(
        diagnostic
            .labels
            .iter()
            .map(|l| span(Some(&l.span), false, Some(&l.message), None)),
    );
    let mut children = Vec::new();
    if let Some(help) = &diagnostic.help {
        children.push(child("help", help, Vec::new()));
    }
    if let Some(fix) = &diagnostic.fix {
        match &fix.edit {
            Edit::Replace {
                span: at,
                replacement,
            } => children.push(child(
                "help",
                &fix.message,
                vec![span(
                    Some(at),
                    true,
                    None,
                    Some((replacement, fix.applicability)),
                )],
            )),
            Edit::Rename { to } => children.push(child(
                "help",
                &format!("{}: rename it to `{to}`", fix.message),
                Vec::new(),
            )),
        }
    }
    json!({
        "$message_type": "diagnostic",
        "message": diagnostic.message,
        "code": {"code": diagnostic.code.as_str(), "explanation": super::explain(diagnostic.code)},
        "level": diagnostic.severity.as_str(),
        "spans": spans,
        "children": children,
        "rendered": human(diagnostic, sources, Color::Never),
    })
    .to_string()
}

/// A GitHub Actions workflow command: `::error file=F,line=L,col=C,...::message`.
pub fn github(diagnostic: &Diagnostic) -> String {
    let diagnostic = &*printable(diagnostic);
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut properties = vec![format!("file={}", escape_property(&diagnostic.file))];
    if let Some(span) = &diagnostic.span {
        properties.push(format!("line={}", span.start.line));
        properties.push(format!("col={}", span.start.column));
        properties.push(format!("endLine={}", span.end.line));
        properties.push(format!("endColumn={}", span.end.column));
    }
    properties.push(format!(
        "title={}",
        escape_property(diagnostic.code.as_str())
    ));
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    // Codes whose advice is their fix-it (S007's "quote the value") have no
    // help of their own: the fix says what to do, as in the human form.
    if let Some(fix) = diagnostic
        .fix
        .as_ref()
        .filter(|_| diagnostic.help.is_none())
    {
        message.push_str("\nhelp: ");
        message.push_str(&fix.message);
        if let Some(replacement) = fix.replacement().filter(|r| !r.contains('\n')) {
            message.push_str(&format!(": `{replacement}`"));
        }
    }
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&message)
    )
}

/// rustc's closing lines, for the codes of the errors shown: where to read
/// more (`cargo skills explain`). `None` without errors.
pub fn explain_footer(codes: &std::collections::BTreeSet<super::Code>) -> Option<String> {
    let first = codes.iter().next()?;
    Some(if codes.len() == 1 {
        format!("For more information about this error, try `cargo skills explain {first}`.")
    } else {
        let all: Vec<&str> = codes.iter().map(|code| code.as_str()).collect();
        format!(
            "Some errors have detailed explanations: {}.\nFor more information about an error, try `cargo skills explain {first}`.",
            all.join(", ")
        )
    })
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;
    use crate::diagnostics::source::SourceFile;

    /// `human` as it was before excerpts: the whole file given to
    /// annotate-snippets. Quoting only the annotated lines must not change a
    /// byte of the output.
    fn human_quoting_the_whole_file(diagnostic: &Diagnostic, source: &SourceFile) -> String {
        let span = diagnostic.span.as_ref().unwrap();
        let title = Level::ERROR
            .primary_title(diagnostic.message.as_str())
            .id(diagnostic.code.as_str());
        let snippet = Snippet::source(source.text())
            .path(diagnostic.file.as_str())
            .annotation(AnnotationKind::Primary.span(span.bytes.clone()))
            .annotations(diagnostic.labels.iter().map(|label| {
                AnnotationKind::Context
                    .span(label.span.bytes.clone())
                    .label(label.message.as_str())
            }));
        let mut report = vec![title.element(snippet)];
        if let (Some(fix), Some((span, replacement))) = (
            &diagnostic.fix,
            diagnostic.fix.as_ref().and_then(FixIt::replace),
        ) {
            report.push(
                Level::HELP.secondary_title(fix.message.as_str()).element(
                    Snippet::source(source.text())
                        .path(diagnostic.file.as_str())
                        .patch(Patch::new(span.bytes.clone(), replacement)),
                ),
            );
        }
        Renderer::plain().render(&report)
    }

    mod excerpts {
        use super::*;
        use proptest::prelude::*;

        fn range(len: usize) -> impl Strategy<Value = Range<usize>> {
            (0..=len, 0..=8usize).prop_map(move |(start, width)| start..(start + width).min(len))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]
            #[test]
            fn quote_the_same_as_the_whole_file(
                (text, primary, label, fix) in "([a-z :\t\r]{0,12}\n){0,12}[a-zé😀 ]{0,6}".prop_flat_map(|text| {
                    let len = text.len();
                    (Just(text), range(len), proptest::option::of(range(len)), proptest::option::of(range(len)))
                })
            ) {
                let file = SourceFile::new("skills/a/SKILL.md", text);
                let mut diagnostic = Diagnostic::at(Code::NameCharacters, &file, primary, "bad");
                if let Some(label) = label {
                    diagnostic = diagnostic.with_label(&file, label, "first here");
                }
                if let Some(fix) = fix {
                    diagnostic = diagnostic.with_fix(&file, fix, "`x`", "quote it");
                }
                let whole = human_quoting_the_whole_file(&diagnostic, &file);
                // `annotated`, not `human`: the direct way has its own test.
                let excerpt = annotated(&diagnostic, Some(&file), Color::Never);
                if excerpt != whole {
                    // annotate-snippets 0.12 sizes the gutter from the lines
                    // before the last annotated byte, so a span that ends at
                    // the start of line 10 gets a 1-wide gutter and `10|`.
                    // An excerpt that starts at that line counts it; that is
                    // the one difference allowed, and only towards the right.
                    prop_assert!(!gutter_fits(&whole), "{whole}");
                    prop_assert!(gutter_fits(&excerpt), "{excerpt}");
                }
            }
        }

        /// Every quoted line's number fits the gutter that the ` --> ` line sets.
        fn gutter_fits(rendered: &str) -> bool {
            let Some(width) = rendered.lines().find_map(|line| line.find("--> ")) else {
                return true;
            };
            rendered
                .lines()
                .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                .all(|line| {
                    line.len() > width
                        && line.as_bytes()[width - 1].is_ascii_digit()
                        && line.as_bytes()[width] == b' '
                })
        }

        #[test]
        fn a_gutter_that_is_too_narrow_is_seen() {
            let narrow = "error[S103]: bad\n --> a.md:10:1\n  |\n10| bb\n  | ^";
            let wide = "error[S103]: bad\n  --> a.md:10:1\n   |\n 9 | a\n10 | bb\n   | ^";
            assert!(!gutter_fits(narrow));
            assert!(gutter_fits(wide));
        }
    }

    /// The direct way of `plain` against annotate-snippets, on lines short
    /// and long, indented, with tabs, CRLF, wide and zero-width characters,
    /// at line numbers on both sides of each gutter width, with and without
    /// help.
    mod direct {
        use super::*;
        use crate::diagnostics::plain;
        use proptest::prelude::*;

        fn case() -> impl Strategy<Value = (String, Range<usize>, String, Option<String>, bool)> {
            let before = prop_oneof![0..12usize, 96..=101usize, 997..=1001usize];
            let line = prop_oneof![
                "[ -~]{0,150}",
                "[ -~]{120,400}",
                "[ ]{0,60}[a-z:`-]{0,12}",
                "[ ]{0,60}[a-z: ]{100,200}",
                "[ -~\t\ré😀]{0,20}",
                // Wide and narrow characters, lines that fit and lines that
                // are cut, and characters of no width.
                "[ a-z`é中文😀]{0,60}",
                "[ ]{0,40}[a-z中😀 ]{40,160}",
                "[a-z \u{0301}\u{200b}\u{ff21}中]{0,30}",
                "[ -~]{100,300}[é—][ -~]{100,300}",
            ];
            let end = prop_oneof![Just(""), Just("\n"), Just("\r\n"), Just("\nnext\n")];
            let text = "[ -~é😀\u{200d}\u{202a}\u{202e}\u{2066}\u{2069}]{0,30}";
            let note = prop_oneof![text.boxed(), "[a-z \n\t]{0,12}".boxed()];
            (
                before,
                line,
                end,
                note.clone(),
                proptest::option::of(note),
                any::<bool>(),
            )
                .prop_flat_map(|(before, line, end, message, help, error)| {
                    let text = format!("{}{line}{end}", "a\n".repeat(before));
                    let at = before * 2;
                    let len = text.len();
                    let anywhere = (
                        at..=(at + line.len() + 2).min(len),
                        prop_oneof![0..=12usize, 0..=300usize],
                    )
                        .prop_map(move |(start, width)| start..(start + width).min(len));
                    // The whole line, as W010 and the frontmatter's spans are.
                    let whole_line = Just(at..at + line.len());
                    (
                        Just(text),
                        prop_oneof![3 => anywhere, 1 => whole_line],
                        Just(message),
                        Just(help),
                        Just(error),
                    )
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2048))]
            #[test]
            fn writes_what_annotate_snippets_lays_out(
                (text, span, message, help, error) in case(),
                path in "skills/[a-z é😀\u{202e}]{1,6}/SKILL\\.md",
            ) {
                let file = SourceFile::new(path, text);
                let mut diagnostic = Diagnostic::at(Code::UnknownKey, &file, span, message);
                if error {
                    diagnostic.severity = Severity::Error;
                }
                if let Some(help) = help {
                    diagnostic = diagnostic.with_help(help);
                }
                if let Some(direct) = plain::render(&diagnostic, &file) {
                    prop_assert_eq!(direct, annotated(&diagnostic, Some(&file), Color::Never));
                }
            }
        }

        /// A span more than twice the window wide loses its middle; on a
        /// line with a character of more than one byte, annotate-snippets
        /// cuts it (the corpus has such a W010).
        #[test]
        fn a_wide_span_on_a_line_of_other_characters_is_cut_as_annotate_snippets_cuts_it() {
            let line = format!("{}—{}", "x".repeat(150), "y".repeat(150));
            let file = SourceFile::new("a.md", format!("{line}\n"));
            let diagnostic = Diagnostic::at(Code::UnknownKey, &file, 0..line.len(), "m");
            let expected = annotated(&diagnostic, Some(&file), Color::Never);
            if let Some(direct) = plain::render(&diagnostic, &file) {
                assert_eq!(direct, expected);
            }
            assert_eq!(human_of(&diagnostic, &file), expected);
        }

        fn human_of(diagnostic: &Diagnostic, file: &SourceFile) -> String {
            let mut sources = Sources::default();
            sources.insert(file.clone());
            human(diagnostic, &sources, Color::Never)
        }

        /// The shapes that most diagnostics have go the direct way.
        #[test]
        fn common_shapes_go_the_direct_way() {
            let text = "---\nname: a\ncategory: x\n---\n# Title\n";
            let file = SourceFile::new("skills/a/SKILL.md", text);
            let shapes = [
                Diagnostic::at(Code::UnknownKey, &file, 12..20, "unknown key")
                    .with_help("prefix it"),
                Diagnostic::at(Code::NameMismatch, &file, 10..11, "mismatch"),
                Diagnostic::at(
                    Code::UnknownKey,
                    &file,
                    11..11,
                    "empty, at the end of a line",
                ),
                Diagnostic::at(Code::UnknownKey, &file, 28..35, "the last line"),
            ];
            let mut sources = Sources::default();
            sources.insert(file.clone());
            for diagnostic in &shapes {
                let direct = plain::render(diagnostic, &file);
                assert!(direct.is_some(), "{diagnostic:?}");
                assert_eq!(human(diagnostic, &sources, Color::Never), direct.unwrap());
            }
        }
    }

    fn sample() -> (Diagnostic, Sources) {
        let file = SourceFile::new("skills/a/SKILL.md", "---\nname: A\n---\n");
        let diagnostic = Diagnostic::at(Code::NameCharacters, &file, 10..11, "bad, name: A")
            .with_help("use lowercase");
        let mut sources = Sources::default();
        sources.insert(file);
        (diagnostic, sources)
    }

    /// ASCII text is checked byte by byte: an escape, a line break or DEL
    /// in an all-ASCII message or path is escaped as in any other text.
    #[test]
    fn ascii_control_characters_are_escaped() {
        let file = SourceFile::new("skills/a\r/SKILL.md", "---\nname: a\n---\n");
        let diagnostic = Diagnostic::at(
            Code::UnknownKey,
            &file,
            4..8,
            "x\n::warning::y\u{1b}[2J\u{7f}\tz",
        );
        let mut sources = Sources::default();
        sources.insert(file);
        let text = human(&diagnostic, &sources, Color::Never);
        assert!(!text.contains(['\u{1b}', '\u{7f}', '\r']), "{text:?}");
        assert!(
            !text.lines().any(|line| line.starts_with("::warning")),
            "{text}"
        );
        assert!(
            text.contains("x\\u{a}::warning::y\\u{1b}[2J\\u{7f}"),
            "{text}"
        );
        assert!(text.contains("skills/a\\u{d}/SKILL.md"), "{text}");
    }

    #[test]
    fn short_has_location_and_code() {
        let (diagnostic, _) = sample();
        assert_eq!(
            short(&diagnostic),
            "skills/a/SKILL.md:2:7: error[S103]: bad, name: A"
        );
    }

    #[test]
    fn github_escapes_data_and_properties() {
        let (mut diagnostic, _) = sample();
        diagnostic.file = "a,b:c.md".into();
        assert_eq!(
            github(&diagnostic),
            "::error file=a%2Cb%3Ac.md,line=2,col=7,endLine=2,endColumn=8,title=S103::bad, name: A%0Ahelp: use lowercase"
        );
    }

    #[test]
    fn json_is_one_line_with_the_required_fields() {
        let (diagnostic, sources) = sample();
        let line = json(&diagnostic, &sources);
        assert!(!line.contains('\n'));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["severity"], "error");
        assert_eq!(value["code"], "S103");
        assert_eq!(value["file"], "skills/a/SKILL.md");
        assert_eq!(value["line"], 2);
        assert_eq!(value["column"], 7);
        assert_eq!(value["end_column"], 8);
    }

    #[test]
    fn colour_only_when_asked() {
        let (diagnostic, sources) = sample();
        assert!(human(&diagnostic, &sources, Color::Always).contains("\x1b["));
        assert!(!human(&diagnostic, &sources, Color::Never).contains('\x1b'));
    }

    #[test]
    fn human_points_at_the_span() {
        let (diagnostic, sources) = sample();
        let text = human(&diagnostic, &sources, Color::Never);
        assert!(text.contains("error[S103]: bad, name: A"), "{text}");
        assert!(text.contains("--> skills/a/SKILL.md:2:7"), "{text}");
        assert!(text.contains("help: use lowercase"), "{text}");
    }

    /// Issue 75, item 8: a diagnostic of a whole file (S524) and one at a
    /// line (S520) show their ` --> ` in the same column, in both colours.
    #[test]
    fn a_whole_file_and_a_line_are_shown_in_one_layout() {
        let (at_line, mut sources) = sample();
        let lock = SourceFile::new(
            "skills-lock.json",
            "{\n  \"skills\": {\n    \"pdf\": {}\n  }\n}\n",
        );
        let at_entry = Diagnostic::at(Code::LockMismatch, &lock, 20..25, "differs");
        sources.insert(lock);
        let whole_file = Diagnostic::error(Code::SignatureTampered, "skills/x/SKILL.md", "changed")
            .with_help("sign it again");
        for color in [Color::Never, Color::Always] {
            let arrow = |d: &Diagnostic| {
                let text = without_colour(&human(d, &sources, color));
                let line = text.lines().find(|l| l.contains("--> ")).unwrap();
                (line.find("--> ").unwrap(), text.clone())
            };
            let (file_column, file_text) = arrow(&whole_file);
            assert_eq!(arrow(&at_entry).0, file_column, "{file_text}");
            assert_eq!(arrow(&at_line).0, file_column, "{file_text}");
            assert!(file_text.contains(" --> skills/x/SKILL.md"), "{file_text}");
            assert!(file_text.contains("= help: sign it again"), "{file_text}");
        }
        let lock_text = human(&at_entry, &sources, Color::Never);
        assert!(
            lock_text.contains(" --> skills-lock.json:3:5"),
            "{lock_text}"
        );
    }

    /// `text` without its colour escapes (`\x1b[...m`).
    fn without_colour(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                chars.by_ref().find(|&c| c == 'm');
            } else {
                out.push(c);
            }
        }
        out
    }
}
