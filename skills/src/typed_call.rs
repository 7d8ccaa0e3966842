//! What every skill's generated `ToolCall` does: the methods that do not
//! vary from one skill to the next live here once, as provided methods;
//! the generated code says only which tools the skill has and how each
//! variant's arguments convert.

use serde_json::{Map, Value};
use skills_core::{Arguments, Call, CompiledSkill, Policy, RequestError, Tool, ToolCallError};

/// A skill's tool call with typed arguments: the `ToolCall` enum that
/// `include_skills!` generates in each skill's module implements it. Bring
/// it into scope to parse a model's call and build its request:
///
/// ```ignore
/// use skills::TypedCall;
///
/// let call = agent::github::ToolCall::parse("get_issue", r#"{"repo": "a/b", "number": 1}"#)?;
/// let request = call.request()?; // an http::Request<Vec<u8>>
/// ```
pub trait TypedCall: Sized + 'static {
    /// The skill whose tools these are.
    const SKILL: &'static CompiledSkill;

    /// The typed call for a call the skill's schema has checked
    /// (generated: one arm per tool).
    fn from_call(call: Call<'static>) -> Result<Self, ToolCallError>;

    /// Which of the skill's tools this is, in declared order (generated).
    fn index(&self) -> usize;

    /// The arguments as the JSON the schema describes (generated).
    fn arguments(&self) -> Value;

    /// Turns a model's tool call (name and arguments, as JSON text or a
    /// parsed value) into a typed value. Unknown fields, wrong types,
    /// missing required fields, bad enum values and broken bounds are
    /// errors that name the field by JSON path.
    fn parse<'a>(name: &str, arguments: impl Into<Arguments<'a>>) -> Result<Self, ToolCallError> {
        Self::from_call(Self::SKILL.parse_call(name, arguments)?)
    }

    /// The tool's name.
    fn name(&self) -> &'static str {
        self.tool().name()
    }

    /// The tool's static description.
    fn tool(&self) -> &'static Tool {
        &Self::SKILL.tools[self.index()]
    }

    /// What the runtime must do with this call, decided at build time.
    fn policy(&self) -> Policy {
        self.tool().policy()
    }

    /// The untyped call, as `SkillSet::parse_call` gives it.
    fn to_call(&self) -> Call<'static> {
        match self.arguments() {
            Value::Object(arguments) => Call::new(self.tool(), arguments),
            _ => Call::new(self.tool(), Map::new()),
        }
    }

    /// The HTTP request this call stands for, to the origin the skill
    /// declares.
    fn request(&self) -> Result<http::Request<Vec<u8>>, RequestError> {
        self.to_call().request()
    }

    /// The same request sent to another `scheme://host[:port]` (staging,
    /// tests).
    fn request_to(&self, origin: &str) -> Result<http::Request<Vec<u8>>, RequestError> {
        self.to_call().request_to(origin)
    }
}
