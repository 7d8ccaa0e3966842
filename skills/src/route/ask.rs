//! Sending a [`ModelRouter`]'s questions (feature `ask`), bounded: requests
//! in flight at once, a timeout a request, retries with backoff on 429 and
//! 5xx honouring `retry-after`, a cap on requests, a deadline for the run
//! and a cap on a reply's size. `cargo skills test --router MODEL` asks
//! through this; a host may too.
//!
//! ```no_run
//! use std::time::Duration;
//! use skills::model::Provider;
//! use skills::route::ModelRouter;
//! use skills::route::ask::{Limits, ask_all};
//! # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
//!
//! let toolset = skills::Toolset::new(&agent::SKILLS);
//! let router = ModelRouter::new(Provider::Anthropic, "claude-sonnet-4-5", &toolset, "- forms: Fill in PDF forms.\n", "sk-...");
//! let choices = ask_all(&router, &["fill in this form".to_owned()], Limits::default())?;
//! # Ok::<(), skills::route::ask::AskError>(())
//! ```

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::router::ModelRouter;

/// How hard the questions may be asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Requests in flight at once (0 is taken as 1).
    pub concurrency: usize,
    /// The most one request may take.
    pub timeout: Duration,
    /// The most requests the run may send, retries included.
    pub max_requests: usize,
    /// Attempts after the first for a 429 or a 5xx.
    pub retries: u32,
    /// The most the whole run may take, retry waits included.
    pub deadline: Duration,
}

impl Default for Limits {
    /// Four in flight, 60 s a request, 1,000 requests, 4 retries, 15 minutes.
    fn default() -> Self {
        Limits {
            concurrency: 4,
            timeout: Duration::from_secs(60),
            max_requests: 1000,
            retries: 4,
            deadline: Duration::from_secs(900),
        }
    }
}

/// Why a run of questions stopped. The limits' variants carry the limit, so
/// that a front end can name its own option for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskError {
    /// More questions than [`Limits::max_requests`]: nothing was sent.
    TooMany {
        /// The questions asked for.
        questions: usize,
        /// The limit.
        max_requests: usize,
    },
    /// Retries used up [`Limits::max_requests`]: nothing more was sent.
    MaxRequestsReached {
        /// The limit.
        max_requests: usize,
    },
    /// The run did not end within [`Limits::deadline`].
    PastDeadline {
        /// The limit.
        deadline: Duration,
    },
    /// The API asked to wait past [`Limits::deadline`].
    WaitPastDeadline {
        /// The status it answered.
        status: http::StatusCode,
        /// How long it asked to wait.
        wait: Duration,
        /// The limit.
        deadline: Duration,
        /// The API's own words.
        message: String,
    },
    /// A request could not be sent or its reply read or understood, or the
    /// API refused it: in the server's words where it gave some.
    Failed(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::TooMany {
                questions,
                max_requests,
            } => write!(
                f,
                "{questions} requests would be sent, more than the {max_requests} allowed"
            ),
            AskError::MaxRequestsReached { max_requests } => write!(
                f,
                "{max_requests} requests were sent (retries count): nothing more was sent"
            ),
            AskError::PastDeadline { deadline } => write!(
                f,
                "the run did not end within {} s (retry waits count)",
                deadline.as_secs()
            ),
            AskError::WaitPastDeadline {
                status,
                wait,
                deadline,
                message,
            } => write!(
                f,
                "the API answered {status} and asks to wait {} s, past the run's deadline of {} s: {message}",
                wait.as_secs(),
                deadline.as_secs()
            ),
            AskError::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for AskError {}

/// The most bytes of a reply read: a routing answer is a tool call of a
/// few KB, and a reply that goes on past this is not one (an endless
/// chunked body would otherwise be read until memory runs out).
pub const MAX_REPLY_BYTES: usize = 4 * 1024 * 1024;

/// The longest `retry-after` honoured: a server asking for more is an error.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Asks `router` about each of `queries` and hands back each choice, in
/// order; the first error (a refused key, an API error, a reply of the
/// wrong shape, a timeout, a limit) stops the run.
pub fn ask_all(
    router: &ModelRouter,
    queries: &[String],
    limits: Limits,
) -> Result<Vec<Option<String>>, AskError> {
    if queries.len() > limits.max_requests {
        return Err(AskError::TooMany {
            questions: queries.len(),
            max_requests: limits.max_requests,
        });
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| AskError::Failed(format!("no async runtime: {error}")))?;
    let deadline = tokio::time::Instant::now() + limits.deadline;
    runtime.block_on(async {
        tokio::time::timeout_at(
            deadline,
            ask_concurrently(router, queries, limits, deadline),
        )
        .await
        .unwrap_or(Err(AskError::PastDeadline {
            deadline: limits.deadline,
        }))
    })
}

async fn ask_concurrently(
    router: &ModelRouter,
    queries: &[String],
    limits: Limits,
    deadline: tokio::time::Instant,
) -> Result<Vec<Option<String>>, AskError> {
    let no_client = |error: &dyn fmt::Display| AskError::Failed(format!("no HTTP client: {error}"));
    let tls = crate::https::client_config().map_err(|error| no_client(&error))?;
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .timeout(limits.timeout)
        // A routing question is never redirected.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| no_client(&error))?;
    let sent = Arc::new(AtomicUsize::new(0));
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (at, query) in queries.iter().enumerate() {
        let (client, sent, permits) = (client.clone(), sent.clone(), permits.clone());
        let router = router.clone();
        let query = query.clone();
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            let choice = ask(&client, &router, &query, limits, &sent, deadline).await;
            (at, choice)
        });
    }
    let mut choices = vec![None; queries.len()];
    while let Some(joined) = tasks.join_next().await {
        let (at, choice) =
            joined.map_err(|error| AskError::Failed(format!("a request failed: {error}")))?;
        match choice {
            Ok(choice) => choices[at] = choice,
            Err(error) => {
                tasks.abort_all();
                return Err(error);
            }
        }
    }
    Ok(choices)
}

/// One question, retried on 429 and 5xx.
async fn ask(
    client: &reqwest::Client,
    router: &ModelRouter,
    query: &str,
    limits: Limits,
    sent: &AtomicUsize,
    deadline: tokio::time::Instant,
) -> Result<Option<String>, AskError> {
    let failed = |message: String| AskError::Failed(message);
    let mut attempt = 0;
    loop {
        if sent.fetch_add(1, Ordering::SeqCst) >= limits.max_requests {
            return Err(AskError::MaxRequestsReached {
                max_requests: limits.max_requests,
            });
        }
        let request = reqwest::Request::try_from(router.request(query))
            .map_err(|error| failed(format!("the request could not be built: {error}")))?;
        let started = tokio::time::Instant::now();
        let timed_out = |error: &reqwest::Error| {
            // A body cut by the client's timeout is a decode error whose
            // cause is the timeout: said as one, however it surfaced.
            error.is_timeout() || started.elapsed() >= limits.timeout
        };
        let no_answer = || {
            failed(format!(
                "the API did not answer within {} s",
                limits.timeout.as_secs()
            ))
        };
        let mut response = client.execute(request).await.map_err(|error| {
            if timed_out(&error) {
                no_answer()
            } else {
                failed(format!("the API could not be reached: {error}"))
            }
        })?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > MAX_REPLY_BYTES => {
                    return Err(failed(format!(
                        "the reply is larger than {} MiB, which no routing answer is: nothing more was read",
                        MAX_REPLY_BYTES >> 20
                    )));
                }
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(error) if timed_out(&error) => return Err(no_answer()),
                Err(error) => return Err(failed(format!("the reply could not be read: {error}"))),
            }
        }
        if status.is_success() {
            let reply: serde_json::Value = serde_json::from_slice(&body).map_err(|error| {
                failed(format!(
                    "the reply is not JSON ({error}): {}",
                    excerpt(&body)
                ))
            })?;
            return router
                .choice(&reply)
                .map_err(|error| failed(format!("the reply is not the API's shape: {error}")));
        }
        let retryable = status.as_u16() == 429 || status.is_server_error();
        if !retryable || attempt >= limits.retries {
            return Err(failed(format!(
                "the API answered {status}: {}",
                server_message(&body)
            )));
        }
        let wait = retry_after.unwrap_or(Duration::from_millis(500 << attempt.min(6)));
        if wait > MAX_WAIT {
            return Err(failed(format!(
                "the API answered {status} and asks to wait {} s, more than {} s: {}",
                wait.as_secs(),
                MAX_WAIT.as_secs(),
                server_message(&body)
            )));
        }
        if tokio::time::Instant::now() + wait > deadline {
            return Err(AskError::WaitPastDeadline {
                status,
                wait,
                deadline: limits.deadline,
                message: server_message(&body),
            });
        }
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// `error.message` of an API's error body (Anthropic's and OpenAI's), else
/// the start of the body.
fn server_message(body: &[u8]) -> String {
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|json| json["error"]["message"].as_str().map(str::to_owned))
        .unwrap_or_else(|| excerpt(body))
}

fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let cut: String = text.chars().take(300).collect();
    skills_core::printable(&cut).into_owned()
}
