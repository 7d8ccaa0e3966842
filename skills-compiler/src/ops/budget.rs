//! `budget`: the catalog of the targets' valid skills against each host's
//! context budget (the private `budget` module holds the formulas). The
//! skills are compiled without the package's own budget check, so that an
//! over-budget `deny` still shows its table.

use std::sync::Arc;

// The host models a front end names (`--host`, the printers); the models
// themselves are the private `budget` module's.
pub use crate::budget::{
    Budget, Entry, Fate, Host, Options, Report, Unit, builtins, entry_text, json, report, table,
};

use super::targets::Target;
use crate::budget;
use crate::config::BudgetConfig;
use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::ir::Skill;

/// What the command line asks for, over the package's `budget` table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// The hosts to measure for (empty: the package's, else all).
    pub hosts: Vec<Host>,
    /// The model's context window in tokens.
    pub context: Option<u64>,
    /// A plain budget in characters.
    pub chars: Option<usize>,
    /// A plain budget in estimated tokens.
    pub tokens: Option<usize>,
    /// Leave out the skills each host ships before yours.
    pub no_builtins: bool,
}

/// The catalog to measure and the budgets it is measured against.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// Every valid skill of the targets, sorted by name.
    pub skills: Vec<Skill>,
    /// The errors of the skills left out (`check` is the gate for
    /// validity; this is about what fits).
    pub errors: Vec<Diagnostic>,
    /// The flags over the first package's `budget` table, field by field.
    pub config: BudgetConfig,
    /// Whether hosts decide the outcome: only when asked for (a `budget`
    /// table, or `--host`); plain budgets always do.
    hosts_asked: bool,
}

/// The targets' valid skills, with the budgets the request and the first
/// package with a `budget` table configure.
pub fn catalog(targets: Vec<Target>, request: &Request) -> Catalog {
    let configured = targets.iter().find_map(|t| t.config.budget.clone());
    let base = configured.clone().unwrap_or_default();
    let config = BudgetConfig {
        hosts: if request.hosts.is_empty() {
            base.hosts
        } else {
            Some(request.hosts.clone())
        },
        context: request.context.or(base.context),
        chars: request.chars.or(base.chars),
        tokens: request.tokens.or(base.tokens),
        level: None,
        builtins: if request.no_builtins {
            Some(false)
        } else {
            base.builtins
        },
    };
    let (skills, errors) = valid_skills(targets);
    Catalog {
        skills,
        errors,
        config,
        hosts_asked: configured.is_some() || !request.hosts.is_empty(),
    }
}

impl Catalog {
    /// Each skill as a catalog lists it.
    pub fn entries(&self) -> Vec<Entry<'_>> {
        self.skills.iter().map(Entry::from).collect()
    }

    /// One report per budget.
    pub fn reports(&self, entries: &[Entry<'_>]) -> Vec<Report> {
        let options = self.config.options();
        let budgets = self.config.budgets();
        budgets
            .iter()
            .map(|&b| budget::report(b, entries, &options))
            .collect()
    }

    /// Whether a report that decides the outcome is over its budget.
    pub fn is_over(&self, reports: &[Report]) -> bool {
        let decides = |report: &Report| {
            self.hosts_asked || matches!(report.budget, Budget::Chars(_) | Budget::Tokens(_))
        };
        reports.iter().any(|r| r.is_over() && decides(r))
    }
}

/// Every valid skill, sorted by name, and the errors of those left out.
fn valid_skills(targets: Vec<Target>) -> (Vec<Skill>, Vec<Diagnostic>) {
    let mut skills = Vec::new();
    let mut errors = Vec::new();
    for target in targets {
        let target = Target {
            config: Config {
                budget: None,
                ..target.config
            },
            ..target
        };
        let compilation = target.compile();
        errors.extend(
            compilation
                .diagnostics
                .into_iter()
                .filter(Diagnostic::is_error),
        );
        skills.extend(
            compilation
                .valid
                .skills
                .into_iter()
                .map(Arc::unwrap_or_clone),
        );
    }
    skills.sort_by(|a, b| a.name().cmp(b.name()));
    (skills, errors)
}
