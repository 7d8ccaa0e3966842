//! The pipeline that runs the stages: a root or a skill compiled whole
//! ([`compile`] and its siblings), or a root compiled again after a change,
//! reading only the entries that changed ([`again`]).

pub mod again;
mod compile;
pub mod embed;
#[cfg(any(feature = "ops", test))]
pub(crate) mod outline;
mod signatures;
mod vendored;

#[cfg(feature = "ops")]
pub use compile::Unsaved;
#[cfg(any(feature = "ops", test))]
pub(crate) use compile::compile_one;
#[cfg(feature = "ops")]
pub(crate) use compile::compile_with_text;
pub use compile::{
    Compilation, InvalidSkill, Run, Tally, compile, compile_files, compile_looked_up,
    compile_looked_up_in, compile_path, compile_skill,
};
