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

/// Where a tool's request goes. The origin is fixed at build time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    #[doc(hidden)]
    pub method: Method,
    #[doc(hidden)]
    pub origin: &'static str,
    #[doc(hidden)]
    pub url: &'static str,
}

impl Endpoint {
    pub fn method(&self) -> Method {
        self.method
    }

    /// `scheme://host[:port]`.
    pub fn origin(&self) -> &'static str {
        self.origin
    }

    /// The URL template as declared, placeholders included.
    pub fn url(&self) -> &'static str {
        self.url
    }
}

/// One tool offered to the model. Built by generated code.
#[derive(Debug)]
pub struct Tool {
    #[doc(hidden)]
    pub name: &'static str,
    #[doc(hidden)]
    pub description: &'static str,
    #[doc(hidden)]
    pub policy: Policy,
    #[doc(hidden)]
    pub endpoint: Option<Endpoint>,
    #[doc(hidden)]
    pub parameters_json: &'static str,
    #[doc(hidden)]
    pub anthropic_json: &'static str,
    #[doc(hidden)]
    pub openai_json: &'static str,
    #[doc(hidden)]
    pub openai_strict_json: Option<&'static str>,
    #[doc(hidden)]
    pub mcp_json: &'static str,
}

impl Tool {
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn description(&self) -> &'static str {
        self.description
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// `None` for a tool the application carries out itself.
    pub fn endpoint(&self) -> Option<&Endpoint> {
        self.endpoint.as_ref()
    }

    /// Whether the tool only reads (a safe HTTP method).
    pub fn is_read_only(&self) -> bool {
        self.endpoint.is_some_and(|e| e.method.is_safe())
    }

    /// OpenAI's `x-openai-isConsequential` (for GPT actions): every tool that
    /// is not read-only is consequential and should be confirmed by the user.
    pub fn is_consequential(&self) -> bool {
        !self.is_read_only()
    }

    /// The parameter JSON Schema, as declared.
    pub fn parameters_json(&self) -> &'static str {
        self.parameters_json
    }

    /// `{"name", "description", "input_schema"}` for Anthropic's Messages API.
    pub fn anthropic_json(&self) -> &'static str {
        self.anthropic_json
    }

    /// `{"type": "function", "function": {"name", "description", "parameters"}}` for OpenAI.
    pub fn openai_json(&self) -> &'static str {
        self.openai_json
    }

    /// The same with `"strict": true`, when the schema qualifies for OpenAI's
    /// strict mode (every property required, nullable where optional; no defaults).
    pub fn openai_strict_json(&self) -> Option<&'static str> {
        self.openai_strict_json
    }

    /// `{"name", "description", "inputSchema", "annotations"}` for MCP, with
    /// `readOnlyHint` and `destructiveHint`.
    pub fn mcp_json(&self) -> &'static str {
        self.mcp_json
    }
}
