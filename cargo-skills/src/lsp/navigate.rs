//! Symbols, folding, links, go-to and references of a skill file: the
//! compiler's outline of the text (`ops::document::outline`, the link
//! scanner and resolver `check` uses) in the protocol's terms. The server
//! only finds files on disk and converts; where a link leads is the
//! compiler's answer.

use std::path::{Path, PathBuf};

use lsp_types::{
    DocumentLink, DocumentSymbol, FoldingRange, FoldingRangeKind, Location, Range, SymbolKind, Uri,
};
use serde_json::Value;
use skills_compiler::ops::document::{self, Link, LinkTo, Outline};

use super::position::LineIndex;

/// The most of a file read to follow a link into it: a skill's markdown
/// file is far smaller; a larger one is not looked into.
const MAX_READ: u64 = 4 << 20;

/// One skill file as the requests below see it.
pub struct View<'a> {
    /// Relative to the workspace's root (the server's directory).
    pub path: &'a Path,
    pub text: &'a str,
    pub index: LineIndex,
    pub outline: Outline,
}

impl<'a> View<'a> {
    pub fn new(path: &'a Path, text: &'a str) -> Self {
        View {
            path,
            text,
            index: LineIndex::new(text),
            outline: document::outline_of(path, text),
        }
    }

    /// The protocol's range of `bytes` of the text.
    pub fn range(&self, bytes: &std::ops::Range<usize>) -> Range {
        Range::new(
            self.index.position(self.text, bytes.start),
            self.index.position(self.text, bytes.end),
        )
    }

    /// The link whose destination holds byte `offset`.
    pub fn link_at(&self, offset: usize) -> Option<&Link> {
        self.outline
            .links
            .iter()
            .find(|link| link.span.start <= offset && offset <= link.span.end)
    }

    /// The file a link leads to, relative to the workspace's root, and the
    /// heading it names.
    pub fn target(&self, link: &Link) -> Option<(PathBuf, Option<String>)> {
        document::link_target(self.path, link)
    }
}

/// Keys and tools of the frontmatter, then the headings nested by level.
pub fn symbols(view: &View<'_>) -> Value {
    let mut symbols: Vec<DocumentSymbol> = Vec::new();
    for entry in &view.outline.entries {
        let symbol = symbol(
            &entry.name,
            if entry.tool {
                SymbolKind::FUNCTION
            } else {
                SymbolKind::PROPERTY
            },
            view.range(&entry.lines),
            view.range(&entry.span),
        );
        match symbols.last_mut() {
            Some(tools) if entry.tool && tools.name == "tools" => {
                tools.children.get_or_insert_with(Vec::new).push(symbol)
            }
            _ => symbols.push(symbol),
        }
    }
    // Each heading goes under the last open heading of a lower level.
    let mut open: Vec<(u8, DocumentSymbol)> = Vec::new();
    for heading in &view.outline.headings {
        close_until(&mut open, &mut symbols, heading.level);
        let symbol = symbol(
            &heading.title,
            SymbolKind::STRING,
            view.range(&heading.section),
            view.range(&heading.line),
        );
        open.push((heading.level, symbol));
    }
    close_until(&mut open, &mut symbols, 0);
    serde_json::to_value(symbols).unwrap_or(Value::Null)
}

/// Closes the open headings of `level` or deeper into their parents.
fn close_until(open: &mut Vec<(u8, DocumentSymbol)>, top: &mut Vec<DocumentSymbol>, level: u8) {
    while open
        .last()
        .is_some_and(|(open_level, _)| *open_level >= level)
    {
        let Some((_, done)) = open.pop() else { break };
        match open.last_mut() {
            Some((_, parent)) => parent.children.get_or_insert_with(Vec::new).push(done),
            None => top.push(done),
        }
    }
}

#[allow(deprecated)] // `deprecated` is a field the protocol still carries.
fn symbol(name: &str, kind: SymbolKind, range: Range, selection: Range) -> DocumentSymbol {
    DocumentSymbol {
        // The protocol refuses an empty name.
        name: if name.trim().is_empty() {
            "(empty)".to_owned()
        } else {
            name.to_owned()
        },
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: None,
    }
}

/// The frontmatter, each entry of more than one line, each section.
pub fn folding(view: &View<'_>) -> Value {
    let mut ranges = Vec::new();
    let mut fold = |bytes: &std::ops::Range<usize>, kind: Option<FoldingRangeKind>| {
        let range = view.range(bytes);
        // A range that ends at a line's start ends on the line before.
        let end = if range.end.character == 0 {
            range.end.line.saturating_sub(1)
        } else {
            range.end.line
        };
        if end > range.start.line {
            ranges.push(FoldingRange {
                start_line: range.start.line,
                end_line: end,
                kind,
                ..Default::default()
            });
        }
    };
    if let Some(frontmatter) = &view.outline.frontmatter {
        fold(frontmatter, Some(FoldingRangeKind::Region));
    }
    for entry in &view.outline.entries {
        fold(&entry.lines, None);
    }
    for heading in &view.outline.headings {
        fold(&heading.section, Some(FoldingRangeKind::Region));
    }
    serde_json::to_value(ranges).unwrap_or(Value::Null)
}

/// Each link to a file that is there, as a document link.
pub fn links(view: &View<'_>, root: &Path) -> Value {
    let links: Vec<DocumentLink> = view
        .outline
        .links
        .iter()
        .filter(|link| !matches!(link.to, LinkTo::Here(_)))
        .filter_map(|link| {
            let (file, _) = view.target(link)?;
            let on_disk = root.join(&file);
            on_disk.exists().then(|| DocumentLink {
                range: view.range(&link.span),
                target: file_uri(&on_disk),
                tooltip: Some(file.to_string_lossy().replace('\\', "/")),
                data: None,
            })
        })
        .collect();
    serde_json::to_value(links).unwrap_or(Value::Null)
}

/// Where the link under the cursor leads: the file, at the heading it
/// names when it has that heading.
pub fn definition(view: &View<'_>, root: &Path, offset: usize, open: &OpenText<'_>) -> Value {
    let Some(link) = view.link_at(offset) else {
        return Value::Null;
    };
    let Some((file, fragment)) = view.target(link) else {
        return Value::Null;
    };
    let on_disk = root.join(&file);
    let Some(uri) = file_uri(&on_disk) else {
        return Value::Null;
    };
    let mut range = Range::default();
    if let Some(fragment) = fragment
        && let Some(text) = open.text_of(&file, &on_disk)
    {
        let target = View::new(&file, &text);
        if let Some(heading) = target
            .outline
            .headings
            .iter()
            .find(|h| h.anchor == fragment)
        {
            range = target.range(&heading.line);
        }
    } else if !on_disk.exists() {
        return Value::Null;
    }
    serde_json::to_value(Location::new(uri, range)).unwrap_or(Value::Null)
}

/// The first lines of what the link under the cursor leads to, or why it
/// leads nowhere (the diagnostic `check` gives it).
pub fn hover(
    view: &View<'_>,
    root: &Path,
    offset: usize,
    found: &[skills_compiler::Diagnostic],
    open: &OpenText<'_>,
) -> Option<lsp_types::Hover> {
    let link = view.link_at(offset)?;
    let broken = found.iter().find(|diagnostic| {
        diagnostic.span.as_ref().is_some_and(|span| {
            span.bytes.start < link.span.end && link.span.start < span.bytes.end
        })
    });
    let value = if let Some(broken) = broken {
        format!(
            "**Broken link** ({}): {}",
            broken.code,
            broken.help.as_deref().map_or_else(
                || broken.message.clone(),
                |help| format!("{}\n\nhelp: {help}", broken.message)
            )
        )
    } else {
        let (file, fragment) = view.target(link)?;
        let text = open.text_of(&file, &root.join(&file))?;
        let target = View::new(&file, &text);
        let from = fragment
            .and_then(|fragment| {
                target
                    .outline
                    .headings
                    .iter()
                    .find(|heading| heading.anchor == fragment)
            })
            .map_or(0, |heading| heading.line.start);
        let lines: Vec<&str> = text[from..].lines().take(8).collect();
        format!(
            "`{}`\n\n```markdown\n{}\n```",
            file.to_string_lossy().replace('\\', "/"),
            lines.join("\n").replace("```", "` ` `")
        )
    };
    Some(lsp_types::Hover {
        contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
            kind: lsp_types::MarkupKind::Markdown,
            value,
        }),
        range: Some(view.range(&link.span)),
    })
}

/// Every link in the workspace's skill files to the file under the
/// cursor's link, or to this file when the cursor is on no link: the
/// compiler's references, the editor's texts where it holds them.
pub fn references(view: &View<'_>, root: &Path, offset: usize, open: &OpenText<'_>) -> Value {
    let wanted = match view.link_at(offset).and_then(|link| view.target(link)) {
        Some((file, _)) => file,
        None => view.path.to_path_buf(),
    };
    let read = |file: &Path| open.held(file).map(str::to_owned);
    let Ok(linking) = document::references(&wanted, read) else {
        return Value::Array(Vec::new());
    };
    let mut texts: Vec<(PathBuf, String)> = Vec::new();
    let mut found = Vec::new();
    for (file, bytes) in linking {
        if texts.last().is_none_or(|(last, _)| *last != file) {
            let text = open.text_of(&file, &root.join(&file)).unwrap_or_default();
            texts.push((file.clone(), text));
        }
        let Some((_, text)) = texts.last() else {
            continue;
        };
        let Some(uri) = file_uri(&root.join(&file)) else {
            continue;
        };
        let index = LineIndex::new(text);
        let range = Range::new(
            index.position(text, bytes.start),
            index.position(text, bytes.end),
        );
        found.push(Location::new(uri, range));
    }
    serde_json::to_value(found).unwrap_or(Value::Null)
}

/// The `file:` URI of a path on disk.
pub fn file_uri(path: &Path) -> Option<Uri> {
    let absolute = std::path::absolute(path).ok()?;
    let url = url::Url::from_file_path(absolute).ok()?;
    url.as_str().parse().ok()
}

/// The texts the editor holds, by path relative to the workspace: a link
/// into an open file follows what is typed there, not what is on disk.
pub struct OpenText<'a> {
    pub texts: Vec<(&'a Path, &'a str)>,
}

impl OpenText<'_> {
    /// The editor's text of `file`, when it is open.
    pub fn held(&self, file: &Path) -> Option<&str> {
        self.texts
            .iter()
            .find(|(path, _)| *path == file)
            .map(|(_, text)| *text)
    }

    /// `file`'s text: the editor's, else the disk's when it is UTF-8 and at
    /// most [`MAX_READ`] bytes.
    pub fn text_of(&self, file: &Path, on_disk: &Path) -> Option<String> {
        if let Some(text) = self.held(file) {
            return Some(text.to_owned());
        }
        let opened = std::fs::File::open(on_disk).ok()?;
        if !opened.metadata().ok()?.is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(opened, MAX_READ + 1), &mut bytes)
            .ok()?;
        if bytes.len() as u64 > MAX_READ {
            return None;
        }
        String::from_utf8(bytes).ok()
    }
}

/// The heading title under the cursor, which [`rename`] renames.
pub fn prepare_rename(view: &View<'_>, offset: usize) -> Value {
    let Some(title) = document::heading_title_at(view.text, offset) else {
        return Value::Null;
    };
    serde_json::json!({
        "range": view.range(&title),
        "placeholder": &view.text[title],
    })
}

/// The heading under the cursor renamed, with every link to its anchor:
/// the compiler's edits, as one workspace edit.
pub fn rename(
    view: &View<'_>,
    root: &Path,
    offset: usize,
    title: &str,
    open: &OpenText<'_>,
) -> Result<Value, String> {
    if title.contains('\n') {
        return Err("a heading's title is one line".to_owned());
    }
    let read = |file: &Path| open.text_of(file, &root.join(file));
    let Some(edits) = document::rename_heading(view.path, view.text, offset, title, read) else {
        return Err("only a heading's title is renamed here: put the cursor on one".to_owned());
    };
    // `WorkspaceEdit` keys its changes by `Uri`, which clippy cannot see is
    // never mutated through a shared reference.
    #[allow(clippy::mutable_key_type)]
    let mut changes: std::collections::HashMap<Uri, Vec<lsp_types::TextEdit>> =
        std::collections::HashMap::new();
    for edit in edits {
        let text = if edit.file == view.path {
            view.text.to_owned()
        } else {
            read(&edit.file).unwrap_or_default()
        };
        let index = LineIndex::new(&text);
        let range = Range::new(
            index.position(&text, edit.bytes.start),
            index.position(&text, edit.bytes.end),
        );
        let Some(uri) = file_uri(&root.join(&edit.file)) else {
            continue;
        };
        changes
            .entry(uri)
            .or_default()
            .push(lsp_types::TextEdit::new(range, edit.text));
    }
    Ok(serde_json::to_value(lsp_types::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    })
    .unwrap_or(Value::Null))
}

/// What may be typed at the cursor: the compiler's completions, each
/// replacing what is typed of it.
pub fn completions(view: &View<'_>, root: &Path, offset: usize, open: &OpenText<'_>) -> Value {
    let read = |file: &Path| open.text_of(file, &root.join(file));
    let items: Vec<lsp_types::CompletionItem> =
        document::complete(view.path, view.text, offset, read)
            .into_iter()
            .map(|completion| lsp_types::CompletionItem {
                kind: Some(match completion.kind {
                    document::CompletionKind::Key => lsp_types::CompletionItemKind::PROPERTY,
                    document::CompletionKind::File => lsp_types::CompletionItemKind::FILE,
                    document::CompletionKind::Heading => lsp_types::CompletionItemKind::REFERENCE,
                }),
                detail: Some(completion.detail),
                text_edit: Some(lsp_types::CompletionTextEdit::Edit(
                    lsp_types::TextEdit::new(
                        view.range(&completion.replace),
                        completion.label.clone(),
                    ),
                )),
                label: completion.label,
                ..Default::default()
            })
            .collect();
    serde_json::to_value(items).unwrap_or(Value::Null)
}
