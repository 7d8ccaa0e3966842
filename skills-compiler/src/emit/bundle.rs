//! A skill's zip bundle against the upload limits of the hosted APIs
//! (`skills_core::bundle::UPLOAD_LIMITS`): the rule `cargo skills pack`
//! applies to every bundle before it writes any.

use crate::diagnostics::{Code, Diagnostic};
use crate::ir::Skill;

/// S523 when a bundle of `bytes` bytes is over the smallest documented
/// upload limit, at the skill's folder.
pub fn check(skill: &Skill, bytes: usize) -> Option<Diagnostic> {
    let limit = skills_core::bundle::UPLOAD_LIMITS
        .iter()
        .min_by_key(|limit| limit.max_bytes)?;
    if (bytes as u64) < limit.max_bytes {
        return None;
    }
    let at = skill.dir.clone().unwrap_or_else(|| skill.path().to_owned());
    Some(
        Diagnostic::error(
            Code::BundleTooLarge,
            at,
            format!(
                "the bundle of `{}` is {bytes} bytes zipped, not under the {} upload limit of {} bytes",
                skill.name(), limit.host, limit.max_bytes
            ),
        )
        .with_help(format!(
            "move large files out of the skill, or split it; the limit: {}",
            limit.source
        )),
    )
}
