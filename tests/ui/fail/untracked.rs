// Without a build script that tracks the directory, the macro says what to add.
mod agent {
    skills::include_skills!("ui-skills/only-good");
}

// Stubs: the valid skills are still emitted, so using them adds no second error.
fn main() {
    let _ = agent::good::SKILL.name();
    let _ = agent::SKILLS.len();
}
