//! A record of a real model's verdicts, for CI without a key:
//! `cargo skills test --router anthropic:MODEL --record FILE` writes each
//! request's choices keyed by the model and the query, beside the digest
//! of each skill's listed text; `--replay FILE` (or `replay = "FILE"` in
//! the manifest) judges the cases offline from it.
//!
//! A verdict is only as good as the catalogue the model read. A case is
//! *stale* when the listed text of a skill it involves (the one it is for,
//! one it accepts, one the model chose) changed since it was recorded, or
//! when the catalogue lists skills it did not then (any choice may move),
//! or when its query was never recorded. The file is JSON, sorted and
//! indented, one verdict per query: a diff in a pull request says which
//! verdicts changed.
//!
//! ```
//! use skills_compiler::ops::budget::Budget;
//! use skills_compiler::ops::trigger::Catalogue;
//! use skills_compiler::ops::trigger::record::Record;
//!
//! let catalogue = Catalogue::from_entries(Budget::ClaudeCode, &[("pdf", "Fill in PDF forms.")]);
//! let mut record = Record::new("anthropic:claude-sonnet-4-5", "claude-code", catalogue.digests());
//! record.verdicts.insert("fill this form".into(), vec![Some("pdf".into())]);
//! let text = record.to_json();
//! let (again, _) = Record::read("record.json", &text).unwrap();
//! assert_eq!(again, record);
//! ```

use std::collections::BTreeMap;
use std::ops::Range;

use super::cases::Case;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};
use crate::read::yaml::{self, Node, Value};

/// What the file says it is, so that no other JSON is taken for one.
pub const FORMAT: &str = "cargo-skills trigger record 1";

/// The largest record read.
pub const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// The deepest a record nests (it is flat: an object of arrays).
const MAX_DEPTH: usize = 8;

/// A model's verdicts over one catalogue. Two records are equal when they
/// say the same (where a file held them does not count).
#[derive(Debug, Clone)]
pub struct Record {
    /// `anthropic:MODEL` or `openai:MODEL`.
    pub model: String,
    /// The host whose listing the model read.
    pub host: String,
    /// Each listed skill's name and the SHA-256 of its listed text.
    pub listing: BTreeMap<String, String>,
    /// Each query and the model's choice on each run (`None`: no skill).
    pub verdicts: BTreeMap<String, Vec<Option<String>>>,
    /// Where `model` is in the file read, to locate a mismatch.
    model_at: Option<Range<usize>>,
    /// Where `host` and `listing` are, likewise.
    host_at: Option<Range<usize>>,
    listing_at: Option<Range<usize>>,
}

impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        (&self.model, &self.host, &self.listing, &self.verdicts)
            == (&other.model, &other.host, &other.listing, &other.verdicts)
    }
}

impl Eq for Record {}

/// Why a case's verdict cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stale {
    /// Its query was never recorded.
    NotRecorded,
    /// The listed text of these skills changed (or they appeared or went).
    Changed(Vec<String>),
}

impl Stale {
    /// `the listed text of `pdf` changed since it was recorded`.
    pub fn describe(&self) -> String {
        match self {
            Stale::NotRecorded => "it was never recorded".to_owned(),
            Stale::Changed(skills) => {
                let names: Vec<String> = skills
                    .iter()
                    .map(|s| format!("`{}`", skills_core::printable(s)))
                    .collect();
                format!(
                    "the listed text of {} changed since it was recorded",
                    names.join(", ")
                )
            }
        }
    }
}

impl Record {
    /// An empty record of `model`'s verdicts over a catalogue `host` lists
    /// as `listing` ([`Catalogue::digests`](super::Catalogue::digests)).
    pub fn new(model: &str, host: &str, listing: BTreeMap<String, String>) -> Record {
        Record {
            model: model.to_owned(),
            host: host.to_owned(),
            listing,
            verdicts: BTreeMap::new(),
            model_at: None,
            host_at: None,
            listing_at: None,
        }
    }

    /// The file's text: sorted, indented, with a final newline.
    pub fn to_json(&self) -> String {
        let verdicts: Vec<serde_json::Value> = self
            .verdicts
            .iter()
            .map(|(query, runs)| serde_json::json!({"query": query, "runs": runs}))
            .collect();
        let value = serde_json::json!({
            "format": FORMAT,
            "model": self.model,
            "host": self.host,
            "listing": self.listing,
            "verdicts": verdicts,
        });
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a record from `text` (the file `shown`): every problem is a
    /// located S608, and nothing of a bad record is used.
    pub fn read(shown: &str, text: &str) -> Result<(Record, SourceFile), Vec<Diagnostic>> {
        let source = SourceFile::new(shown, text);
        let root = match yaml::parse(&source, 0..text.len(), MAX_DEPTH) {
            Ok(Some(root)) => root,
            Ok(None) => return Err(vec![whole(shown, "the file is empty")]),
            Err(problems) => {
                // Not quoted: a file named by mistake stays out of CI logs.
                return Err(problems
                    .into_iter()
                    .map(|mut d| {
                        d.code = Code::RouteRecord;
                        d.message = format!(
                            "not a record of verdicts: {}",
                            d.message.replace("the frontmatter", "the file")
                        );
                        d.span = None;
                        d
                    })
                    .collect());
            }
        };
        let mut reader = Reader {
            source: &source,
            problems: Vec::new(),
        };
        let record = reader.record(&root);
        match record {
            Some(record) if reader.problems.is_empty() => Ok((record, source)),
            _ => Err(reader.problems),
        }
    }

    /// S608 at `model` when this record is another model's than `model`.
    pub fn check_model(&self, model: &str, source: &SourceFile) -> Option<Diagnostic> {
        if self.model == model {
            return None;
        }
        let message = format!(
            "this record is `{}`'s verdicts, and the run is `{}`'s",
            skills_core::printable(&self.model),
            skills_core::printable(model)
        );
        let diagnostic = match &self.model_at {
            Some(at) => Diagnostic::at(Code::RouteRecord, source, at.clone(), message),
            None => Diagnostic::error(Code::RouteRecord, source.path(), message),
        };
        Some(diagnostic.with_help(format!(
            "replay it with `--router {}`, or record `{model}`'s verdicts with `--record`",
            skills_core::printable(&self.model)
        )))
    }

    /// S608 when this record was made over another catalogue: another
    /// host's listing, or no skill in common with `listing` (a record of
    /// another package). A catalogue that changed in part makes cases
    /// stale instead ([`Record::stale`]).
    pub fn check_catalogue(
        &self,
        host: &str,
        listing: &BTreeMap<String, String>,
        source: &SourceFile,
    ) -> Option<Diagnostic> {
        let located = |at: &Option<Range<usize>>, message: String| match at {
            Some(at) => Diagnostic::at(Code::RouteRecord, source, at.clone(), message),
            None => Diagnostic::error(Code::RouteRecord, source.path(), message),
        };
        if self.host != host {
            let message = format!(
                "this record is of `{}`'s listing, and the run reads `{host}`'s",
                skills_core::printable(&self.host)
            );
            return Some(located(&self.host_at, message).with_help(format!(
                "replay it with `--host {}`, or record again for `{host}`",
                skills_core::printable(&self.host)
            )));
        }
        let shared = self.listing.keys().any(|name| listing.contains_key(name));
        if !shared && !listing.is_empty() {
            let message =
                "this record lists none of the skills of this catalogue: it is another package's"
                    .to_owned();
            return Some(
                located(&self.listing_at, message)
                    .with_help("replay the record of this package's skills, or record one"),
            );
        }
        None
    }

    /// Why `case` cannot be replayed over a catalogue now listed as
    /// `listing`, or `None` when its verdict holds.
    pub fn stale(&self, case: &Case, listing: &BTreeMap<String, String>) -> Option<Stale> {
        let Some(runs) = self.verdicts.get(&case.query) else {
            return Some(Stale::NotRecorded);
        };
        let mut changed: Vec<String> = Vec::new();
        // A skill listed now that was not then may take any case.
        changed.extend(
            listing
                .keys()
                .filter(|name| !self.listing.contains_key(*name))
                .cloned(),
        );
        let mut involved: Vec<&str> = runs.iter().flatten().map(String::as_str).collect();
        match &case.expected {
            super::cases::Expected::Skill { name, acceptable } => {
                involved.push(name);
                involved.extend(acceptable.iter().map(String::as_str));
            }
            super::cases::Expected::Nothing { acceptable } => {
                involved.extend(acceptable.iter().map(String::as_str))
            }
            super::cases::Expected::NotSkill(name) => involved.push(name),
        }
        for name in involved {
            if self.listing.get(name) != listing.get(name) && !changed.iter().any(|c| c == name) {
                changed.push(name.to_owned());
            }
        }
        changed.sort();
        (!changed.is_empty()).then_some(Stale::Changed(changed))
    }
}

/// Reads the record at `path` (shown as `shown`): at most
/// [`MAX_RECORD_BYTES`], UTF-8, then [`Record::read`].
pub fn load(path: &std::path::Path, shown: &str) -> Result<(Record, SourceFile), Vec<Diagnostic>> {
    use crate::read::open::{BoundedError, read_bounded};
    let bytes = match read_bounded(path, MAX_RECORD_BYTES) {
        Ok(bytes) => bytes,
        Err(BoundedError::TooLarge(limit)) => {
            return Err(vec![whole(
                shown,
                &format!("it holds more than {limit} bytes"),
            )]);
        }
        Err(BoundedError::Io(error)) => {
            return Err(vec![whole(shown, &format!("cannot read it: {error}"))]);
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Record::read(shown, &text),
        Err(_) => Err(vec![whole(shown, "it is not UTF-8 text")]),
    }
}

fn whole(shown: &str, message: &str) -> Diagnostic {
    Diagnostic::error(
        Code::RouteRecord,
        shown,
        format!("not a record of verdicts: {message}"),
    )
    .with_help("record one with `cargo skills test --router anthropic:MODEL --record FILE`")
}

struct Reader<'a> {
    source: &'a SourceFile,
    problems: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn problem(&mut self, at: Range<usize>, message: String) {
        self.problems
            .push(Diagnostic::at(Code::RouteRecord, self.source, at, message));
    }

    fn string(&mut self, root: &Node, key: &str) -> Option<(String, Range<usize>)> {
        match root.get(key) {
            Some(node) => match node.as_str() {
                Some(text) => Some((text.to_owned(), node.span.clone())),
                None => {
                    let found = node.type_name();
                    self.problem(
                        node.span.clone(),
                        format!("`{key}` must be a string, found {found}"),
                    );
                    None
                }
            },
            None => {
                self.problem(
                    root.span.clone(),
                    format!("the record has no `{key}`: it may be truncated"),
                );
                None
            }
        }
    }

    fn record(&mut self, root: &Node) -> Option<Record> {
        if root.as_map().is_none() {
            let found = root.type_name();
            self.problem(
                root.span.clone(),
                format!("a record is a JSON object, found {found}"),
            );
            return None;
        }
        let format = self.string(root, "format");
        if let Some((format, at)) = &format
            && format != FORMAT
        {
            self.problem(
                at.clone(),
                format!(
                    "`format` is `{}`, and this cargo-skills reads `{FORMAT}`",
                    skills_core::printable(format)
                ),
            );
        }
        let model = self.string(root, "model");
        let host = self.string(root, "host");
        let listing = self.listing(root);
        let verdicts = self.verdicts(root);
        let ((model, model_at), (host, host_at)) = (model?, host?);
        Some(Record {
            model,
            host,
            listing: listing?,
            verdicts: verdicts?,
            model_at: Some(model_at),
            host_at: Some(host_at),
            listing_at: root.get("listing").map(|node| node.span.clone()),
        })
    }

    fn listing(&mut self, root: &Node) -> Option<BTreeMap<String, String>> {
        let Some(node) = root.get("listing") else {
            self.problem(
                root.span.clone(),
                "the record has no `listing`: it may be truncated".to_owned(),
            );
            return None;
        };
        let Some(entries) = node.as_map() else {
            let found = node.type_name();
            self.problem(
                node.span.clone(),
                format!("`listing` must map each skill to its digest, found {found}"),
            );
            return None;
        };
        let mut listing = BTreeMap::new();
        for entry in entries {
            match entry.value.as_str() {
                Some(digest)
                    if digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()) =>
                {
                    listing.insert(entry.key.clone(), digest.to_owned());
                }
                _ => self.problem(
                    entry.value.span.clone(),
                    format!(
                        "the digest of `{}` must be 64 hex digits (SHA-256)",
                        skills_core::printable(&entry.key)
                    ),
                ),
            }
        }
        Some(listing)
    }

    fn verdicts(&mut self, root: &Node) -> Option<BTreeMap<String, Vec<Option<String>>>> {
        let Some(node) = root.get("verdicts") else {
            self.problem(
                root.span.clone(),
                "the record has no `verdicts`: it may be truncated".to_owned(),
            );
            return None;
        };
        let Some(items) = node.as_seq() else {
            let found = node.type_name();
            self.problem(
                node.span.clone(),
                format!("`verdicts` must be an array, found {found}"),
            );
            return None;
        };
        let mut verdicts = BTreeMap::new();
        for item in items {
            let query = match item.get("query").and_then(Node::as_str) {
                Some(query) => query.to_owned(),
                None => {
                    self.problem(
                        item.span.clone(),
                        "a verdict needs `query` (a string) and `runs` (an array of names or nulls)"
                            .to_owned(),
                    );
                    continue;
                }
            };
            let Some(runs) = item
                .get("runs")
                .and_then(Node::as_seq)
                .filter(|r| !r.is_empty())
            else {
                self.problem(
                    item.span.clone(),
                    "a verdict needs `runs`: a non-empty array of skills' names or nulls"
                        .to_owned(),
                );
                continue;
            };
            let mut choices = Vec::with_capacity(runs.len());
            for run in runs {
                match &run.value {
                    Value::Null => choices.push(None),
                    Value::String(name) => choices.push(Some(name.clone())),
                    _ => self.problem(
                        run.span.clone(),
                        "a run is a skill's name or null".to_owned(),
                    ),
                }
            }
            if verdicts.insert(query, choices).is_some() {
                self.problem(
                    item.span.clone(),
                    "two verdicts have this query: a record holds one per query".to_owned(),
                );
            }
        }
        Some(verdicts)
    }
}
