mod agent {
    skills::include_skills!("../../../../tests/ui/skills/host-placeholder");
}

fn main() {}
