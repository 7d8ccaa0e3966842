mod agent {
    skills::include_skills!("ui-skills/host-placeholder", track = false);
}

fn main() {}
