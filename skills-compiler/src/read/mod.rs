//! Reading: a skills root into skill files (discover), each skill
//! directory's other files (files), their bytes into
//! the frontmatter's fences (frontmatter), the frontmatter into a YAML
//! tree with spans (yaml), and the body's headings (markdown).

pub(crate) mod discover;
pub(crate) mod files;
pub(crate) mod frontmatter;
pub mod markdown;
pub(crate) mod yaml;
