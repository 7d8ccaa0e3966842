mod agent {
    skills::include_skills!("../../../../tests/ui/skills/name-mismatch");
}

fn main() {}
