//! Why a host tool (`load_skill`, `read_skill_resource`, `run_skill_script`)
//! gave no result, typed: one value the toolset and the scripts return, and
//! hosts map to their own error kinds.

/// Why a host tool's call got no result, typed for hosts that map it
/// (an agent framework's error kinds); [`Toolset::respond`](crate::Toolset::respond) gives the same
/// as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostToolError {
    /// What kind of problem it is.
    pub kind: HostErrorKind,
    /// What the model reads (without the `Error: ` prefix).
    pub message: String,
}

/// The kinds of [`HostToolError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostErrorKind {
    /// No such skill, file or script.
    NotFound,
    /// The arguments do not fit the tool; `path` is the JSON path of the
    /// failing field (`.` for the arguments object).
    InvalidArguments {
        /// Where in the arguments.
        path: String,
    },
    /// The host's approval said no, or was never given.
    Refused,
    /// It was allowed and tried, and failed (a script that cannot start, a
    /// file over the cap).
    Failed,
}

impl HostToolError {
    fn new(kind: HostErrorKind, message: impl Into<String>) -> HostToolError {
        HostToolError {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn not_found(message: impl Into<String>) -> HostToolError {
        HostToolError::new(HostErrorKind::NotFound, message)
    }

    pub(crate) fn invalid(path: &str, message: impl Into<String>) -> HostToolError {
        HostToolError::new(
            HostErrorKind::InvalidArguments {
                path: path.to_owned(),
            },
            message,
        )
    }

    pub(crate) fn refused(message: impl Into<String>) -> HostToolError {
        HostToolError::new(HostErrorKind::Refused, message)
    }

    pub(crate) fn failed(message: impl Into<String>) -> HostToolError {
        HostToolError::new(HostErrorKind::Failed, message)
    }
}

impl std::fmt::Display for HostToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for HostToolError {}
