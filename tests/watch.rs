//! `skills::loader::Watch` with real files: edited, added, broken, repaired
//! and deleted, each seen through the file system's own events.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use skills::loader::{Loader, Reload, Watch};

fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n")
}

fn write(root: &Path, name: &str, text: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

/// Waits until `done` holds, for at most 20 s: file events arrive when the
/// kernel delivers them, and machines are noisy.
fn eventually(watch: &Watch, what: &str, done: impl Fn(&Watch) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done(watch) {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for: {what} (after {} reloads)",
            watch.reloads()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn names(watch: &Watch) -> Vec<String> {
    watch.current().names().map(str::to_owned).collect()
}

#[test]
fn a_watched_root_follows_edits_additions_breakage_and_deletions() {
    let root: PathBuf = std::env::temp_dir().join(format!("skills-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    write(&root, "alpha", &skill("alpha", "First. Use when testing."));

    let (sender, events) = mpsc::channel();
    let watch = Watch::start(Loader::new(), &root, Duration::from_millis(100), move |r| {
        let _ = sender.send(r.clone());
    })
    .unwrap();
    assert_eq!(names(&watch), ["alpha"]);

    // Added.
    write(&root, "beta", &skill("beta", "Second. Use when testing."));
    eventually(&watch, "beta added", |w| names(w) == ["alpha", "beta"]);

    // Edited.
    write(&root, "alpha", &skill("alpha", "Edited. Use when testing."));
    eventually(&watch, "alpha edited", |w| {
        w.current().get("alpha").unwrap().description() == "Edited. Use when testing."
    });

    // Broken: the last good set stays in use, and the diagnostics say why.
    let before = watch.current();
    write(
        &root,
        "beta",
        "---\nname: beta\ndescription: [unclosed\n---\n",
    );
    eventually(&watch, "the broken skill reported", |w| {
        w.last_error().is_some()
    });
    let error = watch.last_error().unwrap();
    assert!(error.to_string().contains("beta/SKILL.md"), "{error}");
    assert!(std::sync::Arc::ptr_eq(&before, &watch.current()));
    assert_eq!(names(&watch), ["alpha", "beta"]);

    // Repaired.
    write(&root, "beta", &skill("beta", "Repaired. Use when testing."));
    eventually(&watch, "beta repaired", |w| {
        w.last_error().is_none()
            && w.current().get("beta").map(|s| s.description().to_owned())
                == Some("Repaired. Use when testing.".to_owned())
    });

    // Deleted.
    std::fs::remove_dir_all(root.join("beta")).unwrap();
    eventually(&watch, "beta deleted", |w| names(w) == ["alpha"]);

    // The callback saw both kinds of reload.
    let seen: Vec<Reload> = events.try_iter().collect();
    assert!(
        seen.iter().any(|r| matches!(r, Reload::Loaded { .. })),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|r| matches!(r, Reload::Failed(_))),
        "{seen:?}"
    );
    drop(watch);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn watching_a_broken_root_does_not_start() {
    let root = std::env::temp_dir().join(format!("skills-watch-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(&root, "bad", "---\nname: Bad\n---\n");
    let error = Watch::start(Loader::new(), &root, Duration::from_millis(50), |_| {})
        .err()
        .expect("no set to start from");
    assert!(error.to_string().contains("bad/SKILL.md"), "{error}");
    let _ = std::fs::remove_dir_all(&root);
}

/// The watcher's own reads are not changes: after a reload, an idle root
/// stays idle (on Linux each read raised an open event, and the set was
/// reloaded about five times a second, for ever).
#[test]
fn an_idle_root_is_not_reloaded() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("skills-watch-idle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    write(&root, "alpha", &skill("alpha", "First. Use when testing."));
    let watch = Watch::start(Loader::new(), &root, Duration::from_millis(100), |_| {}).unwrap();
    write(&root, "alpha", &skill("alpha", "Edited. Use when testing."));
    eventually(&watch, "the edit", |w| {
        w.current().get("alpha").unwrap().description() == "Edited. Use when testing."
    });
    // Past the debounce of the edit's own burst of events, nothing changes.
    std::thread::sleep(Duration::from_millis(500));
    let settled = watch.reloads();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(watch.reloads(), settled, "reloaded with nothing changed");
    drop(watch);
    let _ = std::fs::remove_dir_all(&root);
}

/// A change to any file of a skill (not only SKILL.md) reloads it: the new
/// set holds the new bytes, and a new file.
#[test]
fn an_edit_of_a_skill_file_reloads_the_set() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("skills-watch-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(&root, "alpha", &skill("alpha", "First. Use when testing."));
    std::fs::create_dir_all(root.join("alpha/references")).unwrap();
    std::fs::write(root.join("alpha/references/r.md"), "# One\n").unwrap();
    let watch = Watch::start(Loader::new(), &root, Duration::from_millis(100), |_| {}).unwrap();
    let text = |w: &Watch, path: &str| {
        w.current()
            .get("alpha")
            .and_then(|s| s.file(path).and_then(|f| f.text().map(str::to_owned)))
    };
    assert_eq!(text(&watch, "references/r.md").as_deref(), Some("# One\n"));
    std::fs::write(root.join("alpha/references/r.md"), "# Two\n").unwrap();
    eventually(&watch, "the reference edited", |w| {
        text(w, "references/r.md").as_deref() == Some("# Two\n")
    });
    std::fs::write(root.join("alpha/references/new.md"), "# New\n").unwrap();
    eventually(&watch, "a reference added", |w| {
        text(w, "references/new.md").is_some()
    });
    drop(watch);
    let _ = std::fs::remove_dir_all(&root);
}

/// A link inside a skill to a tree outside the root is not followed: the
/// watcher neither watches that tree nor reloads when it changes. (The
/// loader would refuse the link, S515: it is excluded, as a user who keeps
/// such a link would.)
#[cfg(unix)]
#[test]
fn a_link_out_of_the_root_is_not_watched() {
    let base: PathBuf =
        std::env::temp_dir().join(format!("skills-watch-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let (root, outside) = (base.join("root"), base.join("outside"));
    std::fs::create_dir_all(outside.join("deep")).unwrap();
    std::fs::write(outside.join("deep/notes.txt"), "one").unwrap();
    write(&root, "alpha", &skill("alpha", "First. Use when testing."));
    std::os::unix::fs::symlink(&outside, root.join("alpha/linked")).unwrap();
    let loader = Loader::new().overrides(skills::loader::Overrides {
        exclude: Some(vec!["linked".into()]),
        ..Default::default()
    });
    let watch = Watch::start(loader, &root, Duration::from_millis(100), |_| {}).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let before = watch.reloads();
    for round in 0..5 {
        std::fs::write(outside.join("deep/notes.txt"), format!("round {round}")).unwrap();
        std::fs::write(outside.join(format!("deep/new-{round}.txt")), "x").unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        watch.reloads(),
        before,
        "changes outside the root reloaded the set"
    );
    drop(watch);
    let _ = std::fs::remove_dir_all(&base);
}

/// The set in use, skill by skill, as text.
fn seen(set: &skills::SkillSet) -> Vec<String> {
    set.iter().map(|skill| format!("{skill:?}")).collect()
}

/// What a whole load of `root` gives now.
fn whole(root: &Path) -> Vec<String> {
    seen(Loader::new().load(root).unwrap().set())
}

/// A reload after one skill changes reads that skill alone: every other
/// skill of the new set is the very one of the set before (shared, not
/// read again), and the new set is what a whole load gives.
#[test]
fn a_reload_keeps_every_skill_that_did_not_change() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("skills-watch-kept-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for name in ["alpha", "beta", "gamma"] {
        write(
            &root,
            name,
            &skill(name, &format!("The {name} skill. Use when {name}.")),
        );
    }
    let watch = Watch::start(Loader::new(), &root, Duration::from_millis(100), |_| {}).unwrap();
    let before = watch.current();
    write(&root, "beta", &skill("beta", "Edited. Use when testing."));
    eventually(&watch, "beta edited", |w| {
        w.current().get("beta").unwrap().description() == "Edited. Use when testing."
    });
    let after = watch.current();
    for name in ["alpha", "gamma"] {
        assert!(
            std::ptr::eq(before.get(name).unwrap(), after.get(name).unwrap()),
            "`{name}` did not change, and was read again"
        );
    }
    assert!(!std::ptr::eq(
        before.get("beta").unwrap(),
        after.get("beta").unwrap()
    ));
    assert_eq!(seen(&after), whole(&root));
    drop(watch);
    let _ = std::fs::remove_dir_all(&root);
}

/// A skill edited while another is broken is read by a reload that fails:
/// the set in use keeps the old one, and the reload that succeeds later
/// must not take that old one for the new.
#[test]
fn a_skill_edited_while_the_set_was_broken_is_not_lost() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("skills-watch-stale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(&root, "alpha", &skill("alpha", "First. Use when testing."));
    write(&root, "beta", &skill("beta", "Second. Use when testing."));
    let watch = Watch::start(Loader::new(), &root, Duration::from_millis(100), |_| {}).unwrap();
    write(
        &root,
        "beta",
        "---\nname: beta\ndescription: [unclosed\n---\n",
    );
    eventually(&watch, "beta broken", |w| w.last_error().is_some());
    let failed = watch.reloads();
    write(&root, "alpha", &skill("alpha", "Edited. Use when testing."));
    eventually(&watch, "alpha's edit seen, and failed with beta", |w| {
        w.reloads() > failed && w.last_error().is_some()
    });
    assert_eq!(
        watch.current().get("alpha").unwrap().description(),
        "First. Use when testing."
    );
    write(&root, "beta", &skill("beta", "Repaired. Use when testing."));
    eventually(&watch, "beta repaired", |w| w.last_error().is_none());
    assert_eq!(
        watch.current().get("alpha").unwrap().description(),
        "Edited. Use when testing."
    );
    assert_eq!(seen(&watch.current()), whole(&root));
    drop(watch);
    let _ = std::fs::remove_dir_all(&root);
}
