//! Reading: a skills root into skill files (discover; what names a skill
//! on disk in layout, skills nested deeper in collection), each skill
//! directory's other files (files), and one skill's files into the
//! [`Document`](document::Document) that validation judges: their bytes
//! into the frontmatter's fences (frontmatter), the frontmatter into a YAML
//! tree with spans (yaml), `lenient`'s repairs (lenient), and the body's
//! headings (markdown).

pub mod collection;
pub mod conventional;
pub(crate) mod discover;
pub(crate) mod document;
pub(crate) mod files;
pub(crate) mod frontmatter;
pub(crate) mod gitignore;
#[cfg(feature = "invocation")]
pub(crate) mod invocation;
#[cfg(any(feature = "ops", test))]
pub(crate) mod key_at;
pub(crate) mod layout;
pub(crate) mod lenient;
pub mod markdown;
pub(crate) mod open;
pub(crate) mod shared;
#[cfg(feature = "ops")]
pub(crate) mod sources;
pub(crate) mod work_tree;
pub(crate) mod yaml;
