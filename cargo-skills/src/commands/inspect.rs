//! `list`, `show`, `catalog`, `tools`, `expand`, `schema`: read-only views of
//! compiled skills. Invalid skills are reported (short form) and exit 1.

use std::path::PathBuf;

use clap::ValueEnum;
use serde_json::Value;
use skills_compiler::diagnostics::render;
use skills_compiler::emit::json::{self, View};
use skills_compiler::ir::{Skill, SkillSet};
use skills_compiler::ops::views;
use skills_compiler::{Overrides, Profile, ops};

use crate::failure::Failure;
use crate::output::{out, outln, shown, shown_lines};
use crate::select::{Selection, compiled, targets};

/// The one skill `name` of the selection ([`ops::inspect::one`]), its
/// diagnostics printed.
fn compiled_one(selection: &Selection, paths: &[PathBuf], name: &str) -> Result<Skill, Failure> {
    let targets = targets(selection, paths, &Overrides::default())?;
    let inspected = ops::inspect::one(&targets, name, selection.verbose);
    for diagnostic in &inspected.diagnostics {
        anstream::eprintln!("{}", render::short(diagnostic));
    }
    let broken = inspected.broken_others;
    if broken > 0 {
        anstream::eprintln!(
            "warning: {broken} error{} in other skills, shown as warnings: `{name}` is valid on its own, and the build still refuses the others",
            if broken == 1 { "" } else { "s" }
        );
    }
    Ok(inspected.skill?)
}

fn print_json(value: &Value) {
    outln!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    format: ListFormat,
}

pub fn list(args: ListArgs) -> Result<(), Failure> {
    let set = compiled(&args.selection, &args.paths)?;
    match args.format {
        ListFormat::Json => print_json(&views::list_json(&set)),
        ListFormat::Table => out!("{}", views::list_table(&set)),
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The skill's name.
    name: String,
    /// Skills roots or skill directories to look in (default: the
    /// workspace's packages).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// Print the text a model reads when it loads the skill.
    #[arg(long, conflicts_with = "json")]
    rendered: bool,
    /// Print every field as JSON (the same as `--format json`).
    #[arg(long)]
    json: bool,
    /// List the skill directory's files (path, size, SHA-256, execute bit)
    /// and what was left out of it, and why.
    #[arg(long, conflicts_with = "rendered")]
    files: bool,
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    format: ShowFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    Text,
    Json,
}

pub fn show(args: ShowArgs) -> Result<(), Failure> {
    let skill = &compiled_one(&args.selection, &args.paths, &args.name)?;
    let as_json = args.json || args.format == ShowFormat::Json;
    if args.files {
        let files = skills_compiler::emit::lower::read_files(skill).map_err(|diagnostic| {
            anstream::eprintln!("{}", render::short(&diagnostic));
            Failure::Invalid
        })?;
        if as_json {
            print_json(&json::files(skill, &files));
        } else {
            out!("{}", skills_compiler::emit::text::files(skill, &files));
        }
    } else if args.rendered {
        out!(
            "{}",
            shown_lines(&skills_compiler::emit::lower::rendered(skill))
        );
    } else if as_json {
        print_json(&json::skill(skill, View::Full));
    } else {
        out!("{}", skills_compiler::emit::text::skill(skill));
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CatalogFormat {
    Text,
    Xml,
    Json,
    /// `.well-known/agent-skills/index.json` (discovery schema 0.2.0).
    WellKnown,
}

#[derive(Debug, clap::Args)]
pub struct CatalogArgs {
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    #[arg(long, value_enum, default_value_t = CatalogFormat::Text)]
    format: CatalogFormat,
    /// With `--format well-known`: write `index.json` into this folder,
    /// beside the artifacts it points at (`NAME/SKILL.md`, `NAME.zip`).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn catalog(args: CatalogArgs) -> Result<(), Failure> {
    if args.out.is_some() && args.format != CatalogFormat::WellKnown {
        return Err(Failure::Usage(
            "`--out` writes a discovery index: use it with `--format well-known`".into(),
        ));
    }
    let set = compiled(&args.selection, &args.paths)?;
    if set.skills.is_empty() {
        return Err(Failure::Usage(
            "no skills found: the catalog would be empty".into(),
        ));
    }
    match args.format {
        CatalogFormat::WellKnown => return well_known(&set, args.out.as_deref()),
        CatalogFormat::Text => out!("{}", views::catalog_text(&set)),
        CatalogFormat::Xml => outln!("{}", views::catalog_xml(&set)),
        CatalogFormat::Json => print_json(&views::catalog_json(&set)),
    }
    Ok(())
}

/// The discovery index, printed, or written into `out` with its artifacts
/// (each line says a file written).
fn well_known(set: &SkillSet, out: Option<&std::path::Path>) -> Result<(), Failure> {
    let index = ops::export::well_known(set)?;
    let Some(dir) = out else {
        out!("{}", index.to_json());
        return Ok(());
    };
    let files = ops::export::well_known_files(&index, dir);
    ops::export::write(&files, dir)?;
    // The index is the last file, after the artifacts it points at.
    for (at, file) in files.iter().enumerate() {
        let path = shown(&file.path.display().to_string()).into_owned();
        if at + 1 < files.len() {
            outln!("{path}  {} bytes", file.bytes.len());
        } else {
            outln!("{path}  {} skills", index.entries().len());
        }
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ToolsFormat {
    Anthropic,
    Openai,
    /// OpenAI with `"strict": true` where the schema qualifies.
    OpenaiStrict,
    Mcp,
}

#[derive(Debug, clap::Args)]
pub struct ToolsArgs {
    /// The skill whose tools to print.
    skill: String,
    /// Skills roots or skill directories to look in (default: the
    /// workspace's packages), as `show` takes them.
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    #[arg(long, value_enum, default_value_t = ToolsFormat::Anthropic)]
    format: ToolsFormat,
}

pub fn tools(args: ToolsArgs) -> Result<(), Failure> {
    let skill = &compiled_one(&args.selection, &args.paths, &args.skill)?;
    let format = match args.format {
        ToolsFormat::Anthropic => views::ToolFormat::Anthropic,
        ToolsFormat::Openai => views::ToolFormat::Openai,
        ToolsFormat::OpenaiStrict => views::ToolFormat::OpenaiStrict,
        ToolsFormat::Mcp => views::ToolFormat::Mcp,
    };
    let (definitions, notes) = views::tool_definitions(skill, format);
    for note in notes {
        anstream::eprintln!("note: {note}");
    }
    print_json(&definitions);
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ExpandArgs {
    paths: Vec<PathBuf>,
    #[command(flatten)]
    selection: Selection,
    /// The path of the `skills` crate in the generated code.
    #[arg(long, default_value = "::skills")]
    crate_path: String,
}

pub fn expand(args: ExpandArgs) -> Result<(), Failure> {
    let set = compiled(&args.selection, &args.paths)?;
    out!("{}", views::expanded_source(&set, &args.crate_path)?);
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// The schema of a sidecar tools.yaml instead of the frontmatter.
    #[arg(long)]
    tools_yaml: bool,
    /// The profile whose keys the frontmatter schema allows.
    #[arg(long, default_value = "extended")]
    profile: Profile,
}

pub fn schema(args: SchemaArgs) -> Result<(), Failure> {
    let schema = if args.tools_yaml {
        skills_compiler::emit::editor_schema::tools_yaml()
    } else {
        skills_compiler::emit::editor_schema::frontmatter(args.profile)
    };
    print_json(&schema);
    Ok(())
}
