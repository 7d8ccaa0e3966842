pub mod budget;
pub mod check;
pub mod compat;
pub mod fix;
pub mod fmt;
pub mod inspect;
pub mod new;
pub mod serve;
