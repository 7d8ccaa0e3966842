// The valid skill's module is still generated: using it adds no second error.
mod agent {
    skills::include_skills!("ui-skills/one-bad-one-good", track = false);
}

fn main() {
    let _ = agent::good::SKILL.name();
    let _ = agent::SKILLS.len();
}
