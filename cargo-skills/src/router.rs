//! The routers `cargo skills test --router` names (`lexical`,
//! `anthropic:MODEL`, `openai:MODEL`), and asking a model for a trigger
//! run (`ops::trigger::Model`): the keys, the requests and their limits
//! are the front end's; what is asked and judged is the compiler's.

use skills_compiler::ops;
use skills_compiler::ops::trigger::{Case, Set};

use crate::failure::Failure;
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

/// Who chooses the skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Router {
    /// The offline router.
    Lexical,
    /// A model, through its API.
    Model {
        provider: skills::model::Provider,
        model: String,
    },
}

impl Router {
    /// As a trigger run takes it.
    pub fn to_ops(&self) -> ops::trigger::Router {
        match self {
            Router::Lexical => ops::trigger::Router::Lexical,
            Router::Model { .. } => ops::trigger::Router::Model(self.name()),
        }
    }

    /// How records and reports name it.
    pub fn name(&self) -> String {
        match self {
            Router::Lexical => "lexical".to_owned(),
            Router::Model { provider, model } => format!("{}:{model}", provider_name(*provider)),
        }
    }
}

fn provider_name(provider: skills::model::Provider) -> &'static str {
    match provider {
        skills::model::Provider::Anthropic => "anthropic",
        _ => "openai",
    }
}

/// `--router`'s value.
pub fn parse_router(value: &str) -> Result<Router, String> {
    use skills::model::Provider;
    let model = |provider, model: &str| {
        if model.trim().is_empty() {
            Err(format!(
                "`{value}` names no model: `anthropic:MODEL` or `openai:MODEL`"
            ))
        } else {
            Ok(Router::Model {
                provider,
                model: model.to_owned(),
            })
        }
    };
    match value.split_once(':') {
        None if value == "lexical" => Ok(Router::Lexical),
        Some(("anthropic", name)) => model(Provider::Anthropic, name),
        Some(("openai", name)) => model(Provider::OpenAiResponses, name),
        _ => Err(format!(
            "unknown router `{}`: `lexical`, `anthropic:MODEL` or `openai:MODEL`",
            shown(value)
        )),
    }
}

/// The models of `--router`, asked with the command line's limits.
pub struct Asker<'a>(pub &'a Asking);

impl ops::trigger::Model for Asker<'_> {
    fn can_ask(&self, model: &str) -> Result<bool, String> {
        let router = parse_router(model)?;
        let variable = match router {
            Router::Model {
                provider: skills::model::Provider::Anthropic,
                ..
            } => "ANTHROPIC_API_KEY",
            Router::Model { .. } => "OPENAI_API_KEY",
            Router::Lexical => return Ok(false),
        };
        Ok(std::env::var(variable).is_ok_and(|key| !key.trim().is_empty()))
    }

    fn ask(
        &mut self,
        model: &str,
        set: &Set,
        cases: &[Case],
        runs: usize,
    ) -> Result<Vec<Option<String>>, ops::Error> {
        match parse_router(model).map_err(ops::Error::Usage)? {
            Router::Model { provider, model } => {
                ask_model(self.0, set, cases, provider, &model, runs).map_err(|failure| {
                    match failure {
                        Failure::Usage(message) => ops::Error::Usage(message),
                        Failure::Io(message) => ops::Error::Io(message),
                        Failure::Invalid => ops::Error::Invalid,
                    }
                })
            }
            Router::Lexical => Err(ops::Error::Usage(
                "the offline router is not a model to ask".to_owned(),
            )),
        }
    }
}

/// Each case's runs, asked of the model in order (case by case, run by run).
#[cfg(feature = "models")]
fn ask_model(
    args: &Asking,
    set: &Set,
    cases: &[Case],
    provider: skills::model::Provider,
    model: &str,
    runs: usize,
) -> Result<Vec<Option<String>>, Failure> {
    let variable = match provider {
        skills::model::Provider::Anthropic => "ANTHROPIC_API_KEY",
        _ => "OPENAI_API_KEY",
    };
    let key = std::env::var(variable)
        .ok()
        .filter(|key| !key.trim().is_empty())
        .ok_or_else(|| {
            Failure::Usage(format!(
                "`--router {}` needs an API key in {variable}: nothing was sent",
                Router::Model {
                    provider,
                    model: model.to_owned()
                }
                .name()
            ))
        })?;
    let (listed, listing) = set.listed();
    let runtime_set = skills::SkillSet::owned(listed);
    let toolset = skills::Toolset::new(&runtime_set);
    let mut router = skills::route::ModelRouter::new(provider, model, &toolset, &listing, &key);
    if let Some(url) = &args.base_url {
        router = router
            .base_url(url)
            .map_err(|why| Failure::Usage(format!("--base-url: {why}")))?;
    }
    let queries: Vec<String> = cases
        .iter()
        .flat_map(|case| std::iter::repeat_n(case.query.clone(), runs))
        .collect();
    let limits = args.limits();
    skills::route::ask::ask_all(&router, &queries, limits).map_err(|error| {
        Failure::Usage(format!(
            "{}: {}",
            Router::Model {
                provider,
                model: model.to_owned()
            }
            .name(),
            said(error)
        ))
    })
}

#[cfg(not(feature = "models"))]
fn ask_model(
    _: &Asking,
    _: &Set,
    _: &[Case],
    provider: skills::model::Provider,
    model: &str,
    _: usize,
) -> Result<Vec<Option<String>>, Failure> {
    Err(Failure::Usage(format!(
        "`--router {}` needs the `models` feature, which this cargo-skills was built without: install it with default features",
        Router::Model {
            provider,
            model: model.to_owned()
        }
        .name()
    )))
}
