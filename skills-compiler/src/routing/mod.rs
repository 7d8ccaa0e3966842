//! Trigger tests: does a model find each skill, and only for the right
//! requests? A skill that is never chosen is as broken as one that does not
//! parse.
//!
//! The catalogue is what a host lists (each skill's name and description,
//! cut where the host cuts it; skills the host hides left out), a router
//! chooses a skill (or none) for each case's query, and [`evaluate`] turns
//! the choices into the figures skill-reach and Anthropic's skill-creator
//! report: top-1 accuracy, per-skill precision, recall and F1, misroute and
//! abstention rates, and the pairs of skills that take each other's cases.
//! The offline router is [`skills_core::route`], which the runtime shares.
//!
//! ```
//! use skills_compiler::ops::trigger::{Catalogue, Gates, evaluate};
//! use skills_compiler::ops::trigger::cases::{Case, Expected};
//! use skills_compiler::ops::budget::Budget;
//!
//! let catalogue = Catalogue::from_entries(Budget::ClaudeCode, &[
//!     ("pdf", "Fill in PDF forms and extract text from PDF files."),
//!     ("release-notes", "Write release notes from merged pull requests."),
//! ]);
//! let router = catalogue.router();
//! let case = Case {
//!     id: "1".into(),
//!     query: "fill in this PDF form".into(),
//!     expected: Expected::Skill { name: "pdf".into(), acceptable: vec![] },
//!     file: "cases.json".into(),
//!     span: None,
//! };
//! let routed = |query: &str| Ok::<_, String>(router.route(query));
//! let report = evaluate(&[case], routed, 1, &Gates::default()).unwrap();
//! assert_eq!(report.summary.accuracy, 1.0);
//! assert!(report.summary.failures.is_empty());
//! ```

pub(crate) mod cases;
mod evaluate;
pub mod json;
mod lints;
pub mod record;

pub use evaluate::{
    Attractor, GateFailure, Gates, Outcome, Report, SkillFigures, Summary, evaluate, host,
};
pub use lints::{failures, lints};

use skills_core::route::{Doc, Router};

use crate::budget::{Budget, Entry, listed_text};
use crate::ir::Skill;

/// What a host lists, one entry a skill, as a router reads it.
#[derive(Debug, Clone)]
pub struct Catalogue {
    /// (name, listed text), by name.
    entries: Vec<(String, String)>,
    /// How the host lets a user invoke a skill by name.
    sigils: &'static [char],
    /// Skills the host does not list (`disable-model-invocation`): never
    /// chosen implicitly.
    pub hidden: Vec<String>,
}

impl Catalogue {
    /// The catalogue `budget`'s host lists for `skills`.
    pub fn of<'a>(budget: Budget, skills: impl IntoIterator<Item = &'a Skill>) -> Catalogue {
        let mut entries = Vec::new();
        let mut hidden = Vec::new();
        for skill in skills {
            let entry = Entry::from(skill);
            match listed_text(budget, &entry) {
                Some(text) => entries.push((skill.name().to_owned(), text)),
                None => hidden.push(skill.name().to_owned()),
            }
        }
        entries.sort();
        hidden.sort();
        Catalogue {
            entries,
            sigils: sigils(budget),
            hidden,
        }
    }

    /// A catalogue of `(name, description)` pairs, as `budget`'s host lists them.
    pub fn from_entries(budget: Budget, pairs: &[(&str, &str)]) -> Catalogue {
        let mut entries: Vec<(String, String)> = pairs
            .iter()
            .filter_map(|(name, description)| {
                let text = listed_text(budget, &Entry::new(name, description, ""))?;
                Some(((*name).to_owned(), text))
            })
            .collect();
        entries.sort();
        Catalogue {
            entries,
            sigils: sigils(budget),
            hidden: Vec::new(),
        }
    }

    /// The skills listed, by name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _)| name.as_str())
    }

    /// What the host lists for `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, text)| text.as_str())
    }

    /// Each listed skill's name and the SHA-256 (hex) of what the host
    /// lists for it: what a record of a model's verdicts was made over.
    pub fn digests(&self) -> std::collections::BTreeMap<String, String> {
        use sha2::{Digest, Sha256};
        self.entries
            .iter()
            .map(|(name, text)| {
                let digest = Sha256::digest(text.as_bytes());
                let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                (name.clone(), hex)
            })
            .collect()
    }

    /// The offline router over this catalogue, at the router's own cut.
    /// A request that starts with the host's sigil and a skill's name
    /// (`/pdf`, `$pdf`) invokes it, hidden or not.
    pub fn router(&self) -> Router {
        let docs: Vec<Doc<'_>> = self
            .entries
            .iter()
            .map(|(name, text)| Doc::new(name, text))
            .collect();
        let hidden: Vec<&str> = self.hidden.iter().map(String::as_str).collect();
        Router::new(&docs).invoked_by(self.sigils, &hidden)
    }

    /// [`Catalogue::router`] at `threshold`, when one is given.
    pub fn router_at(&self, threshold: Option<f64>) -> Router {
        match threshold {
            Some(threshold) => self.router().threshold(threshold),
            None => self.router(),
        }
    }
}

/// How `budget`'s host lets a user invoke a skill by name: `/NAME` in
/// Claude Code and Zed, `$NAME` in Codex; the Agent Skills guide names
/// none, and this project's own catalog (a runtime) takes both.
pub(crate) fn sigils(budget: Budget) -> &'static [char] {
    match budget {
        Budget::ClaudeCode | Budget::Zed => &['/'],
        Budget::Codex => &['$'],
        Budget::AgentSkills => &[],
        Budget::Chars(_) | Budget::Tokens(_) => &['/', '$'],
    }
}
