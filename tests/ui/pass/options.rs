// Options override the manifest configuration.
mod agent {
    skills::include_skills!("ui-skills/deny-warnings", track = false,
        profile = "portable",
        max_skills = 3,
        max_document_chars = 10000,
        max_frontmatter_bytes = 4096,
        max_yaml_depth = 8,
        tool_name_prefix_budget = 12,
        deny_warnings = false,
        areas = ["home", "work"],
    );
}

fn main() {
    assert_eq!(agent::SKILLS.len(), 1);
}
