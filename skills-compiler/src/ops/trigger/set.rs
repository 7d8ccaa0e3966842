//! The set a trigger run routes over: the targets' valid skills, the
//! catalogue their host lists, and the skills left out for their errors.

use super::super::error::Error;
use super::super::targets::Target;
use crate::budget::Host;
use crate::config::Config;
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::ir::Skill;
use crate::routing::{self, Catalogue, cases};

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
