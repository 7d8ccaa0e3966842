//! Which skills a command works on: explicit paths, or the workspace packages
//! that have skills, found through `cargo metadata` and their configuration.

use std::path::{Path, PathBuf};

use skills_compiler::{Compilation, Config, Overrides, compile, compile_skill};

use crate::Failure;

/// What the user selected on the command line.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Selection {
    /// Only this package of the workspace.
    #[arg(short = 'p', long = "package", value_name = "PKG")]
    pub package: Option<String>,
    /// Every workspace package with skills (the default without PATH).
    #[arg(long)]
    pub workspace: bool,
    /// Rule set: portable, extended or lenient (default: the package's).
    #[arg(long)]
    pub profile: Option<skills_compiler::Profile>,
}

/// One place to compile: a crate directory and its configuration, with paths
/// relative to the current directory.
#[derive(Debug, Clone)]
pub struct Target {
    pub config: Config,
    /// A single skill (a directory with SKILL.md, or a `.md` file) rather than a root.
    pub skill: Option<PathBuf>,
}

impl Target {
    pub fn compile(&self) -> Compilation {
        let base = Path::new(".");
        match &self.skill {
            Some(skill) => compile_skill(base, skill, &self.config),
            None => compile(base, &self.config),
        }
    }
}

/// The targets for `paths` (empty: the workspace's packages with skills).
pub fn targets(
    selection: &Selection,
    paths: &[PathBuf],
    overrides: &Overrides,
) -> Result<Vec<Target>, Failure> {
    let overrides = Overrides {
        profile: selection.profile.or(overrides.profile),
        ..overrides.clone()
    };
    if !paths.is_empty() {
        let config =
            Config::load(Path::new("."), overrides).map_err(|d| Failure::Usage(d.message))?;
        return Ok(paths
            .iter()
            .map(|path| path_target(path, &config))
            .collect());
    }
    let packages = packages()?;
    let mut targets = Vec::new();
    for package in &packages {
        if selection
            .package
            .as_ref()
            .is_some_and(|name| name != &package.name)
        {
            continue;
        }
        let config = Config::load(&package.dir, overrides.clone())
            .map_err(|d| Failure::Usage(format!("{}: {}", package.name, d.message)))?;
        let explicit = selection.package.is_some() || package.configured;
        if !explicit && !package.dir.join(&config.dir).is_dir() {
            continue;
        }
        let relative = relative_to_cwd(&package.dir);
        targets.push(Target {
            config: Config {
                dir: relative.join(&config.dir),
                ..config
            },
            skill: None,
        });
    }
    if let Some(name) = &selection.package
        && targets.is_empty()
    {
        return Err(Failure::Usage(format!(
            "package `{name}` is not in this workspace"
        )));
    }
    if targets.is_empty() && packages.is_empty() {
        // Not in a cargo project: the current directory's `skills`.
        let config =
            Config::load(Path::new("."), overrides).map_err(|d| Failure::Usage(d.message))?;
        targets.push(Target {
            config,
            skill: None,
        });
    }
    Ok(targets)
}

/// A path with a SKILL.md (or a `.md` file) is one skill; anything else a root.
fn path_target(path: &Path, config: &Config) -> Target {
    let is_skill = path.join("SKILL.md").is_file() || path.extension().is_some_and(|e| e == "md");
    Target {
        config: Config {
            dir: path.to_path_buf(),
            ..config.clone()
        },
        skill: is_skill.then(|| path.to_path_buf()),
    }
}

pub struct Package {
    pub name: String,
    pub dir: PathBuf,
    /// Has `[package.metadata.skills]`.
    pub configured: bool,
    /// Depends on the `skills` runtime crate (so it may use the macro).
    pub uses_skills: bool,
}

/// The workspace's packages, or none outside a cargo project.
pub fn packages() -> Result<Vec<Package>, Failure> {
    let metadata = match cargo_metadata::MetadataCommand::new().no_deps().exec() {
        Ok(metadata) => metadata,
        Err(cargo_metadata::Error::CargoMetadata { stderr })
            if stderr.contains("could not find `Cargo.toml`") =>
        {
            return Ok(Vec::new());
        }
        Err(error) => return Err(Failure::Usage(format!("cargo metadata failed: {error}"))),
    };
    let mut packages: Vec<Package> = metadata
        .workspace_packages()
        .into_iter()
        .map(|package| Package {
            name: package.name.to_string(),
            dir: package
                .manifest_path
                .parent()
                .map(|p| p.as_std_path().to_path_buf())
                .unwrap_or_default(),
            configured: package.metadata.get("skills").is_some(),
            uses_skills: package.dependencies.iter().any(|d| d.name == "skills"),
        })
        .collect();
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(packages)
}

/// `dir` relative to the current directory when it is inside it; as is otherwise.
pub fn relative_to_cwd(dir: &Path) -> PathBuf {
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .unwrap_or_default();
    let dir_canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match dir_canonical.strip_prefix(&cwd) {
        Ok(relative) if relative.as_os_str().is_empty() => PathBuf::from("."),
        Ok(relative) => relative.to_path_buf(),
        Err(_) => dir.to_path_buf(),
    }
}
