#!/usr/bin/env bash
# The cost of embedding skills, against the cheapest alternative: the same
# files as hand-written `include_str!` statics (no validation, no types).
#
#     bash tests/benches/build-cost.sh                 # both sets at 64 and 256 skills, median of 5
#     SETS=tools SIZES=64 RUNS=3 bash tests/benches/build-cost.sh
#     PROFILE=1 SIZES=64 bash tests/benches/build-cost.sh   # + rustc's -Ztime-passes (nightly)
#     OPTIMIZED_MACROS=1 bash tests/benches/build-cost.sh   # [profile.dev.build-override] opt-level = 3
#     SMOKE=1 bash tests/benches/build-cost.sh         # CI: 4 skills, one run, no release build
#     RUNTIME=path bash tests/benches/build-cost.sh    # the checkout's crates as path dependencies
#     TYPED=1 bash tests/benches/build-cost.sh         # main.rs also parses a call of every
#                                                      # skill's ToolCall and builds its request
#     GROWTH_ONLY=1 bash tests/benches/build-cost.sh   # the release growth alone, no timed rebuild
#
# The runtime is packed, as its users get it (build-timing.sh, RUNTIME).
#
# Two sets of skills:
#   instructions: real skills without tools, the first that compile without
#                 a diagnostic from ../shared/corpus (skipped when it is absent);
#   tools:        generated skills with 3 HTTP tools each and a 3.6 KB body.
# For each set and size, crates in one target directory:
#   macro     `include_skills!("skills")` with the build script it asks for
#   buildrs   `skills_build::compile("skills")` and `include!` of the output
#   statics   the same files as `include_str!` statics
#   split     `include_skills!` in a library crate of its own (split-skills),
#             and the binary that uses it: main.rs's crate has no skill in it
#   floor     the same statics in a crate that depends on the runtime, so
#             that what the runtime costs by itself (linking it, Cargo's
#             checks of its dependencies) is seen apart from the skills
#   one       the macro crate with only the first skill (release baseline)
#   empty     nothing (the statics' release baseline)
# Measured, as the median of RUNS real `cargo build --offline` (default
# profiles): each crate's debug rebuild after touching src/main.rs, and after
# editing one skill's description; the stripped release binaries' growth
# against the raw bytes of the skill files. Prints Markdown tables.
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
SETS=${SETS:-"instructions tools"}
SIZES=${SIZES:-"64 256"}
RUNS=${RUNS:-5}
if [ -n "${SMOKE:-}" ]; then
    SIZES=4
    RUNS=1
fi
corpus="$workspace/../shared/corpus"
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-build-cost.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$root"' EXIT; else echo "keeping $root" >&2; fi
# BENCH_TARGET: a target directory to share (CI's, whose dependencies are built).
export CARGO_TARGET_DIR="${BENCH_TARGET:-$root/target}"

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

# The suffix of the $1-th tool's name: none for the first three, `_k` after.
tool_suffix() { if [ "$1" -ge 3 ]; then echo "_$1"; fi; }

# The arguments as the items of a YAML flow list: `a, b, c`.
flow() {
    local IFS=,
    echo "$*" | sed 's/,/, /g'
}

# The three kinds of tool of a generated skill; the $k-th tool (from 0) is
# of kind k % 3, with a suffix from the fourth on (TOOLS per skill).
tool() {
    local k=$1 suffix
    suffix=$(tool_suffix "$k")
    case $((k % 3)) in
    0) cat <<EOF
  - name: list_items$suffix
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
EOF
    ;;
    1) cat <<EOF
  - name: create_item$suffix
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
EOF
    ;;
    2) cat <<EOF
  - name: delete_item$suffix
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
EOF
    ;;
    esac
}

# A generated skill with TOOLS tools (3 by default) and a 3.6 KB body.
tool_skill() {
    local i=$1 count=${TOOLS:-3} writes=() confirms=()
    for k in $(seq 0 $((count - 1))); do
        case $((k % 3)) in
        1) writes+=("create_item$(tool_suffix "$k")") ;;
        2) confirms+=("delete_item$(tool_suffix "$k")") ;;
        esac
    done
    printf -- '---\nname: skill-%s\n' "$i"
    printf 'description: Work with the items of project %s. Use when the user asks about items, wants one created, or wants one deleted.\n' "$i"
    printf 'tools:\n'
    for k in $(seq 0 $((count - 1))); do tool "$k"; done
    if [ "${#writes[@]}" -gt 0 ] || [ "${#confirms[@]}" -gt 0 ]; then
        printf 'permissions:\n'
        if [ "${#writes[@]}" -gt 0 ]; then printf '  allow_write: [%s]\n' "$(flow "${writes[@]}")"; fi
        if [ "${#confirms[@]}" -gt 0 ]; then printf '  require_confirmation: [%s]\n' "$(flow "${confirms[@]}")"; fi
    fi
    printf -- '---\n'
    body "$i"
}

# The configuration of every crate of a set (the macro and the build script
# read the same table). Real skills are read as `lenient` reads them, with
# the advisory lints that most of them trip allowed.
metadata() {
    local set=$1
    printf '\n[package.metadata.skills]\nmax_skills = 1000\n'
    if [ "$set" = instructions ]; then
        printf 'profile = "lenient"\ncheck_links = false\n\n[package.metadata.skills.lints]\n'
        for code in W003 W008 W009 W010 W014 W015 W016 W019; do printf '%s = "allow"\n' "$code"; done
    fi
}


# The real skills of the corpus that compile without a diagnostic, by name.
clean_corpus_skills() {
    local pool="$root/pool" cargo_skills="$CARGO_TARGET_DIR/debug/cargo-skills"
    cargo build --offline --quiet -p cargo-skills
    mkdir -p "$pool/skills"
    find "$corpus" -name SKILL.md | LC_ALL=C sort | while IFS= read -r file; do
        local name
        name=$(basename "$(dirname "$file")")
        [ -e "$pool/skills/$name" ] && continue
        mkdir -p "$pool/skills/$name"
        cp "$file" "$pool/skills/$name/SKILL.md"
    done
    { printf '[package]\nname = "pool"\nversion = "0.1.0"\n'; metadata instructions; } > "$pool/Cargo.toml"
    local dirty
    dirty=$(cd "$pool" && "$cargo_skills" check skills --message-format short 2>&1 | grep -oE '^skills/[^/]+' | sort -u || true)
    for name in $(ls "$pool/skills" | LC_ALL=C sort); do
        grep -qx "skills/$name" <<<"$dirty" || echo "$name"
    done
}

# shellcheck source=tests/benches/build-timing.sh
source "$workspace/tests/benches/build-timing.sh"
edit_description() {
    local file
    file=$(ls -d skills/*/ | head -1)SKILL.md
    # The line that starts `description:`, kept one line long.
    sed -i "0,/^description:.*/s//description: Edited description $1. Use when the benchmark edits a skill./" "$file"
}
# The split crate's skills are in the library beside it.
edit_split_description() { (cd ../split-skills && edit_description "$1"); }
# The passes PROFILE=1 reports (time_passes, build-timing.sh).
passes="total|macro_expand_crate|type_check_crate|MIR_borrow_checking|codegen_crate|link_crate|serialize_dep_graph|incr_comp_persist_result_cache"
size_of() { stat -c %s "$CARGO_TARGET_DIR/release/$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
runtime_source
# The main.rs of a crate whose skills are in "$1": every table is kept,
# and with TYPED every skill's typed calls too.
main_rs() {
    local skills=$1
    cat <<'EOF'
// edit 0
fn main() {
    // black_box: the optimiser must keep every table, as a real user would.
    let set = std::hint::black_box(&agent::SKILLS);
    let bytes: usize = set.iter().map(|s| s.body().len() + s.tools().len()).sum();
EOF
    if [ -n "${TYPED:-}" ]; then
        echo '    let arguments = std::env::args().nth(1).unwrap_or_default();'
        for name in $(ls "$skills" | LC_ALL=C sort); do
            grep -q '^tools:' "$skills/$name/SKILL.md" || continue
            echo "    let bytes = bytes + typed::<agent::${name//-/_}::ToolCall>(&arguments);"
        done
    fi
    cat <<'EOF'
    println!("{} {bytes}", agent::SKILLS.len());
}
EOF
    if [ -n "${TYPED:-}" ]; then
        cat <<'EOF'

/// Parses a call of each of the skill's tools and builds its request, with
/// arguments the optimiser cannot see: all of its typed-call code is kept.
fn typed<T: skills::TypedCall>(arguments: &str) -> usize {
    let tools = T::SKILL.tools().iter();
    let calls = tools.filter_map(|tool| T::parse(tool.name(), arguments).ok());
    calls.filter_map(|call| call.request().ok()).map(|request| request.body().len()).sum()
}
EOF
    fi
}
statics_rs() {
    local n=$1 with_runtime=$2
    echo "// edit 0"
    echo "static SKILLS: [&str; $n] = ["
    for name in $(ls skills | LC_ALL=C sort); do echo "    include_str!(\"../skills/$name/SKILL.md\"),"; done
    echo "];"
    [ "$with_runtime" = yes ] && echo "static SET: skills::SkillSet = skills::SkillSet::compiled(&[]);"
    echo
    echo "fn main() {"
    echo "    let skills = std::hint::black_box(&SKILLS);"
    echo "    let bytes: usize = skills.iter().map(|s| s.len()).sum();"
    [ "$with_runtime" = yes ] && echo "    let bytes = bytes + std::hint::black_box(&SET).len();"
    echo "    println!(\"{} {bytes}\", SKILLS.len());"
    echo "}"
}

# The manifest of crate $1, which compiles the skills of set $2: the
# runtime, skills-build for its build script, and the set's configuration.
skills_manifest() {
    manifest "$1" "$runtime"
    printf '\n[build-dependencies]\n%s\n' "$build"
    metadata "$2"
}

# The set's crates for `n` skills in "$dir", the skills taken from "$skills".
make_crates() {
    local set=$1 n=$2 dir=$3 skills=$4
    mkdir -p "$dir"
    printf '[workspace]\nmembers = ["macro", "buildrs", "split", "split-skills", "statics", "floor", "one", "empty"]\nresolver = "3"\n\n[profile.release]\nstrip = true\n' > "$dir/Cargo.toml"
    if [ -n "${OPTIMIZED_MACROS:-}" ]; then
        printf '\n[profile.dev.build-override]\nopt-level = 3\n' >> "$dir/Cargo.toml"
    fi
    use_runtime_source "$dir"
    for krate in macro buildrs split-skills statics floor one; do
        mkdir -p "$dir/$krate/src" "$dir/$krate/skills"
        cp -r "$skills"/* "$dir/$krate/skills/"
    done
    # The release baseline keeps the first skill only.
    (cd "$dir/one/skills" && ls | LC_ALL=C sort | tail -n +2 | xargs -r rm -r)
    for krate in macro one split-skills; do
        skills_manifest "bench-$krate" "$set" > "$dir/$krate/Cargo.toml"
        printf 'fn main() {\n    skills_build::track("skills");\n}\n' > "$dir/$krate/build.rs"
    done
    for krate in macro one; do
        { main_rs "$dir/$krate/skills"; printf '\nmod agent {\n    skills::include_skills!("skills");\n}\n'; } > "$dir/$krate/src/main.rs"
    done
    # The skills in a library of their own, and the binary that uses them.
    sed -i 's/^name = "bench-split-skills"/name = "split-skills"/' "$dir/split-skills/Cargo.toml"
    printf 'skills::include_skills!("skills");\n' > "$dir/split-skills/src/lib.rs"
    mkdir -p "$dir/split/src"
    manifest bench-split "$runtime
split-skills = { path = \"../split-skills\" }" > "$dir/split/Cargo.toml"
    { main_rs "$dir/split-skills/skills"; printf '\nuse split_skills as agent;\n'; } > "$dir/split/src/main.rs"
    skills_manifest bench-buildrs "$set" > "$dir/buildrs/Cargo.toml"
    printf 'fn main() {\n    skills_build::compile("skills");\n}\n' > "$dir/buildrs/build.rs"
    { main_rs "$dir/buildrs/skills"; printf '\nmod agent {\n    include!(concat!(env!("OUT_DIR"), "/skills.rs"));\n}\n'; } > "$dir/buildrs/src/main.rs"
    manifest bench-statics "" > "$dir/statics/Cargo.toml"
    (cd "$dir/statics" && statics_rs "$n" no > src/main.rs)
    manifest bench-floor "$runtime" > "$dir/floor/Cargo.toml"
    (cd "$dir/floor" && statics_rs "$n" yes > src/main.rs)
    mkdir -p "$dir/empty/src"
    manifest bench-empty "" > "$dir/empty/Cargo.toml"
    printf 'fn main() {\n    let bytes: usize = 0;\n    println!("{} {bytes}", 0);\n}\n' > "$dir/empty/src/main.rs"
}


rows=()
growth_rows=()
split_rows=()
profiles=()
for set in $SETS; do
    if [ "$set" = instructions ] && [ ! -d "$corpus" ]; then
        echo "instructions: skipped, the corpus is not beside the checkout (../shared)" >&2
        continue
    fi
    if [ "$set" = instructions ]; then
        mapfile -t clean < <(clean_corpus_skills)
        echo "instructions: ${#clean[@]} corpus skills compile without a diagnostic" >&2
    fi
    for n in $SIZES; do
        skills="$root/$set-$n-skills"
        mkdir -p "$skills"
        if [ "$set" = instructions ]; then
            if [ "${#clean[@]}" -lt "$n" ]; then
                echo "instructions at $n: skipped, only ${#clean[@]} clean skills" >&2
                continue
            fi
            for name in "${clean[@]:0:$n}"; do cp -r "$root/pool/skills/$name" "$skills/"; done
        else
            for i in $(seq -f '%03g' 0 $((n - 1))); do
                mkdir -p "$skills/skill-$i"
                tool_skill "$i" > "$skills/skill-$i/SKILL.md"
            done
        fi
        raw=$(cat "$skills"/*/SKILL.md | wc -c)
        first=$(ls "$skills" | LC_ALL=C sort | head -1)
        raw_rest=$((raw - $(wc -c < "$skills/$first/SKILL.md")))
        dir="$root/$set-$n"
        make_crates "$set" "$n" "$dir" "$skills"
        if [ -n "${GROWTH_ONLY:-}" ]; then
            (cd "$dir" && cargo build --offline --quiet --release -p bench-macro -p bench-one)
            growth_bytes=$(($(size_of bench-macro) - $(size_of bench-one)))
            growth_rows+=("| $set | $n | ${TOOLS:-3} | $([ -n "${TYPED:-}" ] && echo yes || echo no) | $raw_rest | $growth_bytes | $(ratio "$growth_bytes" "$raw_rest") |")
            continue
        fi
        (cd "$dir" && cargo build --offline --quiet --workspace)
        declare -A main edit
        for krate in macro buildrs split statics floor; do
            main[$krate]=$(timed "$dir/$krate" edit_main)
        done
        for krate in macro buildrs statics; do
            edit[$krate]=$(timed "$dir/$krate" edit_description)
        done
        edit[split]=$(timed "$dir/split" edit_split_description)
        growth="not built (SMOKE)"
        if [ -z "${SMOKE:-}" ]; then
            (cd "$dir" && cargo build --offline --quiet --release --workspace)
            macro_growth=$(($(size_of bench-macro) - $(size_of bench-one)))
            statics_growth=$(($(size_of bench-statics) - $(size_of bench-empty)))
            growth="$(ratio "$macro_growth" "$raw_rest") / $(ratio "$statics_growth" "$raw")"
        fi
        split_rows+=("| $set | $n | ${main[split]} / ${main[statics]} ms | $(ratio "${main[split]}" "${main[statics]}") | $(ratio "${main[split]}" "${main[floor]}") | ${edit[split]} / ${edit[statics]} ms | $(ratio "${edit[split]}" "${edit[statics]}") |")
        rows+=("| $set | $n | $raw | ${main[macro]} / ${main[buildrs]} / ${main[floor]} / ${main[statics]} ms | $(ratio "${main[macro]}" "${main[statics]}") / $(ratio "${main[buildrs]}" "${main[statics]}") | $(ratio "${main[macro]}" "${main[floor]}") / $(ratio "${main[buildrs]}" "${main[floor]}") | ${edit[macro]} / ${edit[buildrs]} / ${edit[statics]} ms | $(ratio "${edit[macro]}" "${edit[statics]}") / $(ratio "${edit[buildrs]}" "${edit[statics]}") | $growth |")
        if [ -n "${PROFILE:-}" ]; then
            if cargo +nightly --version >/dev/null 2>&1; then
                (cd "$dir" && CARGO_TARGET_DIR="$root/nightly" cargo +nightly build --offline --quiet --workspace)
                for krate in macro buildrs floor statics; do
                    mapfile -t lines < <(time_passes "$dir/$krate" "bench-$krate" "$krate" "$root/nightly" "$passes")
                    profiles+=("${lines[@]/#/| $set-$n }")
                done
            else
                echo "PROFILE: skipped, no nightly toolchain (rustup toolchain install nightly)" >&2
            fi
        fi
    done
done

if [ -n "${GROWTH_ONLY:-}" ]; then
    echo "| set | skills | tools a skill | typed calls used | raw bytes past the first skill | release growth past the first skill | ÷ raw bytes |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${growth_rows[@]}"
    exit 0
fi
echo "| set | skills | raw bytes | rebuild after touching main.rs: macro / build.rs / floor / statics | ÷ statics: macro / build.rs | ÷ floor: macro / build.rs | after editing a description: macro / build.rs / statics | ÷ statics | release growth ÷ raw bytes: macro / statics |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "| set | skills | split (skills in their own crate), touch main.rs: split / statics | ÷ statics | ÷ floor | after editing a description: split / statics | ÷ statics |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${split_rows[@]}"
if [ "${#profiles[@]}" -gt 0 ]; then
    echo
    echo "| set | crate | pass | time |"
    echo "|---|---|---|---|"
    printf '%s\n' "${profiles[@]}"
fi
