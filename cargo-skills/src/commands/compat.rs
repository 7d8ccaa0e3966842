//! The Agent Skills reference CLI (`skills-ref`): `validate`,
//! `read-properties` and `to-prompt`, with the same output and exit codes, so
//! CI scripts switch over unchanged. The `portable` profile applies unless
//! `--profile` says otherwise. Deliberate differences are listed in
//! docs/skills-ref.md.

use std::path::{Path, PathBuf};

use skills_compiler::{Config, Overrides, Profile, compile_skill, present};

use crate::failure::Failure;
use crate::output::{outln, shown};

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// A skill directory (or its SKILL.md).
    skill_path: PathBuf,
    #[arg(long, default_value = "portable")]
    profile: Profile,
}

#[derive(Debug, clap::Args)]
pub struct ReadPropertiesArgs {
    skill_path: PathBuf,
    #[arg(long, default_value = "portable")]
    profile: Profile,
}

#[derive(Debug, clap::Args)]
pub struct ToPromptArgs {
    #[arg(required = true)]
    skill_paths: Vec<PathBuf>,
    #[arg(long, default_value = "portable")]
    profile: Profile,
}

/// A `SKILL.md` path stands for its directory, as in the reference CLI.
fn skill_dir(path: &Path) -> Result<PathBuf, Failure> {
    if !path.exists() {
        return Err(Failure::Usage(format!(
            "Path '{}' does not exist.",
            path.display()
        )));
    }
    let dir = skills_compiler::skill_dir_of(path);
    // `validate .` works: the directory's own name is what `name` must match.
    let dir = if dir.as_os_str().is_empty() || dir == Path::new(".") {
        std::env::current_dir().map_err(|e| Failure::Io(e.to_string()))?
    } else {
        dir.to_path_buf()
    };
    Ok(dir)
}

fn config(profile: Profile) -> Result<Config, Failure> {
    Config::load(
        Path::new("."),
        Overrides {
            profile: Some(profile),
            ..Overrides::default()
        },
    )
    .map_err(|d| Failure::Usage(d.message))
}

pub fn validate(args: ValidateArgs) -> Result<(), Failure> {
    let dir = skill_dir(&args.skill_path)?;
    let path = if args.skill_path.is_file() {
        dir.display().to_string()
    } else {
        args.skill_path.display().to_string()
    };
    let path = shown(&path);
    let compilation = compile_skill(Path::new("."), &dir, &config(args.profile)?);
    let errors: Vec<String> = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| match (d.line(), d.column()) {
            (Some(line), Some(column)) => format!(
                "{} ({}:{line}:{column}, {})",
                shown(&d.message),
                shown(&d.file),
                d.code
            ),
            _ => format!("{} ({}, {})", shown(&d.message), shown(&d.file), d.code),
        })
        .collect();
    if errors.is_empty() {
        outln!("Valid skill: {path}");
        Ok(())
    } else {
        eprintln!("Validation failed for {path}:");
        for error in errors {
            eprintln!("  - {error}");
        }
        Err(Failure::Invalid)
    }
}

/// The specification's fields of one valid skill.
fn properties(
    path: &Path,
    profile: Profile,
) -> Result<(PathBuf, skills_compiler::ir::Skill), Failure> {
    let dir = skill_dir(path)?;
    let compilation = compile_skill(Path::new("."), &dir, &config(profile)?);
    if let Some(error) = compilation.diagnostics.iter().find(|d| d.is_error()) {
        eprintln!(
            "Error: {}",
            skills_compiler::diagnostics::render::short(error)
        );
        return Err(Failure::Invalid);
    }
    let skill = compilation
        .valid
        .skills
        .into_iter()
        .next()
        .ok_or(Failure::Invalid)?;
    Ok((dir, std::sync::Arc::unwrap_or_clone(skill)))
}

pub fn read_properties(args: ReadPropertiesArgs) -> Result<(), Failure> {
    let (_, skill) = properties(&args.skill_path, args.profile)?;
    let object = skills_compiler::json::skill(&skill, skills_compiler::json::View::Properties);
    outln!(
        "{}",
        serde_json::to_string_pretty(&object).unwrap_or_default()
    );
    Ok(())
}

pub fn to_prompt(args: ToPromptArgs) -> Result<(), Failure> {
    let mut skills = Vec::new();
    for path in &args.skill_paths {
        let (dir, mut skill) = properties(path, args.profile)?;
        // As the reference does: the absolute location of SKILL.md.
        let absolute = std::fs::canonicalize(&dir).unwrap_or(dir);
        let path = absolute.join(skills::Skill::FILE).display().to_string();
        skill.table.path = path.clone().into();
        skill.table.location = path.into();
        skills.push(skill);
    }
    let elements: Vec<String> = skills.iter().map(present::catalog_xml_element).collect();
    outln!(
        "{}",
        skills::available_skills(elements.iter().map(String::as_str))
    );
    Ok(())
}
