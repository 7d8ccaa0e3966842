//! The compiler's entry point on arbitrary bytes, as a SKILL.md and as a
//! sidecar tools.yaml, in every profile; every diagnostic is rendered in all
//! five forms. Any panic, hang or runaway allocation is a bug.
//!
//!     cargo fuzz run compile --sanitizer none      # works on stable Rust
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_compiler::diagnostics::render::{self, Color};
use skills_compiler::{Config, Profile, SkillFiles, compile_files};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the profile and whether the rest is split into a
    // SKILL.md and a tools.yaml at the first NUL.
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let profile =
        [Profile::Portable, Profile::Extended, Profile::Lenient][usize::from(selector % 3)];
    let (skill, tools) = match (selector & 4 != 0)
        .then(|| rest.iter().position(|&b| b == 0))
        .flatten()
    {
        Some(split) => (&rest[..split], Some(rest[split + 1..].to_vec())),
        None => (rest, None),
    };
    let config = Config {
        profile,
        ..Config::default()
    };
    let files = SkillFiles {
        dir: None,
        path: "skills/fuzz/SKILL.md".into(),
        directory: "fuzz".into(),
        bytes: skill.to_vec(),
        tools_yaml: tools.map(|bytes| ("skills/fuzz/tools.yaml".to_owned(), bytes)),
    };
    let compilation = compile_files(vec![files], &config);
    assert!(compilation.valid.skills.is_empty() == compilation.has_errors());
    for diagnostic in &compilation.diagnostics {
        let _ = render::human(diagnostic, &compilation.sources, Color::Never);
        let _ = render::json(diagnostic, &compilation.sources);
        let _ = render::short(diagnostic);
        let _ = render::github(diagnostic);
        let _ = render::rustc_json(diagnostic, &compilation.sources);
    }
    if let Some(set) = compilation.skills() {
        let _ = skills_compiler::emit::codegen::expand(set, &"::skills".parse().unwrap());
    }
});
