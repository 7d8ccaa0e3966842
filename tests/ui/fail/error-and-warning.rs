// A build that fails prints each skill warning once, in the error's text,
// and not again as a deprecation (issue 40, item 6).
mod agent {
    skills::include_skills!("ui-skills/error-and-warning", track = false);
}

fn main() {
    let _ = agent::good::SKILL.name();
}
