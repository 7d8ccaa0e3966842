mod agent {
    skills::include_skills!("../../../../tests/ui/skills/one-bad-one-good", track = false, profile = "portable", max_skill = 3);
}

fn main() {}
