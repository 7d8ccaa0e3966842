//! Trigger cases, read from the formats the tools that exist write:
//!
//! - Anthropic's skill-creator and agentskills.io: a skill's
//!   `evals/eval_queries.json`, `[{"query": str, "should_trigger": bool}]`
//!   (`text` accepted for `query`);
//! - google/skill-reach, for a whole set: `{"queries": [{"id", "text",
//!   "expected_skill": name | null, "acceptable_skills": [...]}]}`;
//! - aigent's `tests.yml`: `queries: [{input, should_match, min_score?}]`;
//! - waza: `should_trigger_prompts` / `should_not_trigger_prompts`, lists of
//!   `{prompt, reason?, confidence?}`;
//! - OpenAI's CSV: `id,should_trigger,prompt`;
//! - a publisher's `evals/evals.json` (NVIDIA/skills, 341 skills): an array
//!   of `{id, question, expected_skill: name | null, acceptable_skills?}`,
//!   other keys ignored (they grade the answer, not the choice);
//! - the Agent Skills spec's `evals/evals.json`: `{skill_name, evals: [{id,
//!   prompt, expected_output, files?, assertions? | expectations?}]}`, each
//!   prompt a should-trigger case of `skill_name` (unless the eval says
//!   otherwise with `expected_skill` or `should_trigger: false`).
//!
//! Ids are unique per file, not across files: a case is known by its file
//! and id. `acceptable_skills` beside a null `expected_skill` means "none,
//! or one of these".
//!
//! JSON and YAML are read by one parser with a span on every node, so every
//! problem is located; CSV by a small reader of its own. The formats that
//! belong to one skill take it from where the file is (or `SKILL=FILE`).

use std::ops::Range;

use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic};
use crate::read::yaml::{self, Node, Value};

/// The largest case file read: a set of cases is text a person wrote.
pub const MAX_CASE_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// The most problems reported of one case file; past it, one more says
/// how many were left out (10,000 bad rows are one mistake repeated).
pub const MAX_PROBLEMS_PER_FILE: usize = 50;
/// The deepest nesting a case file may have.
const MAX_DEPTH: usize = 32;

/// One routing question and what a good router does with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Its id: the file's, or `SKILL#N` for formats without ids.
    pub id: String,
    /// What the user says.
    pub query: String,
    /// What must be chosen.
    pub expected: Expected,
    /// The file it came from, as diagnostics show it.
    pub file: String,
    /// Where in the file (bytes), when it came from one.
    pub span: Option<Range<usize>>,
}

/// What a case expects of the router.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// This skill (or one of `acceptable`).
    Skill {
        /// The skill the case is for.
        name: String,
        /// Other skills that are as good a choice.
        acceptable: Vec<String>,
    },
    /// No skill (skill-reach's `expected_skill: null`), or one of
    /// `acceptable` when it names some.
    Nothing {
        /// Skills that may be chosen instead of none.
        acceptable: Vec<String>,
    },
    /// Anything but this skill (a skill's own should-not-trigger case).
    NotSkill(String),
}

impl Expected {
    /// Whether choosing `chosen` (or nothing) passes.
    pub fn passes(&self, chosen: Option<&str>) -> bool {
        match self {
            Expected::Skill { name, acceptable } => {
                chosen.is_some_and(|c| c == name || acceptable.iter().any(|a| a == c))
            }
            Expected::Nothing { acceptable } => {
                chosen.is_none_or(|c| acceptable.iter().any(|a| a == c))
            }
            Expected::NotSkill(name) => chosen != Some(name.as_str()),
        }
    }

    /// The skill whose should-trigger case this is.
    pub fn skill(&self) -> Option<&str> {
        match self {
            Expected::Skill { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// The cases of one file, and its problems.
#[derive(Debug, Default)]
pub struct Read {
    /// The cases, in the file's order.
    pub cases: Vec<Case>,
    /// Every problem found, located.
    pub diagnostics: Vec<Diagnostic>,
    /// The file, for rendering the diagnostics.
    pub source: Option<SourceFile>,
}

/// Reads the case file at `path` (shown as `shown`), a file a person
/// named: a regular file (through a link), at most
/// [`MAX_CASE_FILE_BYTES`] counted as read (S605), UTF-8; then [`read`].
pub fn load(path: &std::path::Path, shown: &str, skill: Option<&str>, known: &[&str]) -> Read {
    use crate::read::open::{BoundedError, read_bounded};
    match read_bounded(path, MAX_CASE_FILE_BYTES) {
        Ok(bytes) => from_bytes(shown, bytes, skill, known),
        Err(BoundedError::TooLarge(limit)) => refused(
            shown,
            Code::CaseFileTooLarge,
            format!("a case file may hold at most {limit} bytes, and this one holds more"),
        ),
        Err(BoundedError::Io(error)) => {
            refused(shown, Code::CaseSyntax, format!("cannot read it: {error}"))
        }
    }
}

/// Reads a skill's own case file, `file` of the skill directory `dir`, as
/// the compiler listed it: only a file of the skill (a link out of it, a
/// pipe or a device never is one), its listed length, the same file.
pub(crate) fn load_listed(
    dir: &std::path::Path,
    file: &crate::read::files::SkillFile,
    shown: &str,
    skill: &str,
    known: &[&str],
) -> Read {
    if file.len > MAX_CASE_FILE_BYTES {
        return refused(
            shown,
            Code::CaseFileTooLarge,
            format!(
                "{} bytes: a case file may hold at most {MAX_CASE_FILE_BYTES}",
                file.len
            ),
        );
    }
    match crate::read::files::read_listed(dir, file) {
        Ok(bytes) => from_bytes(shown, bytes, Some(skill), known),
        Err(error) => refused(shown, Code::CaseSyntax, format!("cannot read it: {error}")),
    }
}

/// The cases of a file's bytes: UTF-8, then [`read`].
fn from_bytes(shown: &str, bytes: Vec<u8>, skill: Option<&str>, known: &[&str]) -> Read {
    match String::from_utf8(bytes) {
        Ok(text) => read(shown, &text, skill, known),
        Err(_) => refused(shown, Code::CaseSyntax, "it is not UTF-8 text".to_owned()),
    }
}

/// A file that gives no cases, for one reason at the file.
fn refused(shown: &str, code: Code, message: String) -> Read {
    Read {
        diagnostics: vec![Diagnostic::error(code, shown, message)],
        ..Read::default()
    }
}

impl Read {
    /// A case file that is not read, for `why`.
    pub(crate) fn refused(shown: &str, why: String) -> Read {
        refused(shown, Code::CaseSyntax, why)
    }
}

/// Reads the cases of `text` (the file `path`, as diagnostics show it).
/// `skill` is the skill a one-skill format belongs to, when known;
/// `known` are the skills the cases may name.
///
/// A text that is not a case file at all (it does not parse, or its
/// top level is none of the formats) is never quoted: its problems say
/// where, and the file is not kept for rendering. A path named by
/// mistake (or a link to `/proc/self/environ`) must not print its text
/// into a CI log.
pub fn read(path: &str, text: &str, skill: Option<&str>, known: &[&str]) -> Read {
    let source = SourceFile::new(path, text);
    let mut reader = Reader {
        source: &source,
        skill,
        known,
        cases: Vec::new(),
        spans: Vec::new(),
        problems: Vec::new(),
        recognised: true,
        left_out: 0,
        warned: Vec::new(),
    };
    if path.ends_with(".csv") {
        reader.csv();
    } else {
        match yaml::parse(&source, 0..text.len(), MAX_DEPTH) {
            Ok(Some(root)) => reader.document(&root),
            Ok(None) => reader.problem(0..0, "the file holds no cases".to_owned()),
            Err(problems) => {
                reader.recognised = false;
                reader
                    .problems
                    .extend(problems.into_iter().map(as_case_file_problem));
            }
        }
    }
    reader.duplicate_ids();
    reader.cap_problems();
    let recognised = reader.recognised;
    Read {
        cases: reader.cases,
        diagnostics: reader.problems,
        source: recognised.then_some(source),
    }
}

/// A problem the YAML parser reports of a frontmatter, said of a case file.
fn as_case_file_problem(mut diagnostic: Diagnostic) -> Diagnostic {
    if diagnostic.code == Code::TooDeep {
        diagnostic.help = Some(format!(
            "flatten it: a case file nests at most {MAX_DEPTH} levels"
        ));
    }
    diagnostic.code = Code::CaseSyntax;
    diagnostic.message = diagnostic
        .message
        .replace("the frontmatter", "the case file")
        .replace("YAML", "JSON or YAML");
    diagnostic
}

struct Reader<'a> {
    source: &'a SourceFile,
    skill: Option<&'a str>,
    known: &'a [&'a str],
    cases: Vec<Case>,
    /// Where each case is, for problems found after reading (duplicates).
    spans: Vec<Range<usize>>,
    problems: Vec<Diagnostic>,
    /// Whether the text is a case file of a known format.
    recognised: bool,
    /// Problems found past [`MAX_PROBLEMS_PER_FILE`], counted only.
    left_out: usize,
    /// The keys W030 has been said of in this file.
    warned: Vec<&'static str>,
}

impl Reader<'_> {
    /// Whether another problem may be made: past
    /// [`MAX_PROBLEMS_PER_FILE`] it is only counted. A problem is not made
    /// to be dropped: locating one on a long line costs a scan of it, and
    /// 8,000 of them on a 700 KB line took seconds.
    fn room(&mut self) -> bool {
        let room = self.problems.len() < MAX_PROBLEMS_PER_FILE;
        if !room {
            self.left_out += 1;
        }
        room
    }

    /// The problems in the file's order, and how many more were counted.
    fn cap_problems(&mut self) {
        let over = self.problems.len().saturating_sub(MAX_PROBLEMS_PER_FILE);
        self.problems.truncate(MAX_PROBLEMS_PER_FILE);
        let more = self.left_out + over;
        self.problems
            .sort_by_key(|diagnostic| diagnostic.span.as_ref().map(|span| span.bytes.start));
        if more == 0 {
            return;
        }
        self.problems.push(
            Diagnostic::error(
                Code::CaseShape,
                self.source.path(),
                format!("{more} more problems in this file are not shown"),
            )
            .with_help("fix the ones above and run again: they are often one mistake repeated"),
        );
    }

    fn problem(&mut self, at: Range<usize>, message: String) {
        if !self.room() {
            return;
        }
        self.problems
            .push(Diagnostic::at(Code::CaseShape, self.source, at, message));
    }

    /// W030 at `key` of `item` when it has it: a key of the format that is
    /// read and changes nothing here (said, never dropped silently). Once
    /// a file, at its first case that has it.
    fn without_effect(&mut self, item: &Node, key: &'static str, what: &str) {
        let Some(entry) = item
            .as_map()
            .and_then(|entries| entries.iter().find(|entry| entry.key == key))
        else {
            return;
        };
        if self.warned.contains(&key) || !self.room() {
            return;
        }
        self.warned.push(key);
        self.problems.push(
            Diagnostic::at(
                Code::CaseKeyWithoutEffect,
                self.source,
                entry.key_span.clone(),
                format!("`{key}` ({what}) is read and changes nothing: the case is judged by the skill chosen"),
            )
            .with_severity(crate::diagnostics::Severity::Warning)
            .with_help(format!("drop `{key}`, or keep it for the tool that reads it and allow W030")),
        );
    }

    /// `node` (the value of `key`) is not `what` it must be.
    fn wrong_type(&mut self, node: &Node, key: &str, what: &str) {
        let found = node.type_name();
        self.problem(
            node.span.clone(),
            format!("`{key}` must be {what}, found {found}"),
        );
    }

    /// Which format the document is, by its shape.
    fn document(&mut self, root: &Node) {
        match &root.value {
            Value::Seq(items) if items.iter().any(is_publisher_case) => self.publisher(items),
            Value::Seq(items) => self.anthropic(items),
            Value::Map(_) if root.get("skill_name").is_some() || root.get("evals").is_some() => {
                self.spec(root)
            }
            Value::Map(_) if root.get("queries").is_some() => {
                self.queries(root.get("queries").unwrap_or(root))
            }
            Value::Map(_)
                if root.get("should_trigger_prompts").is_some()
                    || root.get("should_not_trigger_prompts").is_some() =>
            {
                self.waza(root)
            }
            _ => {
                self.recognised = false;
                self.problem(
                root.span.clone(),
                format!(
                    "a case file is an array of `{{\"query\", \"should_trigger\"}}` or of `{{\"question\", \"expected_skill\"}}`, or a mapping with `queries`, `should_trigger_prompts` or `skill_name` and `evals`; found {}",
                    root.type_name()
                ),
            )
            }
        }
    }

    /// The skill a one-skill format belongs to, or a problem at `at`.
    fn own_skill(&mut self, at: Range<usize>, format: &str) -> Option<String> {
        match self.skill {
            Some(skill) => Some(skill.to_owned()),
            None => {
                self.problems.push(
                    Diagnostic::at(
                        Code::CaseShape,
                        self.source,
                        at,
                        format!("{format} cases belong to one skill, and this file is in no skill's folder"),
                    )
                    .with_help("put it in the skill's folder (`evals/eval_queries.json`), or name the skill: `--cases SKILL=FILE`"),
                );
                None
            }
        }
    }

    fn anthropic(&mut self, items: &[Node]) {
        let Some(skill) = items
            .first()
            .and_then(|first| self.own_skill(first.span.clone(), "these"))
        else {
            return;
        };
        for (n, item) in items.iter().enumerate() {
            let query = self.text(item, &["query", "text"]);
            let trigger = self.flag(item, "should_trigger");
            if let (Some(query), Some(trigger)) = (query, trigger) {
                let id = self
                    .id(item)
                    .unwrap_or_else(|| format!("{skill}#{}", n + 1));
                self.push(item.span.clone(), id, query, one_skill(&skill, trigger));
            }
        }
    }

    /// A publisher's `evals/evals.json`: `{id, question, expected_skill,
    /// acceptable_skills?}`, other keys ignored; `should_trigger: false`
    /// beside a skill's name means "anything but it".
    fn publisher(&mut self, items: &[Node]) {
        for (n, item) in items.iter().enumerate() {
            let query = self.text(item, &["question", "query", "prompt"]);
            let expected = self.expected_skill(item);
            let trigger = match item.get("should_trigger") {
                Some(_) => self.flag(item, "should_trigger"),
                None => Some(true),
            };
            let id = self.id(item).unwrap_or_else(|| format!("#{}", n + 1));
            if let (Some(query), Some(expected), Some(trigger)) = (query, expected, trigger) {
                self.push(item.span.clone(), id, query, negated(expected, trigger));
            }
        }
    }

    /// The Agent Skills spec's `{skill_name, evals: [{id, prompt, ...}]}`:
    /// each prompt a case of `skill_name`, unless it names another skill
    /// (`expected_skill`) or says `should_trigger: false`.
    fn spec(&mut self, root: &Node) {
        let Some(evals) = root.get("evals") else {
            return self.problem(
                root.span.clone(),
                "this file has `skill_name` but no `evals`: the spec's `evals/evals.json` is `{\"skill_name\", \"evals\": [{\"id\", \"prompt\", ...}]}`".to_owned(),
            );
        };
        let Some(items) = evals.as_seq() else {
            return self.wrong_type(evals, "evals", "an array");
        };
        let named = match root.get("skill_name") {
            Some(node) => match node.as_str() {
                Some(name) => self.known_skill(name, node.span.clone()),
                None => {
                    self.wrong_type(node, "skill_name", "a skill's name");
                    None
                }
            },
            None => self.own_skill(root.span.clone(), "the spec's"),
        };
        let Some(skill) = named else { return };
        for (n, item) in items.iter().enumerate() {
            let query = self.text(item, &["prompt"]);
            let expected = if item.get("expected_skill").is_some() {
                self.expected_skill(item)
            } else {
                Some(one_skill(&skill, true))
            };
            let trigger = match item.get("should_trigger") {
                Some(_) => self.flag(item, "should_trigger"),
                None => Some(true),
            };
            for key in ["assertions", "expectations", "files"] {
                if let Some(node) = item.get(key)
                    && node.as_seq().is_none()
                {
                    self.wrong_type(node, key, "an array");
                }
            }
            let id = self
                .id(item)
                .unwrap_or_else(|| format!("{skill}#{}", n + 1));
            if let (Some(query), Some(expected), Some(trigger)) = (query, expected, trigger) {
                let expected = match (trigger, expected) {
                    (false, Expected::Skill { name, .. }) | (false, Expected::NotSkill(name)) => {
                        Expected::NotSkill(name)
                    }
                    (false, Expected::Nothing { .. }) => Expected::NotSkill(skill.clone()),
                    (true, expected) => expected,
                };
                self.push(item.span.clone(), id, query, expected);
            }
        }
    }

    /// skill-reach's set-level cases, or aigent's one-skill `queries`.
    fn queries(&mut self, queries: &Node) {
        let Some(items) = queries.as_seq() else {
            return self.wrong_type(queries, "queries", "an array");
        };
        let aigent = items.iter().any(|item| item.get("input").is_some());
        let skill = if aigent {
            match items.first() {
                Some(first) => self.own_skill(first.span.clone(), "aigent's"),
                None => None,
            }
        } else {
            None
        };
        for (n, item) in items.iter().enumerate() {
            if let Some(skill) = &skill {
                let query = self.text(item, &["input"]);
                let trigger = self.flag(item, "should_match");
                self.without_effect(item, "min_score", "aigent's per-case score");
                if let (Some(query), Some(trigger)) = (query, trigger) {
                    let id = self
                        .id(item)
                        .unwrap_or_else(|| format!("{skill}#{}", n + 1));
                    self.push(item.span.clone(), id, query, one_skill(skill, trigger));
                }
                continue;
            }
            let query = self.text(item, &["text", "query"]);
            let expected = self.expected_skill(item);
            let id = self.id(item).unwrap_or_else(|| format!("#{}", n + 1));
            if let (Some(query), Some(expected)) = (query, expected) {
                self.push(item.span.clone(), id, query, expected);
            }
        }
    }

    fn waza(&mut self, root: &Node) {
        let Some(skill) = self.own_skill(root.span.clone(), "waza's") else {
            return;
        };
        let mut n = 0;
        for (key, trigger) in [
            ("should_trigger_prompts", true),
            ("should_not_trigger_prompts", false),
        ] {
            let Some(list) = root.get(key) else { continue };
            let Some(items) = list.as_seq() else {
                self.wrong_type(list, key, "an array");
                continue;
            };
            for item in items {
                n += 1;
                let query = match &item.value {
                    Value::String(text) => Some(text.clone()),
                    _ => self.text(item, &["prompt"]),
                };
                self.without_effect(item, "confidence", "waza's expected confidence");
                if let Some(query) = query {
                    let at = item.span.clone();
                    self.push(
                        at,
                        format!("{skill}#{n}"),
                        query,
                        one_skill(&skill, trigger),
                    );
                }
            }
        }
    }

    /// OpenAI's `id,should_trigger,prompt`, with a header line.
    fn csv(&mut self) {
        let Some(skill) = self.own_skill(0..0, "CSV") else {
            return;
        };
        let text = self.source.text();
        let rows = csv_rows(text);
        let Some((header_at, header)) = rows.first() else {
            return self.problem(0..0, "the file holds no cases".to_owned());
        };
        // Excel writes a byte order mark before the first cell.
        let column = |name: &str| {
            header
                .iter()
                .position(|cell| cell.0.trim_start_matches('\u{feff}').trim() == name)
        };
        let (Some(id), Some(trigger), Some(prompt)) =
            (column("id"), column("should_trigger"), column("prompt"))
        else {
            // Not a case file at all: its first line is not quoted.
            self.recognised = false;
            return self.problem(
                header_at.clone(),
                "the header must name the columns `id`, `should_trigger` and `prompt`".to_owned(),
            );
        };
        for (at, row) in rows.iter().skip(1) {
            let cell = |i: usize| row.get(i).map(|cell| cell.0.as_str());
            let flag = match cell(trigger).map(str::trim) {
                Some("true" | "TRUE" | "True" | "1" | "yes") => Some(true),
                Some("false" | "FALSE" | "False" | "0" | "no") => Some(false),
                _ => None,
            };
            match (cell(id), flag, cell(prompt)) {
                (Some(id), Some(flag), Some(prompt)) if !prompt.trim().is_empty() => {
                    self.push(
                        at.clone(),
                        id.trim().to_owned(),
                        prompt.to_owned(),
                        one_skill(&skill, flag),
                    );
                }
                _ => self.problem(
                    at.clone(),
                    "a row needs an id, `should_trigger` true or false, and a prompt".to_owned(),
                ),
            }
        }
    }

    fn push(&mut self, at: Range<usize>, id: String, query: String, expected: Expected) {
        self.spans.push(at.clone());
        self.cases.push(Case {
            id,
            query,
            expected,
            file: self.source.path().to_owned(),
            span: Some(at),
        });
    }

    /// A non-empty string under the first of `keys` that `item` has.
    fn text(&mut self, item: &Node, keys: &[&str]) -> Option<String> {
        if item.as_map().is_none() {
            let found = item.type_name();
            self.problem(
                item.span.clone(),
                format!("a case must be a mapping, found {found}"),
            );
            return None;
        }
        let Some(node) = keys.iter().find_map(|key| item.get(key)) else {
            self.problem(item.span.clone(), format!("this case has no `{}`", keys[0]));
            return None;
        };
        match node.as_str() {
            Some(text) if !text.trim().is_empty() => Some(text.to_owned()),
            Some(_) => {
                self.problem(node.span.clone(), "the query is empty".to_owned());
                None
            }
            None => {
                self.wrong_type(node, keys[0], "a string");
                None
            }
        }
    }

    fn flag(&mut self, item: &Node, key: &str) -> Option<bool> {
        // Not a mapping: `text` said so.
        item.as_map()?;
        let Some(node) = item.get(key) else {
            self.problem(item.span.clone(), format!("this case has no `{key}`"));
            return None;
        };
        match node.value {
            Value::Bool(flag) => Some(flag),
            _ => {
                self.wrong_type(node, key, "true or false");
                None
            }
        }
    }

    fn id(&mut self, item: &Node) -> Option<String> {
        let node = item.get("id")?;
        match &node.value {
            Value::String(id) => Some(id.clone()),
            Value::Int(id) => Some(id.to_string()),
            _ => {
                self.wrong_type(node, "id", "a string");
                None
            }
        }
    }

    /// skill-reach's `expected_skill` (a name or null) and `acceptable_skills`.
    fn expected_skill(&mut self, item: &Node) -> Option<Expected> {
        let Some(node) = item.get("expected_skill") else {
            self.problem(
                item.span.clone(),
                "this case has no `expected_skill` (a skill's name, or null for \"no skill\")"
                    .to_owned(),
            );
            return None;
        };
        let name = match &node.value {
            Value::Null => None,
            Value::String(name) => Some(self.known_skill(name, node.span.clone())?),
            _ => {
                self.wrong_type(node, "expected_skill", "a skill's name or null");
                return None;
            }
        };
        let mut acceptable = Vec::new();
        if let Some(list) = item.get("acceptable_skills") {
            match list.as_seq() {
                Some(items) => {
                    for other in items {
                        match other.as_str() {
                            Some(other) => {
                                acceptable.extend(self.known_skill(other, other_span(items, other)))
                            }
                            None => self.problem(
                                other.span.clone(),
                                "`acceptable_skills` holds skills' names".to_owned(),
                            ),
                        }
                    }
                }
                None => self.problem(
                    list.span.clone(),
                    "`acceptable_skills` must be an array of skills' names".to_owned(),
                ),
            }
        }
        Some(match name {
            Some(name) => Expected::Skill { name, acceptable },
            None => Expected::Nothing { acceptable },
        })
    }

    /// `name`, when the set has it; else a problem with the closest name.
    fn known_skill(&mut self, name: &str, at: Range<usize>) -> Option<String> {
        if self.known.contains(&name) {
            return Some(name.to_owned());
        }
        if !self.room() {
            return None;
        }
        let printable = skills_core::printable(name);
        let mut diagnostic = Diagnostic::at(
            Code::UnknownCaseSkill,
            self.source,
            at,
            format!("no skill of the set is named `{printable}`"),
        );
        diagnostic = match skills_core::closest(name, self.known.iter().copied()) {
            Some(near) => diagnostic.with_help(format!("did you mean `{near}`?")),
            None => diagnostic.with_help(
                "name a skill the set has (`cargo skills list`), or null for a case no skill is for",
            ),
        };
        self.problems.push(diagnostic);
        None
    }

    /// Two cases with one id: the second is located, the first labelled.
    fn duplicate_ids(&mut self) {
        let mut seen: std::collections::HashMap<&str, usize> = Default::default();
        for (at, case) in self.cases.iter().enumerate() {
            let Some(first) = seen.insert(case.id.as_str(), at) else {
                continue;
            };
            if self.problems.len() >= MAX_PROBLEMS_PER_FILE {
                self.left_out += 1;
                continue;
            }
            let id = skills_core::printable(&case.id);
            self.problems.push(
                Diagnostic::at(
                    Code::DuplicateCaseId,
                    self.source,
                    self.spans[at].clone(),
                    format!("two cases have the id `{id}`"),
                )
                .with_label(self.source, self.spans[first].clone(), "the first")
                .with_help("give each case its own id: reports are keyed by it"),
            );
        }
    }
}

/// The span of `name` among `items` (the node whose text it is).
fn other_span(items: &[Node], name: &str) -> Range<usize> {
    items
        .iter()
        .find(|item| item.as_str() == Some(name))
        .map_or(0..0, |item| item.span.clone())
}

/// Whether an array's item is a publisher's case (`question`,
/// `expected_skill`) rather than skill-creator's (`query`, `should_trigger`).
fn is_publisher_case(item: &Node) -> bool {
    item.get("question").is_some() || item.get("expected_skill").is_some()
}

/// A publisher's case with its `should_trigger`: `false` beside a skill
/// means anything but it; beside null, none (as `true` would).
fn negated(expected: Expected, trigger: bool) -> Expected {
    match (trigger, expected) {
        (false, Expected::Skill { name, .. }) => Expected::NotSkill(name),
        (_, expected) => expected,
    }
}

/// A one-skill format's case: this skill, or anything but it.
fn one_skill(skill: &str, trigger: bool) -> Expected {
    if trigger {
        Expected::Skill {
            name: skill.to_owned(),
            acceptable: Vec::new(),
        }
    } else {
        Expected::NotSkill(skill.to_owned())
    }
}

/// A cell's text and its bytes in the file.
type Cell = (String, Range<usize>);

/// RFC 4180 rows (quoted cells, doubled quotes, line breaks in quotes),
/// each with its bytes; blank lines skipped.
fn csv_rows(text: &str) -> Vec<(Range<usize>, Vec<Cell>)> {
    let mut rows = Vec::new();
    let mut row: Vec<Cell> = Vec::new();
    let mut cell = String::new();
    let mut cell_start = 0;
    let mut row_start = 0;
    let mut quoted = false;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek().is_some_and(|(_, next)| *next == '"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => {
                row.push((std::mem::take(&mut cell), cell_start..at));
                cell_start = at + 1;
            }
            (false, '\n') => {
                let end = if text[..at].ends_with('\r') {
                    at - 1
                } else {
                    at
                };
                let trimmed = cell.strip_suffix('\r').map(str::to_owned);
                row.push((
                    trimmed.unwrap_or(std::mem::take(&mut cell)),
                    cell_start..end,
                ));
                cell.clear();
                if row.len() > 1 || !row[0].0.is_empty() {
                    rows.push((row_start..end, std::mem::take(&mut row)));
                }
                row.clear();
                row_start = at + 1;
                cell_start = at + 1;
            }
            (false, c) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push((cell, cell_start..text.len()));
        rows.push((row_start..text.len(), row));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_keep_quotes_commas_and_line_breaks() {
        let rows = csv_rows(
            "id,should_trigger,prompt\r\n1,true,\"fill a \"\"PDF\"\", now\"\n\n2,false,\"two\nlines\"\n",
        );
        let cells: Vec<Vec<&str>> = rows
            .iter()
            .map(|(_, row)| row.iter().map(|c| c.0.as_str()).collect())
            .collect();
        assert_eq!(
            cells,
            [
                vec!["id", "should_trigger", "prompt"],
                vec!["1", "true", "fill a \"PDF\", now"],
                vec!["2", "false", "two\nlines"],
            ]
        );
    }
}
