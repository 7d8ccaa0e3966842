mod agent {
    skills::include_skills!("../../../../tests/ui/skills/one-bad-one-good", track = false, profile = "strict");
}

fn main() {}
