mod agent {
    skills::include_skills!("../../../../tests/ui/skills/permission-unknown-tool", track = false);
}

fn main() {}
