//! Proc-macro front end of the skills compiler. `include_skills!` lands here
//! together with the code generator; until then this crate only reserves its
//! place in the workspace.
