mod agent {
    skills::include_skills!("ui-skills/unknown-key", track = false);
}

fn main() {}
