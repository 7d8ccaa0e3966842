//! The shared helpers every rule uses to read typed values out of YAML nodes
//! and report problems against one source file.

use std::ops::Range;

use crate::config::Profile;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity, closest};
use crate::read::yaml::{Entry, Node, Value, quote};

/// One file being validated and the problems found so far.
pub(crate) struct Ctx<'a> {
    pub source: &'a SourceFile,
    pub profile: Profile,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        source: &'a SourceFile,
        profile: Profile,
        diagnostics: &'a mut Vec<Diagnostic>,
    ) -> Self {
        Ctx {
            source,
            profile,
            diagnostics,
        }
    }

    /// The same diagnostics list, for another file (a sidecar `tools.yaml`).
    pub(crate) fn for_file<'b>(&'b mut self, source: &'b SourceFile) -> Ctx<'b> {
        Ctx {
            source,
            profile: self.profile,
            diagnostics: self.diagnostics,
        }
    }

    /// Reports a problem: `ctx.push(ctx.error(code, span, "...").with_help("..."))`,
    /// one call (the diagnostic is built from the same context it goes into).
    pub(crate) fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// An error at `span`, returned for decoration before it is pushed.
    pub(crate) fn error(
        &self,
        code: Code,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::at(code, self.source, span, message)
    }

    /// An error in the strict profiles, a warning in `lenient`.
    pub(crate) fn error_unless_lenient(
        &self,
        code: Code,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let severity = if self.profile == Profile::Lenient {
            Severity::Warning
        } else {
            Severity::Error
        };
        self.error(code, span, message).with_severity(severity)
    }

    /// A string field. A non-string scalar gets S102 with the fix-it "quote it".
    pub(crate) fn string(&mut self, node: &Node, field: &str) -> Option<String> {
        match &node.value {
            Value::String(s) => Some(s.clone()),
            _ if node.is_scalar() && node.value != Value::Null => {
                let text = self.source.text()[node.span.clone()].to_owned();
                self.push(
                    self.error(
                        Code::WrongType,
                        node.span.clone(),
                        format!("`{field}` must be a string, found {}", node.type_name()),
                    )
                    .with_fix(
                        self.source,
                        node.span.clone(),
                        quote(&text),
                        "quote it",
                    ),
                );
                None
            }
            _ => {
                self.push(self.error(
                    Code::WrongType,
                    node.span.clone(),
                    format!("`{field}` must be a string, found {}", node.type_name()),
                ));
                None
            }
        }
    }

    /// A string that must not be empty after trimming.
    pub(crate) fn non_empty_string(
        &mut self,
        node: &Node,
        field: &str,
        code: Code,
    ) -> Option<String> {
        let value = self.string(node, field)?;
        if value.trim().is_empty() {
            self.push(self.error(
                code,
                node.span.clone(),
                format!("`{field}` must not be empty"),
            ));
            return None;
        }
        Some(value)
    }

    /// A list of non-empty strings; a single string is one item.
    pub(crate) fn string_list(&mut self, node: &Node, field: &str) -> Vec<String> {
        match &node.value {
            Value::String(s) if !s.trim().is_empty() => vec![s.clone()],
            Value::Seq(items) => items
                .iter()
                .filter_map(|item| match item.as_str() {
                    Some(s) if !s.trim().is_empty() => Some(s.to_owned()),
                    None if self.profile == Profile::Lenient
                        && matches!(item.value, Value::Map(_) | Value::Seq(_)) =>
                    {
                        let text = item.to_json().to_string();
                        self.push(
                            self.error(
                                Code::StringList,
                                item.span.clone(),
                                format!(
                                    "an item of `{field}` is {}; kept as the text `{text}`",
                                    describe(item)
                                ),
                            )
                            .with_severity(Severity::Warning)
                            .with_help(format!("write each item of `{field}` as one string")),
                        );
                        Some(text)
                    }
                    _ => {
                        self.push(self.error(
                            Code::StringList,
                            item.span.clone(),
                            format!(
                                "every item of `{field}` must be a non-empty string, found {}",
                                describe(item)
                            ),
                        ));
                        None
                    }
                })
                .collect(),
            _ => {
                self.push(self.error(
                    Code::StringList,
                    node.span.clone(),
                    format!(
                        "`{field}` must be a list of non-empty strings, found {}",
                        describe(node)
                    ),
                ));
                Vec::new()
            }
        }
    }

    /// The entries of a mapping, or S-`code` when it is something else.
    pub(crate) fn map<'n>(&mut self, node: &'n Node, field: &str, code: Code) -> &'n [Entry] {
        match node.as_map() {
            Some(entries) => entries,
            None => {
                self.push(self.error(
                    code,
                    node.span.clone(),
                    format!("`{field}` must be a mapping, found {}", node.type_name()),
                ));
                &[]
            }
        }
    }

    /// An unknown key, with a did-you-mean among `known`.
    pub(crate) fn unknown_key(
        &self,
        code: Code,
        entry: &Entry,
        context: &str,
        known: &[&str],
    ) -> Diagnostic {
        let diagnostic = self.error(
            code,
            entry.key_span.clone(),
            format!("unknown key `{}` in {context}", entry.key),
        );
        match closest(&entry.key, known.iter().copied()) {
            Some(suggestion) => diagnostic
                .with_help(format!("did you mean `{suggestion}`?"))
                .with_suggestion(
                    self.source,
                    entry.key_span.clone(),
                    suggestion,
                    format!("rename to `{suggestion}`"),
                ),
            None => diagnostic.with_help(format!("expected one of: {}", known.join(", "))),
        }
    }

    /// The byte range in the file of `range` within the string value of `node`,
    /// when the value is written plainly or quoted without escapes; otherwise
    /// the whole node.
    pub(crate) fn sub_span(&self, node: &Node, range: Range<usize>) -> Range<usize> {
        let Some(value) = node.as_str() else {
            return node.span.clone();
        };
        let raw = &self.source.text()[node.span.clone()];
        let inner_start = if raw == value {
            Some(node.span.start)
        } else if raw.len() == value.len() + 2 && raw.get(1..raw.len() - 1) == Some(value) {
            Some(node.span.start + 1)
        } else {
            None
        };
        match inner_start {
            Some(start) if range.end <= value.len() => start + range.start..start + range.end,
            _ => node.span.clone(),
        }
    }
}

/// "an empty string", "a mapping", ...
fn describe(node: &Node) -> &'static str {
    match &node.value {
        Value::String(s) if s.trim().is_empty() => "an empty string",
        _ => node.type_name(),
    }
}
