//! Writing skills back to disk, a wing beside the pipeline: the IR as
//! canonical text (builder), one frontmatter style (format), and fix-its
//! applied to the bytes they name (fix), other installers' provenance
//! taken out (provenance), folder renames planned whole (renames), and
//! the writes that would break a signature (signed).

mod builder;
pub(crate) mod fix;
pub(crate) mod format;
pub(crate) mod provenance;
pub(crate) mod renames;
pub(crate) mod signed;

pub use builder::*;
