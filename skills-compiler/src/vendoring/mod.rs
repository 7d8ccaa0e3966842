//! Vendoring: skills brought into a package's root from a git repository
//! or a folder, each recorded in `skills-lock.json` ([`crate::lock`]) so
//! that the build can refuse drift. A wing over the pipeline: it fetches
//! ([`fetch`](mod@fetch)), finds what a source offers ([`offer`]), and stages, checks
//! and moves skills into place all or nothing ([`install`]); `cargo skills
//! add`, `update`, `remove` and `lock` are these functions and their output.

pub(crate) mod fetch;
pub(crate) mod install;
pub(crate) mod offer;
pub(crate) mod source;

use std::path::{Path, PathBuf};

use crate::lock::file::{Entry, EntryFields, source_type};
use crate::lock::hash::FolderDigest;
use crate::lock::verify::{Change, ChangeKind, Status, compare};
use crate::read::discover::display_path;
use fetch::{Fetched, fetch};
use install::{Package, Staged, Staging, VendorError, failed};
use offer::{Offered, offered};
use source::{Location, Source};

/// Whether a `local` source that a lock names may be read when it is
/// outside the project (the user's consent, `--allow-outside`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Outside {
    /// Refuse it, naming the folder.
    #[default]
    Refuse,
    /// Read it: the user said so.
    Allow,
}

/// Which of a source's skills to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// These, by name.
    Named(Vec<String>),
    /// Every one.
    All,
    /// The only one; more is a usage error that lists them.
    TheOnly,
}

/// A fetched source and the skills it offers: what `add --list` prints.
#[derive(Debug)]
pub struct Listed {
    /// The source, fetched.
    pub fetched: Fetched,
    /// The skills it offers.
    pub skills: Vec<Offered>,
}

/// Fetches `source` and finds its skills; `shown` is how the user wrote it.
pub fn list(package: &Package, source: &Source, shown: &str) -> Result<Listed, VendorError> {
    // Checkouts go to the system's temporary folder: what is added is
    // copied out of them into a staging folder beside the root.
    let fetched = fetch(source, &package.base, &std::env::temp_dir()).map_err(|e| failed(e.0))?;
    let skills = offered(
        &fetched.dir,
        source.sub_path.as_deref(),
        &format!("`{shown}`"),
    )
    .map_err(|e| failed(e.0))?;
    Ok(Listed { fetched, skills })
}

/// One skill a source offers, as `add --list` shows it: enough to choose
/// by without reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfferSummary {
    /// The name it is added under.
    pub name: String,
    /// Its SKILL.md in the source.
    pub skill_path: String,
    /// Its description (whole; the printer cuts it), when it has one.
    pub description: Option<String>,
    /// Its `license`, when it says.
    pub license: Option<String>,
    /// Whether it has no error under the rules vendored skills are held to
    /// (`vendored_profile`): whether `add` takes it without `--force`.
    pub valid: bool,
    /// Whether it has files under `scripts/`.
    pub has_scripts: bool,
    /// What its signature comes to under the package's `trust`.
    pub signature: Signature,
}

/// A skill's signature as `add --list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signature {
    /// No `skill.oms.sig`.
    Unsigned,
    /// Signed, and the package names no `trust` to verify it against.
    NotChecked,
    /// Verified: the signing certificate's subject.
    By(String),
    /// Signed, and it does not verify under the package's `trust`.
    Refused,
}

impl Signature {
    fn shown(&self) -> String {
        match self {
            Signature::Unsigned => "unsigned".to_owned(),
            Signature::NotChecked => "signed, not checked (no `trust`)".to_owned(),
            Signature::By(subject) => subject.clone(),
            Signature::Refused => "signature refused".to_owned(),
        }
    }
}

impl OfferSummary {
    /// The header of `add --list`'s columns.
    pub const HEADER: &'static str = "NAME\tPATH\tLICENSE\tADD\tSCRIPTS\tSIGNER\tDESCRIPTION";

    /// `add --list`'s line: tab-separated name, path, licence, whether
    /// `add` takes it as it is, scripts, the signer, and the description
    /// cut at 80 characters; each value kept on its line.
    pub fn line(&self) -> String {
        let description = self.description.as_deref().unwrap_or("-");
        let cut: String = description.chars().take(80).collect();
        let more = if description.chars().count() > 80 {
            "…"
        } else {
            ""
        };
        let shown = skills_core::printable;
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}{more}",
            shown(&self.name),
            shown(&self.skill_path),
            shown(self.license.as_deref().unwrap_or("-")),
            if self.valid { "valid" } else { "invalid" },
            if self.has_scripts {
                "scripts"
            } else {
                "no scripts"
            },
            shown(&self.signature.shown()),
            shown(&cut.replace(['\n', '\t'], " "))
        )
    }
}

/// What the signature of the skill folder `dir` comes to under `rules`'
/// `trust` (paths relative to the current directory).
fn signature_of(dir: &Path, rules: &crate::config::Config) -> Signature {
    if !dir.join(skills_core::SIGNATURE_FILE).is_file() {
        return Signature::Unsigned;
    }
    if rules.trust.is_empty() {
        return Signature::NotChecked;
    }
    match install::signed_by(dir, rules) {
        Some(signed) => Signature::By(signed.subject),
        None => Signature::Refused,
    }
}

/// What `add --list` says of each skill of `listed`: each checked with the
/// rules `add` would hold it to.
pub fn summaries(package: &Package, listed: &Listed) -> Vec<OfferSummary> {
    let rules = crate::config::Config {
        locked: false,
        profile: package.config.vendored_profile,
        trust: install::trust_of(package),
        ..package.config.clone()
    };
    listed
        .skills
        .iter()
        .map(|offer| {
            let compilation = crate::pipeline::compile_skill(Path::new(""), &offer.dir, &rules);
            let skill = compilation.valid.skills.first();
            OfferSummary {
                name: offer.name.clone(),
                skill_path: offer.skill_path.clone(),
                description: skill.map(|s| s.description().to_owned()),
                license: skill.and_then(|s| s.table.license().map(str::to_owned)),
                valid: !compilation.has_errors(),
                has_scripts: skill
                    .is_some_and(|s| s.files.iter().any(|file| file.path.starts_with("scripts/"))),
                signature: signature_of(&offer.dir, &rules),
            }
        })
        .collect()
}

/// Skills staged and checked, for an operation to plan their moves into
/// the root (`ops::vendor`); dropped, it leaves nothing behind.
#[derive(Debug)]
pub struct Prepared {
    /// The skills staged and checked.
    pub staged: Vec<Staged>,
    /// For an update: each skill's changes against what is on disk, one
    /// line a skill, said from upstream's side (`pdf: upstream changed
    /// references/a.md`). For a sync: what restoring does to each skill,
    /// file by file (`pdf: restore references/a.md (edited here)`).
    pub changes: Vec<String>,
    pub(crate) staging: Staging,
    /// The lock to write with the skills; `None` leaves it as it is
    /// (`sync` restores what it records, byte for byte).
    pub(crate) lock: Option<crate::lock::file::LockFile>,
    // Kept until the skills are moved: a checkout is removed when dropped.
    pub(crate) _fetched: Vec<Fetched>,
}

impl Prepared {
    /// Whether a staged skill has an error under the vendored rules.
    pub fn has_errors(&self) -> bool {
        self.staged.iter().any(|s| s.compilation.has_errors())
    }

    /// The staging folder the skills are in.
    pub(crate) fn staging_dir(&self) -> &Path {
        &self.staging.dir
    }

    /// The lock to write with the skills, when there is one.
    pub(crate) fn lock_after(&self) -> Option<&crate::lock::file::LockFile> {
        self.lock.as_ref()
    }
}

/// Each locked skill where it is (the root, or an agent's folder beside the
/// lock) and what it is against its entry, by name.
pub(crate) fn located(
    package: &Package,
    lock: &crate::lock::file::LockFile,
) -> std::collections::HashMap<String, crate::lock::check::Checked> {
    crate::lock::check::statuses(
        &package.base,
        &package.config.dir,
        &package.lock_path,
        lock,
        &[],
        crate::lock::check::Scope::Root,
    )
    .into_iter()
    .map(|checked| (checked.name.clone(), checked))
    .collect()
}

/// Where `sync` puts a skill that is nowhere: the package's skills root;
/// when there is none and an agent's folder beside the lock is (a project
/// whose skills Vercel's CLI installed for an agent), that folder.
pub(crate) fn missing_target(package: &Package, name: &str) -> PathBuf {
    if package.root().is_dir() {
        return package.config.dir.join(name);
    }
    let lock_dir = package.lock_path.parent().unwrap_or(Path::new(""));
    crate::read::conventional::DIRS
        .iter()
        .map(|dir| lock_dir.join(dir))
        .find(|dir| package.base.join(dir).is_dir())
        .map_or_else(|| package.config.dir.join(name), |dir| dir.join(name))
}

/// Fetches `source` for a locked skill, and finds the skill in it: by the
/// entry's `skillPath`, else by its name. The listing and the skill's place
/// in it.
pub(crate) fn fetch_entry(
    package: &Package,
    source: &Source,
    entry: &Entry,
    name: &str,
    shown: &str,
) -> Result<(Listed, usize), VendorError> {
    let listed = list(package, source, shown)?;
    let at = listed
        .skills
        .iter()
        .position(|o| Some(o.skill_path.as_str()) == entry.skill_path())
        .or_else(|| listed.skills.iter().position(|o| o.name == name))
        .ok_or_else(|| {
            failed(format!(
                "`{shown}` at {} no longer offers the skill `{name}`",
                source.reference.as_deref().unwrap_or("its default branch")
            ))
        })?;
    Ok((listed, at))
}

/// An update whose upstream is now signed by someone other than the lock
/// recorded (or no longer signed) is drift, refused before anything is
/// written: trusting a new publisher is a decision, not an update.
pub(crate) fn refuse_new_signer(
    name: &str,
    locked: &Entry,
    fetched: &Entry,
) -> Result<(), VendorError> {
    let Some((subject, anchor)) = locked.signer() else {
        return Ok(());
    };
    let now = match fetched.signer() {
        Some(signer) if signer == (subject, anchor) => return Ok(()),
        Some((new_subject, new_anchor)) => {
            format!("signed by `{new_subject}` (anchor {})", short(new_anchor))
        }
        None => "not signed by anyone this package trusts".to_owned(),
    };
    Err(failed(format!(
        "`{name}` upstream is now {now}; the lock recorded `{subject}` (anchor {}). Nothing was written. \
         If you trust the new signer, take the skill again: `cargo skills remove {name}`, then `cargo skills add`",
        short(anchor)
    )))
}

fn short(fingerprint: &str) -> &str {
    fingerprint.get(..16).unwrap_or(fingerprint)
}

/// What changes from `before` (the root's folder, `None` when missing) to
/// `after`, file by file.
pub(crate) fn against(before: &Option<FolderDigest>, after: &FolderDigest) -> Status {
    let Some(before) = before else {
        return Status::Missing;
    };
    let entry = Entry::new(EntryFields {
        computed_hash: before.computed_hash.clone(),
        files: before.files.iter().map(|f| f.line()).collect(),
        ..EntryFields::default()
    });
    compare(after, &entry)
}

/// The files of the folder at `dir`, hashed; `None` when it is not there.
pub(crate) fn hash_folder_at(dir: &Path) -> Option<FolderDigest> {
    crate::lock::hash::hash_folder(dir, crate::lock::hash::Limits::default()).ok()
}

/// What `sync` does to a skill, file by file, from what is here to what
/// was locked: `pdf: restore references/a.md (edited here), add
/// scripts/run.sh, remove notes.txt`.
pub(crate) fn describe_restore(name: &str, status: &Status) -> String {
    let changed = match status {
        Status::Missing => return format!("{name}: the whole skill (it is not here)"),
        Status::Modified { changed } if !changed.is_empty() => changed,
        _ => return format!("{name}: its files, which differ from the lock"),
    };
    let said: Vec<String> = changed
        .iter()
        .map(|change| {
            let path = &change.path;
            match change.kind {
                ChangeKind::Added => format!("add {path} (missing here)"),
                ChangeKind::Removed => format!("remove {path} (added here)"),
                ChangeKind::Edited => format!("restore {path} (edited here)"),
                ChangeKind::ModeChanged => format!("restore the mode of {path}"),
            }
        })
        .collect();
    format!("{name}: {}", said.join(", "))
}

pub(crate) fn current_digest(package: &Package, name: &str) -> Option<FolderDigest> {
    let dir = package.root().join(name);
    crate::lock::hash::hash_folder(&dir, crate::lock::hash::Limits::default()).ok()
}

/// What a new entry for `offer` from `source` says, before its digest.
pub(crate) fn fields_for(
    package: &Package,
    source: &Source,
    fetched: &Fetched,
    offer: &Offered,
) -> EntryFields {
    // A skill `gh skill` installed says where it came from: that is its
    // source, so that `update` fetches it from there.
    if let (Location::Local { .. }, Some(origin)) = (&source.location, &offer.origin) {
        return EntryFields {
            source: format!("{}/{}", origin.owner, origin.repo),
            source_url: None,
            reference: origin.reference.clone(),
            source_type: source_type::GITHUB.to_owned(),
            skill_path: origin.path.as_ref().map(|path| {
                format!(
                    "{}/{}",
                    path.trim_end_matches('/'),
                    crate::read::layout::SKILL_FILE
                )
            }),
            computed_hash: String::new(),
            commit: None,
            files: Vec::new(),
        };
    }
    let (source_text, source_url) = match &source.location {
        Location::GitHub { owner, repo } => (format!("{owner}/{repo}"), None),
        Location::Git { url } => (url.clone(), Some(url.clone())),
        Location::Local { .. } => (package.portable_path(&fetched.dir), None),
    };
    EntryFields {
        source: source_text,
        source_url,
        reference: source.reference.clone(),
        source_type: source.location.source_type().to_owned(),
        skill_path: Some(offer.skill_path.clone()),
        computed_hash: String::new(),
        commit: fetched.commit.clone(),
        files: Vec::new(),
    }
}

pub(crate) fn entry_from(fields: &EntryFields, digest: &FolderDigest) -> Entry {
    Entry::new(EntryFields {
        computed_hash: digest.computed_hash.clone(),
        files: digest.files.iter().map(|f| f.line()).collect(),
        ..fields.clone()
    })
}

/// The same source: type, source and the skill's path in it.
pub(crate) fn is_same_source(entry: &Entry, fields: &EntryFields) -> bool {
    entry.source_type() == Some(fields.source_type.as_str())
        && entry.source() == Some(fields.source.as_str())
        && entry
            .skill_path()
            .is_none_or(|path| Some(path) == fields.skill_path.as_deref())
}

/// The source an entry was fetched from; `None` for a skill locked as a
/// copy of itself (`cargo skills lock`), which has nothing to fetch.
pub(crate) fn source_of(
    package: &Package,
    name: &str,
    entry: &Entry,
    outside: Outside,
) -> Result<Option<Source>, VendorError> {
    let kind = entry.source_type().unwrap_or_default();
    let text = entry.source().unwrap_or_default();
    let sub_path = entry
        .skill_path()
        .and_then(|path| path.strip_suffix(crate::read::layout::SKILL_FILE))
        .map(|dir| dir.trim_end_matches('/').to_owned())
        .filter(|dir| !dir.is_empty());
    let location = match kind {
        source_type::GITHUB => match text.split_once('/') {
            Some((owner, repo)) => Location::GitHub {
                owner: owner.to_owned(),
                repo: repo.to_owned(),
            },
            None => {
                return Err(failed(format!(
                    "the lock's source `{text}` is not `owner/repo`"
                )));
            }
        },
        source_type::GIT => Location::Git {
            url: entry.source_url().unwrap_or(text).to_owned(),
        },
        source_type::LOCAL => {
            let path = package.resolve_local(text);
            let canonical = |p: &Path| std::fs::canonicalize(p).ok();
            // The skill's own folder, there or not (a fresh clone without
            // it): a copy of itself, with nowhere else to come from.
            let own = package.root().join(name);
            let absolute = |p: &Path| std::path::absolute(p).ok();
            if canonical(&path).is_some() && canonical(&path) == canonical(&own)
                || absolute(&path).is_some() && absolute(&path) == absolute(&own)
            {
                return Ok(None);
            }
            // A committed lock names the folder; the user did not. Outside
            // the project it could be anything of theirs (`~/.ssh`).
            let inside = match (canonical(&path), package.project()) {
                (Some(path), Some(project)) => path.starts_with(project),
                _ => false,
            };
            if !inside && outside == Outside::Refuse {
                return Err(failed(format!(
                    "the lock's entry `{name}` names the local source `{text}`, outside this project: reading it needs your consent (`--allow-outside`), since a committed lock can name any folder of yours"
                )));
            }
            Location::Local { path }
        }
        other => {
            return Err(failed(format!(
                "the lock's entry `{name}` has `sourceType` `{other}`, which no command fetches (git, github, local): nothing was written; fix the entry by hand, or take the skill again with `cargo skills remove {name}` and `cargo skills add`"
            )));
        }
    };
    let source = Source {
        location,
        reference: entry.reference().map(str::to_owned),
        sub_path: None,
    };
    match sub_path {
        Some(sub) => source
            .with_sub_path(&sub)
            .map(Some)
            .map_err(|e| failed(e.0)),
        None => Ok(Some(source)),
    }
}

pub(crate) fn display(package: &Package, name: &str) -> String {
    display_path(&package.config.dir.join(name))
}

pub(crate) fn display_path_of(package: &Package) -> String {
    display_path(&package.lock_path)
}

/// One skill's update, said from upstream's side: a file upstream
/// changed since the lock is `upstream changed references/a.md`; one that
/// differs only because it was edited here says so (the update puts
/// upstream's back). Without per-file lines in the entry, every change is
/// taken as upstream's.
pub(crate) fn describe_update(
    name: &str,
    status: &Status,
    entry: &Entry,
    upstream: &FolderDigest,
) -> String {
    let Status::Modified { changed } = status else {
        return describe(name, status);
    };
    if changed.is_empty() {
        return format!("{name}: upstream changed");
    }
    let locked: Option<std::collections::BTreeMap<String, crate::lock::FileDigest>> =
        entry.files().map(|lines| {
            lines
                .iter()
                .filter_map(|line| crate::lock::FileDigest::parse(line))
                .map(|file| (file.path.clone(), file))
                .collect()
        });
    let said: Vec<String> = changed
        .iter()
        .map(|change| {
            let theirs = upstream.files.iter().find(|f| f.path == change.path);
            let upstream_moved = match &locked {
                None => true,
                Some(locked) => locked.get(&change.path) != theirs,
            };
            let path = &change.path;
            match (upstream_moved, change.kind) {
                (false, _) => format!("{path} edited here (the update puts back upstream's)"),
                (true, ChangeKind::Added) => format!("upstream added {path}"),
                (true, ChangeKind::Removed) => format!("upstream removed {path}"),
                (true, ChangeKind::Edited) => format!("upstream changed {path}"),
                (true, ChangeKind::ModeChanged) => format!("upstream changed the mode of {path}"),
            }
        })
        .collect();
    format!("{name}: {}", said.join(", "))
}

/// Each skill's changes, for printing: `pdf: references/a.md (edited)`.
pub(crate) fn describe(name: &str, status: &Status) -> String {
    match status {
        Status::Matches => format!("{name}: unchanged"),
        Status::Missing => format!("{name}: new"),
        Status::Unlocked => format!("{name}: not locked"),
        Status::Modified { changed } if changed.is_empty() => format!("{name}: changed"),
        Status::Modified { changed } => format!(
            "{name}: {}",
            changed
                .iter()
                .map(Change::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
