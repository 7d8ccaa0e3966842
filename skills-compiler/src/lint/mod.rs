//! Lints: valid skills that will still work badly with a model. Warnings
//! (`deny_warnings` makes them errors; the budget gate may be set to deny);
//! each rule and its measured false-positive rate on real collections is in
//! `docs/budget.md`. One file per family:
//!
//! - [`description`]: W007, a description is the placeholder `cargo skills
//!   new` wrote; W008, a description never says when to use the skill;
//! - [`body`]: W010, a body over the Agent Skills client guide's size;
//! - [`similar`]: W009, two descriptions a model cannot choose between;
//! - [`hidden`]: W012, characters that do not show in text a model reads;
//! - [`budget`](mod@budget): W011, the catalog over a host's budget.
//!
//! The pipeline runs [`skill`] on each valid skill and the set lints on the
//! valid set.

pub(crate) mod at;
mod body;
mod budget;
mod description;
mod hidden;
mod similar;

pub(crate) use budget::budget;
pub use similar::similar_descriptions;

use crate::config::Config;
use crate::diagnostics::source::Sources;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;
use crate::ir::present;
use crate::validate::is_placeholder;

/// Lints of one valid skill, read from its files as validation parsed them
/// (`sources`); a lint that quotes another file of the skill adds it.
pub(crate) fn skill(
    skill: &Skill,
    sources: &mut Sources,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let profile = config.profile;
    hidden::tools(skill, sources, profile, diagnostics);
    let max_text_bytes = config.max_document_bytes();
    hidden::files(skill, sources, profile, max_text_bytes, diagnostics);
    let Some(source) = sources.get(skill.path()) else {
        return;
    };
    hidden::text(skill, source, profile, diagnostics);
    if let Some(span) = &skill.description_span {
        if is_placeholder(skill.description()) {
            diagnostics.push(
                Diagnostic::at(
                    Code::PlaceholderDescription,
                    source,
                    span.clone(),
                    "the description is still a placeholder (left by `cargo skills new` or a template)",
                )
                .with_severity(Severity::Warning)
                .with_help("say what the skill does and when a model should use it: the description is sent on every turn"),
            );
        } else if !description::says_when(skill.description()) {
            diagnostics.push(
                Diagnostic::at(
                    Code::NoWhenToUse,
                    source,
                    span.clone(),
                    "the description says what the skill does but never when to use it",
                )
                .with_severity(Severity::Warning)
                .with_help("add a clause a model can match a request against, e.g. `Use when the user asks to ...`"),
            );
        } else {
            let shown = present::one_line(skill.description(), skill.table.catalog_chars);
            if !description::says_when(&shown) {
                diagnostics.push(
                    Diagnostic::at(
                        Code::CatalogCutsWhen,
                        source,
                        span.clone(),
                        format!(
                            "the text catalog cuts the description at {} characters, before it says when to use the skill",
                            skill.table.catalog_chars
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_help("say when to use the skill first, shorten the description, or raise `catalog_chars`"),
                );
            }
        }
    }
    if let Some(diagnostic) = body::long_body(skill, source) {
        diagnostics.push(diagnostic);
    }
}
