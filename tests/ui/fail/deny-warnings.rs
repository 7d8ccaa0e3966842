mod agent {
    skills::include_skills!("../../../../tests/ui/skills/deny-warnings", deny_warnings = true);
}

fn main() {}
