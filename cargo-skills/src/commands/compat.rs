//! The Agent Skills reference CLI (`skills-ref`): `validate`,
//! `read-properties` and `to-prompt`, with the same output and exit codes, so
//! CI scripts switch over unchanged. The `portable` profile applies unless
//! `--profile` says otherwise. Deliberate differences are listed in
//! docs/skills-ref.md.

use std::path::{Path, PathBuf};

use skills_compiler::diagnostics::render;
use skills_compiler::ir::Skill;
use skills_compiler::ir::present;
use skills_compiler::{Profile, ops};

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

pub fn validate(args: ValidateArgs) -> Result<(), Failure> {
    let (dir, compilation) = ops::compat::compile(&args.skill_path, args.profile)?;
    let path = if args.skill_path.is_file() {
        dir.display().to_string()
    } else {
        args.skill_path.display().to_string()
    };
    let path = shown(&path);
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

/// The specification's fields of one valid skill; its first error, printed.
fn properties(path: &Path, profile: Profile) -> Result<(PathBuf, Skill), Failure> {
    match ops::compat::properties(path, profile)? {
        (dir, Ok(skill)) => Ok((dir, skill)),
        (_, Err(error)) => {
            eprintln!("Error: {}", render::short(&error));
            Err(Failure::Invalid)
        }
    }
}

pub fn read_properties(args: ReadPropertiesArgs) -> Result<(), Failure> {
    let (_, skill) = properties(&args.skill_path, args.profile)?;
    let object =
        skills_compiler::emit::json::skill(&skill, skills_compiler::emit::json::View::Properties);
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
