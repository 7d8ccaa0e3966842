//! The runtime crate applications depend on.
//!
//! It will hold the static types that `include_skills!` and `skills-build`
//! generate (`SkillSet`, `Skill`, `Tool`, `Policy`, ...). The compiler that
//! validates skills lives in `skills-compiler`; see the workspace README for
//! what is available today.
