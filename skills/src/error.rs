use std::fmt;

/// A model's tool call that cannot become a typed value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolCallError {
    /// The skill has no tool by that name.
    UnknownTool {
        name: String,
        /// The tools the skill does have.
        expected: &'static [&'static str],
    },
    /// The arguments do not match the tool's parameters.
    InvalidArguments {
        tool: &'static str,
        /// JSON path of the failing field: `.` for the arguments object,
        /// `title`, `labels[2]`, `filter.owner`.
        path: String,
        message: String,
    },
}

impl ToolCallError {
    /// The JSON path of the failing field, for [`InvalidArguments`](Self::InvalidArguments).
    pub fn path(&self) -> Option<&str> {
        match self {
            ToolCallError::InvalidArguments { path, .. } => Some(path),
            ToolCallError::UnknownTool { .. } => None,
        }
    }
}

impl fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolCallError::UnknownTool { name, expected: [] } => {
                write!(f, "unknown tool `{name}`: this skill has no tools")
            }
            ToolCallError::UnknownTool { name, expected } => {
                write!(
                    f,
                    "unknown tool `{name}`; expected one of: {}",
                    expected.join(", ")
                )
            }
            ToolCallError::InvalidArguments {
                tool,
                path,
                message,
            } => {
                write!(f, "invalid arguments for `{tool}` at `{path}`: {message}")
            }
        }
    }
}

impl std::error::Error for ToolCallError {}

/// A tool call that cannot become an HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// The tool has no `endpoint`: the application carries it out itself.
    NoEndpoint { tool: &'static str },
    /// `request_to` was given something other than `scheme://host[:port]`.
    InvalidOrigin {
        origin: String,
        reason: &'static str,
    },
    /// A header value holds a control character (CR, LF, NUL, ...).
    InvalidHeaderValue {
        tool: &'static str,
        header: &'static str,
    },
    /// A nullable path parameter was null: the path cannot be built.
    MissingPathValue {
        tool: &'static str,
        parameter: &'static str,
    },
    /// The `http` crate refused the request (not expected: every part is checked first).
    Http { tool: &'static str, message: String },
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::NoEndpoint { tool } => write!(
                f,
                "tool `{tool}` has no endpoint: the application carries it out itself"
            ),
            RequestError::InvalidOrigin { origin, reason } => {
                write!(f, "invalid origin `{origin}`: {reason}")
            }
            RequestError::InvalidHeaderValue { tool, header } => write!(
                f,
                "tool `{tool}`: the value of header `{header}` holds a control character"
            ),
            RequestError::MissingPathValue { tool, parameter } => write!(
                f,
                "tool `{tool}`: `{parameter}` is null but stands in the URL path"
            ),
            RequestError::Http { tool, message } => write!(f, "tool `{tool}`: {message}"),
        }
    }
}

impl std::error::Error for RequestError {}
