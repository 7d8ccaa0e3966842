//! Each host's budget formula against worked examples from its cited source
//! (docs/budget.md): the size of the budget, how an entry counts, and what
//! goes first when the catalog does not fit.

use skills_compiler::ops::budget::{
    Budget, Entry, Fate, Host, Options, Report, Unit, builtins, entry_text, report,
};

/// A host's formula alone, without the skills it ships (those have tests of their own below).
fn bare(context: Option<u64>) -> Options {
    Options {
        context,
        builtins: false,
    }
}

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
    let limit = |context| report(Budget::ClaudeCode, &entries(&one), &bare(context)).limit;
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
        when_to_use: Some(when.as_str().into()),
        ..Entry::new("long", &description, "skills/long/SKILL.md")
    };
    let report = report(
        Budget::ClaudeCode,
        std::slice::from_ref(&entry),
        &bare(None),
    );
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
        when_to_use: Some("Use when asked.".into()),
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
    let report = report(Budget::ClaudeCode, &entries(&set), &bare(None));
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
    let limit = |context| report(Budget::Codex, &entries(&one), &bare(context)).limit;
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
    let chars = report(Budget::Codex, &entries, &bare(None));
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
    let tokens = report(Budget::Codex, &entries, &bare(Some(200_000)));
    assert_eq!(tokens.lines[0].cost, text.len().div_ceil(4));
}

#[test]
fn codex_shortens_long_descriptions_round_robin_and_keeps_short_ones_whole() {
    // Two descriptions of 20 characters and ten of 1,024: 11,072 characters
    // whole, against the 8,000-character fallback.
    let mut set = skills(2, 20);
    set.extend(skills(12, 1_024).split_off(2));
    let report = report(Budget::Codex, &entries(&set), &bare(None));
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
    let report = report(Budget::Codex, &entries(&set), &bare(None));
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
    let report = report(Budget::Zed, &entries(&set), &bare(None));
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
    let report = report(Budget::AgentSkills, &entries(&set), &bare(None));
    assert_eq!(report.limit.amount, 200);
    assert_eq!(fates(&report), [Fate::Full, Fate::OverTarget]);
    assert_eq!(report.culprit, Some(1));
}

#[test]
fn plain_budgets_measure_this_projects_catalog_lines() {
    let set = skills(3, 30);
    let entries = entries(&set);
    // `- skill-000: ` + 30 + newline = 44 characters, 11 tokens.
    let chars = report(Budget::Chars(100), &entries, &bare(None));
    assert_eq!(chars.lines[0].cost, 44);
    assert_eq!(fates(&chars), [Fate::Full, Fate::Full, Fate::Omitted]);
    let tokens = report(Budget::Tokens(30), &entries, &bare(None));
    assert_eq!(tokens.lines[0].cost, 11);
    assert_eq!(tokens.culprit, Some(2));
    assert!(!report(Budget::Chars(132), &entries, &bare(None)).is_over());
}

#[test]
fn every_host_lists_skills_by_name_whatever_the_input_order() {
    let mut set = skills(5, 50);
    set.reverse();
    for budget in Host::ALL.map(Host::budget) {
        let report = report(budget, &entries(&set), &bare(None));
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
    entries[1].when_to_use = Some(when.into());
    for budget in [Budget::ClaudeCode, Budget::Chars(10_000)] {
        let report = report(budget, &entries, &bare(None));
        for line in &report.lines {
            let text = entry_text(budget, &entries[line.entry.unwrap()]);
            assert_eq!(
                line.cost,
                text.chars().count(),
                "{}: {text:?}",
                budget.name()
            );
        }
    }
}

/// The host's own skills' lines, by name, with their costs.
fn builtin_lines(report: &Report) -> Vec<(&str, usize)> {
    report
        .builtin_lines()
        .map(|line| (line.name.as_str(), line.cost))
        .collect()
}

#[test]
fn codex_lists_its_five_system_skills_first_and_they_cost_569_tokens() {
    let set = skills(1, 100);
    let report = report(
        Budget::Codex,
        &entries(&set),
        &Options::context(Some(200_000)),
    );
    // Each `- name: description (file: /home/user/.codex/skills/.system/name/SKILL.md)`
    // line, at 4 bytes a token: 161 + 132 + 121 + 77 + 78.
    assert_eq!(
        builtin_lines(&report),
        [
            ("imagegen", 161),
            ("openai-docs", 132),
            ("plugin-creator", 121),
            ("skill-creator", 77),
            ("skill-installer", 78),
        ]
    );
    assert_eq!(report.builtin_cost(), 569);
    // 569 of 4,000 tokens: 14.2% of the budget is gone before any skill of yours.
    assert_eq!(report.limit.amount, 4_000);
    assert_eq!(report.lines[5].entry, Some(0));
    assert_eq!(report.used, 569 + report.lines[5].cost);
    // Codex keys skills by path: a skill of yours named like a system skill is listed too.
    let named = [(
        "skill-creator".to_owned(),
        "Mine.".to_owned(),
        "skills/skill-creator/SKILL.md".to_owned(),
    )];
    let both = super_report(Budget::Codex, &named);
    assert_eq!(both.builtin_lines().count(), 5);
    assert_eq!(both.project_lines().count(), 1);
}

fn super_report(budget: Budget, set: &[(String, String, String)]) -> Report {
    report(budget, &entries(set), &Options::default())
}

#[test]
fn codex_system_skills_take_their_share_before_yours() {
    // 20 skills of 300-character descriptions fit Codex's fallback of
    // 8,000 characters alone (20 × 366 = 7,320); the system skills' 2,266
    // characters push the catalog to 9,586, and descriptions are shortened
    // round-robin, the system skills' among them.
    let set = skills(20, 300);
    let bare_report = report(Budget::Codex, &entries(&set), &bare(None));
    assert_eq!(bare_report.used, 7_320);
    assert!(!bare_report.is_over());
    let shipped = super_report(Budget::Codex, &set);
    assert_eq!(shipped.builtin_cost(), 2_266);
    assert_eq!(shipped.used, bare_report.used + 2_266);
    assert!(shipped.is_over());
    // The culprit is yours, never one of Codex's own.
    let culprit = &shipped.lines[shipped.culprit.unwrap()];
    assert!(culprit.entry.is_some(), "{}", culprit.name);
    assert!(shipped.count(|f| matches!(f, Fate::Shortened { .. })) > 0);
}

#[test]
fn zed_lists_create_skill_first_and_a_skill_of_yours_by_that_name_in_its_place() {
    let set = skills(2, 50);
    let shipped = super_report(Budget::Zed, &set);
    // `create-skill` (12 bytes) and its 131-byte description.
    assert_eq!(builtin_lines(&shipped), [("create-skill", 143)]);
    assert_eq!(shipped.lines[0].entry, None);
    // 50 skills of 1,009 bytes and one of 709 fit 51,200 bytes alone
    // (51,159); after create-skill's 143 the last is left out.
    let mut full = skills(50, 1_000);
    full.push(("zz".into(), "z".repeat(707), "skills/zz/SKILL.md".into()));
    assert!(!report(Budget::Zed, &entries(&full), &bare(None)).is_over());
    let shipped = super_report(Budget::Zed, &full);
    assert_eq!(shipped.used, 51_159 + 143);
    assert_eq!(shipped.lines.last().unwrap().fate, Fate::Omitted);
    assert_eq!(shipped.lines[shipped.culprit.unwrap()].name, "zz");
    // A project skill named create-skill shadows the built-in, in its place:
    // first, before `a-skill`.
    let mine = [
        (
            "a-skill".to_owned(),
            "A.".to_owned(),
            "skills/a-skill/SKILL.md".to_owned(),
        ),
        (
            "create-skill".to_owned(),
            "Mine.".to_owned(),
            "skills/create-skill/SKILL.md".to_owned(),
        ),
    ];
    let shadowed = super_report(Budget::Zed, &mine);
    assert_eq!(shadowed.builtin_lines().count(), 0);
    let names: Vec<&str> = shadowed.lines.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["create-skill", "a-skill"]);
    // Without Zed's own skills there is no place to take: name order.
    let alone = report(Budget::Zed, &entries(&mine), &bare(None));
    let names: Vec<&str> = alone.lines.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["a-skill", "create-skill"]);
}

#[test]
fn zed_and_claude_code_leave_out_hidden_skills_and_codex_lists_them() {
    let mut set = skills(3, 2_000);
    set[1].1 = "h".repeat(60_000);
    let mut entries = entries(&set);
    entries[1].hidden = true;
    for budget in [Budget::Zed, Budget::ClaudeCode] {
        let report = report(budget, &entries, &Options::default());
        let hidden = report.project_lines().find(|l| l.entry == Some(1)).unwrap();
        assert_eq!(
            (hidden.fate, hidden.cost),
            (Fate::Hidden, 0),
            "{}",
            budget.name()
        );
        // In its place in name order, and what it would cost is not counted.
        let names: Vec<&str> = report.project_lines().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["skill-000", "skill-001", "skill-002"]);
        assert!(report.used < 60_000, "{}: {}", budget.name(), report.used);
        assert_eq!(report.count(|f| f == Fate::Hidden), 1);
        assert!(
            report.summary().contains("1 hidden"),
            "{}",
            report.summary()
        );
    }
    let codex = report(Budget::Codex, &entries, &Options::default());
    let listed = codex.project_lines().find(|l| l.entry == Some(1)).unwrap();
    assert_ne!(listed.fate, Fate::Hidden);
}

#[test]
fn claude_code_charges_its_bundled_skills_first() {
    // The five bundled skills the documentation names, counted by name:
    // `- batch: ` and a newline is 10 characters, and so on: 57 in all, a
    // lower bound (their descriptions are not published).
    let set = skills(40, 263);
    let shipped = super_report(Budget::ClaudeCode, &set);
    assert_eq!(
        builtin_lines(&shipped),
        [
            ("batch", 10),
            ("claude-api", 15),
            ("debug", 10),
            ("loop", 9),
            ("simplify", 13),
        ]
    );
    assert_eq!(shipped.used, 11_080 + 57);
    // Listed first, they keep their descriptions. Names take 480 + 47
    // characters, the bundled skills' `: ` 10 more; 28 descriptions of
    // yours (265 each) still fit in the 7,463 left and 12 go, as without them.
    assert_eq!(
        (
            shipped.count(|f| f == Fate::Full),
            shipped.count(|f| f == Fate::NameOnly)
        ),
        (28, 12)
    );
    assert!(shipped.builtin_lines().all(|l| l.fate == Fate::Full));
    // A skill of yours named like a bundled one shadows it.
    let mine = [(
        "debug".to_owned(),
        "Mine.".to_owned(),
        "skills/debug/SKILL.md".to_owned(),
    )];
    let shadowed = super_report(Budget::ClaudeCode, &mine);
    assert_eq!(shadowed.builtin_lines().count(), 4);
}

#[test]
fn the_culprit_is_never_one_of_the_hosts_own_skills() {
    // Codex at a 99-token context has 1 token: the system skills alone
    // pass it, and the blame goes to the first skill of yours.
    let set = skills(2, 10);
    let report = report(Budget::Codex, &entries(&set), &Options::context(Some(99)));
    let culprit = report.culprit.unwrap();
    assert_eq!(report.lines[culprit].entry, Some(0));
    // With none of yours there is nothing to blame.
    let empty = super_report(Budget::Codex, &[]);
    assert_eq!(empty.culprit, None);
    assert!(!empty.is_over());
    // Every host's list is its own module's data.
    assert_eq!(builtins::of(Budget::Codex).len(), 5);
    assert!(builtins::of(Budget::AgentSkills).is_empty());
}
