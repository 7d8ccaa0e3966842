fn main() {
    // The issue-tracker example's skills, embedded here too.
    skills_build::track("../issue-tracker/skills");
}
