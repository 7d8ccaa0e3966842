mod agent {
    skills::include_skills!("../../../../tests/ui/skills/unknown-key", track = false);
}

fn main() {}
