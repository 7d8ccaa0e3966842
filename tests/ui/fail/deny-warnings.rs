mod agent {
    skills::include_skills!("ui-skills/deny-warnings", track = false, deny_warnings = true);
}

fn main() {}
