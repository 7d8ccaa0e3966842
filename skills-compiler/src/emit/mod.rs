//! Emitting: the validated IR lowered into the runtime's own tables
//! (lower), printed as Rust (codegen), as JSON (json) and as the JSON Schema
//! editors read (editor_schema), as text (text), as a hosted-API bundle
//! (bundle), and the files a crate embeds (snapshot). Front ends reach
//! them as `skills_compiler::emit::*`.

pub mod bundle;
pub mod codegen;
pub mod editor_schema;
pub mod json;
pub mod lower;
pub mod snapshot;
pub mod text;
