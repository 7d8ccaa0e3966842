//! `skills-lock.json` itself: read with every key kept, written as Vercel's
//! CLI writes it (skills sorted, `JSON.stringify(lock, null, 2)` and a
//! newline), so that a lock either tool wrote reads and rewrites byte for byte.

use crate::diagnostics::{Code, Diagnostic};
use crate::lock::json::{self, Json, Object};

/// The lock's file name, beside the package's `Cargo.toml` (Vercel's CLI
/// keeps it in the project's root).
pub const LOCK_FILE: &str = "skills-lock.json";

/// The lock format's version; another is refused, never rewritten.
pub(crate) const VERSION: u64 = 1;

/// A lock with more entries is refused: every entry is a folder of one
/// skills root, and a root holds far fewer skills (`max_skills`).
pub(crate) const MAX_ENTRIES: usize = 10_000;

/// Why `name` cannot name a skill's folder in the root, or `None` when it
/// can. A lock entry, `cargo skills remove NAME` and a skill offered by a
/// source all name one folder: never a path (which would let a committed
/// lock or a typed argument reach outside the root, or be the root), and
/// never a hidden one (which discovery skips).
pub(crate) fn folder_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("it is empty")
    } else if name == "." || name == ".." {
        Some("it names a folder itself or its parent")
    } else if name.contains(['/', '\\']) {
        Some("it holds a path separator")
    } else if name.starts_with('.') {
        Some("it starts with `.` (a hidden folder)")
    } else if name.chars().any(char::is_control) {
        Some("it holds a control character")
    } else {
        None
    }
}

/// Why a lock's `commit` is not a commit id, or `None` when it is one: a
/// full hex object id (40 digits, SHA-1; 64, SHA-256). A branch or a tag
/// names whatever it points at when fetched, and a lock that records one
/// would restore other bytes later while it says the same commit.
fn commit_problem(commit: &Json) -> Option<String> {
    let Json::String(id) = commit else {
        return Some("is not a string".to_owned());
    };
    let hex = id.bytes().all(|b| b.is_ascii_hexdigit());
    if hex && matches!(id.len(), 40 | 64) {
        return None;
    }
    let shown = skills_core::printable(id);
    Some(format!(
        "is `{shown}`, not a full commit id (40 or 64 hex digits)"
    ))
}

/// A lock file: its skills, and any other top-level member as read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LockFile {
    skills: Object,
    others: Object,
}

/// The member of an entry that an edited vendored skill's origin is kept
/// in, once it is recorded as a local copy.
const VENDORED_FROM: &str = "vendoredFrom";

/// One skill's entry, every member kept (other tools' keys among them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry(Object);

/// Where a locked skill came from, as the lock's `sourceType` says.
pub(crate) mod source_type {
    /// A git repository (any URL).
    pub(crate) const GIT: &str = "git";
    /// A GitHub `owner/repo`.
    pub(crate) const GITHUB: &str = "github";
    /// A path on this machine, or a skill copied by hand (`cargo skills lock`).
    pub(crate) const LOCAL: &str = "local";
}

impl Entry {
    /// The entry Vercel's CLI writes for a project install, in its order
    /// (`source`, `sourceUrl`, `ref`, `sourceType`, `skillPath`,
    /// `computedHash`; absent ones left out), then ours: `commit` and
    /// `files`, which that CLI ignores.
    pub fn new(fields: EntryFields) -> Entry {
        let mut object = Object::new();
        let text = |s: &str| Json::String(s.to_owned());
        object.insert("source", text(&fields.source));
        if let Some(url) = &fields.source_url {
            object.insert("sourceUrl", text(url));
        }
        if let Some(reference) = &fields.reference {
            object.insert("ref", text(reference));
        }
        object.insert("sourceType", text(&fields.source_type));
        if let Some(path) = &fields.skill_path {
            object.insert("skillPath", text(path));
        }
        object.insert("computedHash", text(&fields.computed_hash));
        if let Some(commit) = &fields.commit {
            object.insert("commit", text(commit));
        }
        object.insert(
            "files",
            Json::Array(fields.files.into_iter().map(Json::String).collect()),
        );
        Entry(object)
    }

    /// This entry with `fresh`'s members set over it: keys only another tool
    /// wrote stay where they were.
    pub fn updated_with(mut self, fresh: Entry) -> Entry {
        for key in ["sourceUrl", "ref", "skillPath", "commit", "signer"] {
            if fresh.0.get(key).is_none() {
                self.0.remove(key);
            }
        }
        for (key, value) in fresh.0.iter() {
            self.0.insert(key, value.clone());
        }
        Entry(self.0)
    }

    /// `source`: where the skill came from (`owner/repo`, a URL, a path).
    pub fn source(&self) -> Option<&str> {
        self.0.str("source")
    }
    /// `sourceUrl`: the URL it was fetched from.
    pub fn source_url(&self) -> Option<&str> {
        self.0.str("sourceUrl")
    }
    /// `ref`: the branch, tag or commit asked for.
    pub fn reference(&self) -> Option<&str> {
        self.0.str("ref")
    }
    /// `sourceType`: `github`, `git` or `local`.
    pub fn source_type(&self) -> Option<&str> {
        self.0.str("sourceType")
    }
    /// `skillPath`: the skill's folder in the source.
    pub fn skill_path(&self) -> Option<&str> {
        self.0.str("skillPath")
    }
    /// `computedHash`: the folder's hash, as Vercel's CLI computes it.
    pub fn computed_hash(&self) -> Option<&str> {
        self.0.str("computedHash")
    }
    /// `commit`: the commit it was fetched at.
    pub fn commit(&self) -> Option<&str> {
        self.0.str("commit")
    }

    /// `signer`: who signed the skill when it was locked (the signing
    /// certificate's subject, and the SHA-256 fingerprint of the trust
    /// anchor its chain reached), when it was signed and verified then.
    pub fn signer(&self) -> Option<(&str, &str)> {
        match self.0.get("signer")? {
            Json::Object(signer) => Some((signer.str("subject")?, signer.str("anchor")?)),
            _ => None,
        }
    }

    /// This entry with `signer` recorded (`subject`, `anchor`), or none.
    pub fn with_signer(mut self, signer: Option<(&str, &str)>) -> Entry {
        match signer {
            Some((subject, anchor)) => {
                let mut object = Object::new();
                object.insert("subject", Json::String(subject.to_owned()));
                object.insert("anchor", Json::String(anchor.to_owned()));
                self.0.insert("signer", Json::Object(object));
            }
            None => {
                self.0.remove("signer");
            }
        }
        self
    }

    /// This entry as a local copy of the package at `source` (the skill's
    /// own folder) with `fresh`'s hash and files: no URL, ref, skill path,
    /// commit or signer, since no source produces these bytes; where it
    /// came from is kept under `vendoredFrom` (its source, URL, ref, type,
    /// path and commit), which no tool reads to fetch.
    pub fn into_local_copy(self, source: &str, fresh: Entry) -> Entry {
        let mut from = Object::new();
        for key in [
            "source",
            "sourceUrl",
            "ref",
            "sourceType",
            "skillPath",
            "commit",
        ] {
            if let Some(value) = self.0.get(key) {
                from.insert(key, value.clone());
            }
        }
        let mut entry = self.updated_with(fresh).with_signer(None);
        entry.0.insert("source", Json::String(source.to_owned()));
        entry
            .0
            .insert("sourceType", Json::String(source_type::LOCAL.to_owned()));
        // A copy edited twice keeps the first origin.
        if entry.0.get(VENDORED_FROM).is_none() {
            entry.0.insert(VENDORED_FROM, Json::Object(from));
        }
        entry
    }

    /// Where a local copy came from (`vendoredFrom`'s `source`), when it
    /// was vendored and then edited.
    pub fn vendored_from(&self) -> Option<&str> {
        match self.0.get(VENDORED_FROM)? {
            Json::Object(from) => from.str("source"),
            _ => None,
        }
    }

    /// Our per-file lines, when this entry has them (Vercel's CLI writes
    /// entries without).
    pub fn files(&self) -> Option<Vec<&str>> {
        match self.0.get("files")? {
            Json::Array(items) => items
                .iter()
                .map(|item| match item {
                    Json::String(line) => Some(line.as_str()),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }
}

/// What a new entry says.
#[derive(Debug, Clone, Default)]
pub struct EntryFields {
    /// `source`.
    pub source: String,
    /// `sourceUrl`.
    pub source_url: Option<String>,
    /// `ref`.
    pub reference: Option<String>,
    /// `sourceType`.
    pub source_type: String,
    /// `skillPath`.
    pub skill_path: Option<String>,
    /// `computedHash`.
    pub computed_hash: String,
    /// `commit`.
    pub commit: Option<String>,
    /// Our per-file lines (`path mode sha256`), sorted.
    pub files: Vec<String>,
}

impl LockFile {
    /// Reads a lock's text; `file` is its path as diagnostics show it.
    pub fn parse(text: &str, file: &str) -> Result<LockFile, Diagnostic> {
        let refuse = |message: String| {
            Diagnostic::error(Code::LockFile, file, message).with_help(
                "fix the file by hand, or delete it and run `cargo skills lock` to write it again",
            )
        };
        let value = json::parse(text).map_err(|error| {
            refuse(format!(
                "`{file}` is not JSON: {error} (line {}, column {})",
                error.line(),
                error.column()
            ))
        })?;
        let Json::Object(top) = value else {
            return Err(refuse(format!("`{file}` is not a JSON object")));
        };
        match top.get("version") {
            Some(Json::Number(n)) if n.as_u64() == Some(VERSION) => {}
            Some(other) => {
                return Err(refuse(format!(
                    "`{file}` has version {}; this tool reads version {VERSION}",
                    json::to_text(other).trim_end()
                )));
            }
            None => return Err(refuse(format!("`{file}` has no `version`"))),
        }
        let Some(Json::Object(skills)) = top.get("skills") else {
            return Err(refuse(format!("`{file}` has no `skills` object")));
        };
        if skills.len() > MAX_ENTRIES {
            return Err(refuse(format!(
                "`{file}` has {} entries; a lock holds at most {MAX_ENTRIES}",
                skills.len()
            )));
        }
        for (name, value) in skills.iter() {
            if let Some(why) = folder_name_problem(name) {
                return Err(Diagnostic::error(
                    Code::LockFile,
                    file,
                    format!(
                        "the entry `{name}` of `{file}` is not a skill's folder name: {why}"
                    ),
                )
                .with_help(
                    "an entry is named by one folder of the skills root (`pdf`, not `../pdf` or `a/b`); fix or remove the entry by hand",
                ));
            }
            let Json::Object(entry) = value else {
                return Err(refuse(format!(
                    "the entry `{name}` of `{file}` is not an object"
                )));
            };
            if let Some(commit) = entry.get("commit")
                && let Some(why) = commit_problem(commit)
            {
                return Err(Diagnostic::error(
                    Code::LockFile,
                    file,
                    format!("the entry `{name}` of `{file}` has a `commit` that {why}"),
                )
                .with_help(
                    "`commit` is the full object id a skill was fetched at (40 hex digits, or 64 in a SHA-256 repository), never a branch or tag, which move: run `cargo skills update NAME` to record it, or put the branch in `ref`",
                ));
            }
        }
        let skills = skills.clone();
        let mut others = top;
        others.remove("version");
        others.remove("skills");
        Ok(LockFile { skills, others })
    }

    /// Every entry, in the file's order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, Entry)> {
        self.skills.iter().filter_map(|(name, value)| match value {
            Json::Object(object) => Some((name, Entry(object.clone()))),
            _ => None,
        })
    }

    /// The entry of the skill `name`.
    pub fn get(&self, name: &str) -> Option<Entry> {
        match self.skills.get(name)? {
            Json::Object(object) => Some(Entry(object.clone())),
            _ => None,
        }
    }

    /// Sets `name`'s entry.
    pub fn insert(&mut self, name: &str, entry: Entry) {
        self.skills.insert(name, Json::Object(entry.0));
    }

    /// Removes `name`'s entry; whether there was one.
    pub fn remove(&mut self, name: &str) -> bool {
        self.skills.remove(name).is_some()
    }

    /// The text Vercel's CLI would write: `version`, then `skills` sorted
    /// as JavaScript sorts keys, each entry's members in their order; any
    /// other top-level member of the file after them, as it was.
    pub fn to_text(&self) -> String {
        let mut top = Object::new();
        top.insert("version", Json::Number(VERSION.into()));
        top.insert(
            "skills",
            Json::Object(self.skills.clone().sorted_as_javascript()),
        );
        for (key, value) in self.others.iter() {
            top.insert(key, value.clone());
        }
        json::to_text(&Json::Object(top))
    }
}
