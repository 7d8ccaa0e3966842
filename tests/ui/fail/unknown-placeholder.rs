mod agent {
    skills::include_skills!("../../../../tests/ui/skills/unknown-placeholder", track = false);
}

fn main() {}
