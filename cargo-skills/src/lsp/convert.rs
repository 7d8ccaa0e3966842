//! The compiler's diagnostics and fix-its in the protocol's terms.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Range, TextEdit, Uri, WorkspaceEdit,
};
use serde_json::Value;
use skills_compiler::diagnostics::{Applicability, Span};
use skills_compiler::{Diagnostic, Severity};

use super::position::LineIndex;

/// The name diagnostics carry as their source.
const SOURCE: &str = "cargo-skills";

/// `compilation`'s diagnostics of the file at `path` (whose text is `text`).
pub fn diagnostics(found: &[Diagnostic], uri: &Uri, text: &str) -> Vec<lsp_types::Diagnostic> {
    let index = LineIndex::new(text);
    found
        .iter()
        .map(|diagnostic| one(diagnostic, uri, &index, text))
        .collect()
}

fn one(diagnostic: &Diagnostic, uri: &Uri, index: &LineIndex, text: &str) -> lsp_types::Diagnostic {
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<_> = diagnostic
        .labels
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range(&label.span, index, text)),
            message: label.message.clone(),
        })
        .collect();
    lsp_types::Diagnostic {
        range: diagnostic
            .span
            .as_ref()
            .map_or_else(Range::default, |span| range(span, index, text)),
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_string())),
        code_description: code_page(diagnostic.code),
        source: Some(SOURCE.to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// The code's page in the reference of every code (what `cargo skills
/// explain CODE` prints, as docs/diagnostics.md holds it).
fn code_page(code: skills_compiler::Code) -> Option<lsp_types::CodeDescription> {
    let heading = format!("{}: {}", code.as_str(), code.title());
    let href = format!(
        "{}/blob/main/docs/diagnostics.md#{}",
        env!("CARGO_PKG_REPOSITORY"),
        skills_compiler::ops::document::anchor(&heading)
    );
    Some(lsp_types::CodeDescription {
        href: href.parse().ok()?,
    })
}

/// A problem that kept the document from being checked at all (no package,
/// a manifest that does not configure), said at its first line.
pub fn unchecked(message: &str) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(SOURCE.to_owned()),
        message: format!("not checked: {message}"),
        ..Default::default()
    }
}

fn range(span: &Span, index: &LineIndex, text: &str) -> Range {
    Range::new(
        index.position(text, span.bytes.start),
        index.position(text, span.bytes.end),
    )
}

/// A pull request's answer: the whole report.
pub fn full_report(items: Vec<lsp_types::Diagnostic>) -> Value {
    serde_json::json!({"kind": "full", "items": items})
}

/// The fix-its of the file's diagnostics that touch `wanted` as quick fixes,
/// then "fix all" of the machine-applicable ones, when there are any.
pub fn code_actions(found: &[Diagnostic], uri: &Uri, text: &str, wanted: Range) -> Value {
    let index = LineIndex::new(text);
    let mut actions = Vec::new();
    let mut all = Vec::new();
    for diagnostic in found {
        let Some(fix) = &diagnostic.fix else { continue };
        let Some((span, replacement)) = fix.replace() else {
            continue;
        };
        let edit = TextEdit::new(range(span, &index, text), replacement.to_owned());
        let machine = fix.applicability == Applicability::MachineApplicable;
        if machine {
            all.push(edit.clone());
        }
        let at = diagnostic
            .span
            .as_ref()
            .map_or_else(Range::default, |span| range(span, &index, text));
        if !overlaps(at, wanted) {
            continue;
        }
        actions.push(CodeAction {
            title: fix.message.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![one(diagnostic, uri, &index, text)]),
            edit: Some(edit_of(uri, vec![edit])),
            is_preferred: Some(machine),
            ..Default::default()
        });
    }
    if let Some(edits) = without_overlaps(all) {
        actions.push(CodeAction {
            title: format!(
                "Fix all in this file ({} fix{})",
                edits.len(),
                if edits.len() == 1 { "" } else { "es" }
            ),
            kind: Some(CodeActionKind::SOURCE_FIX_ALL),
            edit: Some(edit_of(uri, edits)),
            ..Default::default()
        });
    }
    serde_json::to_value(actions).unwrap_or(Value::Null)
}

fn edit_of(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..Default::default()
    }
}

/// Whether two ranges share a position (an empty range at a diagnostic's
/// edge touches it, as a cursor does).
fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// The edits in order, each that overlaps an earlier one left out (the
/// protocol forbids overlapping edits in one change); `None` for none.
fn without_overlaps(mut edits: Vec<TextEdit>) -> Option<Vec<TextEdit>> {
    edits.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let mut kept: Vec<TextEdit> = Vec::new();
    for edit in edits {
        if kept
            .last()
            .is_none_or(|last| last.range.end <= edit.range.start)
        {
            kept.push(edit);
        }
    }
    (!kept.is_empty()).then_some(kept)
}

/// A tool's or a placeholder's hover, in markdown.
pub fn described(described: &skills_compiler::ops::document::Described) -> String {
    use skills_compiler::ops::document::Described;
    let schema = |value: &Value| serde_json::to_string_pretty(value).unwrap_or_default();
    match described {
        Described::Tool {
            name,
            description,
            endpoint,
            parameters,
        } => {
            let mut text = format!("**tool `{name}`**\n\n{description}\n");
            if let Some(endpoint) = endpoint {
                text.push_str(&format!("\n`{endpoint}`\n"));
            }
            text.push_str(&format!("\n```json\n{}\n```", schema(parameters)));
            text
        }
        Described::Placeholder {
            tool,
            name,
            schema: declared,
            required,
        } => {
            let required = if *required { "required" } else { "optional" };
            if declared.is_null() {
                format!("`{{{{{name}}}}}`: `{tool}` declares no parameter `{name}`")
            } else {
                format!(
                    "`{{{{{name}}}}}`: {required} parameter of `{tool}`\n\n```json\n{}\n```",
                    schema(declared)
                )
            }
        }
    }
}
