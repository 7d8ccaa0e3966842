//! Agent skills as [rig](https://docs.rs/rig-agent) tools, in one call.
//!
//! A [`skills::Toolset`] (over compiled skills, a loaded set, or
//! [`subset`](skills::SkillSet::subset) of either) becomes rig
//! [`DynamicTool`]s: `load_skill`, `read_skill_resource`, `run_skill_script`
//! when the toolset runs scripts, and every HTTP tool of the skills that is
//! not Deny, each with the name, description and JSON Schema the toolset
//! gives every other model API. The catalog and the toolset's instructions
//! go into the agent's preamble.
//!
//! ```no_run
//! # mod agent { skills::include_skills!("../../tests/fixtures/files", track = false); }
//! use skills::Toolset;
//! use skills_rig::{AgentBuilderExt, SkillTools};
//!
//! # fn demo(model: rig_agent::core::DynModel<rig_agent::core::operation::Completion>) {
//! let skills = SkillTools::new(Toolset::new(&agent::SKILLS));
//! let agent = rig_agent::AgentBuilder::new(model)
//!     .preamble("You help with forms.")
//!     .skills(&skills)
//!     .build();
//! # let _ = agent;
//! # }
//! ```
//!
//! Every problem reaches the model as a rig [`ToolExecutionError`] it can
//! read, never a panic: an unknown skill, file or tool is *not found*; bad
//! arguments are *invalid arguments* with their JSON path; a Confirm tool
//! without the host's yes, a refused approval or a Deny tool is *refused*;
//! an HTTP status other than 2xx is a *provider* error with the status and
//! the body; a request that could not be sent is a *network* error.
//!
//! HTTP tools are built by the runtime's one request builder
//! ([`skills::Call::request`]) and sent by the client you choose
//! ([`HttpSender`]; [`ReqwestSender`] with the feature `reqwest`); their
//! responses are read as the MCP server reads them ([`skills::response`]).
//! Without a sender, the HTTP tools are not offered: a tool the agent
//! cannot send would only mislead the model.

#![deny(missing_docs)]

use std::sync::Arc;

use rig_agent::AgentBuilder;
use rig_agent::agent::{NoToolConfig, WithBuilderTools};
use rig_core::completion::message::ToolName;
use rig_core::tool::{DynamicTool, ToolExecutionError, ToolOutput};
use serde_json::{Value, json};
use skills::model::Provider;
use skills::response::{DEFAULT_MAX_RESPONSE_BYTES, Reply, reply};
use skills::toolset::{HostErrorKind, HostToolError, Toolset};
use skills::{Call, Policy, RequestError, ToolCallError};

#[cfg(feature = "reqwest")]
mod reqwest_sender;
#[cfg(feature = "scripted")]
pub mod scripted;
#[cfg(feature = "reqwest")]
pub use reqwest_sender::ReqwestSender;

mod sender;
pub use sender::{BoxFuture, HttpSender, Received};

type Confirm = Arc<dyn Fn(&Call<'_>) -> Result<(), String> + Send + Sync>;

/// A toolset as rig tools and preamble text.
#[derive(Clone)]
pub struct SkillTools {
    toolset: Arc<Toolset<'static>>,
    sender: Option<Arc<dyn HttpSender>>,
    confirm: Option<Confirm>,
    origin: Option<String>,
    limit: usize,
}

impl std::fmt::Debug for SkillTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillTools")
            .field("toolset", &self.toolset)
            .field("sender", &self.sender.is_some())
            .field("confirm", &self.confirm.is_some())
            .field("origin", &self.origin)
            .field("limit", &self.limit)
            .finish()
    }
}

impl SkillTools {
    /// The tools of `toolset`: its host tools; HTTP tools once a
    /// [`sender`](Self::sender) is set.
    pub fn new(toolset: Toolset<'static>) -> SkillTools {
        SkillTools {
            toolset: Arc::new(toolset),
            sender: None,
            confirm: None,
            origin: None,
            limit: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }

    /// Sends the skills' HTTP tools with `sender`, and offers them.
    pub fn sender(mut self, sender: impl HttpSender) -> SkillTools {
        self.sender = Some(Arc::new(sender));
        self
    }

    /// Asks `confirm` before a Confirm tool is sent (it sees the call;
    /// [`Call::confirmation_text`] is what to show a person). Without it, a
    /// Confirm tool is refused.
    pub fn confirm(
        mut self,
        confirm: impl Fn(&Call<'_>) -> Result<(), String> + Send + Sync + 'static,
    ) -> SkillTools {
        self.confirm = Some(Arc::new(confirm));
        self
    }

    /// Sends every HTTP tool to `origin` (`scheme://host[:port]`) instead of
    /// the one its skill declares: a staging server, a local test server.
    pub fn send_to(mut self, origin: impl Into<String>) -> SkillTools {
        self.origin = Some(origin.into());
        self
    }

    /// The most bytes of a response read (default 4 MiB, as the MCP server).
    pub fn max_response_bytes(mut self, limit: usize) -> SkillTools {
        self.limit = limit;
        self
    }

    /// The text for the agent's preamble: the catalog of skills and how to
    /// use the tools ([`Toolset::instructions`]).
    pub fn preamble(&self) -> String {
        self.toolset.instructions()
    }

    /// The rig tools: the host tools, then the HTTP tools (with a sender),
    /// each as the toolset defines it for every model API.
    pub fn tools(&self) -> Vec<DynamicTool> {
        let hosts: Vec<&str> = self.toolset.host_tools().map(|tool| tool.name).collect();
        let definitions = self.toolset.definitions(Provider::Anthropic);
        definitions
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|definition| {
                let name = definition["name"].as_str()?;
                let host = hosts.contains(&name);
                if !host && self.sender.is_none() {
                    return None;
                }
                let tool_name = ToolName::new(name).ok()?;
                let description = definition["description"].as_str().unwrap_or_default();
                let schema = definition["input_schema"].clone();
                let this = self.clone();
                let called = name.to_owned();
                Some(DynamicTool::new(
                    tool_name,
                    description,
                    schema,
                    move |arguments| {
                        let this = this.clone();
                        let name = called.clone();
                        Box::pin(async move {
                            if host {
                                this.host(&name, arguments).await
                            } else {
                                this.http(&name, arguments).await
                            }
                        })
                    },
                ))
            })
            .collect()
    }

    /// A host tool: answered by the toolset; a script on a thread of its own,
    /// so that it never blocks the agent's executor.
    async fn host(&self, name: &str, arguments: Value) -> Result<ToolOutput, ToolExecutionError> {
        let toolset = Arc::clone(&self.toolset);
        let name = name.to_owned();
        let answered = off_thread(move || toolset.call(&name, &arguments)).await;
        let Some(answered) = answered else {
            return Err(ToolExecutionError::other(
                "the tool stopped without an answer",
            ));
        };
        match answered {
            Some(Ok(text)) => Ok(match serde_json::from_str::<Value>(&text) {
                // A script's result is JSON; a skill's text is text.
                Ok(json @ Value::Object(_)) => ToolOutput::json(json),
                _ => ToolOutput::text(text),
            }),
            Some(Err(error)) => Err(host_error(error)),
            None => Err(ToolExecutionError::not_found("no such host tool")),
        }
    }

    /// An HTTP tool: checked by the set, confirmed as its policy says,
    /// built by the runtime and sent by the sender.
    async fn http(&self, name: &str, arguments: Value) -> Result<ToolOutput, ToolExecutionError> {
        let Some(sender) = &self.sender else {
            return Err(ToolExecutionError::other("no HTTP client is configured"));
        };
        let request = self.request(name, &arguments)?;
        let received = sender
            .send(request, self.limit)
            .await
            .map_err(ToolExecutionError::network)?;
        match reply(received.status, &received.headers, received.body) {
            Reply::Text {
                json: Some(json), ..
            } => Ok(ToolOutput::json(json)),
            Reply::Text { text, json: None } => Ok(ToolOutput::text(text)),
            Reply::Binary { mime, bytes } => Ok(ToolOutput::json(json!({
                "mime": mime,
                "bytes": bytes.len(),
                "base64": skills::tables::base64(&bytes),
            }))),
            Reply::Error { status, message } => {
                Err(ToolExecutionError::provider(message).with_http_status(status.as_u16()))
            }
        }
    }

    /// The HTTP request for a call of `name`, or why there is none: nothing
    /// is sent unless every check passed.
    fn request(
        &self,
        name: &str,
        arguments: &Value,
    ) -> Result<http::Request<Vec<u8>>, ToolExecutionError> {
        let call = self
            .toolset
            .skills()
            .parse_call(name, arguments)
            .map_err(call_error)?;
        let call = match call.policy() {
            Policy::Confirm => match &self.confirm {
                Some(confirm) => {
                    confirm(&call).map_err(|why| {
                        ToolExecutionError::refused(format!("the user did not confirm: {why}"))
                    })?;
                    call.confirmed()
                }
                None => {
                    return Err(ToolExecutionError::refused(format!(
                        "`{name}` needs the user's confirmation, and this agent has no way to ask: nothing was sent"
                    )));
                }
            },
            Policy::Allow | Policy::Deny => call,
        };
        let request = match &self.origin {
            Some(origin) => call.request_to(origin),
            None => call.request(),
        };
        request.map_err(request_error)
    }
}

/// Runs `work` on a thread of its own and waits for it without blocking
/// the executor; `None` when it panicked.
async fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (sender, receiver) = std::sync::mpsc::sync_channel(1);
    let waker_slot: Arc<std::sync::Mutex<Option<std::task::Waker>>> = Arc::default();
    let finish = Finish {
        sender: Some(sender),
        waker: Arc::clone(&waker_slot),
    };
    std::thread::spawn(move || {
        // Dropped however `work` ends, a panic included: the waiting
        // future is woken and sees the answer or the closed channel.
        let mut finish = finish;
        let value = work();
        if let Some(sender) = finish.sender.take() {
            let _ = sender.send(value);
        }
    });
    std::future::poll_fn(move |context| {
        *waker_slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(context.waker().clone());
        match receiver.try_recv() {
            Ok(value) => std::task::Poll::Ready(Some(value)),
            Err(std::sync::mpsc::TryRecvError::Empty) => std::task::Poll::Pending,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => std::task::Poll::Ready(None),
        }
    })
    .await
}

/// The worker's end of [`off_thread`]: on drop, the channel is closed (if
/// no answer was sent) before the waiting future is woken, so a panic
/// resolves the call instead of leaving it waiting forever.
struct Finish<T> {
    sender: Option<std::sync::mpsc::SyncSender<T>>,
    waker: Arc<std::sync::Mutex<Option<std::task::Waker>>>,
}

impl<T> Drop for Finish<T> {
    fn drop(&mut self) {
        drop(self.sender.take());
        if let Some(waker) = self.waker.lock().unwrap_or_else(|e| e.into_inner()).take() {
            waker.wake();
        }
    }
}

/// A host tool's error as rig's.
fn host_error(error: HostToolError) -> ToolExecutionError {
    match error.kind {
        HostErrorKind::NotFound => ToolExecutionError::not_found(error.message),
        HostErrorKind::InvalidArguments { path } => ToolExecutionError::invalid_args(error.message)
            .with_code(format!("invalid_arguments at {path}")),
        HostErrorKind::Refused => ToolExecutionError::refused(error.message),
        HostErrorKind::Failed => ToolExecutionError::other(error.message),
    }
}

/// A tool call the set cannot check, as rig's error.
fn call_error(error: ToolCallError) -> ToolExecutionError {
    match &error {
        ToolCallError::UnknownTool { .. } => ToolExecutionError::not_found(error.to_string()),
        ToolCallError::InvalidArguments { path, .. } => {
            let path = format!("invalid_arguments at {path}");
            ToolExecutionError::invalid_args(error.to_string()).with_code(path)
        }
        _ => ToolExecutionError::other(error.to_string()),
    }
}

/// A call that cannot become a request, as rig's error: nothing was sent.
fn request_error(error: RequestError) -> ToolExecutionError {
    let message = format!("{error}: nothing was sent");
    match error {
        RequestError::Denied { .. } | RequestError::NotConfirmed { .. } => {
            ToolExecutionError::refused(message)
        }
        _ => ToolExecutionError::invalid_args(message),
    }
}

/// The skills on a rig agent in one call: the tools, and the catalog with
/// the instructions appended to the preamble.
pub trait AgentBuilderExt {
    /// The builder with `skills`' tools and preamble text.
    fn skills(self, skills: &SkillTools) -> AgentBuilder<WithBuilderTools>;
}

impl AgentBuilderExt for AgentBuilder<NoToolConfig> {
    fn skills(self, skills: &SkillTools) -> AgentBuilder<WithBuilderTools> {
        self.append_preamble(&skills.preamble())
            .dynamic_tools(skills.tools())
    }
}

impl AgentBuilderExt for AgentBuilder<WithBuilderTools> {
    fn skills(self, skills: &SkillTools) -> AgentBuilder<WithBuilderTools> {
        self.append_preamble(&skills.preamble())
            .dynamic_tools(skills.tools())
    }
}
