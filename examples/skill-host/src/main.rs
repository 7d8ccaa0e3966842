//! An agent host: its own skills compiled in, the user's loaded at run time
//! with the same rules, one catalog over both.
//!
//!     skill-host [--profile portable|extended|lenient] [--watch] [ROOT ...]
//!
//! Roots given on the command line come first, in order: a user's skill
//! wins over a built-in one of the same name, and the host says so. With
//! `--watch`, each root is reloaded when its files change and the catalog
//! printed again; a broken root keeps its last good skills and its
//! diagnostics are printed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use skills::loader::{Loader, Profile, Reload, Watch};
use skills::{Layers, SkillSet};

mod built_in {
    skills::include_skills!("skills");
}

struct Args {
    profile: Profile,
    watch: bool,
    roots: Vec<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut args = Args {
        profile: Profile::Extended,
        watch: false,
        roots: Vec::new(),
    };
    let mut given = std::env::args().skip(1);
    while let Some(arg) = given.next() {
        match arg.as_str() {
            "--watch" => args.watch = true,
            "--profile" => {
                args.profile = given.next().unwrap_or_default().parse()?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            root => args.roots.push(PathBuf::from(root)),
        }
    }
    Ok(args)
}

/// The merged catalog of the user's sets over the built-in one.
fn print_catalog(user: &[(String, Arc<SkillSet>)]) {
    let mut layers = Layers::new();
    for (label, set) in user {
        layers = layers.layer(label.clone(), set);
    }
    let merged = layers.layer("built-in", &built_in::SKILLS).merge();
    for shadowed in &merged.shadowed {
        eprintln!("note: {shadowed}");
    }
    print!("{} skills:\n{}", merged.set.len(), merged.set.catalog());
    println!("--");
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let loader = Loader::new().profile(args.profile);
    if !args.watch {
        let mut user = Vec::new();
        for root in &args.roots {
            match loader.load(root) {
                Ok(loaded) => {
                    eprint!("{}", loaded.render_warnings());
                    user.push((root.display().to_string(), Arc::new(loaded.into_set())));
                }
                Err(error) => {
                    eprintln!("{error}");
                    return ExitCode::FAILURE;
                }
            }
        }
        print_catalog(&user);
        return ExitCode::SUCCESS;
    }
    // One watcher per root; every reload wakes the main thread, which
    // prints the merged catalog again.
    let (wake, woken) = mpsc::channel::<()>();
    let mut watches = Vec::new();
    for root in &args.roots {
        let wake = wake.clone();
        let label = root.display().to_string();
        let on_reload = move |reload: &Reload| {
            match reload {
                Reload::Loaded { .. } => {}
                Reload::Failed(error) => {
                    eprintln!("{error}\n{label}: keeping the last good skills")
                }
                Reload::WatchError(message) => eprintln!("{label}: {message}"),
            }
            let _ = wake.send(());
        };
        match Watch::start(loader.clone(), root, Duration::from_millis(200), on_reload) {
            Ok(watch) => watches.push(watch),
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::FAILURE;
            }
        }
    }
    let current = |watches: &[Watch]| -> Vec<(String, Arc<SkillSet>)> {
        watches
            .iter()
            .map(|w| (w.root().display().to_string(), w.current()))
            .collect()
    };
    print_catalog(&current(&watches));
    while woken.recv().is_ok() {
        print_catalog(&current(&watches));
    }
    ExitCode::SUCCESS
}
