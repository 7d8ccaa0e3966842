//! `show` and the views of one skill: the skill `name` of the targets,
//! when it is valid on its own. A broken sibling does not stop its
//! inspection (issue 40, item 0): the sibling's errors come back as
//! warnings, counted, since the build still refuses them; the skill's own
//! diagnostics as they are.

use std::sync::Arc;

use super::error::Error;
use super::targets::Target;
use crate::diagnostics::{Diagnostic, Severity, closest};
use crate::ir::Skill;

/// The skill inspected, and what to say with it.
#[derive(Debug)]
pub struct Inspected {
    /// The skill; `Err` when it is invalid (its errors are in
    /// `diagnostics`) or not there (the message names the skills there).
    pub skill: Result<Skill, Error>,
    /// The skill's own diagnostics, then the others' (their errors as
    /// warnings when the skill is valid).
    pub diagnostics: Vec<Diagnostic>,
    /// Errors of other skills, shown as warnings.
    pub broken_others: usize,
}

/// The skill `name` of `targets`, each compilation's diagnostics as
/// [`reported`](super::targets::reported) with `verbose`.
pub fn one(targets: &[Target], name: &str, verbose: bool) -> Inspected {
    let mut skills = Vec::new();
    let mut own = Vec::new();
    let mut others = Vec::new();
    for target in targets {
        let compilation = target.compile();
        let folder = compilation
            .valid
            .get(name)
            .map(|skill| skill.dir.clone().unwrap_or_else(|| skill.path().to_owned()));
        for diagnostic in super::targets::reported(&compilation, verbose).into_owned() {
            let mine = folder.as_ref().is_some_and(|folder| {
                diagnostic.file == *folder || diagnostic.file.starts_with(&format!("{folder}/"))
            });
            if mine {
                own.push(diagnostic);
            } else {
                others.push(diagnostic);
            }
        }
        skills.extend(compilation.valid.skills);
    }
    let Some(at) = skills.iter().position(|skill| skill.name() == name) else {
        // Not valid on its own, or not there: every diagnostic as it is.
        own.extend(others);
        let skill = if own.iter().any(Diagnostic::is_error) {
            Err(Error::Invalid)
        } else {
            Err(missing(&skills, name))
        };
        return Inspected {
            skill,
            diagnostics: own,
            broken_others: 0,
        };
    };
    let broken_others = others.iter().filter(|d| d.is_error()).count();
    own.extend(
        others
            .into_iter()
            .map(|diagnostic| diagnostic.with_severity(Severity::Warning)),
    );
    Inspected {
        skill: Ok(Arc::unwrap_or_clone(skills.swap_remove(at))),
        diagnostics: own,
        broken_others,
    }
}

/// No skill of that name: the closest, or the names there are.
fn missing(skills: &[Arc<Skill>], name: &str) -> Error {
    let mut names: Vec<&str> = skills.iter().map(|s| s.name()).collect();
    names.sort_unstable();
    let hint = closest(name, names.iter().copied()).map_or_else(
        || format!("skills: {}", names.join(", ")),
        |s| format!("did you mean `{s}`?"),
    );
    Error::Usage(format!("no skill named `{name}`; {hint}"))
}
