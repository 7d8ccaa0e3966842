mod agent {
    skills::include_skills!("../../../../tests/ui/skills/protocol-incomplete", track = false);
}

fn main() {}
