//! Fetching a source: the `git` binary, as cargo does with
//! `net.git-fetch-with-cli` (docs/decisions.md says why not a library).
//! One commit, shallow, no tags, no submodules, no LFS contents, no hooks,
//! no prompt for credentials; `protocol.file.allow` left at git's default.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::vendoring::source::{Location, Source};

/// A source's files on this machine: a temporary checkout (removed when
/// dropped) or the local folder itself.
#[derive(Debug)]
pub struct Fetched {
    /// The folder the source's sub-path is relative to.
    pub dir: PathBuf,
    /// The commit checked out, for a git source.
    pub commit: Option<String>,
    /// Removed on drop: the temporary checkout.
    temporary: Option<PathBuf>,
}

impl Drop for Fetched {
    fn drop(&mut self) {
        if let Some(dir) = &self.temporary {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Why a fetch failed: what git said, or why it was not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FetchError(pub String);

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Fetches `source`; a relative local path is looked up from `base`, and
/// checkouts go under `scratch`.
pub(crate) fn fetch(source: &Source, base: &Path, scratch: &Path) -> Result<Fetched, FetchError> {
    match &source.location {
        Location::Local { path } => local(source, &base.join(expand_home(path))),
        location => {
            let url = location.git_url().unwrap_or_default();
            clone(&url, source.reference.as_deref(), scratch)
        }
    }
}

fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

fn local(source: &Source, path: &Path) -> Result<Fetched, FetchError> {
    if source.reference.is_some() {
        return Err(FetchError(format!(
            "`{}` is a local folder: a ref (`#...`) applies to git sources only",
            path.display()
        )));
    }
    if !path.is_dir() {
        return Err(FetchError(format!(
            "the source `{}` does not exist or is not a folder",
            path.display()
        )));
    }
    Ok(Fetched {
        dir: path.to_path_buf(),
        commit: None,
        temporary: None,
    })
}

/// Why `reference` is not a branch, tag or commit name, or `None`: git's
/// rules for ref names (`git check-ref-format`), and never a refspec
/// (`+a:b`, which would fetch into a ref of its choosing) or an option.
pub(crate) fn ref_problem(reference: &str) -> Option<&'static str> {
    if reference.is_empty() {
        Some("it is empty")
    } else if reference.starts_with(['-', '+', '/']) {
        Some("it starts with `-`, `+` or `/`")
    } else if reference.contains(':') {
        Some("it holds `:` (a refspec, not a ref)")
    } else if reference.contains("..") || reference.contains("@{") || reference.contains("//") {
        Some("it holds `..`, `@{` or `//`")
    } else if reference
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || "~^?*[\\".contains(c))
    {
        Some("it holds a space, a control character or one of `~^?*[\\`")
    } else if reference.ends_with(['/', '.']) || reference.ends_with(".lock") {
        Some("it ends in `/`, `.` or `.lock`")
    } else {
        None
    }
}

/// `git init`, a depth-1 fetch of the ref (the remote's HEAD without one),
/// and a detached checkout of what was fetched.
fn clone(url: &str, reference: Option<&str>, scratch: &Path) -> Result<Fetched, FetchError> {
    if url.starts_with('-') {
        return Err(FetchError(format!("`{url}` is not a URL git can fetch")));
    }
    std::fs::create_dir_all(scratch)
        .map_err(|e| FetchError(format!("cannot create `{}`: {e}", scratch.display())))?;
    let dir = unique_dir(scratch, "checkout");
    let fetched = Fetched {
        dir: dir.clone(),
        commit: None,
        temporary: Some(dir.clone()),
    };
    git(&dir, &["init", "-q", "."], true)?;
    let wanted = reference.unwrap_or("HEAD");
    if let Some(why) = ref_problem(wanted) {
        return Err(FetchError(format!("`{wanted}` is not a ref: {why}")));
    }
    git(
        &dir,
        &[
            "fetch",
            "-q",
            "--depth",
            "1",
            "--no-tags",
            "--no-recurse-submodules",
            "--",
            url,
            wanted,
        ],
        false,
    )
    .map_err(|e| {
        FetchError(format!(
            "cannot fetch `{wanted}` from `{url}`: {}",
            e.0.trim()
        ))
    })?;
    git(&dir, &["checkout", "-q", "--detach", "FETCH_HEAD"], false)?;
    let commit = git(&dir, &["rev-parse", "HEAD"], false)?;
    let mut fetched = fetched;
    fetched.commit = Some(commit.trim().to_owned());
    Ok(fetched)
}

/// A fresh folder under `parent` (not created).
pub(crate) fn unique_dir(parent: &Path, what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    loop {
        let dir = parent.join(format!(
            ".skills-{what}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        if !dir.exists() {
            return dir;
        }
    }
}

/// Runs git in `dir` with hooks, prompts, LFS contents and the user's
/// templates off; its standard output on success, its error text otherwise.
fn git(dir: &Path, args: &[&str], create: bool) -> Result<String, FetchError> {
    if create {
        std::fs::create_dir_all(dir)
            .map_err(|e| FetchError(format!("cannot create `{}`: {e}", dir.display())))?;
    }
    let hooks = if cfg!(windows) { "NUL" } else { "/dev/null" };
    let output = Command::new("git")
        .current_dir(dir)
        .args(["-c", &format!("core.hooksPath={hooks}")])
        .args(["-c", "submodule.recurse=false"])
        .args(["-c", "init.templateDir="])
        .args(["-c", "advice.detachedHead=false"])
        .args([
            "-c",
            "http.lowSpeedLimit=1000",
            "-c",
            "http.lowSpeedTime=30",
        ])
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_LFS_SKIP_SMUDGE", "1")
        .env("GCM_INTERACTIVE", "never")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            FetchError(format!(
                "cannot run `git` ({e}): skills are fetched with the git binary; install git"
            ))
        })?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(FetchError(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ))
    }
}
