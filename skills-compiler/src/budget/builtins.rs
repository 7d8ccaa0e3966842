//! The skills each host lists besides yours: its own, shipped with it, and
//! listed before any skill a user installs.
//!
//! Only what the budget counts is kept here: each skill's name, the length
//! of its description and where the host says it lives. The descriptions
//! themselves stay in their projects; a run of `x` of the same length
//! stands in for each. Every one was ASCII when measured, so its
//! characters are its bytes too. Sources and dates are in
//! `docs/budget.md`, beside each host.

use super::model::Budget;

/// One of a host's own skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    /// Its name, as the host lists it.
    pub name: &'static str,
    /// Characters (and bytes) of its description.
    pub description_chars: usize,
    /// Where the host says the skill file is (Codex counts it).
    pub path: &'static str,
}

/// Codex's system skills (`codex-rs/skills/src/assets/samples`, installed
/// into `$CODEX_HOME/skills/.system` and listed first, in the system scope).
pub const CODEX: &[Builtin] = &[
    Builtin {
        name: "imagegen",
        description_chars: 570,
        path: "/home/user/.codex/skills/.system/imagegen/SKILL.md",
    },
    Builtin {
        name: "openai-docs",
        description_chars: 447,
        path: "/home/user/.codex/skills/.system/openai-docs/SKILL.md",
    },
    Builtin {
        name: "plugin-creator",
        description_chars: 397,
        path: "/home/user/.codex/skills/.system/plugin-creator/SKILL.md",
    },
    Builtin {
        name: "skill-creator",
        description_chars: 225,
        path: "/home/user/.codex/skills/.system/skill-creator/SKILL.md",
    },
    Builtin {
        name: "skill-installer",
        description_chars: 225,
        path: "/home/user/.codex/skills/.system/skill-installer/SKILL.md",
    },
];

/// Zed's built-in skill (`crates/agent_skills/builtin`), first in its list.
pub const ZED: &[Builtin] = &[Builtin {
    name: "create-skill",
    description_chars: 131,
    path: "builtin/create-skill/SKILL.md",
}];

/// Claude Code's bundled skills that its documentation names. Their
/// listing text is compiled into Claude Code and not published, so only
/// their names are counted: a lower bound on what they take first.
pub const CLAUDE_CODE: &[Builtin] = &[
    Builtin {
        name: "batch",
        description_chars: 0,
        path: "bundled/batch",
    },
    Builtin {
        name: "claude-api",
        description_chars: 0,
        path: "bundled/claude-api",
    },
    Builtin {
        name: "debug",
        description_chars: 0,
        path: "bundled/debug",
    },
    Builtin {
        name: "loop",
        description_chars: 0,
        path: "bundled/loop",
    },
    Builtin {
        name: "simplify",
        description_chars: 0,
        path: "bundled/simplify",
    },
];

/// How a host lists its own skills beside yours.
#[derive(Debug, Clone, Copy)]
pub(super) struct Listing {
    /// Its own skills, listed before yours.
    pub own: &'static [Builtin],
    /// What a skill of yours with the name of one of them does.
    pub shadow: Shadow,
    /// Which skills it leaves out of the listing.
    pub hides: Hides,
}

/// The skills a host leaves out of its listing, by their own wish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hides {
    /// None.
    Nothing,
    /// Those with `disable-model-invocation: true` (Claude Code, Zed).
    DisabledModelInvocation,
    /// Those whose `agents/openai.yaml` sets
    /// `policy.allow_implicit_invocation: false` (Codex).
    NotImplicit,
}

impl Hides {
    /// Whether `entry` is left out.
    pub(super) fn hides(self, entry: &super::Entry<'_>) -> bool {
        match self {
            Hides::Nothing => false,
            Hides::DisabledModelInvocation => entry.hidden,
            Hides::NotImplicit => !entry.codex_implicit,
        }
    }
}

/// What a skill of yours named like one of the host's own does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shadow {
    /// Both are listed (Codex keys skills by path).
    Nothing,
    /// Yours replaces it, in your place (Claude Code keys skills by name).
    ByName,
    /// Yours replaces it, in its place (Zed's `apply_skill_overrides`).
    InPlace,
}

/// How `budget`'s host lists skills (no skills of its own and nothing
/// hidden for the client guide and the plain budgets).
pub(super) fn listing(budget: Budget) -> Listing {
    let (own, shadow, hides) = match budget {
        Budget::ClaudeCode => (CLAUDE_CODE, Shadow::ByName, Hides::DisabledModelInvocation),
        Budget::Codex => (CODEX, Shadow::Nothing, Hides::NotImplicit),
        Budget::Zed => (ZED, Shadow::InPlace, Hides::DisabledModelInvocation),
        Budget::AgentSkills | Budget::Chars(_) | Budget::Tokens(_) => {
            (&[][..], Shadow::Nothing, Hides::Nothing)
        }
    };
    Listing { own, shadow, hides }
}

/// The skills `budget`'s host lists before yours.
pub fn of(budget: Budget) -> &'static [Builtin] {
    listing(budget).own
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_paths_end_with_their_names() {
        for builtin in CODEX.iter().chain(ZED).chain(CLAUDE_CODE) {
            assert!(
                builtin
                    .path
                    .ends_with(&format!("/{}/SKILL.md", builtin.name))
                    || builtin.path.ends_with(&format!("/{}", builtin.name)),
                "{}",
                builtin.path
            );
        }
    }
}
