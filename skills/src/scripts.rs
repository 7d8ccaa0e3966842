//! A skill's scripts, run on a model's request: opt-in, approved, limited.
//!
//! [`Toolset::with_scripts`](crate::Toolset::with_scripts) adds the tool
//! `run_skill_script {name, path, args}`. What it runs and how:
//!
//! - **Only the skill's own files**, and by default only under `scripts/`
//!   ([`Scripts::folder`] widens it). Compiled and loaded skills alike run
//!   from a copy of the bytes the skill holds, written afresh for each run
//!   to a private temporary directory (mode 0700) with their execute bits,
//!   and removed after it: the bytes that were checked are the bytes that
//!   run, whatever has happened on disk since, and one run cannot change
//!   (or add a module beside) what the next one runs. Any other path is
//!   refused with the list of scripts.
//! - **No shell.** The interpreter comes from the script's `#!` line (its
//!   program and at most one argument, as the kernel reads it), else from
//!   its extension: `.py` python3, `.sh` sh, `.js` node. A script with
//!   neither is refused. `args` are passed as argv, verbatim; the working
//!   directory is the skill's; the environment is cleared but for an
//!   allow-list ([`DEFAULT_ENV`], [`Scripts::env`]); stdin is closed.
//! - **Limits.** A timeout (default 60 s) kills the script's whole process
//!   group, children included; so does the script's own exit, so a child
//!   that keeps the output open cannot hold the call. Each stream keeps at
//!   most 64 KiB ([`Scripts::output_cap`]); the rest is read and counted,
//!   and the result says it was cut.
//! - **Approval first.** By default every run needs the host's yes
//!   ([`Scripts::approve`] sees the skill, the script and the argv); a host
//!   may allow-list scripts instead ([`Scripts::allow`]). With neither,
//!   every run is refused.
//! - **Not a sandbox.** The script runs as the host's user, with its
//!   filesystem and network. [`Scripts::sandbox`] lets a host wrap the
//!   command (bubblewrap, firejail, a container); without one, approve only
//!   what you would run yourself (SECURITY.md).
//!
//! Scripts are never offered over MCP (SEP-2640: clients must not run a
//! server's scripts), and never for skills the host marks remote
//! ([`Scripts::remote`]).

use std::ffi::OsString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod descendants;
use descendants::{Descendants, LOOK_EVERY};

use serde_json::json;
use skills_core::{File, Overwrite, Skill};

use crate::host_error::HostToolError;

/// The environment variables a script sees by default (when the host has
/// them): enough to find interpreters and read text. Besides them, each run
/// sets `SKILLS_SCRIPT_RUN` to a value of its own, by which the processes
/// it leaves behind are found and killed.
pub const DEFAULT_ENV: &[&str] = &["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];

/// How long a script may run by default: 60 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The most bytes kept of each output stream by default: 64 KiB.
pub const DEFAULT_OUTPUT_CAP: usize = 64 * 1024;

/// How long the output is read for once the script's process group is
/// gone: only a process that left the group can hold it longer.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// One run a model asks for, as the approval callback sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptRun<'a> {
    /// The skill.
    pub skill: &'a str,
    /// The script's path in the skill (`scripts/fill.py`).
    pub script: &'a str,
    /// The arguments, as they will be passed.
    pub argv: &'a [String],
}

/// The command about to run, which a [`Sandbox`] may rewrite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The program: the interpreter, or the script itself.
    pub program: OsString,
    /// Its arguments: the script's path, then the model's argv.
    pub args: Vec<OsString>,
    /// The working directory: the skill's directory.
    pub dir: PathBuf,
    /// The whole environment the program gets.
    pub env: Vec<(OsString, OsString)>,
}

/// A host's wrapper around each run, e.g. `bwrap --ro-bind ... -- program
/// args`. The command it returns runs as it is, with stdin closed, its
/// output captured, in a process group of its own, under the timeout.
pub trait Sandbox: Send + Sync {
    /// The command to run instead of `planned`.
    fn wrap(&self, planned: Planned) -> Planned;
}

type Approve = Box<dyn Fn(&ScriptRun<'_>) -> Result<(), String> + Send + Sync>;

/// Whether and how a toolset runs skills' scripts. Every run is refused
/// until the host says how runs are approved.
///
/// ```no_run
/// use skills::scripts::Scripts;
/// use std::time::Duration;
///
/// let scripts = Scripts::new()
///     .approve(|run| {
///         eprintln!("{} wants to run {} {:?}: allowed", run.skill, run.script, run.argv);
///         Ok(())
///     })
///     .timeout(Duration::from_secs(20));
/// ```
pub struct Scripts {
    approve: Option<Approve>,
    allowed: Vec<String>,
    folders: Vec<String>,
    env: Vec<String>,
    timeout: Duration,
    output_cap: usize,
    remote: Vec<String>,
    sandbox: Option<Box<dyn Sandbox>>,
    /// How many runs wrote a copy: each run's own folder in `root`.
    runs: std::sync::atomic::AtomicU64,
    /// The private directory the copies are written in, removed on drop.
    root: Mutex<Option<PathBuf>>,
}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scripts")
            .field("approve", &self.approve.is_some())
            .field("allowed", &self.allowed)
            .field("folders", &self.folders)
            .field("env", &self.env)
            .field("timeout", &self.timeout)
            .field("output_cap", &self.output_cap)
            .field("remote", &self.remote)
            .field("sandbox", &self.sandbox.is_some())
            .finish()
    }
}

impl Default for Scripts {
    fn default() -> Self {
        Scripts::new()
    }
}

impl Scripts {
    /// Scripts under `scripts/`, the default limits, and no approval yet:
    /// every run is refused until [`approve`](Self::approve) or
    /// [`allow`](Self::allow).
    pub fn new() -> Scripts {
        Scripts {
            approve: None,
            allowed: Vec::new(),
            folders: vec!["scripts/".to_owned()],
            env: DEFAULT_ENV.iter().map(|name| (*name).to_owned()).collect(),
            timeout: DEFAULT_TIMEOUT,
            output_cap: DEFAULT_OUTPUT_CAP,
            remote: Vec::new(),
            sandbox: None,
            runs: std::sync::atomic::AtomicU64::new(0),
            root: Mutex::new(None),
        }
    }

    /// Asks `approve` before each run; an `Err` refuses it with that text.
    pub fn approve(
        mut self,
        approve: impl Fn(&ScriptRun<'_>) -> Result<(), String> + Send + Sync + 'static,
    ) -> Scripts {
        self.approve = Some(Box::new(approve));
        self
    }

    /// Runs these scripts without asking: each `skill/path`, such as
    /// `pdf/scripts/fill.py`. Any other run still needs
    /// [`approve`](Self::approve).
    pub fn allow<I>(mut self, scripts: I) -> Scripts
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.allowed.extend(scripts.into_iter().map(Into::into));
        self
    }

    /// Also runs files under `folder` of a skill (`bin/`; `""` for every
    /// file of the skill).
    pub fn folder(mut self, folder: impl Into<String>) -> Scripts {
        let mut folder = folder.into();
        if !folder.is_empty() && !folder.ends_with('/') {
            folder.push('/');
        }
        self.folders.push(folder);
        self
    }

    /// Passes the host's variable `name` on to scripts too.
    pub fn env(mut self, name: impl Into<String>) -> Scripts {
        self.env.push(name.into());
        self
    }

    /// How long a run may take before its process group is killed.
    pub fn timeout(mut self, timeout: Duration) -> Scripts {
        self.timeout = timeout;
        self
    }

    /// The most bytes kept of stdout and of stderr, each.
    pub fn output_cap(mut self, bytes: usize) -> Scripts {
        self.output_cap = bytes;
        self
    }

    /// Never runs the scripts of these skills: their origin is remote (an
    /// MCP server, a download), and the host does not vouch for them.
    pub fn remote<I>(mut self, skills: I) -> Scripts
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.remote.extend(skills.into_iter().map(Into::into));
        self
    }

    /// Wraps every run in `sandbox`.
    pub fn sandbox(mut self, sandbox: impl Sandbox + 'static) -> Scripts {
        self.sandbox = Some(Box::new(sandbox));
        self
    }

    /// Whether `skill`'s scripts may be offered at all.
    pub(crate) fn offers(&self, skill: &str) -> bool {
        !self.remote.iter().any(|remote| remote == skill)
    }

    /// The scripts of `skill` a model may name, in path order.
    pub fn scripts_of<'a>(&self, skill: &'a Skill) -> Vec<&'a str> {
        if !self.offers(skill.name()) {
            return Vec::new();
        }
        skill
            .files()
            .iter()
            .map(File::path)
            .filter(|path| self.in_folders(path))
            .collect()
    }

    fn in_folders(&self, path: &str) -> bool {
        self.folders.iter().any(|folder| path.starts_with(folder))
    }

    /// Runs `path` of `skill` with `argv`: the result as JSON text for the
    /// model, or why nothing ran.
    pub(crate) fn run(
        &self,
        skill: &Skill,
        path: &str,
        argv: &[String],
    ) -> Result<String, HostToolError> {
        let file = self.script(skill, path)?;
        if let Some((at, bad)) = argv.iter().enumerate().find(|(_, arg)| arg.contains('\0')) {
            return Err(HostToolError::invalid(
                &format!("args[{at}]"),
                format!("an argument holds a NUL character, which no program can receive: {bad:?}"),
            ));
        }
        let run = ScriptRun {
            skill: skill.name(),
            script: path,
            argv,
        };
        // What cannot run is said before the host is asked to approve it.
        if interpreter(file).is_none() {
            return Err(HostToolError::failed(no_interpreter(file)));
        }
        self.approved(&run)?;
        let copy = self.fresh_copy(skill).map_err(HostToolError::failed)?;
        let ran = plan(file, &copy.skill_dir, argv, &self.env)
            .map_err(HostToolError::failed)
            .and_then(|planned| {
                let planned = match &self.sandbox {
                    Some(sandbox) => sandbox.wrap(planned),
                    None => planned,
                };
                execute(&planned, self.timeout, self.output_cap).map_err(|error| {
                    HostToolError::failed(format!("`{path}` could not start: {error}"))
                })
            });
        drop(copy);
        Ok(ran?.to_json())
    }

    /// The file a model named, if it is a script this toolset runs.
    fn script<'a>(&self, skill: &'a Skill, path: &str) -> Result<&'a File, HostToolError> {
        if !self.offers(skill.name()) {
            return Err(HostToolError::refused(format!(
                "the scripts of `{}` cannot run here: the host marks its origin remote",
                skill.name()
            )));
        }
        let listed = || {
            let scripts = self.scripts_of(skill);
            if scripts.is_empty() {
                format!("`{}` has no scripts", skill.name())
            } else {
                format!(
                    "the scripts of `{}` are: {}",
                    skill.name(),
                    scripts.join(", ")
                )
            }
        };
        match skill.file(path) {
            Some(file) if self.in_folders(path) => Ok(file),
            _ => Err(HostToolError::not_found(format!(
                "`{path}` is not a script of this skill; {}",
                listed()
            ))),
        }
    }

    fn approved(&self, run: &ScriptRun<'_>) -> Result<(), HostToolError> {
        let named = format!("{}/{}", run.skill, run.script);
        if self.allowed.contains(&named) {
            return Ok(());
        }
        match &self.approve {
            Some(approve) => {
                approve(run).map_err(|why| HostToolError::refused(format!("not allowed: {why}")))
            }
            None => Err(HostToolError::refused(format!(
                "not allowed: running `{named}` needs the host's approval, and it has given none"
            ))),
        }
    }

    /// A copy of `skill`'s files for one run, in a folder of its own.
    fn fresh_copy(&self, skill: &Skill) -> Result<RunCopy, String> {
        let run = self.runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let folder = self.root()?.join(format!("run-{run}"));
        std::fs::create_dir(&folder)
            .map_err(|error| format!("the skill's files could not be written out: {error}"))?;
        // Removed when dropped, a failed write included.
        let mut copy = RunCopy {
            skill_dir: PathBuf::new(),
            folder,
        };
        copy.skill_dir = skill
            .write_to(&copy.folder, Overwrite::Refuse)
            .map_err(|error| format!("the skill's files could not be written out: {error}"))?;
        Ok(copy)
    }

    fn root(&self) -> Result<PathBuf, String> {
        let mut root = self.root.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(root) = &*root {
            return Ok(root.clone());
        }
        let made = private_dir().map_err(|error| {
            format!("no private directory for the skill's files could be made: {error}")
        })?;
        *root = Some(made.clone());
        Ok(made)
    }
}

/// One run's copy of a skill's files, removed when dropped.
struct RunCopy {
    /// The skill's directory in it (the script's working directory).
    skill_dir: PathBuf,
    /// The run's folder.
    folder: PathBuf,
}

impl Drop for RunCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

impl Drop for Scripts {
    fn drop(&mut self) {
        if let Some(root) = self.root.get_mut().ok().and_then(Option::take) {
            let _ = std::fs::remove_dir_all(root);
        }
    }
}

/// A new directory only this user can enter, under the system's temporary
/// directory.
fn private_dir() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for attempt in 0..16u32 {
        let dir = base.join(format!(
            "skills-scripts-{}-{nanos:x}-{attempt}",
            std::process::id()
        ));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) => last = Some(error),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no attempt")))
}

/// The command for `file`, written out in `dir`: its interpreter, the
/// script, the argv; the allowed environment.
fn plan(file: &File, dir: &Path, argv: &[String], env: &[String]) -> Result<Planned, String> {
    let script = dir.join(file.path());
    let (program, mut args) = interpreter(file).ok_or_else(|| no_interpreter(file))?;
    args.push(script.into_os_string());
    args.extend(argv.iter().map(OsString::from));
    let env = env
        .iter()
        .filter_map(|name| Some((OsString::from(name), std::env::var_os(name)?)))
        .collect();
    Ok(Planned {
        program,
        args,
        dir: dir.to_path_buf(),
        env,
    })
}

fn no_interpreter(file: &File) -> String {
    format!(
        "`{}` names no interpreter: it has no `#!` line, and its extension is none of .py (python3), .sh (sh), .js (node)",
        file.path()
    )
}

/// The interpreter and its argument: the `#!` line's (program, then the
/// rest as one argument, as the kernel reads it), else the extension's.
fn interpreter(file: &File) -> Option<(OsString, Vec<OsString>)> {
    let bytes = file.bytes();
    if let Some(rest) = bytes.strip_prefix(b"#!") {
        let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = std::str::from_utf8(line).ok()?.trim();
        let (program, argument) = match line.split_once([' ', '\t']) {
            Some((program, argument)) => (program, Some(argument.trim())),
            None => (line, None),
        };
        if program.is_empty() {
            return None;
        }
        let args = argument
            .filter(|argument| !argument.is_empty())
            .map(|argument| vec![OsString::from(argument)])
            .unwrap_or_default();
        return Some((OsString::from(program), args));
    }
    let program = match file.path().rsplit_once('.')?.1 {
        "py" => "python3",
        "sh" => "sh",
        "js" => "node",
        _ => return None,
    };
    Some((OsString::from(program), Vec::new()))
}

/// What a run gave.
#[derive(Debug)]
struct Ran {
    /// `None` when a signal ended it.
    exit_code: Option<i32>,
    /// The signal that ended it (9 after a timeout).
    signal: Option<i32>,
    stdout: Captured,
    stderr: Captured,
    timed_out: bool,
}

impl Ran {
    fn to_json(&self) -> String {
        json!({
            "exit_code": self.exit_code,
            "signal": self.signal,
            "timed_out": self.timed_out,
            "stdout": self.stdout.text(),
            "stderr": self.stderr.text(),
            "stdout_cut": self.stdout.cut(),
            "stderr_cut": self.stderr.cut(),
        })
        .to_string()
    }
}

/// One output stream: its first bytes, and how many there were.
#[derive(Debug, Default)]
struct Captured {
    kept: Vec<u8>,
    total: u64,
}

impl Captured {
    fn cut(&self) -> bool {
        self.total > self.kept.len() as u64
    }

    fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        if self.cut() {
            text.push_str(&format!(
                "\n[output cut: {} bytes written, the first {} shown]",
                self.total,
                self.kept.len()
            ));
        }
        text
    }
}

/// Runs `planned` in a process group of its own, and reads both streams on
/// this thread until the script exits or the timeout strikes; then kills
/// the whole group (the script's children with it: one that holds the
/// output open cannot hold the call) and takes what is left of the output
/// for at most [`DRAIN_GRACE`]. No thread is started: one `poll` waits on
/// both pipes and on the process (a pidfd; where there is none, the
/// process is looked at every 10 ms).
fn execute(planned: &Planned, timeout: Duration, cap: usize) -> std::io::Result<Ran> {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    // Every process of the run inherits the mark, and is found by it when
    // it leaves the script's tree (see `descendants`).
    let mark = descendants::new_mark();
    descendants::adopt_orphans();
    let mut child = Command::new(&planned.program)
        .args(&planned.args)
        .current_dir(&planned.dir)
        .env_clear()
        .envs(planned.env.iter().map(|(k, v)| (k, v)))
        .env(descendants::MARK, &mark)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let group = child.id() as libc::pid_t;
    let mut streams = [
        Stream::new(child.stdout.take().map(OwnedFd::from), cap),
        Stream::new(child.stderr.take().map(OwnedFd::from), cap),
    ];
    let exited = Pidfd::open(group);
    let mut descendants = Descendants::of(group, &mark);
    // A timeout past what an `Instant` can hold (`Duration::MAX`) is none.
    let deadline = Instant::now().checked_add(timeout);
    let mut status = None;
    let mut timed_out = false;
    while status.is_none() {
        descendants.look();
        let left = deadline.map_or(Duration::MAX, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        });
        if left.is_zero() {
            timed_out = true;
            break;
        }
        let process_ready = poll(&mut streams, exited.as_ref(), left.min(LOOK_EVERY));
        if process_ready || exited.is_none() {
            status = child.try_wait()?;
        }
    }
    descendants.look();
    kill_group(group);
    let status = match status {
        Some(status) => status,
        None => child.wait()?,
    };
    reap_group(group);
    // Those that left the group (`setsid`, a double fork) go too.
    descendants.sweep(DRAIN_GRACE);
    // What the group wrote before it died; a process that left the group
    // may hold a pipe open, and is not waited for.
    let grace = Instant::now() + DRAIN_GRACE;
    while streams.iter().any(Stream::is_open) {
        let left = grace.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        poll(&mut streams, None, left);
    }
    let [stdout, stderr] = streams.map(Stream::into_captured);
    Ok(Ran {
        exit_code: status.code(),
        signal: status.signal(),
        stdout,
        stderr,
        timed_out,
    })
}

fn kill_group(group: libc::pid_t) {
    // SAFETY: `kill` takes plain integers; a negative pid names the process
    // group, which this run made (`process_group(0)`), so nothing else is hit.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// Reaps what is left of the killed group that is this process's to reap:
/// the script's children are reparented to the host when it is PID 1 or a
/// subreaper (a container's init, a supervisor), and would stay zombies.
/// Bounded: a process the kill has not ended yet is waited for at most
/// [`DRAIN_GRACE`].
fn reap_group(group: libc::pid_t) {
    let until = Instant::now() + DRAIN_GRACE;
    loop {
        let mut status = 0;
        // SAFETY: a plain syscall; `-group` names only processes of the
        // group this run made, and `status` is writable.
        let reaped = unsafe { libc::waitpid(-group, &mut status, libc::WNOHANG) };
        match reaped {
            // One reaped: look for the next.
            pid if pid > 0 => continue,
            // Children of ours in the group, still dying.
            0 if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
            // None left (ECHILD), or out of time.
            _ => return,
        }
    }
}

/// One output pipe and what was read of it.
struct Stream {
    fd: Option<OwnedFd>,
    captured: Captured,
    cap: usize,
}

impl Stream {
    fn new(fd: Option<OwnedFd>, cap: usize) -> Stream {
        Stream {
            fd,
            captured: Captured::default(),
            cap,
        }
    }

    fn is_open(&self) -> bool {
        self.fd.is_some()
    }

    /// Reads what the pipe holds now (poll said it is ready); closes it at
    /// its end. Bytes past the cap are counted, not kept.
    fn read(&mut self) {
        let Some(fd) = &self.fd else {
            return;
        };
        let mut buffer = [0u8; 64 * 1024];
        // SAFETY: `buffer` is writable for its length, `fd` is open.
        let n = unsafe { libc::read(fd.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
        if n <= 0 {
            if n == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                self.fd = None;
            }
            return;
        }
        let n = n as usize;
        self.captured.total += n as u64;
        let room = self.cap.saturating_sub(self.captured.kept.len());
        self.captured.kept.extend_from_slice(&buffer[..n.min(room)]);
    }

    fn into_captured(self) -> Captured {
        self.captured
    }
}

/// A pidfd: readable once the process has exited (Linux 5.3 and later).
struct Pidfd(OwnedFd);

impl Pidfd {
    #[cfg(target_os = "linux")]
    fn open(pid: libc::pid_t) -> Option<Pidfd> {
        // SAFETY: a plain syscall with integer arguments; a valid result is
        // a new file descriptor that this value then owns.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let fd = libc::c_int::try_from(fd).ok().filter(|fd| *fd >= 0)?;
        // SAFETY: `fd` was just opened and nothing else owns it.
        Some(Pidfd(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    #[cfg(not(target_os = "linux"))]
    fn open(_: libc::pid_t) -> Option<Pidfd> {
        None
    }
}

/// Waits up to `timeout` for the open streams or the process; reads every
/// ready stream once. `true` when the process is ready (it exited).
fn poll(streams: &mut [Stream; 2], exited: Option<&Pidfd>, timeout: Duration) -> bool {
    let mut fds: Vec<libc::pollfd> = Vec::with_capacity(3);
    let mut owners = Vec::with_capacity(3);
    for (at, stream) in streams.iter().enumerate() {
        if let Some(fd) = &stream.fd {
            fds.push(libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            });
            owners.push(Some(at));
        }
    }
    if let Some(pidfd) = exited {
        fds.push(libc::pollfd {
            fd: pidfd.0.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        });
        owners.push(None);
    }
    if fds.is_empty() {
        std::thread::sleep(timeout.min(Duration::from_millis(10)));
        return false;
    }
    let millis = libc::c_int::try_from(timeout.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
    // SAFETY: `fds` is a valid array of `fds.len()` pollfd structs.
    let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
    if ready <= 0 {
        return false;
    }
    let mut process = false;
    for (fd, owner) in fds.iter().zip(owners) {
        if fd.revents == 0 {
            continue;
        }
        match owner {
            Some(at) => streams[at].read(),
            None => process = true,
        }
    }
    process
}
