//! build.rs front end of the skills compiler. `compile` and `track` land here
//! together with the code generator; until then this crate only reserves its
//! place in the workspace.
