//! What generated code uses. Not a public API: it changes with the code generator.

pub use http;
pub use serde_json;
#[cfg(feature = "macros")]
pub use skills_macros::include_skills;

pub use crate::set::SkillSet;
pub use crate::typed::{
    FromJson, ToJson, field, object, optional, put, put_optional, put_rest, rest,
};
pub use crate::typed_call::TypedCall;
pub use crate::{
    __skills_args as args, __skills_string_enum as string_enum, __skills_tool_call as tool_call,
};

/// How generated code reads and writes a member that every checked object
/// has (required, or defaulted).
pub mod always {
    pub use crate::typed::{field as read, put as write};
}

/// How generated code reads and writes a member that may be absent.
pub mod maybe {
    pub use crate::typed::{optional as read, put_optional as write};
}
pub use skills_core::{Call, CompiledSkill, File, Policy, RequestError, Tool, ToolCallError};

// Short paths for generated code: rustc and the macro's token stream pay
// for every `::core::option::Option::None` in tables of thousands.
pub use std::borrow::ToOwned;
pub use std::boxed::Box;
pub use std::clone::Clone;
pub use std::cmp::{Eq, PartialEq};
pub use std::collections::BTreeMap;
pub use std::fmt::Debug;
pub use std::hash::Hash;
pub use std::marker::Copy;
pub use std::option::Option::{self, None, Some};
pub use std::result::Result;
pub use std::string::String;
pub use std::vec::Vec;

use serde_json::Value;

/// `Cow::Borrowed`, short: a compiled file borrows its path and bytes.
pub use std::borrow::Cow::Borrowed as B;

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

/// The error of a call whose tool the generated code does not know (the
/// checked call named one of the skill's tools, so this is never reached).
pub fn unknown_tool<T>(name: &str) -> Result<T, ToolCallError> {
    Err(ToolCallError::UnknownTool {
        name: name.to_owned(),
        expected: Vec::new(),
    })
}
