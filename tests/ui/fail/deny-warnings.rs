mod agent {
    skills::include_skills!("../../../../tests/ui/skills/deny-warnings", track = false, deny_warnings = true);
}

fn main() {}
