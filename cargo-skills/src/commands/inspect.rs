//! `list`, `show`, `catalog`, `tools`, `expand`, `schema`: read-only views of
//! compiled skills. Invalid skills are reported (short form) and exit 1.

use std::path::PathBuf;

use clap::ValueEnum;
use serde_json::{Value, json};
use skills_compiler::diagnostics::render;
use skills_compiler::emit::json::{self, View};
use skills_compiler::ir::present;
use skills_compiler::ir::{Skill, SkillSet};
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
        ListFormat::Json => print_json(&Value::Array(
            set.skills
                .iter()
                .map(|skill| json::skill(skill, View::Summary))
                .collect(),
        )),
        ListFormat::Table => {
            let width = set
                .skills
                .iter()
                .map(|s| s.name().chars().count())
                .max()
                .unwrap_or(4)
                .max(4);
            outln!(
                "{:width$}  {:8}  {:5}  DESCRIPTION",
                "NAME",
                "KIND",
                "TOOLS"
            );
            for skill in &set.skills {
                outln!(
                    "{:width$}  {:8}  {:5}  {}",
                    skill.name(),
                    skill.table.kind.as_str(),
                    skill.tools.len(),
                    shown(&present::one_line(skill.description(), 72))
                );
            }
        }
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
        CatalogFormat::Text => out!(
            "{}",
            shown_lines(
                &set.skills
                    .iter()
                    .map(|skill| present::catalog_line(skill))
                    .collect::<String>()
            )
        ),
        CatalogFormat::Xml => {
            let elements: Vec<String> = set
                .skills
                .iter()
                .map(|skill| present::catalog_xml_element(skill))
                .collect();
            outln!(
                "{}",
                shown_lines(&skills::available_skills(
                    elements.iter().map(String::as_str)
                ))
            )
        }
        CatalogFormat::Json => print_json(&Value::Array(
            set.skills
                .iter()
                .map(
                    |s| json!({"name": s.name(), "description": s.description(), "path": s.path()}),
                )
                .collect(),
        )),
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
    // The definitions the runtime sends: from the lowered tables, as `SKILLS`
    // holds them (the files do not matter here).
    let lowered = skills_compiler::emit::lower::skill(skill, Default::default());
    // A denied tool is never offered to a model: it is left out, and said so.
    for tool in lowered.tools().iter().filter(|tool| !tool.is_offered()) {
        anstream::eprintln!(
            "note: `{}` is left out: its skill's permissions deny it (a write not in `allow_write`)",
            tool.name()
        );
    }
    let definitions: Vec<Value> = lowered
        .tools()
        .iter()
        .filter(|tool| tool.is_offered())
        .map(|tool| {
            let text = match args.format {
                ToolsFormat::Anthropic => tool.anthropic_json(),
                ToolsFormat::Openai => tool.openai_json(),
                ToolsFormat::OpenaiStrict => tool
                    .openai_strict_json()
                    .unwrap_or_else(|| tool.openai_json()),
                ToolsFormat::Mcp => tool.mcp_json(),
            };
            serde_json::from_str(&text).unwrap_or(Value::Null)
        })
        .collect();
    print_json(&Value::Array(definitions));
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
    let krate: proc_macro2::TokenStream = args
        .crate_path
        .parse()
        .map_err(|_| Failure::Usage(format!("`{}` is not a path", args.crate_path)))?;
    let tokens = skills_compiler::emit::codegen::expand(&set, &krate);
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| Failure::Usage(format!("internal error: {e}")))?;
    out!("{}", prettyplease::unparse(&file));
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
