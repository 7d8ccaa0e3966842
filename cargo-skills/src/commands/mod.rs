pub mod budget;
pub mod check;
#[cfg(feature = "mcp")]
mod check_mcp;
pub mod compat;
pub mod fix;
pub mod fmt;
pub mod inspect;
pub mod install;
pub mod new;
pub mod pack;
#[cfg(feature = "mcp")]
pub mod serve;
pub mod vendoring;
pub mod well_known;
