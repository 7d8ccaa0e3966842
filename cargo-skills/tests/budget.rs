//! `cargo skills budget`: the table and the JSON (insta snapshots), on the
//! project's fixtures and on the real corpus, and the exit code: 1 only
//! when a configured budget is exceeded.

mod support;

use std::path::{Path, PathBuf};

use support::{cargo_skills_in, fresh_dir, output, workspace};

fn run(dir: &Path, args: &[&str], code: i32) -> String {
    output(dir, &[&["budget"], args].concat(), code).0
}

const SIXTY_FOUR: &str = "tests/fixtures/sixty-four";

#[test]
fn the_table_for_sixty_four_skills_under_every_host() {
    insta::assert_snapshot!("sixty_four_table", run(&workspace(), &[SIXTY_FOUR], 0));
}

#[test]
fn json_with_a_context_window_parses_back() {
    let text = run(
        &workspace(),
        &[
            SIXTY_FOUR,
            "--host",
            "codex",
            "--host",
            "claude-code",
            "--context",
            "200000",
            "--format",
            "json",
        ],
        0,
    );
    insta::assert_snapshot!("sixty_four_json_context", text);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["skills"], 64);
    assert_eq!(value["context"], 200_000);
    let reports = value["reports"].as_array().unwrap();
    let budgets: Vec<&str> = reports
        .iter()
        .map(|r| r["budget"].as_str().unwrap())
        .collect();
    assert_eq!(budgets, ["codex", "claude-code"]);
    assert_eq!(reports[0]["limit"]["amount"], 4_000);
    assert_eq!(reports[0]["limit"]["unit"], "tokens");
    assert_eq!(reports[1]["limit"]["amount"], 8_000);
    // Codex's five system skills come first, marked as the host's own.
    let codex = reports[0]["skills"].as_array().unwrap();
    assert_eq!(codex.len(), 5 + 64);
    assert!(codex[..5].iter().all(|s| s["builtin"] == true));
    assert!(codex[5..].iter().all(|s| s.get("builtin").is_none()));
    assert_eq!(reports[0]["builtin_cost"], 569);
}

#[test]
fn hidden_skills_and_the_hosts_own_skills_are_reported_and_can_be_left_out() {
    let dir = fresh_dir("budget-cli-hidden");
    for (name, extra) in [
        ("deploy", ""),
        ("secret", "disable-model-invocation: true\n"),
    ] {
        std::fs::create_dir_all(dir.join("skills").join(name)).unwrap();
        std::fs::write(
            dir.join("skills").join(name).join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Does {name}. Use when asked.\n{extra}---\nBody.\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\n\n[package.metadata.skills]\nprofile = \"extended\"\n",
    )
    .unwrap();
    let text = run(&dir, &["skills", "--host", "zed"], 0);
    assert!(
        text.contains("create-skill      143    0.3%  full (built-in)"),
        "{text}"
    );
    assert!(
        text.contains("secret              0    0.0%  hidden (disable-model-invocation)"),
        "{text}"
    );
    assert!(
        text.contains("1 hidden (disable-model-invocation)"),
        "{text}"
    );
    // Codex does not read `disable-model-invocation`: both are listed.
    let json = run(&dir, &["skills", "--host", "codex", "--format", "json"], 0);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let fates: Vec<&str> = value["reports"][0]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["fate"].as_str().unwrap())
        .collect();
    assert_eq!(fates, ["full"; 7]);
    // `--no-builtins` counts your skills alone.
    let bare = run(&dir, &["skills", "--host", "zed", "--no-builtins"], 0);
    assert!(!bare.contains("create-skill"), "{bare}");
    assert!(!bare.contains("before yours"), "{bare}");
}

#[test]
fn the_exit_code_is_1_only_over_a_configured_budget() {
    // Informational: no configuration, no flag; 64 skills fit every host.
    run(&workspace(), &[SIXTY_FOUR], 0);
    // A plain budget on the command line is a gate.
    let text = run(&workspace(), &[SIXTY_FOUR, "--chars", "1000"], 1);
    assert!(text.contains("chars: 5,"), "{text}");
    // A host asked for by name is a gate too: 64 skills at a tiny context.
    run(
        &workspace(),
        &[SIXTY_FOUR, "--host", "codex", "--context", "10000"],
        1,
    );
    run(&workspace(), &[SIXTY_FOUR, "--host", "zed"], 0);
}

#[test]
fn a_package_budget_table_configures_hosts_context_and_the_gate() {
    let dir = fresh_dir("budget-cli-package");
    std::fs::create_dir_all(dir.join("skills/a")).unwrap();
    std::fs::create_dir_all(dir.join("skills/b")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\n\n[package.metadata.skills.budget]\nhosts = [\"zed\"]\ntokens = 20\nlevel = \"deny\"\n",
    )
    .unwrap();
    let skill = |name: &str| {
        format!(
            "---\nname: {name}\ndescription: Skill {name} of the package. Use when asked for {name}.\n---\nBody.\n"
        )
    };
    std::fs::write(dir.join("skills/a/SKILL.md"), skill("a")).unwrap();
    std::fs::write(dir.join("skills/b/SKILL.md"), skill("b")).unwrap();
    // `deny` does not stop the table: the report is computed without the
    // package's own check; the gate is the exit code.
    let text = run(&dir, &["skills"], 1);
    insta::assert_snapshot!("package_budget_table", text);
    // `check` fails at the description that passes the budget.
    let output = cargo_skills_in(&dir)
        .args(["check", "skills", "--message-format", "short"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("skills/b/SKILL.md:3:14: error[W011]: with this description the catalog passes the configured budget of 20 tokens"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_host_is_a_usage_error() {
    let output = cargo_skills_in(&workspace())
        .args(["budget", SIXTY_FOUR, "--host", "vscode"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("unknown host `vscode`: expected claude-code, codex, zed or agent-skills"),
        "{stderr}"
    );
}

#[cfg(not(feature = "exact-tokens"))]
#[test]
fn exact_tokens_without_the_feature_says_how_to_get_it() {
    let output = cargo_skills_in(&workspace())
        .args(["budget", SIXTY_FOUR, "--exact-tokens"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--features exact-tokens"), "{stderr}");
}

#[cfg(feature = "exact-tokens")]
#[test]
fn exact_tokens_count_each_entry_with_o200k() {
    let text = run(
        &workspace(),
        &[
            SIXTY_FOUR,
            "--host",
            "zed",
            "--exact-tokens",
            "--format",
            "json",
        ],
        0,
    );
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Zed's own `create-skill` comes first; it is counted by length, so it
    // has no exact count.
    let builtin = &value["reports"][0]["skills"][0];
    assert_eq!(builtin["name"], "create-skill");
    assert_eq!(builtin["builtin"], true);
    assert!(builtin["o200k_tokens"].is_null(), "{builtin}");
    let first = &value["reports"][0]["skills"][1];
    // `- skill-00: Skill number 0. Use when the user asks for task 0 or
    // something close to it.` and a newline: 25 o200k tokens, where the
    // 4-characters-per-token estimate says 21.
    assert_eq!(first["name"], "skill-00");
    assert_eq!(first["o200k_tokens"], 25, "{first}");
}

fn corpus(collection: &str) -> Option<PathBuf> {
    let path = workspace().join("../shared/corpus").join(collection);
    if path.is_dir() {
        Some(path)
    } else {
        eprintln!(
            "skipped: the corpus is not at {} (a fresh clone has no ../shared)",
            path.display()
        );
        None
    }
}

/// Every directory under `root` that holds a SKILL.md, relative to `root`, sorted.
fn skill_dirs(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if path.join("SKILL.md").is_file() {
                    let relative = path.strip_prefix(root).unwrap();
                    out.push(relative.to_string_lossy().replace('\\', "/"));
                }
                walk(&path, root, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

#[test]
fn the_corpus_collections_as_tables_and_json() {
    for collection in ["anthropics-skills", "davepoon-buildwithclaude"] {
        let Some(dir) = corpus(collection) else {
            return;
        };
        let dirs = skill_dirs(&dir);
        let mut args: Vec<&str> = dirs.iter().map(String::as_str).collect();
        args.extend(["--profile", "lenient", "--context", "200000"]);
        insta::assert_snapshot!(format!("corpus_{collection}_table"), run(&dir, &args, 0));
        args.extend(["--format", "json"]);
        insta::assert_snapshot!(format!("corpus_{collection}_json"), run(&dir, &args, 0));
    }
}

#[test]
fn the_whole_corpus_in_one_catalog_summarised_per_host() {
    let Some(dir) = corpus("") else { return };
    let dirs = skill_dirs(&dir);
    let mut args: Vec<&str> = dirs.iter().map(String::as_str).collect();
    args.extend(["--profile", "lenient"]);
    let text = run(&dir, &args, 0);
    // Each host's header and what it cuts, without the rows.
    let summary: Vec<&str> = text
        .lines()
        .filter(|line| {
            !line.starts_with(' ') || !(line.contains('%') || line.starts_with("  SKILL"))
        })
        .filter(|line| !line.is_empty())
        .collect();
    insta::assert_snapshot!("corpus_whole_summary", summary.join("\n"));
}
