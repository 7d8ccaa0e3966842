//! What a server serves: a skill set in a `static` or shared.

use std::sync::Arc;

use skills::SkillSet;

/// What a server serves: a compiled set in a `static`, or a loaded one.
#[derive(Clone)]
pub enum Skills {
    /// A compiled set, in a `static`.
    Static(&'static SkillSet),
    /// A set loaded at run time, shared.
    Shared(Arc<SkillSet>),
}

impl std::ops::Deref for Skills {
    type Target = SkillSet;

    fn deref(&self) -> &SkillSet {
        match self {
            Skills::Static(set) => set,
            Skills::Shared(set) => set,
        }
    }
}

impl From<&'static SkillSet> for Skills {
    fn from(set: &'static SkillSet) -> Self {
        Skills::Static(set)
    }
}

impl From<SkillSet> for Skills {
    fn from(set: SkillSet) -> Self {
        Skills::Shared(Arc::new(set))
    }
}

impl From<Arc<SkillSet>> for Skills {
    fn from(set: Arc<SkillSet>) -> Self {
        Skills::Shared(set)
    }
}
