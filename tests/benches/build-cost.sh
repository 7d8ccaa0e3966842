#!/usr/bin/env bash
# The cost of embedding skills, against the cheapest alternative: the same
# files as hand-written `include_str!` statics (no validation, no types).
#
#     bash tests/benches/build-cost.sh            # 8, 64 and 256 skills
#     SIZES="64" RUNS=5 bash tests/benches/build-cost.sh
#     OPTIMIZED_MACROS=1 bash tests/benches/build-cost.sh   # [profile.dev.build-override] opt-level = 3
#
# Each skill has 3 HTTP tools (GET with path and query placeholders, POST with
# a JSON body, DELETE) and a 3.6 KB body. For each size, three crates share
# one target directory: `include_skills!`, `include_str!` statics, and an
# empty baseline. Measured, as the median of RUNS real `cargo build --offline`:
#   - the crate's own debug rebuild after editing src/main.rs,
#   - the debug rebuild after editing one skill's description,
# and the stripped release binary's growth over the baseline, against the raw
# bytes of the skill files. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
SIZES=${SIZES:-"8 64 256"}
RUNS=${RUNS:-5}
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-build-cost.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$root"' EXIT; else echo "keeping $root" >&2; fi
export CARGO_TARGET_DIR="$root/target"

body() {
    local i=$1
    printf '# Skill %s\n\n' "$i"
    for section in Overview Inputs Steps Pitfalls Examples Checks; do
        printf '## %s\n\n' "$section"
        for line in 1 2 3 4 5 6; do
            printf 'Line %s of %s for skill %s: say what to do, when to do it, and what the tracker returns when it works.\n' "$line" "$section" "$i"
        done
        printf '\n'
    done
}

skill() {
    local i=$1 description=$2
    cat <<EOF
---
name: skill-$i
description: $description
tools:
  - name: list_items
    description: List the items of a project, newest first.
    parameters:
      type: object
      required: [project]
      properties:
        project: {type: string, description: Project key}
        state: {type: string, enum: [open, closed, all], default: open}
        limit: {type: integer, minimum: 1, maximum: 100}
    endpoint:
      method: GET
      url: https://api.example.com/projects/{{project}}/items?state={{state}}&limit={{limit}}
  - name: create_item
    description: Create an item in a project.
    parameters:
      type: object
      required: [project, title]
      properties:
        project: {type: string}
        title: {type: string, description: Item title}
        labels: {type: array, items: {type: string}}
        priority: {type: string, enum: [low, normal, high]}
    endpoint:
      method: POST
      url: https://api.example.com/projects/{{project}}/items
      body: '{"title": {{title}}, "labels": {{labels}}, "priority": {{priority}}}'
  - name: delete_item
    description: Delete an item permanently.
    parameters:
      type: object
      required: [project, number]
      properties:
        project: {type: string}
        number: {type: integer}
    endpoint:
      method: DELETE
      url: https://api.example.com/projects/{{project}}/items/{{number}}
permissions:
  allow_write: [create_item]
  require_confirmation: [delete_item]
---
EOF
    body "$i"
}

# shellcheck source=tests/benches/build-timing.sh
source "$workspace/tests/benches/build-timing.sh"
edit_description() { sed -i "3s/.*/description: Edited description $1. Use when the benchmark edits a skill./" skills/skill-000/SKILL.md; }

size_of() { stat -c %s "$CARGO_TARGET_DIR/release/$1"; }

echo "| skills | raw skill bytes | crate rebuild: include_skills! / include_str! | ratio | after editing a description | ratio | release growth: include_skills! / include_str! | growth ÷ raw bytes |"
echo "|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
    dir="$root/n$n"
    mkdir -p "$dir"
    printf '[workspace]\nmembers = ["macro", "statics", "empty"]\nresolver = "3"\n\n[profile.release]\nstrip = true\n' > "$dir/Cargo.toml"
    if [ -n "${OPTIMIZED_MACROS:-}" ]; then
        printf '\n[profile.dev.build-override]\nopt-level = 3\n' >> "$dir/Cargo.toml"
    fi
    cp "$workspace/Cargo.lock" "$dir/Cargo.lock"
    for krate in macro statics; do
        for i in $(seq -f '%03g' 0 $((n - 1))); do
            mkdir -p "$dir/$krate/skills/skill-$i"
            skill "$i" "Work with the items of project $i. Use when the user asks about items, wants one created, or wants one deleted." > "$dir/$krate/skills/skill-$i/SKILL.md"
        done
    done
    raw=$(cat "$dir"/macro/skills/*/SKILL.md | wc -c)
    dependency="skills-runtime = { path = \"$workspace/skills\" }"
    mkdir -p "$dir/macro/src"
    manifest bench-macro "$dependency" > "$dir/macro/Cargo.toml"
    cat > "$dir/macro/src/main.rs" <<EOF
// edit 0
mod agent {
    skills::include_skills!("skills", track = false, max_skills = 1000);
}

fn main() {
    // black_box: the optimiser must keep every table, as a real user would.
    let set = std::hint::black_box(&agent::SKILLS);
    let bytes: usize = set.iter().map(|s| s.body().len() + s.tools().len()).sum();
    println!("{} {bytes}", agent::SKILLS.len());
}
EOF
    mkdir -p "$dir/statics/src"
    manifest bench-statics "" > "$dir/statics/Cargo.toml"
    {
        echo "// edit 0"
        echo "static SKILLS: [&str; $n] = ["
        for i in $(seq -f '%03g' 0 $((n - 1))); do
            echo "    include_str!(\"../skills/skill-$i/SKILL.md\"),"
        done
        echo "];"
        echo
        echo "fn main() {"
        echo "    let skills = std::hint::black_box(&SKILLS);"
        echo "    let bytes: usize = skills.iter().map(|s| s.len()).sum();"
        echo "    println!(\"{} {bytes}\", SKILLS.len());"
        echo "}"
    } > "$dir/statics/src/main.rs"
    mkdir -p "$dir/empty/src"
    manifest bench-empty "" > "$dir/empty/Cargo.toml"
    printf 'fn main() {\n    let bytes: usize = 0;\n    println!("{} {bytes}", 0);\n}\n' > "$dir/empty/src/main.rs"

    (cd "$dir" && cargo build --offline --quiet --workspace && cargo build --offline --quiet --release --workspace)
    macro_main=$(timed "$dir/macro" edit_main)
    statics_main=$(timed "$dir/statics" edit_main)
    macro_skill=$(timed "$dir/macro" edit_description)
    statics_skill=$(timed "$dir/statics" edit_description)
    (cd "$dir" && cargo build --offline --quiet --release --workspace)
    empty=$(size_of bench-empty)
    macro_growth=$(($(size_of bench-macro) - empty))
    statics_growth=$(($(size_of bench-statics) - empty))
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
    echo "| $n | $raw | $macro_main ms / $statics_main ms | $(ratio "$macro_main" "$statics_main") | $macro_skill ms / $statics_skill ms | $(ratio "$macro_skill" "$statics_skill") | $macro_growth / $statics_growth bytes | $(ratio "$macro_growth" "$raw") / $(ratio "$statics_growth" "$raw") |"
done
