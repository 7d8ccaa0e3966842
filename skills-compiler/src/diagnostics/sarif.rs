//! SARIF 2.1.0, which GitHub code scanning and most CI dashboards read: one
//! log for a whole check, its rules the code registry, each fix-it a `fix`.

use serde_json::{Value, json};

use super::codes::{Code, explain};
use super::{Diagnostic, Edit, Severity, Span};

/// One SARIF log of `diagnostics`, from `tool` at `version`. Columns count
/// Unicode code points, as every other format here does.
pub fn log(diagnostics: &[Diagnostic], tool: &str, version: &str) -> String {
    let rules: Vec<Value> = Code::ALL.iter().map(|code| rule(*code)).collect();
    let results: Vec<Value> = diagnostics.iter().map(result).collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": tool,
                "version": version,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

fn rule(code: Code) -> Value {
    json!({
        "id": code.as_str(),
        "shortDescription": {"text": code.title()},
        "fullDescription": {"text": code.fix()},
        "help": {"text": explain(code)},
        "defaultConfiguration": {"level": if code.as_str().starts_with('W') { "warning" } else { "error" }},
    })
}

fn result(diagnostic: &Diagnostic) -> Value {
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let mut location = json!({"physicalLocation": {
        "artifactLocation": {"uri": diagnostic.file},
    }});
    if let Some(span) = &diagnostic.span {
        location["physicalLocation"]["region"] = region(span);
    }
    let mut result = json!({
        "ruleId": diagnostic.code.as_str(),
        "ruleIndex": Code::ALL.iter().position(|code| *code == diagnostic.code).unwrap_or(0),
        "level": match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "message": {"text": message},
        "locations": [location],
    });
    if let Some(fix) = &diagnostic.fix
        && let Edit::Replace { span, replacement } = &fix.edit
    {
        result["fixes"] = json!([{
            "description": {"text": fix.message},
            "artifactChanges": [{
                "artifactLocation": {"uri": diagnostic.file},
                "replacements": [{
                    "deletedRegion": region(span),
                    "insertedContent": {"text": replacement},
                }],
            }],
        }]);
    }
    result
}

fn region(span: &Span) -> Value {
    json!({
        "startLine": span.start.line.max(1),
        "startColumn": span.start.column.max(1),
        "endLine": span.end.line.max(1),
        "endColumn": span.end.column.max(1),
    })
}
