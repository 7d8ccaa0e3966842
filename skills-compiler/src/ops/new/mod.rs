//! `new`: a skill that passes `check` in its package's profile, and what a
//! crate that embeds skills needs to build at once (the runtime, a build
//! script that tracks the root, `skills-build`), planned.
//!
//! Tools go in the frontmatter in the `extended` and `lenient` profiles,
//! and in a sidecar `tools.yaml` in `portable` (where SKILL.md may hold
//! only the specification's keys). The skill is written by the compiler's
//! own [`SkillBuilder`], which checks what it writes.

use std::path::{Path, PathBuf};

use super::error::Error;
use super::plan::{Change, Plan};
use super::targets::{packages, relative_to_cwd};
use crate::config::{Config, Overrides, Profile};
use crate::pipeline::embed::tracking;
use crate::read::discover::display_path;
// What the scaffold depends on, as a front end names it.
pub use crate::pipeline::embed::tracking::Source;
// The builder a scaffold is written with, for a caller that writes
// skills of its own.
pub use crate::write::{EndpointSpec, ProtocolSpec, SkillBuilder, ToolSpec};

pub mod manifest;

/// What to scaffold.
#[derive(Debug, Clone)]
pub struct Request {
    /// The skill's name.
    pub name: String,
    /// A protocol: steps, post-checks and the three escape hatches.
    pub protocol: bool,
    /// A tool for each name, with an endpoint to edit.
    pub tools: Vec<String>,
    /// `<root>/<name>.md` instead of `<root>/<name>/SKILL.md`.
    pub flat: bool,
    /// The package (default: the one holding the current directory).
    pub package: Option<String>,
    /// The skills root (default: the package's configured `dir`).
    pub dir: Option<PathBuf>,
    /// Where the runtime comes from, for a crate that lacks it: where the
    /// front end was built (a clone's path, or the published version).
    pub runtime: Source,
}

/// What `new` will write, and what the person is told to do by hand.
#[derive(Debug, Clone)]
pub struct Scaffold {
    /// The skill's files, the build script and the manifest's edits.
    pub plan: Plan,
    /// The new skill file, as the current directory names it.
    pub skill_file: String,
    /// The package's profile, which the skill passes.
    pub profile: Profile,
    /// What was set up for the build, and what is left to do, in order.
    pub setup: Vec<Setup>,
}

/// One step of setting a package up to embed skills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    /// Not in a cargo package: only the skill is written.
    NotAPackage,
    /// The runtime added to `[dependencies]`: the entry.
    RuntimeAdded(String),
    /// The runtime could not be added (why), so nothing else is set up:
    /// the entry to add by hand.
    RuntimeByHand {
        /// Why.
        reason: String,
        /// `skills-runtime = ...`'s value.
        entry: String,
    },
    /// A build script exists without rebuild tracking: the line to add.
    BuildScriptByHand(String),
    /// A build script created that tracks the root: its path.
    BuildScriptCreated(String),
    /// `skills-build` added to `[build-dependencies]`: the entry.
    BuildDependencyAdded(String),
    /// `skills-build` could not be added: why.
    BuildDependencyByHand(String),
    /// No source file uses the macro yet: the root to name in it.
    MacroNotUsed(String),
}

/// Plans the skill and the package's set-up. Refuses a name the
/// compiler's rules refuse, a skill that exists, and options the
/// package's profile forbids, before anything is written.
pub fn plan(request: &Request) -> Result<Scaffold, Error> {
    let package = package(request.package.as_deref())?;
    let config =
        Config::load(&package.dir, Overrides::default()).map_err(|d| Error::Usage(d.message))?;
    let root = request.dir.clone().unwrap_or_else(|| config.dir.clone());
    refuse_for_profile(request, config.profile)?;
    let sidecar = config.profile == Profile::Portable && !request.tools.is_empty();
    let written = scaffold(request, sidecar)
        .build(&config)
        .map_err(|diagnostics| Error::Rejected {
            diagnostics,
            outcome: "no skill was created".into(),
        })?;
    let name = &request.name;
    for existing in [root.join(name), root.join(format!("{name}.md"))] {
        if package.dir.join(&existing).exists() {
            return Err(Error::Usage(format!(
                "a skill named `{name}` already exists: {}",
                existing.display()
            )));
        }
    }
    let skill_path = if request.flat {
        root.join(format!("{name}.md"))
    } else {
        root.join(name).join(skills_core::Skill::FILE)
    };
    let mut plan = Plan::default();
    plan.changes
        .push(created(&package.dir.join(&skill_path), written.skill_md));
    if let Some(tools_yaml) = written.tools_yaml {
        let sidecar = package.dir.join(&root).join(name).join("tools.yaml");
        plan.changes.push(created(&sidecar, tools_yaml));
    }
    let mut scaffold = Scaffold {
        plan,
        skill_file: display_path(&relative_to_cwd(&package.dir).join(&skill_path)),
        profile: config.profile,
        setup: Vec::new(),
    };
    set_up(&package, &root, &request.runtime, &mut scaffold);
    Ok(scaffold)
}

/// `portable` is the Agent Skills layout, which has no protocols and no
/// flat files.
fn refuse_for_profile(request: &Request, profile: Profile) -> Result<(), Error> {
    if profile == Profile::Portable && request.protocol {
        return Err(Error::Usage(
            "--protocol needs the `extended` or `lenient` profile; this package uses `portable`"
                .into(),
        ));
    }
    if profile == Profile::Portable && request.flat {
        return Err(Error::Usage(
            "--flat is not the Agent Skills layout, which the `portable` profile requires".into(),
        ));
    }
    Ok(())
}

fn created(path: &Path, text: String) -> Change {
    Change {
        path: display_path(path),
        before: String::new(),
        after: text,
    }
}

struct Package {
    dir: PathBuf,
    uses_skills: bool,
}

/// `-p PKG`, or the package whose directory holds the current directory,
/// or the current directory itself outside a cargo project.
fn package(name: Option<&str>) -> Result<Package, Error> {
    let packages = packages()?;
    if let Some(name) = name {
        let package = packages
            .into_iter()
            .find(|p| p.name == name)
            .ok_or_else(|| Error::Usage(format!("package `{name}` is not in this workspace")))?;
        return Ok(Package {
            dir: package.dir,
            uses_skills: package.uses_skills,
        });
    }
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .map_err(|e| Error::Io(e.to_string()))?;
    let here = packages
        .into_iter()
        .filter(|p| std::fs::canonicalize(&p.dir).is_ok_and(|dir| cwd.starts_with(dir)))
        .max_by_key(|p| p.dir.components().count());
    Ok(match here {
        Some(package) => Package {
            dir: package.dir,
            uses_skills: package.uses_skills,
        },
        None => Package {
            dir: PathBuf::from("."),
            uses_skills: false,
        },
    })
}

/// The new skill through the compiler's writer, so it is canonical: the
/// placeholders are W007 until the person writes them.
fn scaffold(request: &Request, sidecar: bool) -> SkillBuilder {
    let name = &request.name;
    let title: Vec<String> = name.split('-').map(capitalise).collect();
    let mut skill = SkillBuilder::new(
        name.as_str(),
        format!("TODO: say what {name} does and when a model should use it."),
    )
    .tools_in_sidecar(sidecar)
    .body(format!(
        "# {}\n\nTODO: the instructions a model follows when it loads this skill.\n",
        title.join(" ")
    ));
    if request.protocol {
        skill = skill.protocol(ProtocolSpec {
            steps: vec!["TODO: the first step.".into()],
            post_checks: vec!["TODO: how to tell that the steps worked.".into()],
            on_deviation: "Stop, say what differs from the plan, and ask how to continue.".into(),
            on_blocked: "Say what is missing, and stop.".into(),
            on_already_done: "Skip the step, and say in one line that it was already done.".into(),
            ..ProtocolSpec::default()
        });
    }
    // A working example (issue 40, item 4): an endpoint to edit, and a GET,
    // which the policy allows, so that the tool is offered to a model from
    // the start (a tool without an endpoint is denied and never offered).
    for tool in &request.tools {
        skill = skill.tool(ToolSpec {
            name: tool.clone(),
            description: format!("TODO: say what {tool} does and when to call it."),
            parameters: serde_json::json!({"type": "object", "properties": {}}),
            endpoint: Some(EndpointSpec {
                method: "GET".to_owned(),
                url: format!("https://api.example.com/{tool}"),
                ..EndpointSpec::default()
            }),
            ..ToolSpec::default()
        });
    }
    skill
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Crates that use the macro need a build script that tracks the root,
/// and `skills-build` to run it: both are set up so that the crate builds
/// at once. A crate that does not depend on the runtime yet gets it first.
fn set_up(package: &Package, root: &Path, runtime: &Source, scaffold: &mut Scaffold) {
    let manifest_path = package.dir.join("Cargo.toml");
    let Ok(before) = std::fs::read_to_string(&manifest_path) else {
        if !package.uses_skills {
            scaffold.setup.push(Setup::NotAPackage);
            return;
        }
        // cargo listed it, so it is there: the edits say why they cannot be made.
        scaffold.setup.push(Setup::BuildDependencyByHand(
            "cannot read Cargo.toml".to_owned(),
        ));
        return;
    };
    let mut manifest = before.clone();
    if !package.uses_skills {
        match manifest::add_runtime_dependency(&manifest, runtime) {
            Ok(Some((after, entry))) => {
                manifest = after;
                scaffold.setup.push(Setup::RuntimeAdded(entry));
            }
            Ok(None) => {}
            Err(reason) => {
                let entry = runtime.entry();
                scaffold.setup.push(Setup::RuntimeByHand { reason, entry });
                return;
            }
        }
    }
    let build_rs = package.dir.join("build.rs");
    match std::fs::read_to_string(&build_rs) {
        Ok(existing) if existing.contains("skills_build::") => {}
        Ok(_) => scaffold.setup.push(Setup::BuildScriptByHand(format!(
            "skills_build::track(\"{}\");",
            display_path(root)
        ))),
        Err(_) => {
            scaffold
                .plan
                .changes
                .push(created(&build_rs, tracking::build_rs_for(root)));
            let shown = display_path(&relative_to_cwd(&package.dir).join("build.rs"));
            scaffold.setup.push(Setup::BuildScriptCreated(shown));
        }
    }
    match manifest::add_build_dependency(&manifest) {
        Ok(Some((after, entry))) => {
            manifest = after;
            scaffold.setup.push(Setup::BuildDependencyAdded(entry));
        }
        Ok(None) => {}
        Err(reason) => scaffold.setup.push(Setup::BuildDependencyByHand(reason)),
    }
    if manifest != before {
        scaffold.plan.changes.push(Change {
            path: display_path(&manifest_path),
            before,
            after: manifest,
        });
    }
    if !crate::read::sources::uses_the_macro(&package.dir) {
        scaffold.setup.push(Setup::MacroNotUsed(display_path(root)));
    }
}
