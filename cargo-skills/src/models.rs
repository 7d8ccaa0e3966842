//! Sending the routing questions of `cargo skills test --router
//! anthropic:MODEL|openai:MODEL` (feature `models`): the requests are
//! `skills::route::ModelRouter`'s; this sends them, bounded (concurrency, a
//! timeout a request, retries with backoff on 429 and 5xx honouring
//! `retry-after`, a cap on requests), and hands back each choice.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use skills::route::ModelRouter;

/// How hard the questions may be asked.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Requests in flight at once.
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

/// The most bytes of a reply read: a routing answer is a tool call of a
/// few KB, and a reply that goes on past this is not one (an endless
/// chunked body would otherwise be read until memory runs out).
pub const MAX_REPLY_BYTES: usize = 4 * 1024 * 1024;

/// The longest `retry-after` honoured: a server asking for more is an error.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Asks `router` about each of `queries`, in order; the first error (a
/// refused key, an API error, a reply of the wrong shape, a timeout) stops
/// the run with the server's words.
pub fn ask_all(
    router: &ModelRouter,
    queries: &[String],
    limits: Limits,
) -> Result<Vec<Option<String>>, String> {
    if queries.len() > limits.max_requests {
        return Err(format!(
            "{} requests would be sent, more than --max-requests {}: raise it, or run fewer cases or runs",
            queries.len(),
            limits.max_requests
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("no async runtime: {error}"))?;
    let deadline = tokio::time::Instant::now() + limits.deadline;
    runtime.block_on(async {
        tokio::time::timeout_at(
            deadline,
            ask_concurrently(router, queries, limits, deadline),
        )
        .await
        .unwrap_or_else(|_| Err(past_deadline(limits)))
    })
}

fn past_deadline(limits: Limits) -> String {
    format!(
        "the run did not end within --deadline {} s (retry waits count): raise it, or run fewer cases",
        limits.deadline.as_secs()
    )
}

async fn ask_concurrently(
    router: &ModelRouter,
    queries: &[String],
    limits: Limits,
    deadline: tokio::time::Instant,
) -> Result<Vec<Option<String>>, String> {
    let tls = skills::https::client_config().map_err(|error| format!("no HTTP client: {error}"))?;
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .timeout(limits.timeout)
        // A routing question is never redirected.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| format!("no HTTP client: {error}"))?;
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
        let (at, choice) = joined.map_err(|error| format!("a request failed: {error}"))?;
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
) -> Result<Option<String>, String> {
    let mut attempt = 0;
    loop {
        if sent.fetch_add(1, Ordering::SeqCst) >= limits.max_requests {
            return Err(format!(
                "--max-requests {} reached (retries count): nothing more was sent",
                limits.max_requests
            ));
        }
        let request = reqwest::Request::try_from(router.request(query))
            .map_err(|error| format!("the request could not be built: {error}"))?;
        let started = tokio::time::Instant::now();
        let timed_out = |error: &reqwest::Error| {
            // A body cut by the client's timeout is a decode error whose
            // cause is the timeout: said as one, however it surfaced.
            error.is_timeout() || started.elapsed() >= limits.timeout
        };
        let no_answer = || {
            format!(
                "the API did not answer within {} s",
                limits.timeout.as_secs()
            )
        };
        let mut response = client.execute(request).await.map_err(|error| {
            if timed_out(&error) {
                no_answer()
            } else {
                format!("the API could not be reached: {error}")
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
                    return Err(format!(
                        "the reply is larger than {} MiB, which no routing answer is: nothing more was read",
                        MAX_REPLY_BYTES >> 20
                    ));
                }
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(error) if timed_out(&error) => return Err(no_answer()),
                Err(error) => return Err(format!("the reply could not be read: {error}")),
            }
        }
        if status.is_success() {
            let reply: serde_json::Value = serde_json::from_slice(&body)
                .map_err(|error| format!("the reply is not JSON ({error}): {}", excerpt(&body)))?;
            return router
                .choice(&reply)
                .map_err(|error| format!("the reply is not the API's shape: {error}"));
        }
        let retryable = status.as_u16() == 429 || status.is_server_error();
        if !retryable || attempt >= limits.retries {
            return Err(format!(
                "the API answered {status}: {}",
                server_message(&body)
            ));
        }
        let wait = retry_after.unwrap_or(Duration::from_millis(500 << attempt.min(6)));
        if wait > MAX_WAIT {
            return Err(format!(
                "the API answered {status} and asks to wait {} s, more than {} s: {}",
                wait.as_secs(),
                MAX_WAIT.as_secs(),
                server_message(&body)
            ));
        }
        if tokio::time::Instant::now() + wait > deadline {
            return Err(format!(
                "the API answered {status} and asks to wait {} s, past the run's deadline (--deadline {} s): {}",
                wait.as_secs(),
                limits.deadline.as_secs(),
                server_message(&body)
            ));
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
