mod agent {
    skills::include_skills!("ui-skills/permission-unknown-tool", track = false);
}

fn main() {}
