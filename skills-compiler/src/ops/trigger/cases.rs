//! The trigger cases of a run: each skill's own files, the manifest's
//! `cases`, and the command line's.

use std::path::{Path, PathBuf};

use super::super::error::Error;
use super::set::Set;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::source::Sources;
use crate::ir::Skill;
use crate::read::discover::display_path;
use crate::routing::cases;
// A case file's format and reading, as the routing reads it.
pub use crate::routing::cases::{
    Case, Expected, MAX_CASE_FILE_BYTES, MAX_PROBLEMS_PER_FILE, Read, load, read,
};

/// Where a skill keeps its own cases (Anthropic's skill-creator,
/// agentskills.io).
pub const OWN_CASES: &str = "evals/eval_queries.json";

/// Where a skill keeps its evals (the Agent Skills spec; a publisher's
/// `{question, expected_skill}` array): each prompt is a case too.
pub const OWN_EVALS: &str = "evals/evals.json";

/// The trigger cases of a run, and the files they came from.
#[derive(Debug, Default)]
pub struct Cases {
    /// Every case, each skill's own first, then the `--cases` files'.
    pub cases: Vec<cases::Case>,
    /// The case files, to quote a failing case at its line.
    pub files: Sources,
    /// Every problem of every file (at most
    /// [`cases::MAX_PROBLEMS_PER_FILE`] each, then how many more), to
    /// render with `files`: the run stops while there is one.
    pub problems: Vec<Diagnostic>,
}

/// Every skill's own cases (`evals/eval_queries.json`), then each of
/// `files`: a set's file, or one skill's (in its folder, or `SKILL=FILE`).
/// A `SKILL=` that names no skill of the set is a usage error.
pub fn cases(files: &[String], set: &Set) -> Result<Cases, Error> {
    let known: Vec<&str> = set
        .skills
        .iter()
        .map(Skill::name)
        .chain(set.left_out.iter().map(|skill| skill.name.as_str()))
        .collect();
    let mut reads = Vec::new();
    for skill in &set.skills {
        let (Some(dir), Some(on_disk)) = (&skill.dir, &skill.dir_on_disk) else {
            continue;
        };
        for own in [OWN_CASES, OWN_EVALS] {
            reads.extend(own_cases(skill, dir, on_disk, own, &known));
        }
    }
    // The manifest's set-level files, then the command line's.
    let manifest: Vec<String> = set
        .config
        .test
        .as_ref()
        .and_then(|test| test.cases.as_ref())
        .into_iter()
        .flatten()
        .map(|path| display_path(&crate::ops::targets::relative_to_cwd(path)))
        .collect();
    for file in manifest.iter().chain(files) {
        let (skill, path) = match file.split_once('=') {
            Some((skill, path)) if !skill.is_empty() && !Path::new(file).exists() => {
                (Some(skill.to_owned()), PathBuf::from(path))
            }
            _ => (
                skill_holding(Path::new(file), &set.skills),
                PathBuf::from(file),
            ),
        };
        if let Some(name) = &skill
            && !known.contains(&name.as_str())
        {
            return Err(Error::Usage(format!(
                "`--cases {file}`: no skill of the set is named `{name}`{}",
                skills_core::closest(name, known.iter().copied())
                    .map(|near| format!("; did you mean `{near}`?"))
                    .unwrap_or_default()
            )));
        }
        reads.push(cases::load(
            &path,
            &display_path(&path),
            skill.as_deref(),
            &known,
        ));
    }
    let mut all = Cases::default();
    for read in reads {
        let mut sources = Sources::default();
        if let Some(source) = read.source {
            sources.insert(source);
        }
        all.problems.extend(read.diagnostics);
        all.cases.extend(read.cases);
        all.files.extend(sources);
    }
    Ok(all)
}

/// A skill's own case file `own`, when it has one: only a file of the skill
/// as the compiler listed it (a link out of the skill (S515), a pipe or a
/// device is none, and is not read).
fn own_cases(
    skill: &Skill,
    dir: &str,
    on_disk: &Path,
    own: &str,
    known: &[&str],
) -> Option<cases::Read> {
    let shown = format!("{dir}/{own}");
    if let Some(file) = skill.files.iter().find(|file| file.path == own) {
        return Some(cases::load_listed(
            on_disk,
            file,
            &shown,
            skill.name(),
            known,
        ));
    }
    if let Some(skipped) = skill.skipped.iter().find(|s| s.path == own) {
        return Some(cases::Read::refused(
            &shown,
            format!(
                "not read: it is not a file of the skill ({})",
                skipped.reason
            ),
        ));
    }
    on_disk.join(own).symlink_metadata().is_ok().then(|| {
        cases::Read::refused(
            &shown,
            "not read: it is not a file of the skill (a symlink out of it, or a pipe or device: `cargo skills check` says which)".to_owned(),
        )
    })
}

/// The skill whose folder holds `file`, when one does.
fn skill_holding(file: &Path, skills: &[Skill]) -> Option<String> {
    let file = std::fs::canonicalize(file).ok()?;
    skills
        .iter()
        .filter_map(|skill| {
            let dir = std::fs::canonicalize(skill.dir.as_ref()?).ok()?;
            file.starts_with(&dir)
                .then(|| (dir.components().count(), skill.name()))
        })
        .max()
        .map(|(_, name)| name.to_owned())
}
