// Skill warnings reach the user on the macro path as real rustc warnings,
// located at the path literal, with the skill file's line and column, the code
// and the help. (This case also has an error, so that trybuild shows them.)
mod agent {
    skills::include_skills!("ui-skills/with-warning", track = false);
}

fn main() {
    let _ = agent::good::SKILL.name();
    let _: () = agent::SKILLS;
}
