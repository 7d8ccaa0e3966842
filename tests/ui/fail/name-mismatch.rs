mod agent {
    skills::include_skills!("../../../../tests/ui/skills/name-mismatch", track = false);
}

fn main() {}
