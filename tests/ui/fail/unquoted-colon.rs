mod agent {
    skills::include_skills!("../../../../tests/ui/skills/unquoted-colon", track = false);
}

fn main() {}
