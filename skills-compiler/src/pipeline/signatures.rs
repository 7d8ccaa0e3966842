//! Signatures applied to the skills a compilation checked (`trust` and
//! `require_signatures`): each signed skill verified against the trusted
//! anchors, each unsigned one a warning, or an error when signatures are
//! required. What `include_skills!`, `skills_build`, `cargo skills check`
//! and the loader all run.

use std::path::Path;

use crate::config::Config;
use crate::diagnostics::source::SourceFile;
use crate::diagnostics::{Code, Diagnostic, Severity};

/// Whether `config` asks for signatures to be checked at all.
pub(crate) fn wanted(config: &Config) -> bool {
    !config.trust.is_empty() || config.require_signatures
}

/// The diagnostics of the skills `checked` (folders as diagnostics show
/// them, relative to `base`), and the signatures' texts they point into.
#[cfg(feature = "signing")]
pub(crate) fn check(
    base: &Path,
    config: &Config,
    checked: &[String],
) -> (Vec<Diagnostic>, Vec<SourceFile>) {
    use crate::signing::{Trust, Verdict, Verdicts, Verifier};

    let trust = match Trust::load(base, &config.trust) {
        Ok(trust) => trust,
        Err(diagnostic) => return (vec![diagnostic], Vec::new()),
    };
    if trust.anchors().is_empty() {
        return (vec![no_anchors()], Vec::new());
    }
    let mut cache = crate::lock::HashCache::of_build();
    let mut verifier = Verifier::new(&trust).remembering(Verdicts::of_build());
    let mut diagnostics = Vec::new();
    let mut sources = Vec::new();
    for folder in checked {
        let path = Path::new(folder);
        if !base.join(path).is_dir() {
            diagnostics.push(unsigned(
                folder,
                config,
                "a flat skill file cannot carry a signature",
            ));
            continue;
        }
        let verified = verifier.verify(base, path, &mut cache);
        if verified.verdict == Verdict::Unsigned {
            diagnostics.push(unsigned(folder, config, "it has no `skill.oms.sig`"));
        }
        diagnostics.extend(verified.diagnostics);
        sources.extend(verified.source);
    }
    cache.keep();
    verifier.keep();
    (diagnostics, sources)
}

/// Without the `signing` feature nothing can verify: a configuration that
/// asks for it is refused rather than passed unchecked.
#[cfg(not(feature = "signing"))]
pub(crate) fn check(
    _base: &Path,
    _config: &Config,
    _checked: &[String],
) -> (Vec<Diagnostic>, Vec<SourceFile>) {
    let diagnostic = Diagnostic::error(
        Code::TrustAnchor,
        "Cargo.toml",
        "`trust` or `require_signatures` is set, and this build cannot verify signatures",
    )
    .with_help("turn on the `signing` feature of `skills-compiler` (the run-time loader's `trust` feature)");
    (vec![diagnostic], Vec::new())
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
fn unsigned(folder: &str, config: &Config, why: &str) -> Diagnostic {
    let severity = if config.require_signatures {
        Severity::Error
    } else {
        Severity::Warning
    };
    Diagnostic::error(Code::Unsigned, folder, format!("unsigned: {why}"))
        .with_severity(severity)
        .with_help(if config.require_signatures {
            "`require_signatures` is set: get a signed release from its publisher, or sign your own skill with `cargo skills sign`"
        } else {
            "signatures are checked (`trust` is set) and this skill has none; `require_signatures = true` makes this an error"
        })
}
