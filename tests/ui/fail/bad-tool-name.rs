mod agent {
    skills::include_skills!("../../../../tests/ui/skills/bad-tool-name", track = false);
}

fn main() {}
