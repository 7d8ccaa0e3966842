use std::fmt;

/// A model's tool call that cannot become a checked call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolCallError {
    /// The skill has no tool by that name.
    UnknownTool {
        /// The name the model used.
        name: String,
        /// The tools the skill does have.
        expected: Vec<String>,
    },
    /// Two or more skills of the set declare a tool by that name, so the
    /// name alone cannot say which one the model meant.
    AmbiguousTool {
        /// The name the model used.
        name: String,
        /// The skills that declare it.
        skills: Vec<String>,
    },
    /// The arguments do not match the tool's parameters.
    InvalidArguments {
        /// The tool called.
        tool: String,
        /// JSON path of the failing field: `.` for the arguments object,
        /// `title`, `labels[2]`, `filter.owner`.
        path: String,
        /// What is wrong there.
        message: String,
    },
}

impl ToolCallError {
    /// The checker's answer to arguments nested deeper than
    /// [`MAX_DEPTH`](crate::MAX_DEPTH), for a reader that must refuse them
    /// before they are parsed: a JSON-RPC transport, whose parser stops at
    /// 128 levels, gives the model the same message as the checker.
    ///
    /// ```
    /// let error = skills_core::ToolCallError::too_deep("save_note");
    /// assert_eq!(error.path(), Some("."));
    /// assert!(error.to_string().ends_with("nested more than 64 levels deep"));
    /// ```
    pub fn too_deep(tool: &str) -> ToolCallError {
        ToolCallError::InvalidArguments {
            tool: tool.to_owned(),
            path: ".".to_owned(),
            message: crate::depth::too_deep(),
        }
    }

    /// The JSON path of the failing field, for [`InvalidArguments`](Self::InvalidArguments).
    pub fn path(&self) -> Option<&str> {
        match self {
            ToolCallError::InvalidArguments { path, .. } => Some(path),
            ToolCallError::UnknownTool { .. } | ToolCallError::AmbiguousTool { .. } => None,
        }
    }
}

impl fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolCallError::UnknownTool { name, expected } if expected.is_empty() => {
                write!(f, "unknown tool `{name}`: this skill has no tools")
            }
            ToolCallError::UnknownTool { name, expected } => {
                write!(
                    f,
                    "unknown tool `{name}`; expected one of: {}",
                    expected.join(", ")
                )
            }
            ToolCallError::AmbiguousTool { name, skills } => {
                write!(
                    f,
                    "tool `{name}` is declared by several skills ({}): rename all but one",
                    skills.join(", ")
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

/// A tool call that cannot become an HTTP request. Nothing is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// The tool's policy is Deny: a write its skill does not allow. Never sent.
    Denied {
        /// The tool called.
        tool: String,
    },
    /// The tool's policy is Confirm and the call was not confirmed
    /// ([`Call::confirmed`](crate::Call::confirmed)).
    NotConfirmed {
        /// The tool called.
        tool: String,
    },
    /// The tool has no `endpoint`: the application carries it out itself.
    NoEndpoint {
        /// The tool called.
        tool: String,
    },
    /// `request_to` was given something other than `scheme://host[:port]`.
    InvalidOrigin {
        /// The origin given.
        origin: String,
        /// Why it is not one.
        reason: &'static str,
    },
    /// A header value holds a control character (CR, LF, NUL, ...).
    InvalidHeaderValue {
        /// The tool called.
        tool: String,
        /// The header whose value it is.
        header: String,
    },
    /// A value that stands in the URL path or inside a JSON string is null
    /// or absent: there is no text to put there.
    MissingValue {
        /// The tool called.
        tool: String,
        /// The parameter without a value.
        parameter: String,
    },
    /// A path value would make its segment empty (nothing but `/` or `\`)
    /// or hold a `.` or `..` component once decoded (in any
    /// percent-encoding), which URL parsers and decoding servers resolve to
    /// another path.
    PathSegment {
        /// The tool called.
        tool: String,
        /// The parameter whose value it is.
        parameter: String,
    },
    /// The `http` crate refused the request (not expected: every part is checked first).
    Http {
        /// The tool called.
        tool: String,
        /// What the `http` crate said.
        message: String,
    },
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Denied { tool } => write!(
                f,
                "tool `{tool}` is denied: it changes state and its skill does not allow it (`permissions`); nothing was sent"
            ),
            RequestError::NotConfirmed { tool } => write!(
                f,
                "tool `{tool}` needs the user's confirmation: ask, then send the call `confirmed()`; nothing was sent"
            ),
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
            RequestError::MissingValue { tool, parameter } => write!(
                f,
                "tool `{tool}`: `{parameter}` has no value but stands in the URL path or a JSON string"
            ),
            RequestError::PathSegment { tool, parameter } => write!(
                f,
                "tool `{tool}`: the value of `{parameter}` would make a path segment empty or hold a `.` or `..` segment once a server decodes it, which changes the path; nothing was sent"
            ),
            RequestError::Http { tool, message } => write!(f, "tool `{tool}`: {message}"),
        }
    }
}

impl std::error::Error for RequestError {}
