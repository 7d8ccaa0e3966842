//! Signatures applied to the skills a compilation checked (`trust` and
//! `require_signatures`): each signed skill verified against the trusted
//! anchors, each unsigned one a warning, or an error when signatures are
//! required. What `include_skills!`, `skills_build`, `cargo skills check`
//! and the loader all run.

use std::collections::BTreeMap;
use std::path::Path;

use crate::config::Config;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity};

/// Whether `config` asks for signatures to be checked at all.
pub(crate) fn wanted(config: &Config) -> bool {
    !config.trust.is_empty() || config.require_signatures.any()
}

/// What the signatures of a compilation's skills came to.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// S524 to S528, and S527 warnings.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The signatures' texts the diagnostics point into.
    pub(crate) sources: Vec<SourceFile>,
    /// Each verified skill folder (as diagnostics show it), with every file
    /// its signature lists and that file's SHA-256.
    pub(crate) signed: Vec<(String, BTreeMap<String, String>)>,
}

/// The signatures of the skills `checked` (folders as diagnostics show
/// them, relative to `base`); `vendored` says which of them the lock
/// records from a source (`require_signatures = "vendored"` asks only
/// those to be signed).
#[cfg(feature = "signing")]
pub(crate) fn check(
    base: &Path,
    config: &Config,
    checked: &[String],
    vendored: &dyn Fn(&str) -> bool,
) -> Checked {
    use crate::signing::{Trust, Verdict, Verdicts, Verifier};

    let trust = match Trust::load(base, &config.trust) {
        Ok(trust) => trust,
        Err(diagnostic) => return Checked::of(diagnostic),
    };
    if trust.anchors().is_empty() {
        return Checked::of(no_anchors());
    }
    let mut cache = crate::lock::HashCache::of_build();
    let mut verifier = Verifier::new(&trust)
        .allowing_symlinks(config.signed_symlinks)
        .remembering(Verdicts::of_build());
    let mut out = Checked::default();
    for folder in checked {
        let path = Path::new(folder);
        if !base.join(path).is_dir() {
            out.diagnostics.push(unsigned(
                folder,
                config.require_signatures.of(vendored(folder)),
                "a flat skill file cannot carry a signature",
            ));
            continue;
        }
        let verified = verifier.verify(base, path, &mut cache);
        match verified.verdict {
            Verdict::Unsigned => out.diagnostics.push(unsigned(
                folder,
                config.require_signatures.of(vendored(folder)),
                "it has no `skill.oms.sig`",
            )),
            Verdict::Signed(_) => out.signed.push((folder.clone(), verified.signed)),
            Verdict::Refused => {}
        }
        out.diagnostics.extend(verified.diagnostics);
        out.sources.extend(verified.source);
    }
    cache.keep();
    verifier.keep();
    out
}

impl Checked {
    #[cfg_attr(not(feature = "signing"), allow(dead_code))]
    fn of(diagnostic: Diagnostic) -> Checked {
        Checked {
            diagnostics: vec![diagnostic],
            ..Checked::default()
        }
    }
}

/// Holds the compiled `skill` to the files its verified signature lists
/// (`signed`): the signed set is the compiled set. Each listed file the
/// compilation left out (a `.gitignore`, `exclude`, a hidden name) is
/// S524, named; each compiled file is read, wherever it is read to be
/// kept, against its signed SHA-256; and the skill file the compilation
/// read (when it kept it whole) must be the signed one. The signature
/// check reads the disk again, and a file flipped between the two reads
/// would otherwise be compiled unverified.
pub(crate) fn hold(
    skill: &mut crate::ir::Skill,
    signed: &BTreeMap<String, String>,
    whole_text: bool,
) -> Vec<Diagnostic> {
    let folder = skill.dir.clone().unwrap_or_default();
    let mut diagnostics = Vec::new();
    let tampered = |path: &str, message: String, help: &str| {
        Diagnostic::error(Code::SignatureTampered, format!("{folder}/{path}"), message)
            .with_help(help.to_owned())
    };
    if whole_text
        && signed.get(crate::read::layout::SKILL_FILE)
            != Some(&skills_core::sha256_hex(skill.source_text().as_bytes()))
    {
        diagnostics.push(tampered(
            crate::read::layout::SKILL_FILE,
            "changed while it was read: the text compiled is not the one whose signature verified"
                .to_owned(),
            "build again; if it keeps changing, stop what changes it",
        ));
    }
    for file in &mut skill.files {
        file.signed = signed.get(&file.path).cloned();
    }
    for path in signed.keys() {
        if path == crate::read::layout::SKILL_FILE || skill.files.iter().any(|f| &f.path == path) {
            continue;
        }
        let why = skill
            .skipped
            .iter()
            .find(|skipped| {
                skipped.path == *path
                    || path.starts_with(skipped.path.as_str()) && skipped.path.ends_with('/')
            })
            .map_or_else(
                || "it is not a file of the skill".to_owned(),
                |s| s.reason.to_string(),
            );
        diagnostics.push(tampered(
            path,
            format!("signed, and left out of the build: {why}"),
            "the signed set must be the compiled set: remove what leaves it out (a `.gitignore`, an `exclude` pattern), or get a signed release without the file",
        ));
    }
    diagnostics
}

/// Without the `signing` feature nothing can verify: a configuration that
/// asks for it is refused rather than passed unchecked.
#[cfg(not(feature = "signing"))]
pub(crate) fn check(
    _base: &Path,
    _config: &Config,
    _checked: &[String],
    _vendored: &dyn Fn(&str) -> bool,
) -> Checked {
    let diagnostic = Diagnostic::error(
        Code::TrustAnchor,
        "Cargo.toml",
        "`trust` or `require_signatures` is set, and this build cannot verify signatures",
    )
    .with_help("turn on the `signing` feature of `skills-compiler` (the run-time loader's `trust` feature)");
    Checked::of(diagnostic)
}

#[cfg_attr(not(feature = "signing"), allow(dead_code))]
fn no_anchors() -> Diagnostic {
    Diagnostic::error(
        Code::TrustAnchor,
        "Cargo.toml",
        "`require_signatures` is set, and `trust` names no anchor: no signature could verify",
    )
    .with_help("add the PEM files of the roots you trust: `trust = [\"certs/vendor.pem\"]` in `[package.metadata.skills]`, or `--trust FILE.pem`")
}

#[cfg_attr(not(feature = "signing"), allow(dead_code))]
fn unsigned(folder: &str, required: bool, why: &str) -> Diagnostic {
    let severity = if required {
        Severity::Error
    } else {
        Severity::Warning
    };
    Diagnostic::error(Code::Unsigned, folder, format!("unsigned: {why}"))
        .with_severity(severity)
        .with_help(if required {
            "`require_signatures` asks this skill to be signed: get a signed release from its publisher, or sign your own skill with `cargo skills sign`"
        } else {
            "signatures are checked (`trust` is set) and this skill has none; `require_signatures = true` (every skill) or `\"vendored\"` (every skill the lock records from a source) makes this an error"
        })
}
