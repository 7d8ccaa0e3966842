//! What a tool may do: its HTTP method, the policy the compiler decided for
//! it, and the hints exported to model APIs. The leaves every other table
//! module builds on.

/// What the runtime does when a model calls a tool, decided at build time from
/// the skill's `permissions` and the tool's HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// Carry it out.
    Allow,
    /// Ask the user first.
    Confirm,
    /// Refuse: a mutating tool that the skill does not allow. The default,
    /// until the compiler decides.
    #[default]
    Deny,
}

impl Policy {
    /// `allow`, `confirm` or `deny`, as the CLI and the docs spell it.
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
    /// `GET`: reads.
    Get,
    /// `HEAD`: reads the headers only.
    Head,
    /// `OPTIONS`: asks what the resource allows.
    Options,
    /// `POST`: creates or acts.
    Post,
    /// `PUT`: replaces.
    Put,
    /// `PATCH`: changes part.
    Patch,
    /// `DELETE`: removes.
    Delete,
}

impl Method {
    /// Every method, in the order the docs list them.
    pub const ALL: [Method; 7] = [
        Method::Get,
        Method::Head,
        Method::Options,
        Method::Post,
        Method::Put,
        Method::Patch,
        Method::Delete,
    ];

    /// The method's name, upper-case, as HTTP spells it.
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

    /// The same method as the `http` crate's.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
