//! What generated code uses. Not a public API: it changes with the code generator.

pub use http;
pub use serde_json;
#[cfg(feature = "macros")]
pub use skills_macros::include_skills;

pub use crate::set::SkillSet;
pub use crate::typed::{
    FromJson, ToJson, field, object, optional, put, put_optional, put_rest, rest,
};
pub use crate::typed_call::{TypedCall, checked_arguments, does_not_fit};
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

/// `Cow::Borrowed`, short: a compiled file borrows its path and bytes.
pub use std::borrow::Cow::Borrowed as B;
