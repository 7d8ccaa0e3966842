mod agent {
    skills::include_skills!("ui-skills/protocol-incomplete", track = false);
}

fn main() {}
