//! The routers `cargo skills test --router` names (`lexical`,
//! `anthropic:MODEL`, `openai:MODEL`), and asking a model for a trigger
//! run (`ops::trigger::Model`) through `skills::route`, under the command
//! line's limits; what is asked and judged is the compiler's.

#[cfg(feature = "models")]
use skills::route::ModelRouter;
use skills::route::RoutingModel;
use skills_compiler::ops;
pub use skills_compiler::ops::trigger::Router;
use skills_compiler::ops::trigger::{Case, Set};

use crate::output::shown;

/// How a model is asked: the command line's `--base-url` and limits.
#[cfg_attr(not(feature = "models"), allow(dead_code))]
#[derive(Debug, Clone, clap::Args)]
pub struct Asking {
    /// A model router's API origin, for a proxy or a test server.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The most seconds one model request may take.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub timeout: u64,
    /// The most seconds the whole run of model requests may take, retry
    /// waits included: past it the run stops (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = 900)]
    pub deadline: u64,
    /// Model requests in flight at once.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// The most model requests the run may send, retries included.
    #[arg(long, default_value_t = 1000)]
    pub max_requests: usize,
}

impl Asking {
    /// The limits the requests are sent under.
    #[cfg(feature = "models")]
    fn limits(&self) -> skills::route::ask::Limits {
        skills::route::ask::Limits {
            concurrency: self.concurrency,
            timeout: std::time::Duration::from_secs(self.timeout.max(1)),
            max_requests: self.max_requests,
            retries: 4,
            deadline: std::time::Duration::from_secs(self.deadline.max(1)),
        }
    }
}

/// A stopped run in the words of the command line's options.
#[cfg(feature = "models")]
fn said(error: skills::route::ask::AskError) -> String {
    use skills::route::ask::AskError;
    match error {
        AskError::TooMany {
            questions,
            max_requests,
        } => format!(
            "{questions} requests would be sent, more than --max-requests {max_requests}: raise it, or run fewer cases or runs"
        ),
        AskError::MaxRequestsReached { max_requests } => {
            format!("--max-requests {max_requests} reached (retries count): nothing more was sent")
        }
        AskError::PastDeadline { deadline } => format!(
            "the run did not end within --deadline {} s (retry waits count): raise it, or run fewer cases",
            deadline.as_secs()
        ),
        AskError::WaitPastDeadline {
            status,
            wait,
            deadline,
            message,
        } => format!(
            "the API answered {status} and asks to wait {} s, past the run's deadline (--deadline {} s): {message}",
            wait.as_secs(),
            deadline.as_secs()
        ),
        AskError::Failed(message) => message,
    }
}

/// A cut between 0 and 1.
pub fn parse_threshold(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(cut) if (0.0..=1.0).contains(&cut) => Ok(cut),
        Ok(_) => Err(format!("{} is not between 0 and 1", shown(value))),
        Err(_) => Err(format!("{} is not a number between 0 and 1", shown(value))),
    }
}

/// `--router`'s value: `lexical`, or a model ([`RoutingModel`]).
pub fn parse_router(value: &str) -> Result<Router, String> {
    if value == "lexical" {
        return Ok(Router::Lexical);
    }
    let model: RoutingModel = value
        .parse()
        .map_err(|error| format!("{error}; `lexical` is the offline router"))?;
    Ok(Router::Model(model.to_string()))
}

/// The models of `--router`, asked with the command line's limits.
pub struct Asker<'a>(pub &'a Asking);

impl ops::trigger::Model for Asker<'_> {
    fn can_ask(&self, model: &str) -> Result<bool, String> {
        Ok(model.parse::<RoutingModel>()?.key_from_env().is_some())
    }

    fn ask(
        &mut self,
        model: &str,
        set: &Set,
        cases: &[Case],
        runs: usize,
    ) -> Result<Vec<Option<String>>, ops::Error> {
        let model: RoutingModel = model.parse().map_err(ops::Error::Usage)?;
        ask_model(self.0, set, cases, &model, runs).map_err(ops::Error::Usage)
    }
}

/// Each case's runs, asked of the model in order (case by case, run by run).
#[cfg(feature = "models")]
fn ask_model(
    args: &Asking,
    set: &Set,
    cases: &[Case],
    model: &RoutingModel,
    runs: usize,
) -> Result<Vec<Option<String>>, String> {
    let key = model.key_from_env().ok_or_else(|| {
        format!(
            "`--router {model}` needs an API key in {}: nothing was sent",
            model.key_variable()
        )
    })?;
    let (listed, listing) = set.listed();
    let runtime_set = skills::SkillSet::owned(listed);
    let toolset = skills::Toolset::new(&runtime_set);
    let mut router = ModelRouter::new(model.provider, &model.model, &toolset, &listing, &key);
    if let Some(url) = &args.base_url {
        router = router
            .base_url(url)
            .map_err(|why| format!("--base-url: {why}"))?;
    }
    let queries: Vec<String> = cases
        .iter()
        .flat_map(|case| std::iter::repeat_n(case.query.clone(), runs))
        .collect();
    skills::route::ask::ask_all(&router, &queries, args.limits())
        .map_err(|error| format!("{model}: {}", said(error)))
}

#[cfg(not(feature = "models"))]
fn ask_model(
    _: &Asking,
    _: &Set,
    _: &[Case],
    model: &RoutingModel,
    _: usize,
) -> Result<Vec<Option<String>>, String> {
    Err(format!(
        "`--router {model}` needs the `models` feature, which this cargo-skills was built without: install it with default features"
    ))
}
