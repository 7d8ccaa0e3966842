//! Compiled skills as text for a person (`cargo skills show`): one
//! skill's fields, tools and sections; the files it carries. Every value
//! from a file is printed by the one rule that keeps it on its line
//! ([`skills_core::printable`]).

use std::fmt::Write as _;

use skills_core::printable;

use crate::ir::{Skill, present};

/// One skill: its fields, its tools with their endpoints and policies, and
/// its body's sections.
pub fn skill(skill: &Skill) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "name:        {}", skill.name());
    let _ = writeln!(
        out,
        "description: {}",
        printable(&present::one_line(skill.description(), 240))
    );
    let _ = writeln!(out, "path:        {}", printable(skill.path()));
    let _ = writeln!(out, "kind:        {}", skill.table.kind.as_str());
    let _ = writeln!(out, "version:     {}", skill.table.version);
    for (label, value) in crate::validate::keys::texts_of(&skill.table) {
        let _ = writeln!(
            out,
            "{label:<12} {value}",
            label = format!("{label}:"),
            value = printable(value)
        );
    }
    if !skill.tools.is_empty() {
        let _ = writeln!(out, "tools:");
        for tool in &skill.tools {
            let endpoint = tool.endpoint().map_or_else(
                || "no endpoint".to_owned(),
                |e| format!("{} {}", e.method.as_str(), e.origin),
            );
            let _ = writeln!(
                out,
                "  - {} ({}; {})",
                tool.name(),
                printable(&endpoint),
                tool.policy().as_str()
            );
        }
    }
    let sections = skill.sections();
    if !sections.is_empty() {
        let _ = writeln!(out, "sections:");
        for section in &sections {
            let _ = writeln!(
                out,
                "  {}{} {}",
                "  ".repeat(usize::from(section.level.saturating_sub(1))),
                "#".repeat(usize::from(section.level)),
                printable(&section.title)
            );
        }
    }
    out
}

/// One line a file (`rwx`-style exec column, size, digest, path), then
/// what was skipped and why.
pub fn files(skill: &Skill, files: &[skills_core::File]) -> String {
    let mut out = String::new();
    let width = files
        .iter()
        .map(|f| f.len().to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "{:4}  {:>width$}  {:64}  PATH",
        "EXEC", "SIZE", "SHA256"
    );
    for file in files {
        let _ = writeln!(
            out,
            "{:4}  {:>width$}  {}  {}",
            if file.is_executable() { "x" } else { "-" },
            file.len(),
            file.sha256_hex(),
            printable(file.path())
        );
    }
    let _ = writeln!(
        out,
        "{} file{}, {} bytes",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        files.iter().map(|f| f.len()).sum::<usize>()
    );
    if !skill.skipped.is_empty() {
        let _ = writeln!(out, "skipped:");
        for skip in &skill.skipped {
            let _ = writeln!(
                out,
                "  {}: {}",
                printable(&skip.path),
                printable(&skip.reason.to_string())
            );
        }
    }
    out
}
