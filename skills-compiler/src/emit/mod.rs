//! Emitting: the validated IR (ir), lowered into the runtime's own tables
//! (lower), printed as Rust (codegen), as text a model reads (present), as
//! JSON (json) and as the JSON Schema editors read (editor_schema).

pub mod codegen;
pub mod editor_schema;
pub mod ir;
pub mod json;
pub mod lower;
pub mod present;
