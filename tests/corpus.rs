//! The real-world corpus read in place: Anthropic's skills as whole
//! directories (`../shared/corpus-dirs/anthropics-skills`, Apache-2.0), each
//! with the verdict the specification implies, and every collection of
//! `../shared/corpus` (SKILL.md and other markdown only). A fresh clone
//! without `../shared` skips these tests and says so.

use std::path::{Path, PathBuf};

use skills_compiler::{Code, Config, Profile, Severity, compile, compile_skill};

fn corpus() -> Option<PathBuf> {
    // The whole directories: the `.md`-only copy in `corpus/` lacks the
    // scripts and assets that the bodies name.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus-dirs/anthropics-skills");
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

/// The collections of the corpus, sorted.
fn collections(root: &Path) -> Vec<PathBuf> {
    let mut collections: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    collections.sort();
    collections
}

/// All of `../shared/corpus`, or `None` (and a note) in a fresh clone.
fn whole_corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if root.is_dir() {
        return Some(root);
    }
    eprintln!(
        "skipped: no corpus at {} (a fresh clone has no ../shared)",
        root.display()
    );
    None
}

/// Every skill of `skills/` and what each profile says of it.
const VERDICTS: &[(&str, &[(Code, Severity)])] = &[
    ("algorithmic-art", &[]),
    ("brand-guidelines", &[]),
    ("canvas-design", &[]),
    // Its description is 1,068 characters; the limit is 1,024 (in `lenient`
    // a warning, and then its 5,000-token body is one too: see `verdict`).
    ("claude-api", &[(Code::DescriptionTooLong, Severity::Error)]),
    ("frontend-design", &[]),
    ("internal-comms", &[]),
    ("mcp-builder", &[]),
    // Its body is about 8,200 tokens; the client guide recommends 5,000.
    ("skill-creator", &[(Code::LongBody, Severity::Warning)]),
    ("slack-gif-creator", &[]),
    ("theme-factory", &[]),
    ("web-artifacts-builder", &[]),
    // "Toolkit for ... Supports ...": what, never when.
    ("webapp-testing", &[(Code::NoWhenToUse, Severity::Warning)]),
];

/// A skill's verdict in `profile`: `lenient` loads an over-long description
/// as the hosts do (issue 23, item 12), and then lints the skill's body.
fn verdict_in(name: &str, verdict: &[(Code, Severity)], profile: Profile) -> Vec<(Code, Severity)> {
    // Over 1,024 characters is an error only in `portable` (issue 40, item
    // 7): elsewhere the skill loads, as every host loads it, and its body
    // is linted.
    if name == "claude-api" && profile != Profile::Portable {
        return vec![
            (Code::DescriptionTooLong, Severity::Warning),
            (Code::LongBody, Severity::Warning),
        ];
    }
    verdict.to_vec()
}

fn config(profile: Profile) -> Config {
    Config {
        profile,
        ..Config::default()
    }
}

#[test]
fn every_corpus_skill_gets_its_verdict_in_every_profile() {
    let Some(corpus) = corpus() else { return };
    for profile in [Profile::Portable, Profile::Extended, Profile::Lenient] {
        let compilation = compile(&corpus, &config(profile));
        let mut found: Vec<(String, Code, Severity)> = compilation
            .diagnostics
            .iter()
            .map(|d| (d.file.clone(), d.code, d.severity))
            .collect();
        found.sort();
        let mut expected: Vec<(String, Code, Severity)> = VERDICTS
            .iter()
            .flat_map(|(name, verdict)| {
                verdict_in(name, verdict, profile)
                    .into_iter()
                    .map(move |(code, severity)| {
                        (format!("skills/{name}/SKILL.md"), code, severity)
                    })
            })
            .collect();
        expected.sort();
        assert_eq!(found, expected, "profile {}", profile.as_str());
        // In `portable` the whole set fails because one skill does
        // (claude-api); the others load every skill. Every skill was read.
        assert_eq!(compilation.skills().is_none(), profile == Profile::Portable);
        // Each skill is in the set or has a diagnostic of its own.
        let mut read: Vec<&str> = compilation
            .valid
            .skills
            .iter()
            .map(|skill| skill.path())
            .chain(compilation.diagnostics.iter().map(|d| d.file.as_str()))
            .collect();
        read.sort();
        read.dedup();
        let listed: Vec<String> = VERDICTS
            .iter()
            .map(|(name, _)| format!("skills/{name}/SKILL.md"))
            .collect();
        assert_eq!(read, listed);
    }
}

#[test]
fn the_valid_corpus_skills_lower_into_the_ir() {
    let Some(corpus) = corpus() else { return };
    for (name, verdict) in VERDICTS.iter().filter(|(_, v)| v.is_empty()) {
        let compilation = compile_skill(
            &corpus,
            format!("skills/{name}").as_ref(),
            &config(Profile::Portable),
        );
        let skills = compilation
            .skills()
            .unwrap_or_else(|| panic!("{name}: {:?}", compilation.diagnostics));
        let skill = &skills.skills[0];
        assert_eq!(skill.name(), *name);
        assert!(
            !skill.body().is_empty() && !skill.sections().is_empty(),
            "{name}"
        );
        assert!(verdict.is_empty());
    }
}

#[test]
fn claude_api_description_is_reported_at_its_line_with_its_length() {
    let Some(corpus) = corpus() else { return };
    let compilation = compile_skill(
        &corpus,
        "skills/claude-api".as_ref(),
        &config(Profile::Extended),
    );
    let diagnostic = &compilation.diagnostics[0];
    assert_eq!(diagnostic.code, Code::DescriptionTooLong);
    assert_eq!((diagnostic.line(), diagnostic.column()), (Some(4), Some(3)));
    assert!(
        diagnostic.message.contains("1068 characters"),
        "{}",
        diagnostic.message
    );
}

#[test]
fn template_holding_template_skill_is_a_mismatch_and_a_warning_when_lenient() {
    let Some(corpus) = corpus() else { return };
    for (profile, severity) in [
        (Profile::Portable, Severity::Error),
        (Profile::Extended, Severity::Error),
        (Profile::Lenient, Severity::Warning),
    ] {
        let compilation = compile_skill(&corpus, "template".as_ref(), &config(profile));
        let found: Vec<(Code, Severity, Option<u32>)> = compilation
            .diagnostics
            .iter()
            .map(|d| (d.code, d.severity, d.line()))
            .collect();
        // Read as a skill (lenient), its description is the template's placeholder.
        let mut expected = vec![(Code::NameMismatch, severity, Some(2))];
        if profile == Profile::Lenient {
            expected.push((Code::PlaceholderDescription, Severity::Warning, Some(3)));
        }
        assert_eq!(found, expected, "{}", profile.as_str());
        assert_eq!(
            compilation.skills().is_some(),
            severity == Severity::Warning
        );
    }
}

/// DESIGN 3.5: at least 99% of the real skills that have a description load
/// in `lenient`, through the run-time loader. Prints the figure per
/// collection and the remaining failures grouped by cause
/// (`cargo test --test corpus -- --nocapture`).
#[test]
fn lenient_loads_at_least_99_percent_of_real_skills_with_a_description() {
    use skills::loader::{Loader, Profile};
    let Some(root) = whole_corpus() else { return };
    let loader = Loader::new().profile(Profile::Lenient);
    let collections = collections(&root);
    let (mut all, mut all_loaded) = (0usize, 0usize);
    let mut causes: std::collections::BTreeMap<String, usize> = Default::default();
    for collection in &collections {
        let dirs = skills_tests::skill_dirs(collection);
        let (mut counted, mut loaded) = (0usize, 0usize);
        for dir in &dirs {
            match loader.load_skill(dir) {
                Ok(set) => {
                    assert_eq!(set.set().len(), 1, "{}", dir.display());
                    counted += 1;
                    loaded += 1;
                }
                Err(error) => {
                    let no_description = error.errors().any(|d| {
                        matches!(d.code, Code::EmptyDescription)
                            || (d.code == Code::MissingField && d.message.contains("description"))
                    });
                    if no_description {
                        continue;
                    }
                    counted += 1;
                    for d in error.errors() {
                        *causes
                            .entry(format!("{} {}", d.code, d.code.title()))
                            .or_default() += 1;
                    }
                }
            }
        }
        let name = collection.file_name().unwrap().to_string_lossy();
        eprintln!(
            "{name}: {loaded} of {counted} skills with a description load ({:.1}%)",
            100.0 * loaded as f64 / counted.max(1) as f64
        );
        all += counted;
        all_loaded += loaded;
    }
    eprintln!("remaining failures by cause:");
    for (cause, count) in &causes {
        eprintln!("  {count:4}  {cause}");
    }
    let share = all_loaded as f64 / all.max(1) as f64;
    eprintln!("all: {all_loaded} of {all} ({:.2}%)", 100.0 * share);
    assert!(
        all > 1000,
        "the corpus holds over a thousand skills; found {all}"
    );
    assert!(share >= 0.99, "{all_loaded} of {all} load in lenient");
}

/// The description lints on every real skill that compiles in `lenient`,
/// each collection as one set (W009 compares within a set). The counts are
/// the figures of docs/budget.md; every W009 pair is printed for review
/// (`cargo test --test corpus -- --nocapture`), and none may be a pair
/// whose descriptions a model could tell apart: one must say nothing the
/// other does not.
#[test]
fn description_lints_on_the_corpus_match_the_documented_counts() {
    let Some(root) = whole_corpus() else { return };
    let lenient = config(Profile::Lenient);
    let mut counts: std::collections::BTreeMap<Code, usize> = Default::default();
    let mut compiled = 0usize;
    let mut everything = Vec::new();
    for collection in [
        "anthropics-skills",
        "davepoon-buildwithclaude",
        "zuoguyoupan2023-awesome-ai-skills",
    ] {
        let dir = root.join(collection);
        let mut skills = Vec::new();
        for skill_dir in skills_tests::skill_dirs(&dir) {
            let relative = skill_dir.strip_prefix(&dir).unwrap();
            let compilation = compile_skill(&dir, relative, &lenient);
            for d in &compilation.diagnostics {
                if matches!(
                    d.code,
                    Code::PlaceholderDescription
                        | Code::NoWhenToUse
                        | Code::LongBody
                        | Code::HiddenText
                ) {
                    *counts.entry(d.code).or_default() += 1;
                }
            }
            if let Some(set) = compilation.into_skills() {
                skills.extend(set.skills);
            }
        }
        compiled += skills.len();
        // Copies under one name are duplicates (an error of their own when
        // compiled as one root): W009 is measured on distinct names.
        skills.sort_by(|a, b| a.name().cmp(b.name()).then(a.path().cmp(b.path())));
        skills.dedup_by(|a, b| a.name() == b.name());
        for d in skills_compiler::similar_descriptions(&skills) {
            *counts.entry(d.code).or_default() += 1;
            eprintln!("{collection}: {}: {}", d.file, d.message);
        }
        everything.extend(skills);
    }
    // All collections as one set, as a user who installs from several
    // would have them: more pairs to get wrong. Every pair is printed.
    everything.sort_by(|a, b| a.name().cmp(b.name()).then(a.path().cmp(b.path())));
    everything.dedup_by(|a, b| a.name() == b.name());
    let across = skills_compiler::similar_descriptions(&everything);
    for d in &across {
        eprintln!("across collections: {}: {}", d.file, d.message);
    }
    // The same two pairs, read by hand: no collection repeats another's
    // description in other words.
    assert_eq!(across.len(), 2);
    for (code, count) in &counts {
        eprintln!("{code} {count:4}  {}", code.title());
    }
    eprintln!("skills compiled: {compiled}");
    let found: Vec<(Code, usize)> = counts.into_iter().collect();
    assert_eq!(
        (compiled, found),
        (
            // Three skills link outside their collection (S517): an error in
            // `portable` and `extended`, a warning in `lenient` since issue
            // 57 (1,185 then), so they compile here.
            1_188,
            vec![
                // anthropics-skills' template: "Replace with description ...".
                (Code::PlaceholderDescription, 1),
                // A sample of 40, read by hand: none says when to use the skill.
                (Code::NoWhenToUse, 291),
                // listenhub/listenhub-cli and two xlsx-formula-recalc copies under
                // different names: identical descriptions, both true.
                (Code::SimilarDescriptions, 2),
                (Code::LongBody, 105),
            ]
        )
    );
}

/// `fmt` on every corpus skill that compiles in `lenient`: the formatted file
/// compiles to the same skill with the same body bytes (checked inside
/// `format::skill`, which refuses otherwise), a second run changes nothing,
/// and a file with a comment is left as it is.
#[test]
fn fmt_round_trips_every_corpus_skill_that_compiles() {
    use skills_compiler::ops::fmt::{self as format, Outcome};
    let Some(root) = whole_corpus() else { return };
    let lenient = config(Profile::Lenient);
    let (mut changed, mut unchanged, mut commented, mut unparsed) = (0, 0, 0, 0);
    let mut other = Vec::new();
    for dir in skills_tests::skill_dirs(&root) {
        let relative = dir.strip_prefix(&root).unwrap();
        if compile_skill(&root, relative, &lenient).skills().is_none() {
            continue;
        }
        let mut problems = Vec::new();
        let files = skills_compiler::discover_one(&root, relative, &lenient, &mut problems)
            .expect("a skill that compiles is found");
        match format::skill(&files, &lenient) {
            Outcome::Unchanged => unchanged += 1,
            Outcome::Changed(text) => {
                changed += 1;
                let again = skills_compiler::SkillFiles {
                    bytes: text.clone().into_bytes(),
                    ..files.clone()
                };
                assert_eq!(
                    format::skill(&again, &lenient),
                    Outcome::Unchanged,
                    "{}: not idempotent:\n{text}",
                    files.path
                );
            }
            Outcome::Skipped(reason) if reason.contains("comment") => commented += 1,
            // Lenient read these (unquoted `: `, no frontmatter); there is no
            // YAML to format until `fix` has quoted it.
            Outcome::Unchecked(reason) if reason.contains("cargo skills fix") => {
                // `fix` then `fmt`: the quoted file formats like any other.
                unparsed += 1;
                let fixed = skills_compiler::ops::fix::skill(files.clone(), &lenient);
                let text = &fixed.changes[0].after;
                let quoted = skills_compiler::SkillFiles {
                    bytes: text.clone().into_bytes(),
                    ..files.clone()
                };
                assert!(
                    matches!(
                        format::skill(&quoted, &lenient),
                        Outcome::Changed(_) | Outcome::Unchanged
                    ),
                    "{}: {:?}",
                    files.path,
                    format::skill(&quoted, &lenient)
                );
            }
            Outcome::Skipped(reason) if reason.contains("frontmatter") => unparsed += 1,
            Outcome::Skipped(reason) | Outcome::Unchecked(reason) => {
                other.push(format!("{}: {reason}", files.path))
            }
        }
    }
    eprintln!(
        "fmt: {changed} changed, {unchanged} already canonical, {commented} left for their comments, {unparsed} not YAML until fixed"
    );
    assert!(other.is_empty(), "{other:#?}");
    assert!(changed + unchanged > 1000, "{changed} + {unchanged}");
}

/// The writer on every corpus skill that compiles in `lenient`: what it
/// writes reads back as the same skill with the same body.
#[test]
fn the_writer_round_trips_every_corpus_skill_that_compiles() {
    let Some(root) = whole_corpus() else { return };
    let lenient = config(Profile::Lenient);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus-writer");
    let _ = std::fs::remove_dir_all(&out);
    let mut written = 0;
    for dir in skills_tests::skill_dirs(&root) {
        let relative = dir.strip_prefix(&root).unwrap();
        let Some(set) = compile_skill(&root, relative, &lenient).into_skills() else {
            continue;
        };
        let skill = &set.skills[0];
        let files = skills_compiler::ops::fmt::files(skill);
        let target = out.join(skill.path());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(&target, &files.skill_md).unwrap();
        // The writer writes SKILL.md; the other files are copied as they are.
        for file in skills_compiler::emit::lower::read_files(skill).unwrap() {
            let path = out.join(skill.dir.as_deref().unwrap()).join(file.path());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, file.bytes()).unwrap();
        }
        let again = compile_skill(&out, relative, &lenient);
        let read = again.skills().unwrap_or_else(|| {
            panic!(
                "{}: {:?}\n{}",
                skill.path(),
                again.diagnostics,
                files.skill_md
            )
        });
        assert!(
            skills_compiler::ops::fmt::same_skill(skill, &read.skills[0]),
            "{}:\n{}",
            skill.path(),
            files.skill_md
        );
        assert_eq!(read.skills[0].body(), skill.body());
        written += 1;
    }
    eprintln!("writer: {written} corpus skills written and read back");
    assert!(written > 1000, "{written}");
    let _ = std::fs::remove_dir_all(&out);
}

/// `fix --to portable` and `--to extended` over every corpus skill that loads
/// in `lenient`: bodies kept, and how many come out clean (printed, and
/// bounded so that a regression shows).
#[test]
fn fix_to_strict_profiles_migrates_the_corpus() {
    let Some(root) = whole_corpus() else { return };
    let lenient = config(Profile::Lenient);
    for profile in [Profile::Extended, Profile::Portable] {
        let target = config(profile);
        let (mut loaded, mut clean_before, mut clean_after, mut skipped) = (0, 0, 0, 0);
        // Why each skill that is not clean after the migration is not:
        // the codes of its errors, counted once per skill.
        let mut reasons: std::collections::BTreeMap<Code, usize> = Default::default();
        for dir in skills_tests::skill_dirs(&root) {
            let relative = dir.strip_prefix(&root).unwrap();
            let Some(set) = compile_skill(&root, relative, &lenient).into_skills() else {
                continue;
            };
            loaded += 1;
            if compile_skill(&root, relative, &target).skills().is_some() {
                clean_before += 1;
            }
            let mut problems = Vec::new();
            let files =
                skills_compiler::discover_one(&root, relative, &target, &mut problems).unwrap();
            match skills_compiler::ops::fix::to_profile(files, &target) {
                Ok(migration) => {
                    if let Some(change) = migration.changes.first() {
                        assert!(
                            change.after.ends_with(&set.skills[0].body()),
                            "{}: body changed",
                            change.path
                        );
                    }
                    if !migration.remaining.iter().any(|d| d.is_error()) {
                        clean_after += 1;
                    }
                    // Every extension key left behind is reported, with why.
                    if profile == Profile::Portable {
                        let left = migration
                            .remaining
                            .iter()
                            .filter(|d| d.code == Code::NotPortable)
                            .count();
                        let said = migration
                            .notes
                            .iter()
                            .filter(|n| n.contains("which `metadata` (strings only) cannot hold"))
                            .count();
                        assert_eq!(left, said, "{:?}", migration.notes);
                    }
                    let codes: std::collections::BTreeSet<Code> = migration
                        .remaining
                        .iter()
                        .filter(|d| d.is_error())
                        .map(|d| d.code)
                        .collect();
                    for code in codes {
                        *reasons.entry(code).or_default() += 1;
                    }
                    if std::env::var_os("SHOW_REASONS").is_some() {
                        for d in migration.remaining.iter().filter(|d| d.is_error()) {
                            eprintln!("    {}: {}: {}", d.code, d.file, d.message);
                        }
                    }
                }
                Err(_) => skipped += 1,
            }
        }
        eprintln!(
            "--to {}: {loaded} skills load in lenient; clean before {clean_before}, after {clean_after}; {skipped} left for comments",
            profile.as_str()
        );
        for (code, count) in &reasons {
            eprintln!("  not clean after: {count:4} with {code}  {}", code.title());
        }
        // Nothing the migration could settle is left: what remains is a
        // value `metadata` cannot hold (said in a note), a link out of the
        // collection, a field over its length, or a key no profile knows.
        if profile == Profile::Portable {
            let settled_elsewhere = [
                Code::NotPortable,
                Code::LinkOutsideRoot,
                Code::DescriptionTooLong,
                Code::Compatibility,
                Code::AllowedTools,
                Code::UnknownKey,
            ];
            let unexplained: Vec<&Code> = reasons
                .keys()
                .filter(|code| !settled_elsewhere.contains(code))
                .collect();
            assert!(unexplained.is_empty(), "{unexplained:?}");
        }
        // The figures of the closing notes of issues 14 and 22 (links the
        // `.md`-only copies cannot serve are errors in both): a regression shows.
        // Portable went from 784 to 1,012 when scalar extension keys began
        // to move into `metadata` (issue 24, item 6).
        // Extended went from (433, 917) to (434, 922) when a description
        // over 1,024 characters became a warning there (issue 40, item 7).
        // Extended went from (434, 922) to (460, 954) when Claude Code's
        // current keys (`paths`, `effort`, `shell`, `disallowed-tools`, ...)
        // were declared with their values checked (issue 63).
        let expected = match profile {
            Profile::Extended => (460, 954),
            // Portable went from 1,012 to 1,120 when lists and mappings
            // began to move into `metadata` as JSON text (issue 40, item 8).
            _ => (377, 1_120),
        };
        assert_eq!(
            (clean_before, clean_after),
            expected,
            "{}",
            profile.as_str()
        );
    }
}

/// Links from real bodies to files, counted per collection in `lenient`
/// (each skill compiled on its own, as a host installs it): how many skills
/// link relative paths, how many of those have a link the skill cannot
/// serve, and each code's count. The figures are the closing note's of
/// issue 22; a change in the rules shows here
/// (`cargo test --test corpus links -- --nocapture`).
#[test]
fn links_in_the_corpus_are_counted() {
    let Some(root) = whole_corpus() else { return };
    let lenient = config(Profile::Lenient);
    let link_codes = [
        Code::BrokenLink,
        Code::LinkOutsideRoot,
        Code::LinkIntoOtherSkill,
        Code::UnknownFragment,
        Code::MissingCodePath,
    ];
    let mut figures = Vec::new();
    for dir in collections(&root) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let (mut skills, mut linking, mut broken) = (0, 0, 0);
        let mut counts = [0usize; 5];
        for skill_dir in skills_tests::skill_dirs(&dir) {
            let relative = skill_dir.strip_prefix(&dir).unwrap();
            let compilation = compile_skill(&dir, relative, &lenient);
            skills += 1;
            let body = std::fs::read_to_string(skill_dir.join("SKILL.md")).unwrap_or_default();
            if has_relative_link(&body) {
                linking += 1;
            }
            let mut any_broken = false;
            for d in &compilation.diagnostics {
                if let Some(i) = link_codes.iter().position(|c| *c == d.code) {
                    counts[i] += 1;
                    any_broken |= matches!(d.code, Code::BrokenLink | Code::LinkOutsideRoot);
                    if d.is_error() {
                        eprintln!("{name}: {}: {}", d.file, d.message);
                    }
                }
            }
            broken += usize::from(any_broken);
        }
        eprintln!(
            "{name}: {skills} skills, {linking} with relative links, {broken} with a link to a file they lack; S516 {} S517 {} W014 {} W015 {} W016 {}",
            counts[0], counts[1], counts[2], counts[3], counts[4]
        );
        figures.push((name, skills, linking, broken, counts));
    }
    let zuo = figures
        .iter()
        .find(|f| f.0 == "zuoguyoupan2023-awesome-ai-skills")
        .expect("the aggregator's collection");
    // The aggregator copied many SKILL.md files without their references:
    // a real test of S516, which must find them.
    assert!(zuo.3 > 100, "{zuo:?}");
    let expected: Vec<(String, usize, usize, usize, [usize; 5])> = EXPECTED_LINK_FIGURES
        .iter()
        .map(|&(name, a, b, c, d)| (name.to_owned(), a, b, c, d))
        .collect();
    assert_eq!(figures, expected);
}

/// Per collection: skills, skills with relative links, skills with a link
/// to a file they lack, then S516, S517, W014, W015, W016.
/// The `.md`-only copies lack scripts and assets, hence their W016s; the
/// aggregator copied SKILL.md files without their references.
const EXPECTED_LINK_FIGURES: &[(&str, usize, usize, usize, [usize; 5])] = &[
    ("anthropics-skills", 13, 1, 0, [0, 0, 0, 0, 6]),
    ("davepoon-buildwithclaude", 189, 0, 0, [0, 0, 0, 0, 17]),
    (
        "zuoguyoupan2023-awesome-ai-skills",
        987,
        277,
        132,
        [1064, 4, 102, 4, 469],
    ),
];

/// A markdown link or image whose target is neither a URL nor an anchor
/// nor an absolute path: what the skill must ship. Outside code, roughly.
fn has_relative_link(text: &str) -> bool {
    text.match_indices("](").any(|(at, _)| {
        let target = &text[at + 2..];
        let end = target.find([')', ' ']).unwrap_or(target.len());
        let target = &target[..end];
        !target.is_empty()
            && !target.starts_with(['#', '/', '<'])
            && !target.contains("://")
            && !target.starts_with("mailto:")
    })
}

/// A root as discovery reads it whole and `compile_files` checks it: the
/// order `compile` had before it checked each entry as it read it.
fn discovered_then_checked(config: &Config) -> skills_compiler::Compilation {
    let mut problems = Vec::new();
    let files = skills_compiler::discover(Path::new(""), config, &mut problems);
    let mut compilation = skills_compiler::compile_files(files, config);
    compilation.diagnostics.extend(problems);
    skills_compiler::diagnostics::sort(&mut compilation.diagnostics);
    compilation
}

/// Every folder under `tops` that holds a skill folder, sorted.
fn skill_roots(tops: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots = std::collections::BTreeSet::new();
    let mut folders = tops.to_vec();
    while let Some(folder) = folders.pop() {
        let children = std::fs::read_dir(&folder).into_iter().flatten().flatten();
        for child in children.filter(|c| c.file_type().is_ok_and(|t| t.is_dir())) {
            if child.path().join("SKILL.md").is_file() {
                roots.insert(folder.clone());
            }
            folders.push(child.path());
        }
    }
    roots.into_iter().collect()
}

/// `compile` reads and checks each entry of a root in turn, so that a
/// skill's text is let go before the next is read (issue 44, item 1):
/// on every root of the corpus, in every profile, it finds, renders and
/// keeps what reading the whole root first and checking it then does.
#[test]
fn each_corpus_root_checked_as_it_is_read_gives_what_reading_it_whole_first_gives() {
    let (Some(markdown), Some(dirs)) = (whole_corpus(), corpus()) else {
        return;
    };
    let roots = skill_roots(&[markdown, dirs.parent().unwrap().to_path_buf()]);
    assert!(roots.len() > 100, "{} roots", roots.len());
    let rendered = |compilation: &skills_compiler::Compilation| -> Vec<String> {
        compilation
            .diagnostics
            .iter()
            .map(|d| {
                skills_compiler::diagnostics::render::human(
                    d,
                    &compilation.sources,
                    skills_compiler::diagnostics::render::Color::Never,
                )
            })
            .collect()
    };
    let mut diagnostics = 0;
    for profile in [Profile::Portable, Profile::Lenient] {
        for root in &roots {
            let config = Config {
                dir: root.clone(),
                ..config(profile)
            };
            let as_read = compile(Path::new(""), &config);
            let whole_first = discovered_then_checked(&config);
            let at = format!("{} ({profile:?})", root.display());
            assert_eq!(as_read.diagnostics, whole_first.diagnostics, "{at}");
            assert_eq!(rendered(&as_read), rendered(&whole_first), "{at}");
            assert_eq!(as_read.checked, whole_first.checked, "{at}");
            let names = |c: &skills_compiler::Compilation| -> Vec<String> {
                c.valid.skills.iter().map(|s| s.path().to_owned()).collect()
            };
            assert_eq!(names(&as_read), names(&whole_first), "{at}");
            diagnostics += as_read.diagnostics.len();
        }
    }
    assert!(diagnostics > 1_000, "{diagnostics} diagnostics compared");
}
