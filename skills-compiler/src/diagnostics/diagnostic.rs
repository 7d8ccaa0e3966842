//! A located, coded problem: what every rule reports, with its span, labels,
//! help and fix-it, and the few operations over a list of them.

use std::ops::Range;

use super::codes::Code;
use super::source::{LineCol, SourceFile, floor_char_boundary};

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The build fails.
    Error,
    /// Reported; the build goes on (unless warnings are denied).
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A place in a file: the byte range and where it starts and ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The byte range in the file.
    pub bytes: Range<usize>,
    /// Where it starts.
    pub start: LineCol,
    /// Where it ends (exclusive).
    pub end: LineCol,
}

impl Span {
    /// The span of `bytes` in `file`, widened to whole characters and clamped
    /// to the file, so that no renderer ever slices inside a character.
    pub fn new(file: &SourceFile, bytes: Range<usize>) -> Self {
        let text = file.text();
        let start = floor_char_boundary(text, bytes.start.min(text.len()));
        let mut end = bytes.end.clamp(start, text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        // The end after the start: the file's line look-up counts on from
        // the last offset, so the second costs only the span's own bytes.
        Span {
            start: file.line_col(start),
            end: file.line_col(end),
            bytes: start..end,
        }
    }
}

/// A secondary place that explains the primary one ("first declared here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it says of that place.
    pub message: String,
}

/// What fixes the problem, with how sure the compiler is of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixIt {
    /// What the fix does, in words (`rename the file to ...`).
    pub message: String,
    /// The edit.
    pub edit: Edit,
    /// Whether a tool may apply it unasked.
    pub applicability: Applicability,
}

/// The kinds of fix-it: an edit of the text, or a rename of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Replace `span` of the diagnostic's file with `replacement`.
    Replace {
        /// The part of the file replaced.
        span: Span,
        /// What goes there.
        replacement: String,
    },
    /// Rename the diagnostic's file to `to` (a path written as the
    /// diagnostic's `file` is: `skills/a/skill.md` to `skills/a/SKILL.md`).
    Rename {
        /// The new path.
        to: String,
    },
}

impl FixIt {
    /// The text edit: where, and what goes there.
    pub fn replace(&self) -> Option<(&Span, &str)> {
        match &self.edit {
            Edit::Replace { span, replacement } => Some((span, replacement)),
            Edit::Rename { .. } => None,
        }
    }

    /// The replacement text, for an edit.
    pub fn replacement(&self) -> Option<&str> {
        self.replace().map(|(_, replacement)| replacement)
    }

    /// The new path, for a rename.
    pub fn renamed_to(&self) -> Option<&str> {
        match &self.edit {
            Edit::Rename { to } => Some(to),
            Edit::Replace { .. } => None,
        }
    }
}

/// Whether a tool may apply a fix-it unasked (rustc's terms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Applicability {
    /// Applying it cannot change the meaning beyond the fix: it writes what
    /// the reader already assumed (quoting a value, upper-casing a method).
    /// `cargo skills fix` applies these.
    MachineApplicable,
    /// A guess (a did-you-mean): shown, never applied by a tool.
    MaybeIncorrect,
}

impl Applicability {
    /// As rustc's JSON spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::MachineApplicable => "MachineApplicable",
            Applicability::MaybeIncorrect => "MaybeIncorrect",
        }
    }
}

/// One problem, with everything a person or an editor needs to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The stable code, which `cargo skills explain` expands.
    pub code: Code,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The file (or directory) at fault, relative to the crate root.
    pub file: String,
    /// Where in `file`; `None` when the problem is the file or directory as a whole.
    pub span: Option<Span>,
    /// Other places that explain this one.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// An edit that fixes it, when one is known.
    pub fix: Option<FixIt>,
    /// The skill folder the problem belongs to when `file` is not inside
    /// it (a lock entry that differs from the skill): counted against that
    /// skill. `None`: the skill whose folder holds `file`, if any.
    pub skill: Option<String>,
}

impl Diagnostic {
    /// An error about a whole file or directory.
    pub fn error(code: Code, file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            file: file.into(),
            span: None,
            labels: Vec::new(),
            help: None,
            fix: None,
            skill: None,
        }
    }

    /// A warning about a whole file or directory.
    pub fn warning(code: Code, file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, file, message)
        }
    }

    /// An error at `bytes` of `source`.
    pub fn at(
        code: Code,
        source: &SourceFile,
        bytes: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            span: Some(Span::new(source, bytes)),
            ..Diagnostic::error(code, source.path(), message)
        }
    }

    /// Counts the problem against the skill in `folder`, whatever file it
    /// is located in.
    pub fn of_skill(mut self, folder: impl Into<String>) -> Self {
        self.skill = Some(folder.into());
        self
    }

    /// The file whose skill the problem counts against: [`Diagnostic::skill`]
    /// when set, else its own file.
    pub fn owner_file(&self) -> &str {
        self.skill.as_deref().unwrap_or(&self.file)
    }

    /// Sets the severity (the lint levels make a warning an error).
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Sets the help line. Names and values it quotes from files are
    /// printed by the one rule ([`skills_core::printable`]): a line break or
    /// an ESC in a directory name shows as an escape, not as a new line of
    /// output (a CI log reads one as a command).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        self.help = Some(skills_core::printable(&help).into_owned());
        self
    }

    /// Sets a help of several lines, such as a skeleton to paste; each
    /// line is escaped as [`with_help`](Self::with_help) escapes one.
    pub fn with_help_lines<'a>(mut self, lines: impl IntoIterator<Item = &'a str>) -> Self {
        let lines: Vec<String> = lines
            .into_iter()
            .map(|line| skills_core::printable(line).into_owned())
            .collect();
        self.help = Some(lines.join("\n"));
        self
    }

    /// Adds a secondary place of `file` with what it says.
    pub fn with_label(
        mut self,
        source: &SourceFile,
        bytes: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        self.labels.push(Label {
            span: Span::new(source, bytes),
            message: message.into(),
        });
        self
    }

    /// Sets the fix-it.
    pub fn with_fix(
        self,
        source: &SourceFile,
        bytes: Range<usize>,
        replacement: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.with_edit(
            source,
            bytes,
            replacement.into(),
            message.into(),
            Applicability::MachineApplicable,
        )
    }

    /// A fix-it that is a guess (a did-you-mean): shown, never applied by `fix`.
    pub fn with_suggestion(
        self,
        source: &SourceFile,
        bytes: Range<usize>,
        replacement: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.with_edit(
            source,
            bytes,
            replacement.into(),
            message.into(),
            Applicability::MaybeIncorrect,
        )
    }

    fn with_edit(
        mut self,
        source: &SourceFile,
        bytes: Range<usize>,
        replacement: String,
        message: String,
        applicability: Applicability,
    ) -> Self {
        // A fix-it most often replaces what the diagnostic points at; its
        // span again would be an offset behind the file's last look-up,
        // which scans from the start.
        let span = match &self.span {
            Some(span) if span.bytes == bytes && self.file == source.path() => span.clone(),
            _ => Span::new(source, bytes),
        };
        self.fix = Some(FixIt {
            message,
            edit: Edit::Replace { span, replacement },
            applicability,
        });
        self
    }

    /// A machine-applicable fix-it that renames the diagnostic's file.
    pub fn with_rename(mut self, to: impl Into<String>, message: impl Into<String>) -> Self {
        self.fix = Some(FixIt {
            message: message.into(),
            edit: Edit::Rename { to: to.into() },
            applicability: Applicability::MachineApplicable,
        });
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// 1-based line, if the diagnostic points into the file.
    pub fn line(&self) -> Option<u32> {
        self.span.as_ref().map(|span| span.start.line)
    }

    /// 1-based column, if the diagnostic points into the file.
    pub fn column(&self) -> Option<u32> {
        self.span.as_ref().map(|span| span.start.column)
    }

    /// The order diagnostics are reported in: by file, position, then code.
    fn sort_key(&self) -> (&str, Option<LineCol>, Code, &str) {
        (
            &self.file,
            self.span.as_ref().map(|span| span.start),
            self.code,
            &self.message,
        )
    }
}

/// Sorts diagnostics into their reporting order and drops exact repeats.
pub fn sort(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
}

/// Turns every warning into an error (`deny_warnings`, `-D warnings`).
pub fn deny_warnings(diagnostics: &mut [Diagnostic]) {
    for diagnostic in diagnostics {
        diagnostic.severity = Severity::Error;
    }
}

/// Did-you-mean, the one rule the compiler and the runtime share.
pub use skills_core::closest;
