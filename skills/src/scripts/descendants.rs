//! The processes a script started that left its process group (`setsid`,
//! a double fork): killing the group does not reach them, and they would
//! outlive the call and its timeout.
//!
//! On Linux the host becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`,
//! once, for the whole process): a process whose parent dies is handed to
//! the host instead of to init, so it stays known. Each run's script gets
//! a mark in its environment ([`MARK`], unique to the run), which every
//! process below it inherits. While the script runs, and once more when it
//! ends, every process below it is recorded (its pid and start time, from
//! the kernel's children lists in `/proc`), and so is every child handed
//! to the host that carries the run's mark: a process that left the tree
//! between two looks (a double fork within 10 ms, a `setsid` child of a
//! script that returns at once) was handed to the host, and is found
//! there. When the run ends, each recorded process that is still the same
//! process is killed and reaped, and the tree and the host's children are
//! looked at again until a look finds no one new (a process that forked
//! between the last look and its kill left a child). An environment that
//! reads empty (a process in the middle of `execve`) is read again at the
//! next look rather than written off.
//!
//! What remains: a process that drops the mark from its environment
//! (`env -i`, an `exec` with a new environment) and leaves the tree
//! between two looks, or that the script's own processes hide from `/proc`.
//! A [`Sandbox`](super::Sandbox) that runs each script in a cgroup or a
//! PID namespace (bubblewrap `--die-with-parent --unshare-pid`) closes
//! both. Elsewhere than Linux nothing is recorded (SECURITY.md).

use std::time::Duration;

/// The environment variable that marks a run's processes.
pub(super) const MARK: &str = "SKILLS_SCRIPT_RUN";

/// How often the tree below a running script is looked at.
pub(super) const LOOK_EVERY: Duration = Duration::from_millis(10);

/// The processes recorded below one script.
pub(super) struct Descendants {
    #[cfg(target_os = "linux")]
    root: libc::pid_t,
    #[cfg(target_os = "linux")]
    seen: std::collections::HashMap<libc::pid_t, u64>,
    /// `MARK=value`, as `/proc/PID/environ` holds it.
    #[cfg(target_os = "linux")]
    mark: Vec<u8>,
    /// The host's children looked at and found not to be this run's (pid,
    /// start): their environment is not read again.
    #[cfg(target_os = "linux")]
    not_ours: std::collections::HashSet<(libc::pid_t, u64)>,
    /// Whether the last look met a child of the host whose environment it
    /// could not read yet (mid-`execve`): the sweep looks again.
    #[cfg(target_os = "linux")]
    unread: bool,
}

/// A value for [`MARK`] no other run of this process or another has.
pub(super) fn new_mark() -> String {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{run}-{nanos}", std::process::id())
}

#[cfg(target_os = "linux")]
impl Descendants {
    /// Starts recording below `root` (the script's process), whose
    /// environment holds [`MARK`] set to `mark`.
    pub(super) fn of(root: libc::pid_t, mark: &str) -> Descendants {
        adopt_orphans();
        Descendants {
            root,
            seen: std::collections::HashMap::new(),
            mark: format!("{MARK}={mark}").into_bytes(),
            not_ours: std::collections::HashSet::new(),
            unread: false,
        }
    }

    /// Records the host's children that carry this run's mark: processes
    /// of the run handed to the host when their parent died.
    fn adopt(&mut self, children: impl IntoIterator<Item = libc::pid_t>) {
        self.unread = false;
        for child in children {
            if child == self.root || self.seen.contains_key(&child) {
                continue;
            }
            let Some((_, start)) = stat(child) else {
                continue;
            };
            if self.not_ours.contains(&(child, start)) {
                continue;
            }
            match self.mark_of(child) {
                Mark::Ours => {
                    self.seen.insert(child, start);
                }
                Mark::NotOurs => {
                    self.not_ours.insert((child, start));
                }
                Mark::Unread => self.unread = true,
            }
        }
    }

    /// Whether `pid`'s environment holds this run's mark. An environment
    /// that reads empty is unread, not "not ours": a process in the middle
    /// of `execve` shows none for a moment, and the pid and start time it
    /// keeps across the exec must not be written off for good.
    fn mark_of(&self, pid: libc::pid_t) -> Mark {
        // An environment is at most a few hundred KB (ARG_MAX): bounded.
        let Ok(file) = std::fs::File::open(format!("/proc/{pid}/environ")) else {
            return Mark::Unread;
        };
        let mut environ = Vec::new();
        if std::io::Read::read_to_end(&mut std::io::Read::take(file, 4 << 20), &mut environ)
            .is_err()
        {
            return Mark::Unread;
        }
        if environ.is_empty() {
            // A zombie has no environment, and never will again.
            return if state(pid) == Some(b'Z') {
                Mark::NotOurs
            } else {
                Mark::Unread
            };
        }
        if environ.split(|&b| b == 0).any(|entry| entry == self.mark) {
            Mark::Ours
        } else {
            Mark::NotOurs
        }
    }

    /// Records every process whose parent is the script or a process
    /// already recorded: from the kernel's lists of each known process's
    /// children (a few small reads), else from every process's `stat`.
    pub(super) fn look(&mut self) {
        self.adopt(children_of(host()).unwrap_or_default());
        let mut known: Vec<libc::pid_t> = std::iter::once(self.root)
            .chain(self.seen.keys().copied())
            .collect();
        let mut listed = true;
        while let Some(pid) = known.pop() {
            let Some(children) = children_of(pid) else {
                listed &= pid != self.root;
                continue;
            };
            for child in children {
                if child == self.root || self.seen.contains_key(&child) {
                    continue;
                }
                if let Some((_, start)) = stat(child) {
                    self.seen.insert(child, start);
                    known.push(child);
                }
            }
        }
        if !listed {
            self.look_everywhere();
        }
    }

    /// [`look`](Self::look) without the children lists (a kernel built
    /// without them): every process's parent.
    fn look_everywhere(&mut self) {
        let table = processes();
        loop {
            let before = self.seen.len();
            for &(pid, parent, start) in &table {
                let below = parent == self.root || self.seen.contains_key(&parent);
                if below && pid != self.root {
                    self.seen.entry(pid).or_insert(start);
                }
            }
            if self.seen.len() == before {
                return;
            }
        }
    }

    /// A look for the sweep, from every process's `stat`: the host's
    /// children that carry the mark, and every process whose parent is one
    /// recorded and still the same process. The kernel's children lists
    /// are per thread, and a child moves to another of the host's threads
    /// when the one it was handed to ends: read one by one, they can miss
    /// it, and the sweep is the last look.
    fn look_all(&mut self) {
        let table = processes();
        let host = host();
        self.adopt(
            table
                .iter()
                .filter(|&&(_, parent, _)| parent == host)
                .map(|&(pid, _, _)| pid),
        );
        let alive: std::collections::HashMap<libc::pid_t, u64> =
            table.iter().map(|&(pid, _, start)| (pid, start)).collect();
        loop {
            let before = self.seen.len();
            for &(pid, parent, start) in &table {
                let recorded = self.seen.get(&parent);
                if recorded.is_some_and(|started| alive.get(&parent) == Some(started)) {
                    self.seen.entry(pid).or_insert(start);
                }
            }
            if self.seen.len() == before {
                return;
            }
        }
    }

    /// Kills each recorded process that is still the one recorded (the
    /// same pid and start time), waits for it, and looks again: a process
    /// that forked between the last look and its kill left a child, which
    /// is handed to this process when its parent dies and is found by the
    /// next look. Rounds go on until a look finds nothing new, or `grace`
    /// is spent (a process killed by SIGKILL forks no more, so the rounds
    /// end).
    pub(super) fn sweep(&mut self, grace: Duration) {
        let until = std::time::Instant::now() + grace;
        let mut killed = std::collections::HashSet::new();
        loop {
            // What appeared since the last look: the script's last forks,
            // and children of processes killed in the round before.
            self.look_all();
            let fresh: Vec<(libc::pid_t, u64)> = self
                .seen
                .iter()
                .map(|(&pid, &start)| (pid, start))
                .filter(|process| !killed.contains(process))
                .collect();
            if fresh.is_empty() && !self.unread {
                return;
            }
            for &(pid, start) in &fresh {
                kill_if_same(pid, start);
                killed.insert((pid, start));
            }
            let waited = !fresh.is_empty();
            reap(fresh, until);
            if std::time::Instant::now() >= until {
                return;
            }
            if !waited {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// What the environment of one of the host's children says of it.
#[cfg(target_os = "linux")]
enum Mark {
    Ours,
    NotOurs,
    /// Gone, unreadable, or empty for the moment (mid-`execve`).
    Unread,
}

/// Sends SIGKILL to `pid` if it is still the process that started at
/// `start`.
#[cfg(target_os = "linux")]
fn kill_if_same(pid: libc::pid_t, start: u64) {
    if stat(pid).is_some_and(|(_, started)| started == start) {
        // SAFETY: a plain syscall; `pid` was checked to be the process
        // recorded below the script a moment ago.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Waits, until `until`, for each killed process to be reaped here or gone
/// from `/proc`. A killed process whose parent died too is handed to this
/// process a moment later: until it is, `waitpid` says it is not ours.
#[cfg(target_os = "linux")]
fn reap(mut left: Vec<(libc::pid_t, u64)>, until: std::time::Instant) {
    while !left.is_empty() && std::time::Instant::now() < until {
        left.retain(|&(pid, start)| {
            let mut status = 0;
            // SAFETY: a plain syscall; `status` is writable.
            let reaped = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
            match reaped {
                r if r == pid => false,
                0 => true,
                // Not our child (yet): still there as the same process?
                _ => stat(pid).is_some_and(|(_, started)| started == start),
            }
        });
        if !left.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(not(target_os = "linux"))]
impl Descendants {
    pub(super) fn of(_: libc::pid_t, _: &str) -> Descendants {
        Descendants {}
    }
    pub(super) fn look(&mut self) {}
    pub(super) fn sweep(&mut self, _: Duration) {}
}

/// Makes this process the reaper of its descendants' orphans, once: called
/// before a script starts, so that a double fork within its first
/// instants is handed to this process too.
pub(super) fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    static ONCE: std::sync::Once = std::sync::Once::new();
    #[cfg(target_os = "linux")]
    ONCE.call_once(|| {
        // SAFETY: prctl with integer arguments; it sets a flag of this
        // process. Refused (an old kernel), the sweep finds fewer.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// This process's pid.
#[cfg(target_os = "linux")]
fn host() -> libc::pid_t {
    // SAFETY: getpid has no preconditions.
    unsafe { libc::getpid() }
}

/// The children of every thread of `pid`, from
/// `/proc/PID/task/TID/children`; `None` when the process is gone or the
/// kernel keeps no such list. A thread that ends while it is read is
/// skipped: its children moved to another thread.
#[cfg(target_os = "linux")]
fn children_of(pid: libc::pid_t) -> Option<Vec<libc::pid_t>> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut children = Vec::new();
    let mut listed = false;
    for task in tasks.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        listed = true;
        children.extend(
            text.split_whitespace()
                .filter_map(|c| c.parse::<libc::pid_t>().ok()),
        );
    }
    listed.then_some(children)
}

/// Every process: pid, parent, start time (clock ticks since boot).
#[cfg(target_os = "linux")]
fn processes() -> Vec<(libc::pid_t, libc::pid_t, u64)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
            let (parent, start) = stat(pid)?;
            Some((pid, parent, start))
        })
        .collect()
}

/// A process's parent and start time, from `/proc/PID/stat` (read after
/// the command's closing `)`, which may itself hold spaces and parens).
#[cfg(target_os = "linux")]
fn stat(pid: libc::pid_t) -> Option<(libc::pid_t, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice threads itrealvalue starttime
    let parent = fields.get(1)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((parent, start))
}

/// A process's state letter (`R`, `S`, `Z`, …) from `/proc/PID/stat`.
#[cfg(target_os = "linux")]
fn state(pid: libc::pid_t) -> Option<u8> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(')')?;
    rest.split_whitespace().next()?.bytes().next()
}
