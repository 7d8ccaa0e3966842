mod agent {
    skills::include_skills!("ui-skills/does-not-exist", track = false);
}

fn main() {}
