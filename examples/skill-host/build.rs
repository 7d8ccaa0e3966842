fn main() {
    // Cargo re-runs the build (and re-expands `include_skills!`) when a
    // built-in skill is added, edited or deleted.
    skills_build::track("skills");
}
