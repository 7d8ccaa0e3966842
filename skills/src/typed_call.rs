//! What every skill's generated `ToolCall` does: the methods that do not
//! vary from one skill to the next live here once, as provided methods;
//! the generated code says only which tools the skill has and how each
//! variant's arguments convert.
//!
//! A provided method is compiled again for every skill that uses it, so
//! each is a shell around a function that is not generic ([`parse_in`],
//! [`tool_at`], [`request_of`]): the work is compiled once, and a skill's
//! copy is a few calls (BENCHMARKS.md, issue 62).

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
        Self::from_call(parse_in(Self::SKILL, name, arguments.into())?)
    }

    /// The tool's name.
    fn name(&self) -> &'static str {
        self.tool().name()
    }

    /// The tool's static description.
    fn tool(&self) -> &'static Tool {
        tool_at(Self::SKILL, self.index())
    }

    /// What the runtime must do with this call, decided at build time.
    fn policy(&self) -> Policy {
        self.tool().policy()
    }

    /// The untyped call, as `SkillSet::parse_call` gives it.
    fn to_call(&self) -> Call<'static> {
        call_of(self.tool(), self.arguments())
    }

    /// The HTTP request this call stands for, to the origin the skill
    /// declares.
    fn request(&self) -> Result<http::Request<Vec<u8>>, RequestError> {
        request_of(self.tool(), self.arguments(), None)
    }

    /// The same request sent to another `scheme://host[:port]` (staging,
    /// tests).
    fn request_to(&self, origin: &str) -> Result<http::Request<Vec<u8>>, RequestError> {
        request_of(self.tool(), self.arguments(), Some(origin))
    }
}

/// A model's call of one of `skill`'s tools, checked.
#[inline(never)]
fn parse_in(
    skill: &'static CompiledSkill,
    name: &str,
    arguments: Arguments<'_>,
) -> Result<Call<'static>, ToolCallError> {
    skill.skill().parse_call(name, arguments)
}

/// The tool at `index` of `skill`: generated code gives only indices of
/// the skill's own tools.
#[inline(never)]
fn tool_at(skill: &'static CompiledSkill, index: usize) -> &'static Tool {
    &skill.skill().tools[index]
}

/// The call of `tool` with typed arguments written as JSON (an object, as
/// every parameter schema's root is).
#[inline(never)]
fn call_of(tool: &'static Tool, arguments: Value) -> Call<'static> {
    match arguments {
        Value::Object(arguments) => Call::new(tool, arguments),
        _ => Call::new(tool, Map::new()),
    }
}

/// The request of that call, to `origin` or to the skill's own.
#[inline(never)]
fn request_of(
    tool: &'static Tool,
    arguments: Value,
    origin: Option<&str>,
) -> Result<http::Request<Vec<u8>>, RequestError> {
    let call = call_of(tool, arguments);
    match origin {
        Some(origin) => call.request_to(origin),
        None => call.request(),
    }
}

/// What a generated `from_call` reads a checked call into its variant from:
/// which of `skill`'s tools the call is (its place in the skill's tools;
/// `from_call` matches on it, not on names), and its arguments.
#[doc(hidden)]
#[inline(never)]
pub fn checked_arguments(
    skill: &'static CompiledSkill,
    call: Call<'_>,
) -> Result<(usize, Value), ToolCallError> {
    let tools = &skill.skill().tools;
    match tools
        .iter()
        .position(|tool| std::ptr::eq(tool, call.tool()))
    {
        Some(index) => Ok((index, Value::Object(call.into_arguments()))),
        // Checked against another skill's tools: not reached through `parse`.
        None => Err(ToolCallError::UnknownTool {
            name: call.name().to_owned(),
            expected: tools.iter().map(|tool| tool.name().to_owned()).collect(),
        }),
    }
}

/// The error of checked arguments that the generated type of the tool at
/// `index` does not take: the generated type and its schema table
/// disagree, a bug in the code generator, reported and never a panic.
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn does_not_fit(skill: &'static CompiledSkill, index: usize) -> ToolCallError {
    ToolCallError::InvalidArguments {
        tool: tool_at(skill, index).name().to_owned(),
        path: ".".to_owned(),
        message: "the checked arguments do not fit the generated type (a bug in skills)".to_owned(),
    }
}
