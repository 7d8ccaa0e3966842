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
//! process is killed and reaped.
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
        become_subreaper();
        Descendants {
            root,
            seen: std::collections::HashMap::new(),
            mark: format!("{MARK}={mark}").into_bytes(),
            not_ours: std::collections::HashSet::new(),
        }
    }

    /// Records the host's children that carry this run's mark: processes
    /// of the run handed to the host when their parent died.
    fn adopted(&mut self) {
        // SAFETY: getpid has no preconditions.
        let host = unsafe { libc::getpid() };
        for child in children_of(host).unwrap_or_default() {
            if child == self.root || self.seen.contains_key(&child) {
                continue;
            }
            let Some((_, start)) = stat(child) else {
                continue;
            };
            if self.not_ours.contains(&(child, start)) {
                continue;
            }
            if self.carries_mark(child) {
                self.seen.insert(child, start);
            } else {
                self.not_ours.insert((child, start));
            }
        }
    }

    /// Whether `pid`'s environment holds this run's mark.
    fn carries_mark(&self, pid: libc::pid_t) -> bool {
        // An environment is at most a few hundred KB (ARG_MAX): bounded.
        let Ok(file) = std::fs::File::open(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let mut environ = Vec::new();
        if std::io::Read::read_to_end(&mut std::io::Read::take(file, 4 << 20), &mut environ)
            .is_err()
        {
            return false;
        }
        environ.split(|&b| b == 0).any(|entry| entry == self.mark)
    }

    /// Records every process whose parent is the script or a process
    /// already recorded: from the kernel's lists of each known process's
    /// children (a few small reads), else from every process's `stat`.
    pub(super) fn look(&mut self) {
        self.adopted();
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

    /// Kills each recorded process that is still the one recorded (the
    /// same pid and start time), and reaps those handed to this process.
    pub(super) fn sweep(&self, grace: Duration) {
        for (&pid, &start) in &self.seen {
            if stat(pid).is_some_and(|(_, started)| started == start) {
                // SAFETY: a plain syscall; `pid` was checked to be the
                // process recorded below the script a moment ago.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        // A killed process whose parent died too is handed to this process
        // a moment later: until it is, `waitpid` says it is not ours. Each
        // is waited for until it is reaped here or gone from `/proc`.
        let until = std::time::Instant::now() + grace;
        let mut left: Vec<(libc::pid_t, u64)> = self
            .seen
            .iter()
            .map(|(&pid, &start)| (pid, start))
            .collect();
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
}

#[cfg(not(target_os = "linux"))]
impl Descendants {
    pub(super) fn of(_: libc::pid_t, _: &str) -> Descendants {
        Descendants {}
    }
    pub(super) fn look(&mut self) {}
    pub(super) fn sweep(&self, _: Duration) {}
}

#[cfg(target_os = "linux")]
fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: prctl with integer arguments; it sets a flag of this
        // process. Refused (an old kernel), the sweep finds fewer.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// The children of every thread of `pid`, from
/// `/proc/PID/task/TID/children`; `None` when the process is gone or the
/// kernel keeps no such list.
#[cfg(target_os = "linux")]
fn children_of(pid: libc::pid_t) -> Option<Vec<libc::pid_t>> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut children = Vec::new();
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).ok()?;
        children.extend(
            text.split_whitespace()
                .filter_map(|c| c.parse::<libc::pid_t>().ok()),
        );
    }
    Some(children)
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
