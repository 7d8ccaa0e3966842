mod agent {
    skills::include_skills!("../../../../tests/ui/skills/unsupported-schema", track = false);
}

fn main() {}
