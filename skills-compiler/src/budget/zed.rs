//! Zed adds up `name.len() + description.len()` in bytes, in name order,
//! against 50 KiB (`MAX_SKILL_DESCRIPTIONS_SIZE`). At the first entry
//! that does not fit it stops: that skill and every later one are left
//! out, so the cut does not depend on which later skills happen to be small.

use super::model::*;

pub(super) const LIMIT_BYTES: usize = 50 * 1024;
/// Zed refuses a skill whose description is longer than this, in UTF-8 bytes.
pub(super) const MAX_DESCRIPTION_BYTES: usize = 1024;

pub(super) fn report(entries: &[Entry<'_>]) -> Report {
    let costs: Vec<usize> = entries
        .iter()
        .map(|e| e.name.len() + e.description.len())
        .collect();
    let culprit = first_past(costs.iter().copied(), LIMIT_BYTES);
    let lines = cut_from(entries, &costs, culprit);
    Report {
        budget: Budget::Zed,
        limit: Limit {
            amount: LIMIT_BYTES,
            unit: Unit::Bytes,
            basis: "50 KiB of names and descriptions".to_owned(),
        },
        used: costs.iter().sum(),
        lines,
        culprit,
    }
}
