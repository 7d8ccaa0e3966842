//! `cargo skills lsp`: the language server (LSP 3.17 over stdio), a front
//! end like the CLI. It parses requests and prints responses; what a
//! document's problems and fixes are comes from `ops::document`, checked
//! with the package's settings as `cargo skills check` checks them.
//!
//! It serves skill files (`SKILL.md` and flat `name.md`): diagnostics
//! pushed on open and change and pulled, every fix-it as a quick fix (and
//! "fix all in this file"), hovers, symbols, folding, links, go to
//! definition, references, completion and heading rename
//! (`navigate`); docs/editors.md lists what is served and what is not yet.

mod convert;
mod lens;
mod navigate;
mod position;
mod uri;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, DocumentDiagnosticRequest, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionProviderCapability, DiagnosticOptions, DiagnosticServerCapabilities,
    InitializeParams, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use serde_json::Value;
use skills_compiler::ops;

use crate::failure::Failure;

/// An open document: its text as the editor holds it, and what the last
/// check of that text found (kept, so that a pull, a code action or a
/// publish reads it instead of compiling the skill again).
struct Document {
    /// Its path relative to the workspace's root (the server's directory).
    path: PathBuf,
    text: String,
    version: i32,
    checked: Checked,
    /// The upstream of a vendored skill (the lock says so): someone
    /// else's files, judged by the rules vendored skills are held to and
    /// offered no edits.
    vendored: Option<String>,
}

/// What a check of a document's text found.
enum Checked {
    /// Not a skill file (`.md`): nothing is checked.
    NotASkill,
    /// A file of a skill other than its `SKILL.md` (`references/api.md`):
    /// it has symbols and headings, and no diagnostics of its own.
    PartOf,
    /// The compiler's diagnostics of this file.
    Found(Vec<skills_compiler::Diagnostic>),
    /// Why the file could not be checked at all (no package, a manifest
    /// that does not configure).
    Unchecked(String),
}

impl Document {
    /// One change of an editor: a range replaced, or the whole text.
    fn apply(&mut self, change: lsp_types::TextDocumentContentChangeEvent) {
        let Some(range) = change.range else {
            self.text = change.text;
            return;
        };
        let index = position::LineIndex::new(&self.text);
        let start = index.offset(&self.text, range.start);
        let end = index.offset(&self.text, range.end).max(start);
        self.text.replace_range(start..end, &change.text);
    }

    /// Whether the document is markdown (a skill file, a file of a skill):
    /// what outlines, links and headings are read from.
    fn is_markdown(&self) -> bool {
        self.path
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("md"))
    }

    /// Whether the document is a skill's sidecar `tools.yaml`.
    fn is_tools_yaml(&self) -> bool {
        self.path
            .file_name()
            .is_some_and(|name| name == "tools.yaml")
    }

    /// Checks the text as it is now: its skill, with the package's settings.
    fn check(&mut self) {
        self.checked = if !self.is_markdown() && !self.is_tools_yaml() {
            Checked::NotASkill
        } else if self.is_markdown()
            && let ops::document::Role::FileOf(_) = ops::document::role(&self.path)
        {
            Checked::PartOf
        } else {
            match ops::document::check(&self.path, &self.text) {
                Ok(compilation) => {
                    self.vendored = ops::document::upstream(&compilation).map(str::to_owned);
                    Checked::Found(
                        compilation
                            .diagnostics
                            .into_iter()
                            .filter(|diagnostic| uri::same_file(&diagnostic.file, &self.path))
                            .map(|mut diagnostic| {
                                if let Some(upstream) = &self.vendored {
                                    diagnostic.fix = None;
                                    diagnostic.message.push_str("\nnote: ");
                                    diagnostic.message.push_str(&vendored_note(upstream));
                                }
                                diagnostic
                            })
                            .collect(),
                    )
                }
                Err(error) => Checked::Unchecked(error.to_string()),
            }
        };
    }

    /// The diagnostics of the last check, the fix-its' too.
    fn found(&self) -> &[skills_compiler::Diagnostic] {
        match &self.checked {
            Checked::Found(diagnostics) => diagnostics,
            Checked::NotASkill | Checked::PartOf | Checked::Unchecked(_) => &[],
        }
    }
}

/// `cargo-skills.test FILE`: the skill's trigger cases routed again; the
/// answer is what its lens says.
fn run_command(params: &lsp_types::ExecuteCommandParams) -> Result<Value, (ErrorCode, String)> {
    let file = match (params.command.as_str(), params.arguments.first()) {
        (lens::TEST, Some(Value::String(file))) => PathBuf::from(file),
        _ => {
            return Err((
                ErrorCode::InvalidParams,
                format!("`{}` is not a command of this server", params.command),
            ));
        }
    };
    match ops::document::routed_cases(&file) {
        Ok(Some(routed)) => Ok(serde_json::json!({
            "passed": routed.passed,
            "cases": routed.cases,
            "message": lens::routed_title(routed),
        })),
        Ok(None) => Err((
            ErrorCode::RequestFailed,
            format!("no trigger case names the skill of {}", file.display()),
        )),
        Err(error) => Err((ErrorCode::RequestFailed, error.to_string())),
    }
}

/// What a vendored skill's diagnostics add: why nothing is offered.
fn vendored_note(upstream: &str) -> String {
    format!(
        "this skill is vendored from {upstream}: its files are not edited here; fix it upstream and run `cargo skills sync`"
    )
}

/// The server's state: the workspace's root and the open documents.
struct Server {
    root: PathBuf,
    documents: HashMap<String, Document>,
}

/// Serves on stdin and stdout until the client says `exit`.
pub fn serve() -> Result<(), Failure> {
    let (connection, threads) = Connection::stdio();
    let io = |error: &dyn std::fmt::Display| Failure::Io(format!("lsp: {error}"));
    let (id, params) = connection.initialize_start().map_err(|error| {
        Failure::Io(format!(
            "lsp: no client said `initialize` on stdin ({error}): an editor starts `cargo skills lsp` (docs/editors.md)"
        ))
    })?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let root = workspace_root(&params)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    // Diagnostics name files relative to the current directory, as `check`
    // prints them: the server works from the workspace's root.
    std::env::set_current_dir(&root).map_err(|e| io(&e))?;
    let initialized = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "cargo-skills", "version": env!("CARGO_PKG_VERSION")},
    });
    connection
        .initialize_finish(id, initialized)
        .map_err(|e| io(&e))?;
    let mut server = Server {
        root,
        documents: HashMap::new(),
    };
    server.run(&connection).map_err(|e| io(&e))?;
    drop(connection);
    threads.join().map_err(|e| io(&e))
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        document_link_provider: Some(lsp_types::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        references_provider: Some(lsp_types::OneOf::Left(true)),
        document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
        code_lens_provider: Some(lsp_types::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(lsp_types::ExecuteCommandOptions {
            commands: vec![lens::TEST.to_owned()],
            work_done_progress_options: Default::default(),
        }),
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec!["#".to_owned(), "/".to_owned(), "(".to_owned()]),
            ..Default::default()
        }),
        rename_provider: Some(lsp_types::OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        code_action_provider: Some(CodeActionProviderCapability::Options(
            lsp_types::CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..Default::default()
            },
        )),
        diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("skills".to_owned()),
            inter_file_dependencies: true,
            workspace_diagnostics: true,
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// The first workspace folder, else the root URI, as a path.
fn workspace_root(params: &InitializeParams) -> Option<PathBuf> {
    let folder = params.workspace_folders.as_ref()?.first().map(|f| &f.uri);
    #[allow(deprecated)] // `root_uri` is what clients before 3.6 send.
    let uri = folder.or(params.root_uri.as_ref())?;
    uri::file_path(uri)
}

impl Server {
    fn run(&mut self, connection: &Connection) -> Result<(), lsp_server::ProtocolError> {
        for message in &connection.receiver {
            match message {
                Message::Request(request) => {
                    if connection.handle_shutdown(&request)? {
                        return Ok(());
                    }
                    let response = self.answer(request);
                    let _ = connection.sender.send(Message::Response(response));
                }
                Message::Notification(notification) => {
                    for published in self.notified(notification) {
                        let _ = connection.sender.send(Message::Notification(published));
                    }
                }
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    /// A request's answer; a panic in one is an error answer, not the end
    /// of the server.
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.dispatch(&request.method, request.params)
        }));
        match answered {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "the request failed inside the server; it goes on serving".to_owned(),
            ),
        }
    }

    fn dispatch(&mut self, method: &str, mut params: Value) -> Result<Value, (ErrorCode, String)> {
        let invalid = |error: serde_json::Error| (ErrorCode::InvalidParams, error.to_string());
        match method {
            DocumentDiagnosticRequest::METHOD => {
                let params: lsp_types::DocumentDiagnosticParams =
                    serde_json::from_value(params).map_err(invalid)?;
                let items = self.diagnostics(&params.text_document.uri);
                Ok(convert::full_report(items))
            }
            lsp_types::request::WorkspaceDiagnosticRequest::METHOD => self.workspace_diagnostics(),
            lsp_types::request::HoverRequest::METHOD => {
                let params: lsp_types::HoverParams =
                    serde_json::from_value(params).map_err(invalid)?;
                let at = params.text_document_position_params;
                Ok(self.hover(&at.text_document.uri, at.position))
            }
            CodeActionRequest::METHOD => {
                let params: lsp_types::CodeActionParams =
                    serde_json::from_value(params).map_err(invalid)?;
                Ok(self.code_actions(&params))
            }
            method @ (lsp_types::request::DocumentSymbolRequest::METHOD
            | lsp_types::request::FoldingRangeRequest::METHOD
            | lsp_types::request::DocumentLinkRequest::METHOD
            | lsp_types::request::CodeLensRequest::METHOD) => {
                // Each of these names its document and nothing else needed.
                let document: lsp_types::TextDocumentIdentifier =
                    serde_json::from_value(params["textDocument"].take()).map_err(invalid)?;
                Ok(self.with_view(&document.uri, |view, _| match method {
                    lsp_types::request::DocumentSymbolRequest::METHOD => navigate::symbols(view),
                    lsp_types::request::FoldingRangeRequest::METHOD => navigate::folding(view),
                    lsp_types::request::DocumentLinkRequest::METHOD => {
                        navigate::links(view, &self.root)
                    }
                    _ => lens::lenses(view),
                }))
            }
            lsp_types::request::Rename::METHOD => {
                let params: lsp_types::RenameParams =
                    serde_json::from_value(params).map_err(invalid)?;
                let at = params.text_document_position;
                let vendored = self
                    .documents
                    .get(at.text_document.uri.as_str())
                    .and_then(|document| document.vendored.clone());
                if let Some(upstream) = vendored {
                    return Err((ErrorCode::InvalidRequest, vendored_note(&upstream)));
                }
                let mut renamed = Ok(Value::Null);
                self.at_cursor(&at, |view, offset, open| {
                    renamed = navigate::rename(view, &self.root, offset, &params.new_name, open);
                    Value::Null
                });
                renamed.map_err(|why| (ErrorCode::InvalidParams, why))
            }
            lsp_types::request::ExecuteCommand::METHOD => {
                let params: lsp_types::ExecuteCommandParams =
                    serde_json::from_value(params).map_err(invalid)?;
                run_command(&params)
            }
            lsp_types::request::Formatting::METHOD => {
                let params: lsp_types::DocumentFormattingParams =
                    serde_json::from_value(params).map_err(invalid)?;
                self.format(&params.text_document.uri)
            }
            method @ (lsp_types::request::GotoDefinition::METHOD
            | lsp_types::request::References::METHOD
            | lsp_types::request::Completion::METHOD
            | lsp_types::request::PrepareRenameRequest::METHOD) => {
                // Each of these carries the position's fields at its top.
                let at: lsp_types::TextDocumentPositionParams =
                    serde_json::from_value(params).map_err(invalid)?;
                Ok(self.at_cursor(&at, |view, offset, open| match method {
                    lsp_types::request::GotoDefinition::METHOD => {
                        navigate::definition(view, &self.root, offset, open)
                    }
                    lsp_types::request::References::METHOD => {
                        navigate::references(view, &self.root, offset, open)
                    }
                    lsp_types::request::Completion::METHOD => {
                        navigate::completions(view, &self.root, offset, open)
                    }
                    _ => navigate::prepare_rename(view, offset),
                }))
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("`{method}` is not served"),
            )),
        }
    }

    /// What a notification changes, and the diagnostics to push after it.
    fn notified(&mut self, notification: Notification) -> Vec<Notification> {
        let Notification { method, params } = notification;
        let uri = match method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let document = params.text_document;
                self.open(&document.uri, document.text, document.version);
                document.uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                if let Some(document) = self.documents.get_mut(uri.as_str()) {
                    for change in params.content_changes {
                        document.apply(change);
                    }
                    document.version = params.text_document.version;
                    document.check();
                }
                uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.documents.remove(uri.as_str());
                // What was shown for it goes with it.
                return vec![publish(uri, Vec::new(), None)];
            }
            _ => return Vec::new(),
        };
        let version = self.documents.get(uri.as_str()).map(|d| d.version);
        let diagnostics = self.diagnostics(&uri);
        vec![publish(uri, diagnostics, version)]
    }

    fn open(&mut self, uri: &Uri, text: String, version: i32) {
        let Some(path) = uri::file_path(uri) else {
            return;
        };
        let path = path
            .strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .unwrap_or(path);
        let mut document = Document {
            path,
            text,
            version,
            checked: Checked::NotASkill,
            vendored: None,
        };
        document.check();
        self.documents.insert(uri.as_str().to_owned(), document);
    }

    /// The document's diagnostics, from its last check.
    fn diagnostics(&self, uri: &Uri) -> Vec<lsp_types::Diagnostic> {
        let Some(document) = self.documents.get(uri.as_str()) else {
            return Vec::new();
        };
        match &document.checked {
            Checked::Found(found) => convert::diagnostics(found, uri, &document.text),
            Checked::Unchecked(why) => vec![convert::unchecked(why)],
            Checked::NotASkill | Checked::PartOf => Vec::new(),
        }
    }

    fn code_actions(&self, params: &lsp_types::CodeActionParams) -> Value {
        let uri = &params.text_document.uri;
        let Some(document) = self.documents.get(uri.as_str()) else {
            return Value::Array(Vec::new());
        };
        convert::code_actions(document.found(), uri, &document.text, params.range)
    }

    /// Every skill file's diagnostics as on disk, from one check of the
    /// workspace (set-level checks included), grouped by file; the open
    /// documents are left to their own pulls, which read the editor's text.
    fn workspace_diagnostics(&self) -> Result<Value, (ErrorCode, String)> {
        let found = ops::document::check_workspace()
            .map_err(|error| (ErrorCode::RequestFailed, format!("not checked: {error}")))?;
        let open: Vec<&Path> = self.documents.values().map(|d| d.path.as_path()).collect();
        let mut by_file: std::collections::BTreeMap<&str, Vec<skills_compiler::Diagnostic>> =
            std::collections::BTreeMap::new();
        for diagnostic in found.iter() {
            if !open
                .iter()
                .any(|path| uri::same_file(&diagnostic.file, path))
            {
                by_file
                    .entry(diagnostic.file.as_str())
                    .or_default()
                    .push(diagnostic.clone());
            }
        }
        let texts = self.open_texts();
        let items: Vec<Value> = by_file
            .into_iter()
            .filter_map(|(file, diagnostics)| {
                let on_disk = self.root.join(file);
                let uri = navigate::file_uri(&on_disk)?;
                let text = texts.text_of(Path::new(file), &on_disk).unwrap_or_default();
                Some(serde_json::json!({
                    "kind": "full",
                    "uri": uri,
                    "version": null,
                    "items": convert::diagnostics(&diagnostics, &uri, &text),
                }))
            })
            .collect();
        Ok(serde_json::json!({ "items": items }))
    }

    /// The document in `fmt`'s canonical style: one edit of the whole
    /// text, none when it already is; an error saying why `fmt` leaves it.
    fn format(&self, uri: &Uri) -> Result<Value, (ErrorCode, String)> {
        let Some(document) = self.documents.get(uri.as_str()).filter(|document| {
            document.is_markdown() && matches!(document.checked, Checked::Found(_))
        }) else {
            return Ok(Value::Null);
        };
        if let Some(upstream) = &document.vendored {
            return Err((ErrorCode::RequestFailed, vendored_note(upstream)));
        }
        let formatted = ops::document::format(&document.path, &document.text)
            .map_err(|error| (ErrorCode::RequestFailed, format!("not formatted: {error}")))?;
        let Some(formatted) = formatted else {
            return Ok(Value::Array(Vec::new()));
        };
        let index = position::LineIndex::new(&document.text);
        let whole = lsp_types::Range::new(
            lsp_types::Position::new(0, 0),
            index.position(&document.text, document.text.len()),
        );
        Ok(
            serde_json::to_value(vec![lsp_types::TextEdit::new(whole, formatted)])
                .unwrap_or(Value::Null),
        )
    }

    /// `answer` of the open skill file at `uri`, with the texts of every
    /// open document; `null` for a document that is not open or not a
    /// skill file.
    fn with_view(
        &self,
        uri: &Uri,
        answer: impl FnOnce(&navigate::View<'_>, &navigate::OpenText<'_>) -> Value,
    ) -> Value {
        let Some(document) = self
            .documents
            .get(uri.as_str())
            .filter(|document| document.is_markdown())
        else {
            return Value::Null;
        };
        let view = navigate::View::new(&document.path, &document.text);
        answer(&view, &self.open_texts())
    }

    /// [`with_view`](Self::with_view) at the byte the position names.
    fn at_cursor(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
        answer: impl FnOnce(&navigate::View<'_>, usize, &navigate::OpenText<'_>) -> Value,
    ) -> Value {
        self.with_view(&at.text_document.uri, |view, open| {
            answer(view, view.index.offset(view.text, at.position), open)
        })
    }

    fn open_texts(&self) -> navigate::OpenText<'_> {
        navigate::OpenText {
            texts: self
                .documents
                .values()
                .map(|document| (document.path.as_path(), document.text.as_str()))
                .collect(),
        }
    }

    /// What `explain` says of the frontmatter key under the cursor, or what
    /// the link under it leads to.
    fn hover(&self, uri: &Uri, position: lsp_types::Position) -> Value {
        let Some(document) = self
            .documents
            .get(uri.as_str())
            .filter(|document| document.is_markdown())
        else {
            return Value::Null;
        };
        let text = &document.text;
        let index = position::LineIndex::new(text);
        let offset = index.offset(text, position);
        let Some(key) = ops::document::key_at(text, offset) else {
            if let Some((span, described)) =
                ops::document::describe_at(&document.path, text, offset)
            {
                let hover = lsp_types::Hover {
                    contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                        kind: lsp_types::MarkupKind::Markdown,
                        value: convert::described(&described),
                    }),
                    range: Some(lsp_types::Range::new(
                        index.position(text, span.start),
                        index.position(text, span.end),
                    )),
                };
                return serde_json::to_value(hover).unwrap_or(Value::Null);
            }
            let view = navigate::View::new(&document.path, text);
            let hover = navigate::hover(
                &view,
                &self.root,
                offset,
                document.found(),
                &self.open_texts(),
            );
            return serde_json::to_value(hover).unwrap_or(Value::Null);
        };
        let Some(explained) = skills_compiler::keys::explain_key(&key.path) else {
            return Value::Null;
        };
        let hover = lsp_types::Hover {
            contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::Markdown,
                value: explained,
            }),
            range: Some(lsp_types::Range::new(
                index.position(text, key.span.start),
                index.position(text, key.span.end),
            )),
        };
        serde_json::to_value(hover).unwrap_or(Value::Null)
    }
}

fn publish(
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_owned(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

    fn document(text: &str) -> Document {
        Document {
            path: PathBuf::from("skills/a/SKILL.md"),
            text: text.to_owned(),
            version: 1,
            checked: Checked::NotASkill,
            vendored: None,
        }
    }

    #[test]
    fn an_incremental_change_replaces_its_range_in_utf16_units() {
        let mut doc = document("---\nname: 𝄞 x\nmethod: get\n---\n");
        doc.apply(TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(2, 8), Position::new(2, 11))),
            range_length: None,
            text: "GET".to_owned(),
        });
        assert_eq!(doc.text, "---\nname: 𝄞 x\nmethod: GET\n---\n");
        // After the surrogate pair: units, not bytes or chars.
        doc.apply(TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(1, 9), Position::new(1, 10))),
            range_length: None,
            text: "y".to_owned(),
        });
        assert_eq!(doc.text, "---\nname: 𝄞 y\nmethod: GET\n---\n");
    }

    #[test]
    fn a_change_without_a_range_replaces_the_whole_text() {
        let mut doc = document("old");
        doc.apply(TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "new".to_owned(),
        });
        assert_eq!(doc.text, "new");
    }
}
