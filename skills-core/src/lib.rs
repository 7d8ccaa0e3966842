//! The one definition of what a compiled or loaded skill holds.
//!
//! The compiler (`skills-compiler`) lowers every valid skill into these
//! types; code generation prints them as `static`s, and the run-time loader
//! hands them over as they are. The runtime (`skills`) re-exports them. So
//! compile time and run time share one checker ([`Schema::check`]), one
//! request builder ([`Call::request`]) and one policy ([`Tool::is_offered`]),
//! and cannot disagree: the compiler checks a schema's `default` by running
//! it through the same checker a call goes through.
//!
//! ```
//! use std::borrow::Cow::Borrowed as B;
//! use skills_core::{Checks, Node, Property, Schema};
//!
//! // `{"type": "object", "properties": {"n": {"type": "integer", "default": 3}}}`
//! let schema = Schema {
//!     nodes: B(&[
//!         Node::Object {
//!             properties: B(&[Property { name: B("n"), node: 1, required: false, default: Some(B("3")) }]),
//!             additional: false,
//!             checks: B(&Checks::NONE),
//!         },
//!         Node::Integer(B(&Checks::NONE)),
//!     ]),
//! };
//! let checked = schema.check("count", &serde_json::json!({})).unwrap();
//! assert_eq!(checked["n"], 3);
//! ```

#![deny(missing_docs)]

pub mod bundle;
mod call;
mod closest;
pub mod definitions;
mod depth;
mod endpoint;
mod error;
mod file;
pub mod install;
mod packed;
mod policy;
pub mod present;
pub mod route;
mod schema;
mod skill;
mod tables;
mod temporary;
mod text;
mod tool;
pub mod uri;
#[cfg(feature = "zip")]
pub mod well_known;
mod write_out;

pub use call::{Arguments, CONFIRM_MAX_CHARS, Call};
pub use closest::closest;
pub use depth::{MAX_DEPTH, json_nests_deeper_than};
pub use endpoint::{Endpoint, Json, Part, check_origin, template_params, template_text};
pub use error::{RequestError, ToolCallError};
pub use file::{
    Bytes, File, Overwrite, base64, executable_on_disk, file_path, is_file_path, lower_hex,
    sha256_hex,
};
pub use packed::CompiledSkill;
#[doc(hidden)]
pub use packed::pack;
pub use policy::{Hints, Method, Policy};
pub use schema::{Checks, Node, Pattern, Property, Schema};
#[doc(hidden)]
pub use schema::{canonical_number, integer};
pub use skill::{Kind, Protocol, Section, Skill, Version};
pub use tables::{List, Memo, Str};
pub use temporary::{TemporaryDir, temporary_dir, temporary_file};
pub use text::{acts_on_output, hidden_chars, invisible_chars, is_invisible, printable};
pub use tool::Tool;

/// The detached signature of a signed skill (OpenSSF Model Signing), at
/// the top of its folder: the compiler verifies it, and writers refuse to
/// edit a folder that holds one.
pub const SIGNATURE_FILE: &str = "skill.oms.sig";
