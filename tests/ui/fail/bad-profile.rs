mod agent {
    skills::include_skills!("../../../../tests/ui/skills/one-bad-one-good", profile = "strict");
}

fn main() {}
