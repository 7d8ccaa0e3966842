mod agent {
    skills::include_skills!("ui-skills/only-good", track = false, profile = "portable", max_skill = 3);
}

// Stubs: the valid skills are still emitted, so using them adds no second error.
fn main() {
    let _ = agent::good::SKILL.name();
    let _ = agent::SKILLS.len();
}
