//! Each host's budget formula against worked examples from its cited source
//! (docs/budget.md): the size of the budget, how an entry counts, and what
//! goes first when the catalog does not fit.

use skills_compiler::budget::{Budget, Entry, Fate, Host, Report, Unit, entry_text, report};

/// `n` skills named `skill-000`... with descriptions of `len` characters.
fn skills(n: usize, len: usize) -> Vec<(String, String, String)> {
    (0..n)
        .map(|i| {
            let name = format!("skill-{i:03}");
            let description = format!("{i:03} {}", "x".repeat(len.saturating_sub(4)));
            let path = format!("skills/{name}/SKILL.md");
            (name, description, path)
        })
        .collect()
}

fn entries(skills: &[(String, String, String)]) -> Vec<Entry<'_>> {
    skills
        .iter()
        .map(|(name, description, path)| Entry::new(name, description, path))
        .collect()
}

fn fates(report: &Report) -> Vec<Fate> {
    report.lines.iter().map(|line| line.fate).collect()
}

#[test]
fn claude_code_budget_is_one_percent_of_the_context_at_four_characters_per_token() {
    let one = skills(1, 10);
    // "8,000 chars (1% of 200k context at ~4 chars/token)"; 8,000 when the window is unknown.
    let limit = |context| report(Budget::ClaudeCode, &entries(&one), context).limit;
    assert_eq!(limit(Some(200_000)).amount, 8_000);
    assert_eq!(limit(Some(200_000)).unit, Unit::Chars);
    assert_eq!(limit(Some(1_000_000)).amount, 40_000);
    assert_eq!(limit(None).amount, 8_000);
    assert_eq!(
        limit(None).basis,
        "fallback when the context window is unknown"
    );
}

#[test]
fn claude_code_caps_description_and_when_to_use_at_1536_characters() {
    let description = "d".repeat(1_000);
    let when = "w".repeat(999);
    let entry = Entry {
        when_to_use: Some(&when),
        ..Entry::new("long", &description, "skills/long/SKILL.md")
    };
    let report = report(Budget::ClaudeCode, &[entry], None);
    // `- long: ` + 1,536 characters + newline.
    assert_eq!(report.lines[0].cost, 8 + 1_536 + 1);
    assert_eq!(report.lines[0].fate, Fate::Shortened { shown: 1_536 });
    assert_eq!(
        entry_text(Budget::ClaudeCode, &entry).chars().count(),
        report.lines[0].cost
    );
    // As Claude Code writes it (issue 24, item 7): `when_to_use` after
    // `" - "`, and the cut is 1,535 characters and `…`.
    let text = entry_text(Budget::ClaudeCode, &entry);
    assert!(
        text.starts_with(&format!("- long: {description} - w")),
        "{text}"
    );
    assert!(text.ends_with("w…\n"), "{text}");
    let short = Entry {
        when_to_use: Some("Use when asked."),
        ..Entry::new("short", "Does a.", "skills/short/SKILL.md")
    };
    assert_eq!(
        entry_text(Budget::ClaudeCode, &short),
        "- short: Does a. - Use when asked.\n"
    );
}

#[test]
fn claude_code_keeps_every_name_and_drops_descriptions_past_the_budget() {
    // 40 skills of 263-character descriptions (the gist's "typical" length):
    // 40 × (2 + 9 + 2 + 263 + 1) = 11,080 characters against 8,000.
    let set = skills(40, 263);
    let report = report(Budget::ClaudeCode, &entries(&set), None);
    assert_eq!(report.used, 40 * (2 + 9 + 2 + 263 + 1));
    assert!(report.is_over());
    // Names (`- skill-000` and a newline, 12 characters) always stay: 480.
    // Descriptions in listing order while they fit: (8,000 - 480) / 265 = 28.
    let kept = report.count(|f| f == Fate::Full);
    let dropped = report.count(|f| f == Fate::NameOnly);
    assert_eq!((kept, dropped), (28, 12));
    assert_eq!(report.count(|f| f == Fate::Omitted), 0);
    // The first skill that does not fit whole is the 29th: 28 × 277 = 7,756, + 277 > 8,000.
    assert_eq!(report.culprit, Some(28));
    assert_eq!(fates(&report)[27], Fate::Full);
    assert_eq!(fates(&report)[28], Fate::NameOnly);
}

#[test]
fn codex_budget_is_two_percent_of_the_context_in_tokens_or_8000_characters() {
    let one = skills(1, 10);
    let limit = |context| report(Budget::Codex, &entries(&one), context).limit;
    // Codex's own tests: 200,000 -> Tokens(4,000); 99 -> Tokens(1); none -> Characters(8,000).
    assert_eq!(
        (limit(Some(200_000)).amount, limit(Some(200_000)).unit),
        (4_000, Unit::Tokens)
    );
    assert_eq!(limit(Some(99)).amount, 1);
    assert_eq!((limit(None).amount, limit(None).unit), (8_000, Unit::Chars));
    // A 272,000-token window (GPT-5 in Codex): 5,440 tokens.
    assert_eq!(limit(Some(272_000)).amount, 5_440);
}

#[test]
fn codex_counts_the_whole_line_with_its_path_and_a_newline() {
    let set = skills(1, 20);
    let entries = entries(&set);
    let chars = report(Budget::Codex, &entries, None);
    let text = entry_text(Budget::Codex, &entries[0]);
    assert_eq!(
        text,
        format!(
            "- skill-000: {} (file: /home/user/.codex/skills/skill-000/SKILL.md)\n",
            set[0].1
        )
    );
    assert_eq!(chars.lines[0].cost, text.chars().count());
    // Tokens are 4 bytes each, rounded up.
    let tokens = report(Budget::Codex, &entries, Some(200_000));
    assert_eq!(tokens.lines[0].cost, text.len().div_ceil(4));
}

#[test]
fn codex_shortens_long_descriptions_round_robin_and_keeps_short_ones_whole() {
    // Two descriptions of 20 characters and ten of 1,024: 11,072 characters
    // whole, against the 8,000-character fallback.
    let mut set = skills(2, 20);
    set.extend(skills(12, 1_024).split_off(2));
    let report = report(Budget::Codex, &entries(&set), None);
    assert_eq!(report.used, 2 * (65 + 21) + 10 * (65 + 1_025));
    // Every name and path stays (12 × 65 = 780); the 7,220 characters left
    // go one at a time to each description that still has some: the short
    // ones whole (21 each with their space), 7,178 for the ten long ones,
    // 717 characters to each of the first eight and 716 to the last two.
    let fates = fates(&report);
    assert_eq!(fates[..2], [Fate::Full, Fate::Full]);
    assert_eq!(fates[2..10], [Fate::Shortened { shown: 717 }; 8]);
    assert_eq!(fates[10..], [Fate::Shortened { shown: 716 }; 2]);
    assert_eq!(report.count(|f| f == Fate::Omitted), 0);
}

#[test]
fn codex_leaves_out_skills_in_order_when_even_names_do_not_fit() {
    // 300 skills' minimum lines (~59 characters) pass 8,000 characters.
    let set = skills(300, 10);
    let report = report(Budget::Codex, &entries(&set), None);
    let shown = report.count(|f| f == Fate::NameOnly);
    let omitted = report.count(|f| f == Fate::Omitted);
    assert_eq!(shown + omitted, 300);
    assert!(shown > 100 && omitted > 100, "{shown} {omitted}");
    // In order: every omitted skill comes after every shown one.
    let first_omitted = fates(&report)
        .iter()
        .position(|f| *f == Fate::Omitted)
        .unwrap();
    assert!(
        fates(&report)[first_omitted..]
            .iter()
            .all(|f| *f == Fate::Omitted)
    );
}

#[test]
fn zed_counts_name_and_description_bytes_against_50_kib_and_stops_at_the_first_overflow() {
    // 60 skills of 1,000-byte descriptions: 60 × 1,009 = 60,540 bytes > 51,200.
    let mut set = skills(60, 1_000);
    // A tiny skill that sorts last would fit, but Zed stops packing at the first overflow.
    set.push(("zz".into(), "Tiny.".into(), "skills/zz/SKILL.md".into()));
    let report = report(Budget::Zed, &entries(&set), None);
    assert_eq!(report.limit.amount, 51_200);
    assert_eq!(report.limit.unit, Unit::Bytes);
    assert_eq!(report.lines[0].cost, "skill-000".len() + 1_000);
    // 50 × 1,009 = 50,450 fits; the 51st passes 51,200.
    assert_eq!(report.culprit, Some(50));
    assert_eq!(report.count(|f| f == Fate::Full), 50);
    assert_eq!(report.count(|f| f == Fate::Omitted), 11);
    assert_eq!(report.lines.last().unwrap().fate, Fate::Omitted);
}

#[test]
fn the_client_guide_flags_skills_over_about_100_tokens() {
    // 400 characters of name and description: 100 tokens, on target; 401: over.
    let mut set = skills(1, 400 - 9);
    set.extend(skills(2, 401 - 9).split_off(1));
    let report = report(Budget::AgentSkills, &entries(&set), None);
    assert_eq!(report.limit.amount, 200);
    assert_eq!(fates(&report), [Fate::Full, Fate::OverTarget]);
    assert_eq!(report.culprit, Some(1));
}

#[test]
fn plain_budgets_measure_this_projects_catalog_lines() {
    let set = skills(3, 30);
    let entries = entries(&set);
    // `- skill-000: ` + 30 + newline = 44 characters, 11 tokens.
    let chars = report(Budget::Chars(100), &entries, None);
    assert_eq!(chars.lines[0].cost, 44);
    assert_eq!(fates(&chars), [Fate::Full, Fate::Full, Fate::Omitted]);
    let tokens = report(Budget::Tokens(30), &entries, None);
    assert_eq!(tokens.lines[0].cost, 11);
    assert_eq!(tokens.culprit, Some(2));
    assert!(!report(Budget::Chars(132), &entries, None).is_over());
}

#[test]
fn every_host_lists_skills_by_name_whatever_the_input_order() {
    let mut set = skills(5, 50);
    set.reverse();
    for budget in Host::ALL.map(Host::budget) {
        let report = report(budget, &entries(&set), None);
        let names: Vec<&str> = report.lines.iter().map(|l| l.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "{}", budget.name());
    }
}

#[test]
fn counted_costs_agree_with_the_rendered_entries() {
    // Claude Code and the plain budgets count entries without rendering
    // them; what they count is what `entry_text` renders.
    let set = skills(6, 70);
    let when = "when the user asks";
    let mut entries = entries(&set);
    entries[1].when_to_use = Some(when);
    for budget in [Budget::ClaudeCode, Budget::Chars(10_000)] {
        let report = report(budget, &entries, None);
        for line in &report.lines {
            let text = entry_text(budget, &entries[line.entry]);
            assert_eq!(
                line.cost,
                text.chars().count(),
                "{}: {text:?}",
                budget.name()
            );
        }
    }
}
