use crate::endpoint::Endpoint;
use crate::policy::{Hints, Policy};
use crate::schema::Schema;
use crate::tables::Str;

/// One tool offered to the model. Built by generated code.
///
/// The default is a tool with no name, no parameters and the policy
/// `deny`: what the compiler fills in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tool {
    #[doc(hidden)]
    pub name: Str,
    #[doc(hidden)]
    pub title: Option<Str>,
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
    /// The tool's name, as a model calls it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A name for people, when the skill gives one: what a client shows in
    /// place of [`Tool::name`] (MCP's `title`).
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// What the tool does: what a model reads to choose it.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// What the runtime must do with a call of it, decided at build time.
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
}
