//! The router: a model named ([`RoutingModel`]), the request that asks it
//! and the reading of its reply ([`ModelRouter`]).

use serde_json::{Value, json};

use crate::model::{ModelApiError, Provider, tool_uses};
use crate::toolset::{LOAD_SKILL, Toolset};

/// The most tokens a routing answer may take: a tool call, or a refusal.
const MAX_TOKENS: u32 = 512;

/// `https://HOST[:PORT]`, or `http://` to a loopback host, with no path,
/// query or credentials: an origin a key may be sent to.
fn check_origin(url: &str) -> Result<(), String> {
    let shown = skills_core::printable(url);
    let uri: http::Uri = url
        .parse()
        .map_err(|error| format!("`{shown}` is not a URL: {error}"))?;
    let host = uri.host().ok_or_else(|| {
        format!("`{shown}` names no host: `https://HOST` or `http://127.0.0.1:PORT`")
    })?;
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Err(format!("`{shown}` holds credentials: give the origin only"));
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err(format!(
            "`{shown}` has a path: give the origin only (`https://HOST`)"
        ));
    }
    match uri.scheme_str() {
        Some("https") => Ok(()),
        Some("http") if is_loopback(host) => Ok(()),
        Some("http") => Err(format!(
            "`{shown}` is plain HTTP to a host that is not this machine: the API key would travel in clear; use `https://`, or `http://` only to 127.0.0.1, [::1] or localhost"
        )),
        _ => Err(format!("`{shown}` is neither `https://` nor `http://`")),
    }
}

/// Whether `host` (as a URI holds it, IPv6 in brackets) is this machine.
fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A model to route with, as `cargo skills test --router` and trigger
/// records name it: `anthropic:MODEL` (the Messages API) or `openai:MODEL`
/// (the Responses API).
///
/// ```
/// use skills::route::RoutingModel;
///
/// let model: RoutingModel = "anthropic:claude-sonnet-4-5".parse()?;
/// assert_eq!(model.to_string(), "anthropic:claude-sonnet-4-5");
/// assert_eq!(model.key_variable(), "ANTHROPIC_API_KEY");
/// assert!("mistral:large".parse::<RoutingModel>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoutingModel {
    /// Whose API is asked.
    pub provider: Provider,
    /// The model's name in that API.
    pub model: String,
}

impl RoutingModel {
    /// The environment variable the API key is read from.
    pub fn key_variable(&self) -> &'static str {
        match self.provider {
            Provider::Anthropic => "ANTHROPIC_API_KEY",
            Provider::OpenAiChat | Provider::OpenAiResponses => "OPENAI_API_KEY",
        }
    }

    /// The API key in [`key_variable`](Self::key_variable), when it is set
    /// and not blank.
    pub fn key_from_env(&self) -> Option<String> {
        std::env::var(self.key_variable())
            .ok()
            .filter(|key| !key.trim().is_empty())
    }
}

impl std::str::FromStr for RoutingModel {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, String> {
        let provider = match value.split_once(':') {
            Some(("anthropic", _)) => Provider::Anthropic,
            Some(("openai", _)) => Provider::OpenAiResponses,
            _ => {
                return Err(format!(
                    "unknown router `{}`: `anthropic:MODEL` or `openai:MODEL`",
                    skills_core::printable(value)
                ));
            }
        };
        let model = value.split_once(':').map_or("", |(_, model)| model);
        if model.trim().is_empty() {
            return Err(format!(
                "`{}` names no model: `anthropic:MODEL` or `openai:MODEL`",
                skills_core::printable(value)
            ));
        }
        Ok(RoutingModel {
            provider,
            model: model.to_owned(),
        })
    }
}

impl std::fmt::Display for RoutingModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let provider = match self.provider {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat | Provider::OpenAiResponses => "openai",
        };
        write!(f, "{provider}:{}", self.model)
    }
}

/// Asks a model API which skill a request is for.
#[derive(Debug, Clone)]
pub struct ModelRouter {
    provider: Provider,
    model: String,
    base_url: String,
    key: String,
    system: String,
    load_skill: Value,
}

impl ModelRouter {
    /// A router over `toolset`'s skills, listed to the model as `listing`
    /// (what the host lists: the same text the offline router reads), with
    /// the API key `key`. `provider` is [`Provider::Anthropic`] (the
    /// Messages API) or [`Provider::OpenAiResponses`] (the Responses API;
    /// [`Provider::OpenAiChat`] is asked through it too).
    pub fn new(
        provider: Provider,
        model: &str,
        toolset: &Toolset<'_>,
        listing: &str,
        key: &str,
    ) -> ModelRouter {
        let load_skill = toolset
            .definitions(provider)
            .as_array()
            .and_then(|tools| tools.iter().find(|tool| name_of(tool) == Some(LOAD_SKILL)))
            .cloned()
            .unwrap_or(Value::Null);
        let system = format!(
            "The following skills are available. When the user's request is one a skill is for, call {LOAD_SKILL} with its name before anything else; when none is, answer without calling it.\n\n{listing}"
        );
        ModelRouter {
            provider,
            model: model.to_owned(),
            base_url: default_base_url(provider).to_owned(),
            key: key.to_owned(),
            system,
            load_skill,
        }
    }

    /// Another origin for the API (a proxy, a test server): `https://host`,
    /// or `http://` on a loopback address only (`127.0.0.1`, `[::1]`,
    /// `localhost`): the key travels in a header, and plain HTTP to any
    /// other host would send it in clear. Refused with why otherwise.
    ///
    /// ```
    /// # use skills::model::Provider;
    /// # use skills::route::ModelRouter;
    /// # mod agent { skills::include_skills!("../tests/fixtures/files", track = false); }
    /// # let toolset = skills::Toolset::new(&agent::SKILLS);
    /// let router = ModelRouter::new(Provider::Anthropic, "m", &toolset, "", "sk-test");
    /// assert!(router.clone().base_url("http://127.0.0.1:8080").is_ok());
    /// assert!(router.clone().base_url("https://proxy.example").is_ok());
    /// assert!(router.base_url("http://proxy.example").is_err());
    /// ```
    pub fn base_url(mut self, url: &str) -> Result<ModelRouter, String> {
        check_origin(url)?;
        self.base_url = url.trim_end_matches('/').to_owned();
        Ok(self)
    }

    /// The system prompt the model reads: the instruction, then the listing.
    pub fn system(&self) -> &str {
        &self.system
    }

    /// The request that asks which skill `query` is for.
    pub fn request(&self, query: &str) -> http::Request<Vec<u8>> {
        let (path, body) = match self.provider {
            Provider::Anthropic => (
                "/v1/messages",
                json!({
                    "model": self.model,
                    "max_tokens": MAX_TOKENS,
                    "system": self.system,
                    "tools": [self.load_skill],
                    "messages": [{"role": "user", "content": query}],
                }),
            ),
            Provider::OpenAiResponses | Provider::OpenAiChat => (
                "/v1/responses",
                json!({
                    "model": self.model,
                    "max_output_tokens": MAX_TOKENS,
                    "instructions": self.system,
                    "tools": [self.load_skill],
                    "input": query,
                }),
            ),
        };
        let builder = http::Request::post(format!("{}{path}", self.base_url))
            .header(http::header::CONTENT_TYPE, "application/json");
        let builder = match self.provider {
            Provider::Anthropic => builder
                .header("x-api-key", &self.key)
                .header("anthropic-version", "2023-06-01"),
            Provider::OpenAiResponses | Provider::OpenAiChat => {
                builder.header(http::header::AUTHORIZATION, format!("Bearer {}", self.key))
            }
        };
        builder
            .body(body.to_string().into_bytes())
            .unwrap_or_else(|_| http::Request::new(Vec::new()))
    }

    /// The skill the reply chose: the name of its first `load_skill` call,
    /// or `None` when it called none.
    pub fn choice(&self, reply: &Value) -> Result<Option<String>, ModelApiError> {
        let provider = match self.provider {
            Provider::OpenAiChat => Provider::OpenAiResponses,
            provider => provider,
        };
        let calls = tool_uses(provider, reply)?;
        let Some(call) = calls.iter().find(|call| call.name == LOAD_SKILL) else {
            return Ok(None);
        };
        let arguments = match &call.raw_arguments {
            Value::String(text) => serde_json::from_str(text).unwrap_or(Value::Null),
            other => other.clone(),
        };
        Ok(arguments
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned))
    }
}

fn name_of(tool: &Value) -> Option<&str> {
    tool.get("name")
        .or_else(|| tool.get("function").and_then(|f| f.get("name")))
        .and_then(Value::as_str)
}

fn default_base_url(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "https://api.anthropic.com",
        Provider::OpenAiResponses | Provider::OpenAiChat => "https://api.openai.com",
    }
}
