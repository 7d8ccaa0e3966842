use crate::Str;
use crate::call::Call;
use crate::definitions;
use crate::endpoint::Endpoint;
use crate::error::ToolCallError;
use crate::schema::Schema;

/// What the runtime does when a model calls a tool, decided at build time from
/// the skill's `permissions` and the tool's HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Carry it out.
    Allow,
    /// Ask the user first.
    Confirm,
    /// Refuse: a mutating tool that the skill does not allow.
    Deny,
}

impl Policy {
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Allow => "allow",
            Policy::Confirm => "confirm",
            Policy::Deny => "deny",
        }
    }
}

/// The HTTP methods an endpoint may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Head,
    Options,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    pub const ALL: [Method; 7] = [
        Method::Get,
        Method::Head,
        Method::Options,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }

    /// GET, HEAD and OPTIONS read and never change state.
    pub fn is_safe(self) -> bool {
        matches!(self, Method::Get | Method::Head | Method::Options)
    }

    pub fn to_http(self) -> http::Method {
        match self {
            Method::Get => http::Method::GET,
            Method::Head => http::Method::HEAD,
            Method::Options => http::Method::OPTIONS,
            Method::Post => http::Method::POST,
            Method::Put => http::Method::PUT,
            Method::Patch => http::Method::PATCH,
            Method::Delete => http::Method::DELETE,
        }
    }
}

/// What a tool's declaration says about its effects, decided once by the
/// compiler from the method and the policy, and exported to model APIs as MCP
/// annotations and OpenAI's `x-openai-isConsequential`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hints {
    /// Only reads (a safe HTTP method).
    pub read_only: bool,
    /// May destroy or overwrite (DELETE, PUT, PATCH, a confirmed tool, or a
    /// tool without an endpoint, which nothing proves harmless).
    pub destructive: bool,
    /// Repeating the call has no further effect (GET, HEAD, OPTIONS, PUT, DELETE).
    pub idempotent: bool,
    /// Reaches beyond the application (every tool with an HTTP endpoint; a
    /// tool without one is the application's, and MCP's default applies: true).
    pub open_world: bool,
    /// Should be confirmed by the user (OpenAI's `x-openai-isConsequential`).
    pub consequential: bool,
}

impl Hints {
    /// Read-only: a safe method. Destructive: DELETE, PUT, PATCH, a confirmed
    /// tool, or no endpoint (nothing proves it harmless); never when read-only.
    /// Idempotent: HTTP's idempotent methods. Open world: any HTTP endpoint,
    /// and MCP's default (true) for the application's own tools.
    /// Consequential: everything that is not read-only.
    pub fn of(method: Option<Method>, policy: Policy) -> Hints {
        let read_only = method.is_some_and(Method::is_safe);
        let destructive =
            !read_only && (policy == Policy::Confirm || !matches!(method, Some(Method::Post)));
        Hints {
            read_only,
            destructive,
            idempotent: method.is_some_and(|m| m != Method::Post && m != Method::Patch),
            open_world: true,
            consequential: !read_only,
        }
    }
}

/// One tool offered to the model. Built by generated code.
#[derive(Debug, Clone)]
pub struct Tool {
    #[doc(hidden)]
    pub name: Str,
    #[doc(hidden)]
    pub description: Str,
    #[doc(hidden)]
    pub policy: Policy,
    #[doc(hidden)]
    pub hints: Hints,
    #[doc(hidden)]
    pub endpoint: Option<Endpoint>,
    #[doc(hidden)]
    pub schema: Schema,
    /// The parameter schema sent to models: as declared, with what the
    /// compiler enforces made explicit (`type`, `additionalProperties: false`).
    #[doc(hidden)]
    pub parameters_json: Str,
    /// Whether the schema qualifies for OpenAI's strict mode.
    #[doc(hidden)]
    pub strict: bool,
}

impl Tool {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Whether the tool is offered to models at all: every tool but the
    /// denied ones (tool lists, MCP `tools/list`, the host toolset).
    pub fn is_offered(&self) -> bool {
        self.policy != Policy::Deny
    }

    /// `None` for a tool the application carries out itself.
    pub fn endpoint(&self) -> Option<&Endpoint> {
        self.endpoint.as_ref()
    }

    /// The tool's effects, as the compiler decided them.
    pub fn hints(&self) -> Hints {
        self.hints
    }

    /// Whether the tool only reads (a safe HTTP method).
    pub fn is_read_only(&self) -> bool {
        self.hints.read_only
    }

    /// OpenAI's `x-openai-isConsequential` (for GPT actions).
    pub fn is_consequential(&self) -> bool {
        self.hints.consequential
    }

    /// The parameter schema as a table the checker interprets.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The parameter JSON Schema sent to models.
    pub fn parameters_json(&self) -> &str {
        &self.parameters_json
    }

    /// Checks a model's arguments (JSON text) against the schema. Errors name
    /// the failing field by JSON path.
    ///
    /// ```
    /// # fn demo(tool: &skills_core::Tool) -> Result<(), Box<dyn std::error::Error>> {
    /// let call = tool.parse(r#"{"repo": "a/b"}"#)?;
    /// let request = call.request()?; // an http::Request<Vec<u8>>
    /// # Ok(()) }
    /// ```
    pub fn parse(&self, arguments: &str) -> Result<Call<'_>, ToolCallError> {
        let value: serde_json::Value =
            serde_json::from_str(arguments).map_err(|error| ToolCallError::InvalidArguments {
                tool: self.name.to_string(),
                path: ".".to_owned(),
                message: error.to_string(),
            })?;
        self.parse_value(&value)
    }

    /// The same for arguments already parsed, as model APIs hand them over.
    pub fn parse_value(&self, arguments: &serde_json::Value) -> Result<Call<'_>, ToolCallError> {
        let arguments = self.schema.check(&self.name, arguments)?;
        Ok(Call::new(self, arguments))
    }

    /// `{"name", "description", "input_schema"}` for Anthropic's Messages API.
    pub fn anthropic_json(&self) -> String {
        definitions::anthropic(&self.name, &self.description, &self.parameters_json)
    }

    /// `{"type": "function", "function": {"name", "description", "parameters"}}` for OpenAI,
    /// with `x-openai-isConsequential`.
    pub fn openai_json(&self) -> String {
        definitions::openai(
            &self.name,
            &self.description,
            &self.parameters_json,
            self.hints,
            false,
        )
    }

    /// The same with `"strict": true`, when the schema qualifies for OpenAI's
    /// strict mode (every property required; no defaults; closed objects).
    pub fn openai_strict_json(&self) -> Option<String> {
        self.strict.then(|| {
            definitions::openai(
                &self.name,
                &self.description,
                &self.parameters_json,
                self.hints,
                true,
            )
        })
    }

    /// `{"name", "description", "inputSchema", "annotations"}` for MCP, with
    /// `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint`.
    pub fn mcp_json(&self) -> String {
        definitions::mcp(
            &self.name,
            &self.description,
            &self.parameters_json,
            self.hints,
        )
    }
}
