mod agent {
    skills::include_skills!("../../../../tests/ui/skills/does-not-exist", track = false);
}

fn main() {}
