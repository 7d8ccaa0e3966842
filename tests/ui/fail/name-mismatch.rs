mod agent {
    skills::include_skills!("ui-skills/name-mismatch", track = false);
}

fn main() {}
