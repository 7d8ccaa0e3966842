//! What generated code uses. Not a public API: it changes with the code generator.

pub use http;
pub use serde_json;
#[cfg(feature = "macros")]
pub use skills_macros::include_skills;

pub use crate::typed::{
    FromJson, ToJson, field, object, optional, put, put_optional, put_rest, rest,
};
pub use skills_core::{Checks, Json, Node, Part, Pattern, Property};

use serde_json::{Map, Value};

use skills_core::{Call, Tool, ToolCallError};

/// `Cow::Borrowed`, short: tables in `static`s borrow everything. (A
/// constructor, not a function, so that the borrowed arrays live in the
/// binary: function arguments would be temporaries.)
pub use std::borrow::Cow::Borrowed as B;

/// What a compiled skill makes on first use (its rendered text, its digest).
pub use std::sync::OnceLock;

/// The typed arguments of a checked call.
pub fn decode<T: FromJson>(call: Call<'_>) -> Result<T, ToolCallError> {
    let tool = call.name().to_owned();
    let value = Value::Object(call.into_arguments());
    T::from_json(&value).ok_or_else(|| ToolCallError::InvalidArguments {
        tool,
        path: ".".to_owned(),
        message: "the checked arguments do not fit the generated type (a bug in skills)".to_owned(),
    })
}

/// The call typed arguments stand for.
pub fn encode<T: ToJson>(tool: &'static Tool, arguments: &T) -> Call<'static> {
    match arguments.to_json() {
        Value::Object(map) => Call::new(tool, map),
        _ => Call::new(tool, Map::new()),
    }
}
