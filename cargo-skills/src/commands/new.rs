//! `cargo skills new`: scaffold a skill that passes `check` in the package's
//! profile, and set up rebuild tracking for crates that use the macro.
//!
//! Tools go in the frontmatter in the `extended` and `lenient` profiles, and in
//! a sidecar `tools.yaml` in `portable` (where SKILL.md may hold only the
//! specification's keys).

use std::path::{Path, PathBuf};

use skills_compiler::display_path;
use skills_compiler::write::{EndpointSpec, ProtocolSpec, SkillBuilder, ToolSpec};
use skills_compiler::{Config, Diagnostic, Overrides, Profile, compile_skill, tracking};

use crate::failure::Failure;
use crate::output::outln;
use crate::select::{packages, relative_to_cwd};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill's name: lowercase letters, digits and single hyphens.
    name: String,
    /// A protocol: steps, post-checks and the three escape hatches.
    #[arg(long)]
    protocol: bool,
    /// Declare a tool (repeatable).
    #[arg(long = "tool", value_name = "NAME")]
    tools: Vec<String>,
    /// Write `<root>/<name>.md` instead of `<root>/<name>/SKILL.md`.
    #[arg(long)]
    flat: bool,
    /// The package to add the skill to (default: the one in the current directory).
    #[arg(short = 'p', long = "package", value_name = "PKG")]
    package: Option<String>,
    /// The skills root (default: the package's configured `dir`).
    #[arg(long)]
    dir: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let package = package(args.package.as_deref())?;
    let config =
        Config::load(&package.dir, Overrides::default()).map_err(|d| Failure::Usage(d.message))?;
    let root = args.dir.clone().unwrap_or_else(|| config.dir.clone());
    let profile = config.profile;
    if profile == Profile::Portable && args.protocol {
        return Err(Failure::Usage(
            "--protocol needs the `extended` or `lenient` profile; this package uses `portable`"
                .into(),
        ));
    }
    if profile == Profile::Portable && args.flat {
        return Err(Failure::Usage(
            "--flat is not the Agent Skills layout, which the `portable` profile requires".into(),
        ));
    }
    let sidecar = profile == Profile::Portable && !args.tools.is_empty();
    // The compiler's own rules decide whether the name and the tools are
    // valid: the builder checks what it writes.
    let written = scaffold(&args, sidecar)
        .build(&config)
        .map_err(|errors| refused(&errors))?;
    let skill_path = if args.flat {
        root.join(format!("{}.md", args.name))
    } else {
        root.join(&args.name).join(skills::Skill::FILE)
    };
    for existing in [
        root.join(&args.name),
        root.join(format!("{}.md", args.name)),
    ] {
        if package.dir.join(&existing).exists() {
            return Err(Failure::Usage(format!(
                "a skill named `{}` already exists: {}",
                args.name,
                existing.display()
            )));
        }
    }
    write(&package.dir.join(&skill_path), &written.skill_md)?;
    if let Some(tools_yaml) = &written.tools_yaml {
        write(
            &package.dir.join(&root).join(&args.name).join("tools.yaml"),
            tools_yaml,
        )?;
    }
    let written = if args.flat {
        skill_path.clone()
    } else {
        root.join(&args.name)
    };
    let check = compile_skill(
        &package.dir,
        &written,
        &Config {
            dir: root.clone(),
            ..config
        },
    );
    if check.has_errors() {
        for diagnostic in &check.diagnostics {
            eprintln!(
                "{}",
                skills_compiler::diagnostics::render::short(diagnostic)
            );
        }
        return Err(Failure::Usage(
            "internal error: the new skill does not pass `check`; please report it".into(),
        ));
    }
    let shown = display_path(&relative_to_cwd(&package.dir).join(&skill_path));
    outln!("Created {shown} ({} profile)", profile.as_str());
    tracking_setup(&package, &root)?;
    outln!("\nNext:");
    outln!(
        "  - write the description: it decides when a model uses the skill, and is sent on every turn"
    );
    if !args.tools.is_empty() {
        outln!("  - declare each tool's parameters, and an endpoint if the tool is an HTTP call");
    }
    outln!("  - cargo skills check");
    Ok(())
}

/// What the builder refused, printed as the compiler says it (rustc-style,
/// without a location: nothing was written).
fn refused(errors: &[Diagnostic]) -> Failure {
    for error in errors {
        anstream::eprintln!(
            "{}[{}]: {}",
            error.severity.as_str(),
            error.code.as_str(),
            error.message
        );
        if let Some(help) = &error.help {
            anstream::eprintln!("  = help: {help}");
        }
    }
    Failure::Usage("no skill was created".into())
}

struct Package {
    dir: PathBuf,
    uses_skills: bool,
}

/// `-p PKG`, or the package whose directory holds the current directory, or
/// the current directory itself outside a cargo project.
fn package(name: Option<&str>) -> Result<Package, Failure> {
    let packages = packages()?;
    if let Some(name) = name {
        let package = packages
            .into_iter()
            .find(|p| p.name == name)
            .ok_or_else(|| Failure::Usage(format!("package `{name}` is not in this workspace")))?;
        return Ok(Package {
            dir: package.dir,
            uses_skills: package.uses_skills,
        });
    }
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .map_err(|e| Failure::Io(e.to_string()))?;
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

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .and_then(|()| std::fs::write(path, text))
        .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))
}

/// The new skill through the compiler's writer, so it is canonical: the
/// placeholders are W007 until the user writes them.
fn scaffold(args: &Args, sidecar: bool) -> SkillBuilder {
    let name = &args.name;
    let title: String = name
        .split('-')
        .map(capitalise)
        .collect::<Vec<_>>()
        .join(" ");
    let mut skill = SkillBuilder::new(
        name.as_str(),
        format!("TODO: say what {name} does and when a model should use it."),
    )
    .tools_in_sidecar(sidecar)
    .body(format!(
        "# {title}\n\nTODO: the instructions a model follows when it loads this skill.\n"
    ));
    if args.protocol {
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
    for tool in &args.tools {
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

/// Crates that use the macro need a build script that tracks the root, and
/// `skills-build` to run it: both are set up so that the crate builds at once.
/// A crate that does not depend on the runtime yet gets it first, from where
/// this command was built (a clone's path, or the published version).
fn tracking_setup(package: &Package, root: &Path) -> Result<(), Failure> {
    let manifest = package.dir.join("Cargo.toml");
    if !package.uses_skills {
        if !manifest.is_file() {
            outln!(
                "
Not in a cargo package: only the skill was written. To embed it, run this in a crate (`cargo new`), or see the README's quick start."
            );
            return Ok(());
        }
        let source = skills_compiler::tracking::Source::of(
            "skills-runtime",
            Path::new(env!("CARGO_MANIFEST_DIR")),
            env!("CARGO_PKG_VERSION"),
        );
        match manifest::add_runtime_dependency(&manifest, &source) {
            Ok(Some(entry)) => outln!("Added to Cargo.toml: [dependencies] {entry}"),
            Ok(None) => {}
            Err(reason) => {
                outln!(
                    "
Add the runtime as a dependency ({reason}):"
                );
                outln!("    skills-runtime = {}", source.entry());
                return Ok(());
            }
        }
    }
    let build_rs = package.dir.join("build.rs");
    let call = format!("skills_build::track(\"{}\");", display_path(root));
    match std::fs::read_to_string(&build_rs) {
        Ok(existing) if existing.contains("skills_build::") => {}
        Ok(_) => {
            outln!(
                "\nbuild.rs exists without rebuild tracking: add this line to its `main`, so new skills are seen:"
            );
            outln!("    {call}");
        }
        Err(_) => {
            write(&build_rs, &tracking::build_rs_for(root))?;
            let shown = display_path(&relative_to_cwd(&package.dir).join("build.rs"));
            outln!("Created {shown} (rebuild tracking for include_skills!)");
        }
    }
    match manifest::add_build_dependency(&manifest) {
        Ok(Some(entry)) => outln!("Added to Cargo.toml: [build-dependencies] {entry}"),
        Ok(None) => {}
        Err(reason) => {
            outln!("\nAdd `skills-build` as a build-dependency ({reason}):");
            outln!("    cargo add --build skills-build");
        }
    }
    if !skills_compiler::uses_the_macro(&package.dir) {
        outln!("\nNo source file uses the skills yet; add to src/main.rs or src/lib.rs:");
        outln!("    mod agent {{");
        outln!(
            "        skills::include_skills!(\"{}\");",
            display_path(root)
        );
        outln!("    }}");
    }
    Ok(())
}

/// Editing the package manifest, keeping its formatting.
pub mod manifest {
    use std::path::Path;

    use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

    /// Adds the runtime to `[dependencies]` from `source`, under the
    /// package's own name (`skills-runtime`, as `cargo add` writes it);
    /// code says `skills::`, the library's name. `Ok(None)` when it is
    /// there already.
    pub fn add_runtime_dependency(
        manifest: &Path,
        source: &skills_compiler::tracking::Source,
    ) -> Result<Option<String>, String> {
        let text = std::fs::read_to_string(manifest)
            .map_err(|e| format!("cannot read Cargo.toml: {e}"))?;
        let mut document: DocumentMut = text
            .parse()
            .map_err(|e| format!("Cargo.toml does not parse: {e}"))?;
        let dependencies = document
            .entry("dependencies")
            .or_insert_with(|| Item::Table(Table::new()));
        let Some(dependencies) = dependencies.as_table_like_mut() else {
            return Err("[dependencies] is not a table".to_owned());
        };
        let present = dependencies.iter().any(|(key, item)| {
            key == "skills-runtime" || package_of(item) == Some("skills-runtime")
        });
        if present {
            return Ok(None);
        }
        let entry: Value = match source {
            skills_compiler::tracking::Source::Path(dir) => {
                let mut table = InlineTable::new();
                table.insert(
                    "path",
                    Value::from(dir.to_string_lossy().replace('\\', "/")),
                );
                Value::InlineTable(table)
            }
            skills_compiler::tracking::Source::Version(version) => Value::from(version.as_str()),
        };
        let shown = format!("skills-runtime = {entry}");
        dependencies.insert("skills-runtime", Item::Value(entry));
        std::fs::write(manifest, document.to_string())
            .map_err(|e| format!("cannot write Cargo.toml: {e}"))?;
        Ok(Some(shown))
    }

    /// Adds `skills-build` to `[build-dependencies]` from the same source as
    /// the `skills` dependency: the sibling path, the same git repository and
    /// revision, the same version, or the workspace's entry. `Ok(None)` when
    /// it is there already; `Err` says why it cannot be derived.
    pub fn add_build_dependency(manifest: &Path) -> Result<Option<String>, String> {
        let text = std::fs::read_to_string(manifest)
            .map_err(|e| format!("cannot read Cargo.toml: {e}"))?;
        let mut document: DocumentMut = text
            .parse()
            .map_err(|e| format!("Cargo.toml does not parse: {e}"))?;
        let Some(entry) = added_entry(&document)? else {
            return Ok(None);
        };
        let shown = format!("skills-build = {entry}");
        let build = document
            .entry("build-dependencies")
            .or_insert_with(|| Item::Table(Table::new()));
        let Some(build) = build.as_table_like_mut() else {
            return Err("[build-dependencies] is not a table".to_owned());
        };
        build.insert("skills-build", Item::Value(entry));
        std::fs::write(manifest, document.to_string())
            .map_err(|e| format!("cannot write Cargo.toml: {e}"))?;
        Ok(Some(shown))
    }

    /// The value for `skills-build`, or `None` when it is a build-dependency already.
    pub fn added_entry(document: &DocumentMut) -> Result<Option<Value>, String> {
        let present = document
            .get("build-dependencies")
            .and_then(Item::as_table_like)
            .is_some_and(|table| {
                table.iter().any(|(key, item)| {
                    key == "skills-build" || package_of(item) == Some("skills-build")
                })
            });
        if present {
            return Ok(None);
        }
        let skills = document
            .get("dependencies")
            .and_then(Item::as_table_like)
            .and_then(|table| {
                table
                    .iter()
                    .find(|(key, item)| package_of(item).unwrap_or(key) == "skills-runtime")
                    .map(|(_, item)| item.clone())
            })
            .ok_or("the `skills-runtime` dependency was not found")?;
        if let Some(version) = skills.as_str() {
            return Ok(Some(Value::from(version)));
        }
        let table = skills
            .as_table_like()
            .ok_or("the `skills` dependency has an unexpected shape")?;
        let mut entry = InlineTable::new();
        if table.get("workspace").and_then(Item::as_bool) == Some(true) {
            // The workspace must declare skills-build too; cargo says so if it does not.
            entry.insert("workspace", Value::from(true));
            return Ok(Some(Value::InlineTable(entry)));
        }
        if let Some(path) = table.get("path").and_then(Item::as_str) {
            let sibling = Path::new(path)
                .parent()
                .map(|parent| parent.join("skills-build"))
                .ok_or("the `skills` path has no parent")?;
            entry.insert(
                "path",
                Value::from(sibling.to_string_lossy().replace('\\', "/")),
            );
        }
        for key in ["git", "branch", "tag", "rev", "version", "registry"] {
            if let Some(value) = table.get(key).and_then(Item::as_str) {
                entry.insert(key, Value::from(value));
            }
        }
        if entry.is_empty() {
            return Err("the `skills` dependency names no version, path or git source".to_owned());
        }
        Ok(Some(Value::InlineTable(entry)))
    }

    fn package_of(item: &Item) -> Option<&str> {
        item.as_table_like()?.get("package")?.as_str()
    }
}
