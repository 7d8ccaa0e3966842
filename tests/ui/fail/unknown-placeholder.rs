mod agent {
    skills::include_skills!("ui-skills/unknown-placeholder", track = false);
}

fn main() {}
