mod agent {
    skills::include_skills!("../../../../tests/ui/skills/host-placeholder", track = false);
}

fn main() {}
