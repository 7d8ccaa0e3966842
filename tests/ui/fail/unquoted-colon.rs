mod agent {
    skills::include_skills!("../../../../tests/ui/skills/unquoted-colon");
}

fn main() {}
