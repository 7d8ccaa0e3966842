mod agent {
    skills::include_skills!("../../../../tests/ui/skills/unknown-key");
}

fn main() {}
