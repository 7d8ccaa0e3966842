//! One skill read into the tree that `validate` judges (serde_derive's
//! `internals/ast.rs` to its `check.rs`): SKILL.md decoded, held to its
//! size limits, split at its fences and its frontmatter parsed, with the
//! `lenient` profile's repairs; the sidecar `tools.yaml` and Codex's
//! `agents/openai.yaml` parsed beside it.
//!
//! Reading judges no key and no value. What stops the reading (a file that
//! is not UTF-8, too large, not YAML, a frontmatter that is not a mapping)
//! is reported here, and the skill goes no further; `tools.yaml`'s problems
//! are reported whatever becomes of SKILL.md, so that both files' come at
//! once. `agents/openai.yaml`'s problems are held for validation, which
//! reports them with the rest of that file's findings once the skill
//! itself is valid.

use std::ops::Range;

use super::discover::SkillFiles;
use super::files::SkillDir;
use super::yaml::{self, Node};
use super::{frontmatter, lenient};
use crate::config::{Config, Profile};
use crate::diagnostics::source::{SourceFile, Sources};
use crate::diagnostics::{Code, Diagnostic};

/// Codex's sidecar's path in a skill directory.
pub(crate) const CODEX_FILE: &str = "agents/openai.yaml";

/// One skill, read: everything `validate` needs, nothing it has to parse.
pub(crate) struct Document {
    /// SKILL.md as read: with `lenient`'s repairs, which diagnostics quote.
    pub source: SourceFile,
    /// The file's own text, when a repair patched it: what the skill keeps.
    pub original: Option<String>,
    /// The name the skill's `name` must match: its directory, or a flat
    /// file's stem.
    pub directory: String,
    /// The skill's directory and its other files; `None` for a flat skill
    /// and for skills held in memory.
    pub dir: Option<SkillDir>,
    /// The markdown body, as a byte range into `source`.
    pub body: Range<usize>,
    pub frontmatter: Frontmatter,
    pub tools_yaml: ToolsYaml,
    /// `agents/openai.yaml`, when the directory has one.
    pub codex: Option<Result<YamlFile, Diagnostic>>,
}

/// What the frontmatter holds, once parsed.
pub(crate) enum Frontmatter {
    /// A mapping of keys to values.
    Mapping(Node),
    /// Nothing (no fences, or nothing between them): only `lenient` reads it.
    Absent,
}

/// The sidecar `tools.yaml`.
pub(crate) enum ToolsYaml {
    /// The skill has none.
    Absent,
    /// It could not be read or parsed (reported). The skill fails: its tools
    /// would otherwise vanish silently.
    Unusable,
    /// Its root, as parsed: an empty file is an empty mapping.
    Parsed(SourceFile, Node),
}

/// A YAML file beside SKILL.md, and its root or the problems that stopped
/// the parse (an empty file is an empty mapping).
pub(crate) struct YamlFile {
    pub source: SourceFile,
    pub root: Result<Node, Vec<Diagnostic>>,
}

/// Reads one skill's files. Files read are added to `sources` when reading
/// stops at them; a [`Document`] holds the others until validation is done.
pub(crate) fn read(
    files: SkillFiles,
    config: &Config,
    sources: &mut Sources,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Document> {
    let SkillFiles {
        path,
        directory,
        bytes,
        tools_yaml,
        dir,
    } = files;
    let source = decode(&path, bytes, sources, diagnostics)?;
    let tools_yaml = tools_yaml.map_or(ToolsYaml::Absent, |(path, bytes)| {
        read_tools_yaml(&path, bytes, config, sources, diagnostics)
    });
    let repaired = if config.profile == Profile::Lenient {
        lenient::quote_unquoted_colons(source, config, diagnostics)
    } else {
        lenient::Repaired {
            source,
            original: None,
            parsed: None,
        }
    };
    let source = repaired.source;
    let Some((body, frontmatter)) = frame(&source, repaired.parsed, config, diagnostics) else {
        sources.insert(source);
        if let ToolsYaml::Parsed(tools_source, _) = tools_yaml {
            sources.insert(tools_source);
        }
        return None;
    };
    let codex = dir.as_ref().and_then(|dir| codex_file(dir, config));
    Some(Document {
        source,
        original: repaired.original,
        directory,
        dir,
        body,
        frontmatter,
        tools_yaml,
        codex,
    })
}

/// A skill file as a writer reads it (`fmt`, `fix --strip-provenance`):
/// framed at its fences as [`read`] frames it, and its frontmatter parsed
/// with the same settings (`max_frontmatter_bytes`, `max_yaml_depth`).
/// Without `lenient`'s repairs: a writer rewrites the file as written.
#[cfg(feature = "ops")]
pub(crate) struct Written {
    /// The file's text.
    pub source: SourceFile,
    /// Where its frontmatter and body are.
    pub framing: frontmatter::Framing,
}

/// Frames `text`; `missing_ok` accepts a file without fences (its
/// frontmatter is then `None`), as `lenient` does.
#[cfg(feature = "ops")]
pub(crate) fn written(path: &str, text: &str, missing_ok: bool) -> Result<Written, Diagnostic> {
    let source = SourceFile::new(path, text);
    let framing = frontmatter::split(&source, missing_ok)?;
    Ok(Written { source, framing })
}

#[cfg(feature = "ops")]
impl Written {
    /// The frontmatter's root, parsed as validation parses it; `Ok(None)`
    /// for a file without frontmatter or with an empty one.
    pub(crate) fn root(&self, config: &Config) -> Result<Option<Node>, Vec<Diagnostic>> {
        let Some(range) = self.framing.yaml.clone() else {
            return Ok(None);
        };
        if let Some(diagnostic) = oversized_frontmatter(&self.source, &range, config) {
            return Err(vec![diagnostic]);
        }
        yaml::parse(&self.source, range, config.max_yaml_depth)
    }
}

/// The file's text; `None` when it is not UTF-8 (reported, with a lossy copy
/// in `sources` for the snippet).
fn decode(
    path: &str,
    bytes: Vec<u8>,
    sources: &mut Sources,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SourceFile> {
    match frontmatter::decode(path, bytes) {
        Ok(source) => Some(source),
        Err((diagnostic, lossy)) => {
            diagnostics.push(diagnostic);
            sources.insert(lossy);
            None
        }
    }
}

/// The sidecar `tools.yaml`, decoded and parsed; its problems are
/// reported, whatever becomes of SKILL.md.
fn read_tools_yaml(
    path: &str,
    bytes: Vec<u8>,
    config: &Config,
    sources: &mut Sources,
    diagnostics: &mut Vec<Diagnostic>,
) -> ToolsYaml {
    let Some(source) = decode(path, bytes, sources, diagnostics) else {
        return ToolsYaml::Unusable;
    };
    match parse_file(&source, "tools.yaml", config) {
        Ok(root) => ToolsYaml::Parsed(source, root),
        Err(problems) => {
            diagnostics.extend(problems);
            sources.insert(source);
            ToolsYaml::Unusable
        }
    }
}

/// SKILL.md's body and frontmatter; `None` on problems (reported).
fn frame(
    source: &SourceFile,
    parsed: Option<lenient::Parsed>,
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Range<usize>, Frontmatter)> {
    if let Some(diagnostic) = too_many_chars(source, config) {
        diagnostics.push(diagnostic);
        return None;
    }
    let framing = match frontmatter::split(source, config.profile == Profile::Lenient) {
        Ok(framing) => framing,
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            return None;
        }
    };
    let frontmatter = match framing.yaml {
        Some(range) => frontmatter_root(source, range, config, parsed, diagnostics)?,
        None => Frontmatter::Absent,
    };
    Some((framing.body, frontmatter))
}

/// S009 for a file over `max_document_chars`. A file no longer in bytes
/// than the limit is within it in characters: only a longer one is counted.
fn too_many_chars(source: &SourceFile, config: &Config) -> Option<Diagnostic> {
    let text = source.text();
    let chars = if text.len() > config.max_document_chars {
        text.chars().count()
    } else {
        text.len()
    };
    (chars > config.max_document_chars).then(|| {
        Diagnostic::error(
            Code::DocumentTooLarge,
            source.path(),
            format!(
                "the file has {chars} characters; the limit is {}",
                config.max_document_chars
            ),
        )
        .with_help("move detail into files under `references/`, or raise `max_document_chars`")
    })
}

/// S507 for a frontmatter over `max_frontmatter_bytes`.
fn oversized_frontmatter(
    source: &SourceFile,
    range: &Range<usize>,
    config: &Config,
) -> Option<Diagnostic> {
    (range.len() > config.max_frontmatter_bytes).then(|| {
        Diagnostic::at(
            Code::FrontmatterTooLarge,
            source,
            range.start..range.start,
            format!(
                "the frontmatter is {} bytes; the limit is {}",
                range.len(),
                config.max_frontmatter_bytes
            ),
        )
        .with_help("move tools into a sidecar tools.yaml, or raise `max_frontmatter_bytes`")
    })
}

/// Parses the frontmatter; `None` on errors (reported).
fn frontmatter_root(
    source: &SourceFile,
    range: Range<usize>,
    config: &Config,
    parsed: Option<lenient::Parsed>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Frontmatter> {
    if let Some(diagnostic) = oversized_frontmatter(source, &range, config) {
        diagnostics.push(diagnostic);
        return None;
    }
    let result = match parsed {
        Some(parsed) if parsed.range == range => parsed.result,
        _ => yaml::parse(source, range.clone(), config.max_yaml_depth),
    };
    let node = match result {
        Ok(node) => node,
        Err(problems) => {
            diagnostics.extend(problems);
            return None;
        }
    };
    match node {
        Some(node) if node.as_map().is_some() => Some(Frontmatter::Mapping(node)),
        Some(node) => {
            diagnostics.push(
                Diagnostic::at(
                    Code::FrontmatterNotMapping,
                    source,
                    node.span.clone(),
                    format!(
                        "the frontmatter must be a mapping of keys to values, found {}",
                        node.type_name()
                    ),
                )
                .with_help("write `name: ...` and `description: ...` lines"),
            );
            None
        }
        None if config.profile == Profile::Lenient => Some(Frontmatter::Absent),
        None => {
            // Point at the closing fence, right after the (empty) frontmatter.
            diagnostics.push(
                Diagnostic::at(
                    Code::EmptyFrontmatter,
                    source,
                    range.end..range.end + 3,
                    "the frontmatter is empty",
                )
                .with_help("add `name:` and `description:` between the fences"),
            );
            None
        }
    }
}

/// A whole YAML file's root, after a byte-order mark; an empty file is an
/// empty mapping (it declares nothing).
fn parse_file(source: &SourceFile, what: &str, config: &Config) -> Result<Node, Vec<Diagnostic>> {
    let text = source.text();
    if text.len() > config.max_frontmatter_bytes {
        return Err(vec![Diagnostic::error(
            Code::FrontmatterTooLarge,
            source.path(),
            format!(
                "{what} is {} bytes; the limit is {}",
                text.len(),
                config.max_frontmatter_bytes
            ),
        )]);
    }
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let root = yaml::parse(source, start..text.len(), config.max_yaml_depth)?;
    Ok(root.unwrap_or_else(Node::empty_map))
}

/// The skill directory's `agents/openai.yaml`, read and parsed.
fn codex_file(dir: &SkillDir, config: &Config) -> Option<Result<YamlFile, Diagnostic>> {
    let file = dir
        .listing
        .files
        .iter()
        .find(|file| file.path == CODEX_FILE)?;
    let display = format!("{}/{CODEX_FILE}", dir.path);
    if file.len > config.max_frontmatter_bytes as u64 {
        return Some(Err(Diagnostic::error(
            Code::CodexSidecar,
            &display,
            format!(
                "`{CODEX_FILE}` is {} bytes; the limit is {} (`max_frontmatter_bytes`)",
                file.len, config.max_frontmatter_bytes
            ),
        )));
    }
    let Some(text) = file.text(&dir.on_disk) else {
        return Some(Err(Diagnostic::error(
            Code::CodexSidecar,
            &display,
            format!("`{CODEX_FILE}` is not UTF-8 text, or could not be read"),
        )
        .with_help("Codex reads it as YAML: save it as UTF-8")));
    };
    let source = SourceFile::new(display, text.to_owned());
    let root = parse_file(&source, CODEX_FILE, config);
    Some(Ok(YamlFile { source, root }))
}
