//! Skills over the Model Context Protocol.
//!
//! `skills_mcp::serve_stdio(&SKILLS)` serves a compiled (or loaded) skill set
//! to any MCP host:
//! - **tools/list**: every tool but the denied ones, with its input schema
//!   and the `readOnlyHint`, `destructiveHint`, `idempotentHint` and
//!   `openWorldHint` the compiler decided from the method and the policy;
//! - **tools/call**: the arguments checked by the skill's schema, the policy
//!   applied (a `Confirm` tool asks the user through elicitation, or is
//!   refused with nothing sent), then a real HTTP request; the response
//!   comes back as text (and as structured content too, when it is a JSON
//!   object and [`Builder::structured_content`] asks for it);
//! - **prompts** (one per skill, its rendered text) and **resources**
//!   (`skill://<name>/SKILL.md`, the file as read; a skill nested in
//!   another's folder at `skill://<parent>/<name>/SKILL.md`);
//! - the **skills extension** (SEP-2640): `skills/list` and `skills/get`, with
//!   the SHA-256 computed at build time, and `resources/directory/read`;
//! - over stdio, a line that is not JSON gets JSON-RPC's `-32700` with its
//!   `id` (the MCP library alone stays silent, and the host waits).
//!
//! ```no_run
//! mod agent {
//!     // (your crate: `include_skills!("skills")`, tracked by build.rs)
//!     skills::include_skills!("tests/skills", track = false);
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     skills_mcp::serve_stdio(&agent::SKILLS).await?;
//!     Ok(())
//! }
//! ```

#![deny(missing_docs)]

mod cache;
#[cfg(feature = "client")]
pub mod client;
mod entry;
mod error;
#[doc(hidden)] // public for the fuzz target
pub mod lines;
mod paths;
mod send;
mod served;
mod server;
#[cfg(feature = "stdio-client")]
pub mod stdio;
mod uri;

use std::sync::Arc;
use std::time::Duration;

pub use cache::Cache;
pub use error::Error;
pub use served::Skills;
pub use server::{LocalTool, SkillsServer};

/// Settings of a [`SkillsServer`].
pub struct Builder {
    skills: Skills,
    origin: Option<String>,
    timeout: Duration,
    client: Option<reqwest::Client>,
    max_response_bytes: usize,
    structured_content: bool,
    only: Option<Vec<String>>,
    local: Option<LocalTool>,
    host_tools: bool,
    cache: Cache,
}

impl Builder {
    /// A server of `skills`, with the defaults: the skills' own origins,
    /// a 30-second timeout, 4 MiB of response, every skill.
    pub fn new(skills: impl Into<Skills>) -> Builder {
        Builder {
            skills: skills.into(),
            origin: None,
            timeout: Duration::from_secs(30),
            client: None,
            max_response_bytes: send::DEFAULT_MAX_RESPONSE_BYTES,
            structured_content: false,
            only: None,
            local: None,
            host_tools: false,
            cache: Cache::default(),
        }
    }

    /// The caching hints on `skills/list` and `skills/get` (default: an
    /// hour, public). Serve `Private` when the skills differ per user.
    pub fn cache(mut self, cache: Cache) -> Builder {
        self.cache = cache;
        self
    }

    /// Also offers the host toolset's `load_skill` and `read_skill_resource`
    /// (see `skills::toolset`) to clients that do not declare the skills
    /// extension, which then have no other way to open a skill. The same
    /// code answers them as for any model API. Off by default; `cargo
    /// skills serve` turns it on.
    pub fn host_tools(mut self, on: bool) -> Builder {
        self.host_tools = on;
        self
    }

    /// Sends every request to this `scheme://host[:port]` instead of the
    /// skill's origin (staging, tests). Path, query, headers and body stay.
    pub fn origin(mut self, origin: impl Into<String>) -> Builder {
        self.origin = Some(origin.into());
        self
    }

    /// The most a request may take (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Builder {
        self.timeout = timeout;
        self
    }

    /// The HTTP client to send with (its own timeouts, proxies, TLS roots).
    pub fn client(mut self, client: reqwest::Client) -> Builder {
        self.client = Some(client);
        self
    }

    /// The most bytes of a response read back to the model (default 4 MiB):
    /// a larger one is an error result that names the limit, checked against
    /// `Content-Length` first and counted as it arrives.
    pub fn max_response_bytes(mut self, max: usize) -> Builder {
        self.max_response_bytes = max;
        self
    }

    /// Also sends a JSON object response as MCP structured content, beside
    /// its text (default: off). MCP pairs structured content with a tool's
    /// output schema, which a skill does not declare, so clients read the
    /// text, which holds the same JSON; turn it on for a host that reads
    /// structured content without a schema. It doubles what each result
    /// carries (docs/decisions.md, "Serving over MCP").
    pub fn structured_content(mut self, on: bool) -> Builder {
        self.structured_content = on;
        self
    }

    /// Serves only these skills.
    pub fn only(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Builder {
        self.only = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Carries out the tools without an endpoint (the application's own):
    /// given the checked call, it returns the text result or an error text.
    pub fn local_tools(
        mut self,
        handler: impl Fn(&skills::Call<'_>) -> Result<String, String> + Send + Sync + 'static,
    ) -> Builder {
        self.local = Some(Arc::new(handler));
        self
    }

    /// The server; an origin that is not `scheme://host[:port]` or an HTTP
    /// client that cannot be built is an error.
    pub fn build(self) -> Result<SkillsServer, Error> {
        // A bad origin would fail every call: refuse it here, once.
        let origin = match &self.origin {
            Some(origin) => Some(
                skills::tables::check_origin(origin)
                    .map_err(|error| Error(format!("{error}")))?
                    .to_owned(),
            ),
            None => None,
        };
        let timeout = self.client.is_none().then_some(self.timeout);
        let client = match self.client {
            Some(client) => client,
            None => {
                let tls = skills::https::client_config()
                    .map_err(|error| Error(format!("cannot build the HTTP client: {error}")))?;
                reqwest::Client::builder()
                    .tls_backend_preconfigured(tls)
                    .timeout(self.timeout)
                    // A redirect would send the model's values to another origin.
                    .redirect(reqwest::redirect::Policy::none())
                    .build()
                    .map_err(|error| Error(format!("cannot build the HTTP client: {error}")))?
            }
        };
        Ok(SkillsServer::new(
            self.skills,
            origin,
            send::Sender {
                client,
                timeout,
                max_response_bytes: self.max_response_bytes,
                structured_content: self.structured_content,
            },
            self.only,
            self.local,
            self.host_tools,
            self.cache,
        ))
    }
}

/// Serves `skills` over stdio until the client disconnects.
pub async fn serve_stdio(skills: impl Into<Skills>) -> Result<(), Error> {
    Builder::new(skills).build()?.serve_stdio().await
}
