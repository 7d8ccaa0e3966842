#!/usr/bin/env bash
# What `require_signatures` costs a build: one crate with 64 signed skills
# (`include_skills!` with the build script it asks for), built with
# `trust` and `require_signatures = true` and without, in one target
# directory. Measured, as the median of RUNS real `cargo build --offline`:
#   - a rebuild with nothing changed in the skills (src/main.rs touched);
#   - a rebuild after one skill's script is edited (and, for the signed
#     crate, the skill signed again), which verifies every skill again.
#
#     bash tests/benches/signed-build.sh            # 64 skills, median of 5
#     SIZE=16 RUNS=3 bash tests/benches/signed-build.sh
#
# Keys and certificates come from `openssl`; skills are signed with the
# checkout's `cargo skills sign`. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
SIZE=${SIZE:-64}
RUNS=${RUNS:-5}
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-signed-build.XXXXXX")
trap 'rm -rf "$root"' EXIT
export CARGO_TARGET_DIR="${BENCH_TARGET:-$root/target}"

cargo build --quiet --release -p cargo-skills
cli="$CARGO_TARGET_DIR/release/cargo-skills"

# A CA and a leaf that may sign, on P-256.
(
    cd "$root"
    openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out ca.key
    openssl req -x509 -new -key ca.key -subj "/CN=Bench Root" -days 30 -out ca.pem \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2>/dev/null
    openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out leaf.key
    openssl req -new -key leaf.key -subj "/CN=Bench Publisher" -out leaf.csr 2>/dev/null
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n' > leaf.ext
    openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -days 10 -out leaf.pem -extfile leaf.ext 2>/dev/null
)

make_crate() {
    local name=$1 metadata=$2
    local dir="$root/$name"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
skills = { package = "skills-runtime", path = "$workspace/skills" }

[build-dependencies]
skills-build = { path = "$workspace/skills-build" }

[package.metadata.skills]
$metadata

[workspace]
TOML
    cp "$workspace/Cargo.lock" "$dir/Cargo.lock"
    cp "$root/ca.pem" "$dir/ca.pem"
    printf 'fn main() {\n    skills_build::track("skills");\n}\n' > "$dir/build.rs"
    printf 'mod agent {\n    skills::include_skills!("skills");\n}\n\nfn main() {\n    println!("{}", agent::SKILLS.len());\n}\n' > "$dir/src/main.rs"
    for i in $(seq 1 "$SIZE"); do
        local skill="$dir/skills/skill-$i"
        mkdir -p "$skill/scripts" "$skill/references"
        printf -- '---\nname: skill-%s\ndescription: Does task %s for the tracker. Use when asked to do task %s.\n---\n# Skill %s\n\nRun `scripts/run.sh`; see [the guide](references/guide.md).\n' "$i" "$i" "$i" "$i" > "$skill/SKILL.md"
        printf '#!/bin/sh\necho "task %s"\n' "$i" > "$skill/scripts/run.sh"
        for line in $(seq 1 60); do printf 'Line %s of the guide of skill %s: what to do and when.\n' "$line" "$i"; done > "$skill/references/guide.md"
        if [ "$name" = signed ]; then
            "$cli" sign "$skill" --key "$root/leaf.key" --cert-chain "$root/leaf.pem" >/dev/null
        fi
    done
}

make_crate plain ""
make_crate signed $'trust = ["ca.pem"]\nrequire_signatures = true'

build() { (cd "$root/$1" && cargo build --quiet --offline); }
seconds() { local start end; start=$(date +%s.%N); "$@"; end=$(date +%s.%N); echo "$end - $start" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for crate in plain signed; do build "$crate"; done

touched() {
    local crate=$1
    for _ in $(seq 1 "$RUNS"); do
        touch "$root/$crate/src/main.rs"
        seconds build "$crate"
    done | median
}

edited() {
    local crate=$1
    for run in $(seq 1 "$RUNS"); do
        local skill="$root/$crate/skills/skill-1"
        printf '#!/bin/sh\necho "task 1, edit %s"\n' "$run" > "$skill/scripts/run.sh"
        if [ "$crate" = signed ]; then
            "$cli" sign "$skill" --key "$root/leaf.key" --cert-chain "$root/leaf.pem" >/dev/null
        fi
        seconds build "$crate"
    done | median
}

plain_touch=$(touched plain); signed_touch=$(touched signed)
plain_edit=$(edited plain); signed_edit=$(edited signed)
echo "| $SIZE skills, debug rebuild | without signatures | \`require_signatures\` | ratio |"
echo "|---|---|---|---|"
printf '| nothing changed (src/main.rs touched) | %.2f s | %.2f s | %.2fx |\n' "$plain_touch" "$signed_touch" "$(echo "$signed_touch / $plain_touch" | bc -l)"
printf '| one script edited (and signed again) | %.2f s | %.2f s | %.2fx |\n' "$plain_edit" "$signed_edit" "$(echo "$signed_edit / $plain_edit" | bc -l)"
