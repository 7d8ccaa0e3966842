//! Skills loaded at run time (feature `loader`): a user's or a project's
//! skills directory, checked by the same compiler, with the same rules and
//! diagnostics, as `include_skills!` and `cargo skills check`, and returned as
//! the same [`SkillSet`](crate::SkillSet) a compiled set is.
//!
//! ```no_run
//! use skills::loader::{Loader, Profile};
//!
//! let loaded = Loader::new().profile(Profile::Lenient).load("/home/me/.agents/skills");
//! match loaded {
//!     Ok(loaded) => {
//!         eprint!("{}", loaded.render_warnings());
//!         print!("{}", loaded.set().catalog());
//!     }
//!     Err(error) => eprint!("{error}"),
//! }
//! ```

mod load;
mod reloading;
#[cfg(feature = "watch")]
mod watch;

pub use load::{LoadError, Loaded, Loader, conventional_roots, conventional_roots_here};
pub use reloading::Reloading;
pub use skills_compiler::diagnostics::levels::{Level, LintLevels};
pub use skills_compiler::{Code, Diagnostic, InvalidSkill, Overrides, Profile, Severity};
/// The loader's bounds when the caller sets none: what a server or a
/// client that loads through it holds a skill and a set to.
pub use skills_compiler::{
    DEFAULT_MAX_FILES, DEFAULT_MAX_SET_BYTES, DEFAULT_MAX_SKILL_BYTES, DEFAULT_MAX_SKILLS,
};
#[cfg(feature = "watch")]
pub use watch::{Reload, Watch, WatchError};
