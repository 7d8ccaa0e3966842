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
pub mod route;
#[cfg(feature = "mcp")]
pub mod serve;
#[cfg(feature = "signing")]
pub mod sign;
pub mod test;
pub mod vendoring;
