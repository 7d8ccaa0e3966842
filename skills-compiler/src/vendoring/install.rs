//! Staging fetched skills for a skills root: each skill is copied into a
//! hidden staging folder beside the root and checked there with the
//! package's rules. Putting them in place, with the lock, is a plan that
//! `ops::apply` carries out, all or nothing (`ops::vendor`).

use std::path::{Path, PathBuf};

use crate::config::{Config, RequireSignatures};
use crate::lock::check::{find, place_for, read};
use crate::lock::file::{Entry, LockFile};
use crate::lock::hash::{FolderDigest, Limits, hash_folder};
use crate::pipeline::{Compilation, compile_skill};
use crate::read::discover::display_path;
use crate::vendoring::fetch::unique_dir;

/// Why vendoring stopped. Nothing was written when it is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VendorError {
    /// The command line asks for something that cannot be (exit 2).
    Usage(String),
    /// The work could not be done (exit 1).
    Failed(String),
}

impl std::fmt::Display for VendorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VendorError::Usage(message) | VendorError::Failed(message) => f.write_str(message),
        }
    }
}

pub(crate) fn failed(message: impl Into<String>) -> VendorError {
    VendorError::Failed(message.into())
}

/// The package a vendoring command works on: where it is, its rules, its
/// skills root and its lock.
#[derive(Debug, Clone)]
pub struct Package {
    /// The package's folder (the current directory's relative paths start here).
    pub base: PathBuf,
    /// Its rules: `[package.metadata.skills]` and the command line.
    pub config: Config,
    /// The lock's path, relative to `base`: the one in use, or where a new one goes.
    pub lock_path: PathBuf,
}

impl Package {
    /// The package at `base` with `config`, its lock found or placed.
    pub fn new(base: &Path, config: Config) -> Package {
        let lock_path = find(base, &config.dir).unwrap_or_else(|| place_for(base, &config.dir));
        Package {
            base: base.to_path_buf(),
            config,
            lock_path,
        }
    }

    /// The skills root on disk.
    pub fn root(&self) -> PathBuf {
        self.base.join(&self.config.dir)
    }

    /// The lock as it is (empty when there is none yet).
    pub fn lock(&self) -> Result<LockFile, VendorError> {
        if !self.base.join(&self.lock_path).exists() {
            return Ok(LockFile::default());
        }
        read(&self.base, &self.lock_path)
            .map(|read| read.lock)
            .map_err(|d| failed(d.message))
    }

    /// How the lock's `source` names a folder on this machine: relative to
    /// the lock's folder (`./vendor/skills`, `../shared`), as Vercel's CLI
    /// writes local sources; absolute when they share no ancestor.
    pub fn portable_path(&self, path: &Path) -> String {
        let lock_dir = self
            .base
            .join(&self.lock_path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let (Ok(from), Ok(to)) = (
            std::fs::canonicalize(&lock_dir),
            std::fs::canonicalize(path),
        ) else {
            return display_path(path);
        };
        relative(&from, &to).unwrap_or_else(|| display_path(&to))
    }

    /// The folder a lock's local `source` names.
    pub fn resolve_local(&self, source: &str) -> PathBuf {
        let lock_dir = self
            .lock_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        self.base.join(lock_dir).join(source)
    }

    /// The project a lock belongs to, canonical: the git repository that
    /// holds the package, else the package's folder. A `local` source
    /// outside it is read only with the user's consent.
    pub fn project(&self) -> Option<PathBuf> {
        let base = std::fs::canonicalize(&self.base).ok()?;
        let repository = base.ancestors().find(|dir| dir.join(".git").exists());
        Some(repository.unwrap_or(&base).to_path_buf())
    }
}

/// `to` relative to `from`, as `./x` or `../x`.
fn relative(from: &Path, to: &Path) -> Option<String> {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let ups = from.len() - common;
    let rest: Vec<String> = to[common..]
        .iter()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let mut parts: Vec<String> = vec!["..".to_owned(); ups];
    parts.extend(rest);
    Some(match (ups, parts.is_empty()) {
        (_, true) => ".".to_owned(),
        (0, false) => format!("./{}", parts.join("/")),
        _ => parts.join("/"),
    })
}

/// A skill staged for the root.
#[derive(Debug)]
pub struct Staged {
    /// The skill's name.
    pub name: String,
    /// Where it goes, relative to the package: the root's folder of its
    /// name, or the agent's folder `sync` found it in.
    pub target: PathBuf,
    /// Its copy in the staging folder.
    pub dir: PathBuf,
    /// Its lock entry (computed from the copy).
    pub entry: Entry,
    /// The copy's files, hashed.
    pub digest: FolderDigest,
    /// The package's check of the copy.
    pub compilation: Compilation,
    /// Who signed it, when its signature verified under the package's
    /// `trust`.
    pub signed_by: Option<SignedBy>,
}

impl Staged {
    /// Whether its signature failed under the package's `trust` (S524 to
    /// S528 at error level). `--force` writes skills that break rules,
    /// never one that fails trust: trusting a signer is not a rule to
    /// override.
    pub fn refused_by_trust(&self) -> bool {
        self.compilation
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.code.is_trust())
    }

    /// What `sync` says of it: `{verb} NAME in FOLDER from SOURCE at COMMIT`
    /// (the commit cut to 12 characters).
    pub fn restored(&self, verb: &str) -> String {
        let at = self
            .entry
            .commit()
            .map(|c| format!(" at {}", c.chars().take(12).collect::<String>()))
            .unwrap_or_default();
        let from = self.entry.source().unwrap_or_default();
        format!(
            "{verb} {} in {} from {from}{at}",
            self.name,
            crate::read::discover::display_path(&self.target)
        )
    }
}

/// A staging folder inside the root, removed when dropped.
#[derive(Debug)]
pub(crate) struct Staging {
    /// The folder.
    pub dir: PathBuf,
}

/// Removes the staging folders that processes which are gone left beside
/// the root (a kill between staging and cleaning up): `.skills-stage-PID-N`
/// whose PID no longer runs.
fn remove_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    }) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(".skills-stage-"))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, n)| n.bytes().all(|b| b.is_ascii_digit()).then_some(pid))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && pid != std::process::id() && !is_running(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a process `pid` runs (on Unix; elsewhere, assumed to).
fn is_running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: signal 0 checks that the process exists; nothing is sent.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        alive || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Staging {
    /// A new hidden folder beside the package's root (on the same disk,
    /// so that skills are renamed into place); the root itself is created
    /// only when something is moved into it.
    pub(crate) fn new(package: &Package) -> Result<Staging, VendorError> {
        let root = package.root();
        let parent = root.parent().map(Path::to_path_buf).unwrap_or_default();
        std::fs::create_dir_all(&parent)
            .map_err(|e| failed(format!("cannot create `{}`: {e}", parent.display())))?;
        remove_stale(&parent);
        let dir = unique_dir(&parent, "stage");
        std::fs::create_dir(&dir)
            .map_err(|e| failed(format!("cannot create `{}`: {e}", dir.display())))?;
        Ok(Staging { dir })
    }

    /// Copies the skill folder `from` in as `name`, hashes the copy and
    /// checks it with the package's rules. `entry` makes its lock entry
    /// from the copy's digest.
    pub(crate) fn stage(
        &self,
        package: &Package,
        name: &str,
        from: &Path,
        entry: impl FnOnce(&FolderDigest) -> Entry,
    ) -> Result<Staged, VendorError> {
        let dir = self.dir.join(name);
        let limits = Limits {
            max_files: package.config.max_files.saturating_add(1),
            max_bytes: package.config.max_skill_bytes,
        };
        let mut budget = Budget {
            files: limits.max_files,
            bytes: limits.max_bytes,
        };
        copy_folder(from, &dir, "", &mut budget, name)?;
        let digest = hash_folder(&dir, limits)
            .map_err(|e| failed(format!("cannot hash the copy of `{name}`: {e}")))?;
        // The rules vendored skills are held to (`vendored_profile`, hosts'
        // `lenient` by default), less the lock: what is staged is what the
        // lock is about to record, and someone else's files.
        // The trust anchors are the package's: their paths stay its own
        // while the copy is checked from the staging folder.
        let rules = Config {
            locked: false,
            profile: package.config.vendored_profile,
            trust: trust_of(package),
            // A staged copy is vendored by definition: under `"vendored"`
            // it must be signed.
            require_signatures: match package.config.require_signatures {
                RequireSignatures::Vendored => RequireSignatures::All,
                other => other,
            },
            ..package.config.clone()
        };
        let compilation = compile_skill(&self.dir, Path::new(name), &rules);
        let signed_by = signer_of(&self.dir, name, &rules);
        Ok(Staged {
            name: name.to_owned(),
            target: package.config.dir.join(name),
            entry: entry(&digest).with_signer(
                (signed_by.as_ref()).map(|s| (s.subject.as_str(), s.fingerprint.as_str())),
            ),
            digest,
            dir,
            compilation,
            signed_by,
        })
    }
}

/// The package's trust anchors as absolute paths: they stay its own while
/// a copy is checked from a staging folder or a fetched checkout.
pub(crate) fn trust_of(package: &Package) -> Vec<PathBuf> {
    (package.config.trust.iter())
        .map(|p| std::path::absolute(package.base.join(p)).unwrap_or_else(|_| package.base.join(p)))
        .collect()
}

/// Who signed the skill folder `dir`, when its signature verifies under
/// `rules`' `trust`.
pub(crate) fn signed_by(dir: &Path, rules: &Config) -> Option<SignedBy> {
    let name = dir.file_name()?.to_str()?;
    signer_of(dir.parent()?, name, rules)
}

/// Who signed a staged copy, as its signature verified under the
/// package's `trust`: what `add` says, and what the lock records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedBy {
    /// The signing certificate's subject (`CN=Vendor Skills`).
    pub subject: String,
    /// The subject of the trust anchor its chain reached.
    pub anchor: String,
    /// That anchor's SHA-256 fingerprint (what the lock records).
    pub fingerprint: String,
}

/// Who signed the staged copy `name`, when the package checks signatures
/// and the copy's signature verifies: what the lock records, so that a
/// later signature by someone else is seen.
#[cfg(feature = "signing")]
fn signer_of(staging: &Path, name: &str, rules: &Config) -> Option<SignedBy> {
    use crate::signing::{Trust, Verdict, verify};
    if rules.trust.is_empty() {
        return None;
    }
    let trust = Trust::load(Path::new(""), &rules.trust).ok()?;
    let verified = verify(
        staging,
        Path::new(name),
        &trust,
        &mut crate::lock::HashCache::none(),
    );
    match verified.verdict {
        Verdict::Signed(signer) => Some(SignedBy {
            anchor: (trust.anchors().iter())
                .find(|anchor| anchor.fingerprint == signer.anchor)
                .map(|anchor| anchor.subject.clone())
                .unwrap_or_default(),
            subject: signer.subject,
            fingerprint: signer.anchor,
        }),
        Verdict::Unsigned | Verdict::Refused => None,
    }
}

#[cfg(not(feature = "signing"))]
fn signer_of(_: &Path, _: &str, _: &Config) -> Option<SignedBy> {
    None
}

/// What a copy may still take.
struct Budget {
    files: usize,
    bytes: u64,
}

/// Copies the folder `from` to `to` as Vercel's CLI copies a skill (`.git`
/// of any kind, at any depth, and `node_modules` left behind), keeping exec bits; refuses a symlink
/// (its target would not come along, or would come from outside) and
/// anything but files and folders.
fn copy_folder(
    from: &Path,
    to: &Path,
    prefix: &str,
    budget: &mut Budget,
    skill: &str,
) -> Result<(), VendorError> {
    if is_bare_repository(from) {
        let shown = format!("{skill}/{prefix}");
        return Err(failed(format!(
            "`{shown}` is a git repository (a bare one: `HEAD` and `objects/`): git run inside the skill would take it, with its configuration (`core.fsmonitor`, hooks), so it is not added; remove it from the source"
        )));
    }
    std::fs::create_dir_all(to)
        .map_err(|e| failed(format!("cannot create `{}`: {e}", to.display())))?;
    let entries = std::fs::read_dir(from)
        .map_err(|e| failed(format!("cannot read `{}`: {e}", from.display())))?;
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        let shown = format!("{skill}/{prefix}{}", name.to_string_lossy());
        // A `.git` of any kind stays behind: a gitlink file (`gitdir: PATH`)
        // beside a git folder would make git, run inside the skill, take
        // the source's configuration (its `core.fsmonitor` command).
        if name == ".git" {
            continue;
        }
        let kind = entry
            .file_type()
            .map_err(|e| failed(format!("cannot read `{shown}`: {e}")))?;
        if kind.is_symlink() {
            return Err(failed(format!(
                "`{shown}` is a symlink: a skill is added with its files, not links to elsewhere; replace the link with the file in the source"
            )));
        }
        if kind.is_dir() {
            if name == "node_modules" {
                continue;
            }
            let prefix = format!("{prefix}{}/", name.to_string_lossy());
            copy_folder(&entry.path(), &to.join(&name), &prefix, budget, skill)?;
        } else if kind.is_file() {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if budget.files == 0 {
                return Err(failed(format!(
                    "`{skill}` has more files than `max_files` allows: it is refused before it is copied (S512)"
                )));
            }
            if size > budget.bytes {
                return Err(failed(format!(
                    "`{skill}` holds more bytes than `max_skill_bytes` allows (at `{shown}`): it is refused before it is copied (S513)"
                )));
            }
            budget.files -= 1;
            budget.bytes -= size;
            copy_file(&entry.path(), &to.join(&name))
                .map_err(|e| failed(format!("cannot copy `{shown}`: {e}")))?;
        } else {
            return Err(failed(format!(
                "`{shown}` is neither a file nor a folder (a pipe, socket or device), so it is not added"
            )));
        }
    }
    Ok(())
}

/// Whether the folder `dir` is a bare git repository as git finds one: a
/// `HEAD` file beside an `objects` folder (git also looks for `refs`, which
/// a hostile copy may leave out and add later).
fn is_bare_repository(dir: &Path) -> bool {
    let is = |name: &str, dir_wanted: bool| {
        std::fs::symlink_metadata(dir.join(name))
            .is_ok_and(|m| if dir_wanted { m.is_dir() } else { m.is_file() })
    };
    is("HEAD", false) && is("objects", true)
}

/// Copies the bytes and the exec bits, nothing else of the source's mode.
fn copy_file(from: &Path, to: &Path) -> std::io::Result<()> {
    let mut source = crate::read::open::open_regular(from)?;
    let mut target = std::fs::File::create(to)?;
    std::io::copy(&mut source, &mut target)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let executable = crate::read::files::is_executable(&source.metadata()?);
        let mode = if executable { 0o755 } else { 0o644 };
        target.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn relative_paths_read_as_vercels_cli_writes_them() {
        let rel = |a: &str, b: &str| relative(Path::new(a), Path::new(b));
        assert_eq!(rel("/p", "/p/vendor/s").as_deref(), Some("./vendor/s"));
        assert_eq!(rel("/p/q", "/p/s").as_deref(), Some("../s"));
        assert_eq!(rel("/p", "/p").as_deref(), Some("."));
    }
}
