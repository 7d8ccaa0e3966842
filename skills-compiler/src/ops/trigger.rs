//! `test` and `route`: the catalogue a host lists of the targets' valid
//! skills, and the trigger cases to route over it (the routing, the
//! judging and the figures are [`crate::routing`]).

use std::path::{Path, PathBuf};

use super::error::Error;
use super::targets::Target;
use crate::budget::Host;
use crate::config::Config;
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;
use crate::read::discover::display_path;
use crate::routing::{self, Catalogue, cases};

/// Where a skill keeps its own cases (Anthropic's skill-creator,
/// agentskills.io).
pub const OWN_CASES: &str = "evals/eval_queries.json";

/// Where a skill keeps its evals (the Agent Skills spec; a publisher's
/// `{question, expected_skill}` array): each prompt is a case too.
pub const OWN_EVALS: &str = "evals/evals.json";

/// The valid skills of the selection, the catalogue their host lists, and
/// the configuration of the first target (gates, host).
#[derive(Debug)]
pub struct Set {
    /// The valid skills, sorted by name; of two with one name, the first
    /// by path (a host lists one).
    pub skills: Vec<Skill>,
    /// What the host lists of them.
    pub catalogue: Catalogue,
    /// The first target's configuration.
    pub config: Config,
    /// The host whose listing is read.
    pub host: Host,
    /// How many skills were left out for their errors.
    pub invalid: usize,
    /// The skills left out for their errors, by name: cases may name them
    /// (their cases fail, S607), a router never chooses them.
    pub left_out: Vec<LeftOut>,
}

/// A skill of the selection that has errors, so no host lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// Its name, as its folder (or flat file) says it.
    pub name: String,
    /// Its folder, as diagnostics show it.
    pub folder: String,
    /// Its errors' codes, once each, sorted.
    pub codes: Vec<Code>,
}

/// The catalogue of the targets' valid skills, as `host` (default: the
/// package's `test.host`, else Claude Code) lists them.
pub fn catalogue(targets: &[Target], host: Option<Host>) -> Set {
    let config = targets
        .first()
        .map(|target| target.config.clone())
        .unwrap_or_default();
    let mut skills = Vec::new();
    let mut invalid = 0;
    let mut left_out = Vec::new();
    for target in targets {
        let compilation = target.compile();
        invalid += compilation.tally().with_errors;
        left_out.extend(left_out_of(&compilation));
        let valid = compilation.valid.skills.into_iter();
        skills.extend(valid.map(|skill| (*skill).clone()));
    }
    left_out.sort_by(|a: &LeftOut, b| a.name.cmp(&b.name));
    left_out.dedup_by(|b, a| a.name == b.name);
    skills.sort_by(|a, b| a.name().cmp(b.name()).then(a.path().cmp(b.path())));
    skills.dedup_by(|b, a| a.name() == b.name());
    let host = host.unwrap_or_else(|| routing::host(config.test.as_ref()));
    let catalogue = Catalogue::of(host.budget(), &skills);
    Set {
        skills,
        catalogue,
        config,
        host,
        invalid,
        left_out,
    }
}

/// The skills a compilation checked and found errors in.
fn left_out_of(compilation: &crate::pipeline::Compilation) -> Vec<LeftOut> {
    let valid: std::collections::HashSet<&str> = compilation
        .valid
        .skills
        .iter()
        .flat_map(|skill| [skill.dir.as_deref(), Some(skill.path())])
        .flatten()
        .collect();
    compilation
        .checked
        .iter()
        .filter(|folder| !valid.contains(folder.as_str()))
        .filter_map(|folder| {
            let inside = |file: &str| {
                file == folder
                    || file
                        .strip_prefix(folder.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            };
            let mut codes: Vec<Code> = compilation
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error && inside(&d.file))
                .map(|d| d.code)
                .collect();
            codes.sort_by_key(|code| code.as_str());
            codes.dedup();
            let base = folder.rsplit('/').next().unwrap_or(folder);
            let name = base.strip_suffix(".md").unwrap_or(base).to_owned();
            (!codes.is_empty()).then(|| LeftOut {
                name,
                folder: folder.clone(),
                codes,
            })
        })
        .collect()
}

impl Set {
    /// What a model router is offered: the skills the host lists, lowered,
    /// and the listing's text, as the host lists them.
    pub fn listed(&self) -> (Vec<skills_core::Skill>, String) {
        let skills = self
            .skills
            .iter()
            .filter(|skill| self.catalogue.text(skill.name()).is_some())
            .map(|skill| crate::emit::lower::skill(skill, Default::default()))
            .collect();
        let listing = self
            .catalogue
            .names()
            .filter_map(|name| self.catalogue.text(name))
            .collect();
        (skills, listing)
    }

    /// The offline router over the catalogue, at `threshold` (`--threshold`)
    /// when given, else the manifest's `test.threshold`, else the router's.
    pub fn router(&self, threshold: Option<f64>) -> skills_core::route::Router {
        let manifest = self
            .config
            .test
            .as_ref()
            .and_then(|test| test.threshold)
            .map(|ratio| ratio.0);
        self.catalogue.router_at(threshold.or(manifest))
    }

    /// Whether `name` is a skill left out for its errors.
    pub fn is_left_out(&self, name: &str) -> bool {
        self.left_out.iter().any(|skill| skill.name == name)
    }

    /// One S607 for each skill left out for its errors that `cases` name,
    /// by name.
    pub fn left_out_diagnostics(&self, cases: &[cases::Case]) -> Vec<Diagnostic> {
        self.left_out
            .iter()
            .filter(|skill| {
                cases.iter().any(|case| case.expected.skill() == Some(skill.name.as_str()))
            })
            .map(|skill| {
                let codes: Vec<&str> = skill.codes.iter().map(|code| code.as_str()).collect();
                Diagnostic::error(
                    Code::SkillLeftOutOfCatalogue,
                    skill.folder.clone(),
                    format!(
                        "`{}` has errors ({}) and is left out of the catalogue: its cases fail",
                        skills_core::printable(&skill.name),
                        codes.join(", ")
                    ),
                )
                .with_help("`cargo skills check` shows them; fix the skill and run the trigger tests again")
            })
            .collect()
    }

    /// The set, when it has a skill to route to; an empty one is a usage
    /// error.
    pub fn routable(self) -> Result<Set, Error> {
        if self.skills.is_empty() {
            return Err(Error::Usage(
                "no valid skill to route to: the catalogue is empty".to_owned(),
            ));
        }
        Ok(self)
    }
}

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

/// `path` as messages show it: relative to the current directory when
/// under it (a manifest's paths are read from the package).
pub fn shown_path(path: &Path) -> String {
    display_path(&crate::ops::targets::relative_to_cwd(path))
}

/// Writes `record` as the file `path`, whole (a reader never sees half).
pub fn save_record(path: &Path, record: &routing::record::Record) -> Result<(), Error> {
    super::files::write_whole(path, record.to_json().as_bytes())
        .map_err(|error| Error::Io(format!("cannot write {}: {error}", display_path(path))))
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

/// The skill files `lints` point into, to quote them.
pub fn lint_sources(lints: &[Diagnostic], skills: &[Skill]) -> Sources {
    let mut sources = Sources::default();
    for skill in skills
        .iter()
        .filter(|s| lints.iter().any(|l| l.file == s.path()))
    {
        sources.insert(SourceFile::new(skill.path(), skill.source_text()));
    }
    sources
}
