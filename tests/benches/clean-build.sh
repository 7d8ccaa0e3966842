#!/usr/bin/env bash
# A clean debug build of a crate that uses `include_skills!` (one skill
# with a tool, and the build script the macro asks for), from an empty
# target directory: what a new user, or a CI job with no cache, waits for.
# This checkout beside another commit (BASE), built alternately, the median
# of RUNS each; both take the crates as path dependencies.
#
#     bash tests/benches/clean-build.sh                  # BASE=131a2a0, RUNS=3
#     BASE=HEAD~3 RUNS=5 bash tests/benches/clean-build.sh
#
# Prints one Markdown row a checkout: seconds (median, min, max), and the
# lines of Rust of skills-compiler that the macro's build compiles.
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
BASE=${BASE:-131a2a0}
RUNS=${RUNS:-3}
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-clean-build.XXXXXX")
cleanup() {
    git -C "$workspace" worktree remove --force "$root/base" 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT
git -C "$workspace" worktree add --quiet --detach "$root/base" "$BASE"

# The user's crate, depending on the crates of checkout $2.
user_crate() {
    local dir=$1 checkout=$2
    mkdir -p "$dir/src" "$dir/skills/tracker"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "user"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
skills-runtime = { path = "$checkout/skills" }

[build-dependencies]
skills-build = { path = "$checkout/skills-build" }

[workspace]
TOML
    cp "$checkout/Cargo.lock" "$dir/Cargo.lock"
    printf 'fn main() {\n    skills_build::track("skills");\n}\n' > "$dir/build.rs"
    printf 'mod agent {\n    skills::include_skills!("skills");\n}\n\nfn main() {\n    println!("{}", agent::SKILLS.len());\n}\n' > "$dir/src/main.rs"
    cat > "$dir/skills/tracker/SKILL.md" <<'SKILL'
---
name: tracker
description: Look up and update issues in the team's tracker. Use when the user asks about an issue, a ticket or a bug by number.
tools:
  - name: get_issue
    description: One issue by its number.
    parameters:
      type: object
      properties:
        number: { type: integer, minimum: 1 }
      required: [number]
    endpoint:
      method: GET
      url: https://tracker.example/api/issues/{{number}}
---
# Tracker

Look the issue up with `get_issue`, then say its state and who owns it.
SKILL
}

# Seconds of one clean `cargo build` of the crate in $1.
clean_build() {
    local dir=$1 start end
    rm -rf "$dir/target"
    start=$(date +%s.%N)
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo build --offline --quiet)
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

# Lines of the compiler's sources in the macro's build, from rustc's dep-info.
macro_lines() {
    local dir=$1
    sed -n 's/^\(.*skills-compiler\/src\/[^:]*\.rs\):$/\1/p' "$dir"/target/debug/deps/skills_compiler-*.d |
        sort -u | xargs cat | wc -l
}

median() { sort -n | awk '{a[NR]=$1} END {printf "%.1f / %.1f / %.1f", a[int((NR+1)/2)], a[1], a[NR]}'; }

user_crate "$root/user-base" "$root/base"
user_crate "$root/user-here" "$workspace"
for _ in $(seq "$RUNS"); do
    clean_build "$root/user-base" >> "$root/base.times"
    clean_build "$root/user-here" >> "$root/here.times"
done
echo "| checkout | clean debug build, s (median / min / max of $RUNS) | skills-compiler lines compiled |"
echo "|---|---|---|"
echo "| $BASE ($(git -C "$root/base" rev-parse --short HEAD)) | $(median < "$root/base.times") | $(macro_lines "$root/user-base") |"
echo "| this checkout ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with changes')) | $(median < "$root/here.times") | $(macro_lines "$root/user-here") |"
