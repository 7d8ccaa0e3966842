//! Skills from an MCP server, checked as SEP-2640 asks of a host (feature
//! `client`).
//!
//! [`Remote::load`] lists the server's skills (`skills/list`), reads each
//! file of each skill (`resources/read`) and refuses anything the listing
//! did not promise:
//!
//! - an entry that breaks the SEP's structure (rmcp's `validate_skills`),
//!   or has no manifest of digests (`"dynamic"`);
//! - more files or bytes than a skill may have (512 and 16 MiB by default,
//!   the loader's bounds), more skills or bytes than a set may have (64 and
//!   128 MiB), or a listing past 100 pages, judged from the listing's
//!   declared sizes before anything is read;
//! - a request with no answer within 30 s ([`Remote::request_timeout`]):
//!   the transport drops a reply over 16 MiB or one that is not JSON, and
//!   such a request would otherwise wait forever;
//! - a file whose bytes do not match its `sha256:` digest or declared size;
//! - a `SKILL.md` whose frontmatter differs, field by field, from the
//!   entry's `frontmatter`.
//!
//! The verified files are written under `cache/<label>/<name>/`, the label
//! being the host's name for the server (never the server's own
//! `serverInfo.name`), and loaded from there by the same compiler as local
//! skills, with the profile the host chooses. Every problem of every skill
//! is collected before the load fails.
//!
//! What comes back is marked as the server's: [`RemoteSkills::label`] names
//! the origin (add the set to [`skills::Layers`] under it, so a server's
//! `pdf` never silently hides a local `pdf`), `allowed-tools` is cleared
//! (a server cannot pre-approve tools), [`RemoteSkills::names`] is what to
//! pass to `Scripts::remote` (scripts never run), and each skill's
//! [`Binding`] is the `{uri, digest}` set an approval binds to: any change
//! on the server gives another binding, which revokes the approval.
//!
//! Reading every file at load time is the host's explicit choice here (a
//! check, an install); SEP-2640's lazy retrieval applies to hosts that
//! keep the connection and read on demand.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{
    ReadResourceRequestParams, ResourceContents, Skill as Entry, SkillResource, SkillResources,
};
use rmcp::service::{Peer, ServiceError};
use skills::SkillSet;
use skills::loader::{LoadError, Loader, Profile};

/// The most files a served skill may list (the loader's bound).
pub const MAX_FILES: usize = skills::loader::DEFAULT_MAX_FILES;
/// The most bytes a served skill's files may declare together.
pub const MAX_SKILL_BYTES: u64 = skills::loader::DEFAULT_MAX_SKILL_BYTES;
/// The most skills a server may list (the loader's `max_skills`).
pub const MAX_SKILLS: usize = skills::loader::DEFAULT_MAX_SKILLS;
/// The most bytes all listed skills may declare together (the loader's
/// `max_set_bytes`).
pub const MAX_SET_BYTES: u64 = skills::loader::DEFAULT_MAX_SET_BYTES;
/// The most pages of `skills/list` read: a server whose `nextCursor` never
/// ends would otherwise be listed without end.
pub const MAX_PAGES: usize = 100;
/// How long one request may wait for its answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// How to load the skills of one server.
#[derive(Debug, Clone)]
pub struct Remote {
    label: String,
    loader: Loader,
    max_files: usize,
    max_skill_bytes: u64,
    max_skills: usize,
    max_set_bytes: u64,
    max_pages: usize,
    request_timeout: Duration,
}

impl Remote {
    /// Skills of the server the host calls `label` (`[a-z0-9._-]`, the
    /// name of its folder in the cache): checked with the `portable`
    /// profile, within [`MAX_FILES`] and [`MAX_SKILL_BYTES`].
    pub fn new(label: impl Into<String>) -> Remote {
        Remote {
            label: label.into(),
            loader: Loader::new().profile(Profile::Portable),
            max_files: MAX_FILES,
            max_skill_bytes: MAX_SKILL_BYTES,
            max_skills: MAX_SKILLS,
            max_set_bytes: MAX_SET_BYTES,
            max_pages: MAX_PAGES,
            request_timeout: REQUEST_TIMEOUT,
        }
    }

    /// The most skills the server may list ([`MAX_SKILLS`] by default).
    pub fn max_skills(mut self, max: usize) -> Remote {
        self.max_skills = max;
        self
    }

    /// The most bytes all listed skills may declare together
    /// ([`MAX_SET_BYTES`] by default); judged before anything is read.
    pub fn max_set_bytes(mut self, max: u64) -> Remote {
        self.max_set_bytes = max;
        self
    }

    /// How long one request may wait for its answer ([`REQUEST_TIMEOUT`]
    /// by default). A reply the transport dropped (a line over 16 MiB, one
    /// that is not JSON) is a request that times out.
    pub fn request_timeout(mut self, timeout: Duration) -> Remote {
        self.request_timeout = timeout;
        self
    }

    /// The host's name for the server.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The rules the skills are checked by (default `portable`: a server
    /// is held to the format everyone reads).
    pub fn profile(mut self, profile: Profile) -> Remote {
        self.loader = self.loader.profile(profile);
        self
    }

    /// The loader that checks and loads the verified files: its profile,
    /// limits and overrides are the host's, as for local skills.
    pub fn loader(mut self, loader: Loader) -> Remote {
        self.loader = loader;
        self
    }

    /// The most bytes one skill's files may declare together.
    pub fn max_skill_bytes(mut self, max: u64) -> Remote {
        self.max_skill_bytes = max;
        self
    }

    /// Lists, reads, verifies and loads the skills `peer` serves, writing
    /// the verified files under `cache/<label>/` (replaced whole).
    pub async fn load(
        &self,
        peer: &Peer<RoleClient>,
        cache: &Path,
    ) -> Result<RemoteSkills, RemoteError> {
        if !is_label(&self.label) {
            return Err(RemoteError::Label(self.label.clone()));
        }
        let entries = self.list(peer).await?;
        if entries.is_empty() {
            return Err(RemoteError::NoSkills);
        }
        self.within_set_limits(&entries)?;
        let mut failures = Vec::new();
        if let Err(error) = rmcp::model::validate_skills(&entries) {
            failures.push(Failure::new(
                &self.label,
                Problem::Structure(error.to_string()),
            ));
        }
        let mut fetched = Vec::new();
        let mut names: BTreeMap<&str, &str> = BTreeMap::new();
        for entry in &entries {
            if let Some(first) = names.insert(entry.name(), &entry.uri) {
                failures.push(Failure::new(
                    &entry.uri,
                    Problem::NameTaken(first.to_owned()),
                ));
                continue;
            }
            match self.fetch(peer, entry).await {
                Ok(files) => fetched.push(Fetched { entry, files }),
                Err(mut found) => failures.append(&mut found),
            }
        }
        failures.extend(nested_as_in_parent(&fetched));
        if !failures.is_empty() {
            return Err(RemoteError::Verification(failures));
        }
        let root = cache.join(&self.label);
        let previous = swap_in(&root, &fetched).map_err(RemoteError::Io)?;
        let checked = self.check(&root, &fetched);
        // A refused load puts back what the cache held before.
        let restored = match (&checked, &previous) {
            (Ok(_), Some(previous)) => std::fs::remove_dir_all(previous),
            (Ok(_), None) => Ok(()),
            (Err(_), Some(previous)) => {
                std::fs::remove_dir_all(&root).and_then(|()| std::fs::rename(previous, &root))
            }
            (Err(_), None) => std::fs::remove_dir_all(&root),
        };
        let set = checked?;
        restored.map_err(RemoteError::Io)?;
        let bindings = fetched
            .iter()
            .filter_map(|Fetched { entry, .. }| {
                Some((entry.name().to_owned(), Binding::of(entry)?))
            })
            .collect();
        Ok(RemoteSkills {
            label: self.label.clone(),
            set: without_allowed_tools(set),
            bindings,
            root,
        })
    }

    /// Every page of `skills/list`, within [`MAX_PAGES`] and the skills
    /// limit (judged as pages come, so an endless listing stops early),
    /// each page within the request timeout.
    async fn list(&self, peer: &Peer<RoleClient>) -> Result<Vec<Entry>, RemoteError> {
        let mut entries = Vec::new();
        let mut cursor: Option<String> = None;
        let mut cursors = std::collections::HashSet::new();
        for _ in 0..self.max_pages {
            let params = rmcp::model::PaginatedRequestParams::default().with_cursor(cursor.take());
            let page = self
                .timed("skills/list", peer.list_skills(Some(params)))
                .await?
                .map_err(RemoteError::Protocol)?;
            entries.extend(page.skills);
            if entries.len() > self.max_skills {
                return Err(RemoteError::Limit(format!(
                    "the server lists more than {} skills (`max_skills`): nothing was read",
                    self.max_skills
                )));
            }
            match page.next_cursor {
                None => return Ok(entries),
                Some(next) if !cursors.insert(next.clone()) => {
                    return Err(RemoteError::Limit(format!(
                        "the server's listing gives the cursor `{next}` twice: it would never end"
                    )));
                }
                Some(next) => cursor = Some(next),
            }
        }
        Err(RemoteError::Limit(format!(
            "the server's listing goes on past {} pages: nothing was read",
            self.max_pages
        )))
    }

    /// The whole listing's declared bytes against the set's limit, before
    /// any file is read: each skill within its own limit could still add
    /// up to gigabytes.
    fn within_set_limits(&self, entries: &[Entry]) -> Result<(), RemoteError> {
        let declared: u64 = entries
            .iter()
            .filter_map(|entry| match &entry.resources {
                SkillResources::Files(manifest) => Some(manifest),
                _ => None,
            })
            .flatten()
            .map(|file| file.size)
            .fold(0, u64::saturating_add);
        if declared > self.max_set_bytes {
            return Err(RemoteError::Limit(format!(
                "the listed skills declare {declared} bytes together, more than {} (`max_set_bytes`): nothing was read",
                self.max_set_bytes
            )));
        }
        Ok(())
    }

    /// `request`, or [`RemoteError::TimedOut`] once the request timeout
    /// has passed. Also bounds the `initialize` handshake (`stdio`): a
    /// server that never answers it is given up as any request is.
    pub(crate) async fn timed<T>(
        &self,
        what: &str,
        request: impl Future<Output = T>,
    ) -> Result<T, RemoteError> {
        tokio::time::timeout(self.request_timeout, request)
            .await
            .map_err(|_| RemoteError::TimedOut {
                what: what.to_owned(),
                after: self.request_timeout,
            })
    }

    /// Loads what was written at `root` with the compiler and compares
    /// each `SKILL.md`'s frontmatter with its entry's.
    fn check(&self, root: &Path, fetched: &[Fetched<'_>]) -> Result<SkillSet, RemoteError> {
        let set = self
            .loader
            .load(root)
            .map_err(|error| RemoteError::Invalid(Box::new(error)))?
            .into_set();
        let mut failures = Vec::new();
        for Fetched { entry, .. } in fetched {
            match set.get(entry.name()) {
                Some(skill) => {
                    if let Some(field) = frontmatter_differs(entry, &skill.frontmatter_json()) {
                        failures.push(Failure::new(&entry.uri, Problem::Frontmatter(field)));
                    }
                }
                None => failures.push(Failure::new(&entry.uri, Problem::NotLoaded)),
            }
        }
        if failures.is_empty() {
            Ok(set)
        } else {
            Err(RemoteError::Verification(failures))
        }
    }

    /// Every file of one entry, read and verified against the manifest.
    async fn fetch(
        &self,
        peer: &Peer<RoleClient>,
        entry: &Entry,
    ) -> Result<Vec<(String, Vec<u8>)>, Vec<Failure>> {
        let SkillResources::Files(manifest) = &entry.resources else {
            return Err(vec![Failure::new(&entry.uri, Problem::NoManifest)]);
        };
        let declared: u64 = manifest
            .iter()
            .map(|file| file.size)
            .fold(0, u64::saturating_add);
        if manifest.len() > self.max_files {
            let problem = Problem::TooManyFiles {
                files: manifest.len(),
                max: self.max_files,
            };
            return Err(vec![Failure::new(&entry.uri, problem)]);
        }
        if declared > self.max_skill_bytes {
            let problem = Problem::TooLarge {
                bytes: declared,
                max: self.max_skill_bytes,
            };
            return Err(vec![Failure::new(&entry.uri, problem)]);
        }
        let Some(root) = entry.uri.strip_suffix(skills::Skill::FILE) else {
            return Err(vec![Failure::new(&entry.uri, Problem::NotInSkill)]);
        };
        let mut files = Vec::with_capacity(manifest.len());
        let mut failures = Vec::new();
        for file in manifest {
            let Some(path) = relative_path(root, &file.uri) else {
                failures.push(Failure::new(&file.uri, Problem::NotInSkill));
                continue;
            };
            let read = tokio::time::timeout(self.request_timeout, read_verified(peer, file)).await;
            match read {
                Ok(Ok(bytes)) => files.push((path, bytes)),
                Ok(Err(problem)) => failures.push(Failure::new(&file.uri, problem)),
                Err(_) => failures.push(Failure::new(
                    &file.uri,
                    Problem::Unreadable(format!(
                        "no answer within {} s (a reply over 16 MiB or one that is not JSON is dropped by the transport)",
                        self.request_timeout.as_secs_f64()
                    )),
                )),
            }
        }
        if failures.is_empty() {
            Ok(files)
        } else {
            Err(failures)
        }
    }
}

/// One entry's files, read and verified: each path in the skill, and its bytes.
struct Fetched<'a> {
    entry: &'a Entry,
    files: Vec<(String, Vec<u8>)>,
}

/// One file's bytes, when they are what the manifest says.
async fn read_verified(peer: &Peer<RoleClient>, file: &SkillResource) -> Result<Vec<u8>, Problem> {
    let read = peer
        .read_resource(ReadResourceRequestParams::new(file.uri.clone()))
        .await
        .map_err(|error| Problem::Unreadable(error.to_string()))?;
    let bytes = match read.contents.as_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => text.clone().into_bytes(),
        [ResourceContents::BlobResourceContents { blob, .. }] => {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(blob)
                .map_err(|error| {
                    Problem::Unreadable(format!("a blob that is not base64: {error}"))
                })?
        }
        contents => {
            return Err(Problem::Unreadable(format!(
                "{} contents where one file was expected",
                contents.len()
            )));
        }
    };
    if bytes.len() as u64 != file.size {
        return Err(Problem::Size {
            declared: file.size,
            served: bytes.len() as u64,
        });
    }
    file.verify(&bytes)
        .map_err(|error| Problem::Digest(error.to_string()))?;
    Ok(bytes)
}

/// The file's path in the skill: its URI under the skill's root, decoded
/// segment by segment, and a path inside the skill directory.
fn relative_path(root: &str, uri: &str) -> Option<String> {
    let path = skills::uri::segments(uri.strip_prefix(root)?)?.join("/");
    skills::tables::is_file_path(&path).then_some(path)
}

/// Writes every fetched skill under `root`: into a fresh folder beside it,
/// which takes `root`'s place; what was there is moved aside, and its new
/// path returned for the caller to drop or put back.
fn swap_in(root: &Path, fetched: &[Fetched<'_>]) -> std::io::Result<Option<PathBuf>> {
    let parent = root.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let name = root
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staging = parent.join(format!(".{name}.loading-{}", std::process::id()));
    let aside = parent.join(format!(".{name}.previous-{}", std::process::id()));
    for leftover in [&staging, &aside] {
        if std::fs::symlink_metadata(leftover).is_ok() {
            std::fs::remove_dir_all(leftover)?;
        }
    }
    let written = (|| {
        // A nested skill is written with the skill it is nested in (the
        // loader finds it there), not a second time beside it.
        let outermost = fetched
            .iter()
            .filter(|one| parent_of(one, fetched).is_none());
        for Fetched { entry, files } in outermost {
            let dir = staging.join(entry.name());
            for (path, bytes) in files {
                let path = dir.join(path);
                if let Some(folder) = path.parent() {
                    std::fs::create_dir_all(folder)?;
                }
                std::fs::write(path, bytes)?;
            }
        }
        let previous = match std::fs::symlink_metadata(root) {
            Ok(_) => {
                std::fs::rename(root, &aside)?;
                Some(aside.clone())
            }
            Err(_) => None,
        };
        std::fs::rename(&staging, root)?;
        Ok(previous)
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    written
}

/// The folder URI of an entry's skill: its `SKILL.md` URI without the
/// file name, ending in `/`.
fn folder_of(entry: &Entry) -> &str {
    entry
        .uri
        .strip_suffix(skills::Skill::FILE)
        .unwrap_or(&entry.uri)
}

/// The fetched skill that `nested` is nested in: the one with the longest
/// folder URI that holds its folder.
fn parent_of<'a, 'b>(nested: &Fetched<'_>, fetched: &'a [Fetched<'b>]) -> Option<&'a Fetched<'b>> {
    let folder = folder_of(nested.entry);
    fetched
        .iter()
        .filter(|other| {
            let outer = folder_of(other.entry);
            outer.len() < folder.len() && folder.starts_with(outer)
        })
        .max_by_key(|other| folder_of(other.entry).len())
}

/// A failure for each file of a nested skill that its parent's manifest
/// does not hold with the same bytes: the nested skill is loaded from its
/// parent's files, so they must be the ones its own manifest promised.
fn nested_as_in_parent(fetched: &[Fetched<'_>]) -> Vec<Failure> {
    let mut failures = Vec::new();
    for nested in fetched {
        let Some(parent) = parent_of(nested, fetched) else {
            continue;
        };
        let at = &folder_of(nested.entry)[folder_of(parent.entry).len()..];
        let Some(at) = relative_path("", at.trim_end_matches('/')) else {
            failures.push(Failure::new(&nested.entry.uri, Problem::NotInSkill));
            continue;
        };
        for (path, bytes) in &nested.files {
            let in_parent = format!("{at}/{path}");
            let same = parent
                .files
                .iter()
                .any(|(other, other_bytes)| *other == in_parent && other_bytes == bytes);
            if !same {
                let uri = format!("{}{path}", folder_of(nested.entry));
                failures.push(Failure::new(
                    &uri,
                    Problem::NotAsInParent(parent.entry.uri.clone()),
                ));
            }
        }
    }
    failures
}

/// The first top-level key whose value differs between the entry's
/// frontmatter and the one the `SKILL.md` holds, or one only one has.
fn frontmatter_differs(entry: &Entry, written: &str) -> Option<String> {
    let served = match serde_json::to_value(&entry.frontmatter) {
        Ok(serde_json::Value::Object(served)) => served,
        _ => return Some("(the entry's frontmatter is not an object)".to_owned()),
    };
    let written: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(written).unwrap_or_default();
    let keys: std::collections::BTreeSet<&String> = served.keys().chain(written.keys()).collect();
    keys.into_iter()
        .find(|key| served.get(*key) != written.get(*key))
        .cloned()
}

/// The set with every skill's `allowed-tools` cleared: a server cannot
/// pre-approve the host's tools.
fn without_allowed_tools(set: SkillSet) -> SkillSet {
    let skills = set
        .iter()
        .map(|skill| {
            let mut skill = skill.clone();
            skill.allowed_tools = Default::default();
            skill
        })
        .collect();
    SkillSet::owned(skills)
}

fn is_label(label: &str) -> bool {
    !label.is_empty()
        && !label.starts_with('.')
        && label
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.'))
}

/// What an approval of a served skill binds to: its `SKILL.md` URI and one
/// digest over its manifest (each `uri`, a NUL, its digest and a newline,
/// sorted by URI). A change to any file, or a file added or removed, gives
/// another digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The skill's `SKILL.md` URI.
    pub uri: String,
    /// `sha256:` over the sorted `{uri, digest}` set.
    pub digest: String,
}

impl Binding {
    /// The binding of an entry; `None` for one without a manifest, which
    /// cannot be bound to content.
    pub fn of(entry: &Entry) -> Option<Binding> {
        let SkillResources::Files(manifest) = &entry.resources else {
            return None;
        };
        let mut lines: Vec<String> = manifest
            .iter()
            .map(|file| format!("{}\0{}\n", file.uri, file.digest))
            .collect();
        lines.sort();
        Some(Binding {
            uri: entry.uri.clone(),
            digest: rmcp::model::sha256_digest(lines.concat().as_bytes()),
        })
    }
}

/// Skills loaded from one server.
#[derive(Debug)]
pub struct RemoteSkills {
    label: String,
    set: SkillSet,
    bindings: BTreeMap<String, Binding>,
    root: PathBuf,
}

impl RemoteSkills {
    /// The host's name for the server they came from.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The skills, `allowed-tools` cleared.
    pub fn set(&self) -> &SkillSet {
        &self.set
    }

    /// The names of the skills, for `Scripts::remote`: none of their
    /// scripts may run.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.set.iter().map(|skill| skill.name())
    }

    /// What an approval of `name` binds to.
    pub fn binding(&self, name: &str) -> Option<&Binding> {
        self.bindings.get(name)
    }

    /// Where the verified files are (`cache/<label>`).
    pub fn root(&self) -> &Path {
        &self.root
    }
}

/// Why the skills of a server were not loaded.
#[derive(Debug)]
pub enum RemoteError {
    /// The label cannot name a folder (`[a-z0-9._-]`, not starting with `.`).
    Label(String),
    /// The server serves no skill: there was nothing to load.
    NoSkills,
    /// The server did not answer as MCP says.
    Protocol(ServiceError),
    /// What the server served is not what it listed: every problem found.
    Verification(Vec<Failure>),
    /// The skills are not valid by the compiler's rules.
    Invalid(Box<LoadError>),
    /// The verified files could not be written to the cache.
    Io(std::io::Error),
    /// The listing is past a limit: too many skills, pages or bytes.
    Limit(String),
    /// A request had no answer in time.
    TimedOut {
        /// The request (`skills/list`).
        what: String,
        /// How long it waited.
        after: Duration,
    },
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::Label(label) => write!(
                f,
                "`{label}` cannot label a server: use lowercase letters, digits, `-`, `_` and `.`"
            ),
            RemoteError::NoSkills => f.write_str("the server lists no skills: nothing was loaded"),
            RemoteError::Protocol(error) => write!(f, "the server did not answer: {error}"),
            RemoteError::Verification(failures) => {
                write!(
                    f,
                    "{} verification failure(s); nothing was loaded",
                    failures.len()
                )?;
                for failure in failures {
                    write!(f, "\n  {failure}")?;
                }
                Ok(())
            }
            RemoteError::Invalid(error) => write!(f, "{}", error.render_short()),
            RemoteError::Io(error) => write!(f, "cannot write the verified files: {error}"),
            RemoteError::Limit(why) => f.write_str(why),
            RemoteError::TimedOut { what, after } => write!(
                f,
                "`{what}` had no answer within {} s (a reply over 16 MiB or one that is not JSON is dropped by the transport)",
                after.as_secs_f64()
            ),
        }
    }
}

impl std::error::Error for RemoteError {}

/// One thing a server served that it did not promise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The URI it concerns (a skill's or a file's; the label for the
    /// listing as a whole).
    pub uri: String,
    /// What is wrong.
    pub problem: Problem,
}

impl Failure {
    fn new(uri: &str, problem: Problem) -> Failure {
        Failure {
            uri: uri.to_owned(),
            problem,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.uri, self.problem)
    }
}

/// What a [`Failure`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The listing breaks a rule of SEP-2640's structure.
    Structure(String),
    /// The entry has no manifest (`"dynamic"`): nothing to verify against.
    NoManifest,
    /// Two entries have this name; the first is at this URI.
    NameTaken(String),
    /// The manifest lists more files than a skill may have.
    TooManyFiles {
        /// Listed.
        files: usize,
        /// The most allowed.
        max: usize,
    },
    /// The manifest declares more bytes than a skill may have.
    TooLarge {
        /// Declared.
        bytes: u64,
        /// The most allowed.
        max: u64,
    },
    /// The URI is not a file inside the skill's directory.
    NotInSkill,
    /// The server did not serve the file.
    Unreadable(String),
    /// The bytes served are not as many as declared.
    Size {
        /// Declared in the manifest.
        declared: u64,
        /// Served.
        served: u64,
    },
    /// The bytes served do not match the digest.
    Digest(String),
    /// The entry's frontmatter and the `SKILL.md`'s differ at this key.
    Frontmatter(String),
    /// The skill was verified but the compiler did not load it.
    NotLoaded,
    /// A file of a skill nested in another that the enclosing skill's
    /// manifest does not list with the same bytes (at this URI): SEP-2640
    /// makes a nested skill's files files of its parent too.
    NotAsInParent(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Structure(why) => write!(f, "the listing breaks SEP-2640: {why}"),
            Problem::NoManifest => {
                f.write_str("no manifest of digests (`dynamic`): it cannot be verified")
            }
            Problem::NameTaken(first) => write!(f, "another entry, {first}, has the same name"),
            Problem::TooManyFiles { files, max } => {
                write!(f, "{files} files; a skill may have {max}")
            }
            Problem::TooLarge { bytes, max } => {
                write!(f, "{bytes} bytes declared; a skill may have {max}")
            }
            Problem::NotInSkill => f.write_str("not a file inside the skill's directory"),
            Problem::Unreadable(why) => write!(f, "not served: {why}"),
            Problem::Size { declared, served } => {
                write!(f, "{served} bytes served, {declared} declared")
            }
            Problem::Digest(why) => write!(f, "{why}"),
            Problem::Frontmatter(key) => write!(
                f,
                "the listed frontmatter and the SKILL.md's differ at `{key}`"
            ),
            Problem::NotLoaded => f.write_str("verified, but not loaded"),
            Problem::NotAsInParent(parent) => write!(
                f,
                "a file of a nested skill that {parent}, the skill it is nested in, does not serve with the same bytes"
            ),
        }
    }
}
