#!/usr/bin/env bash
# `cargo skills check` over a generated tree of 5,000 skills: wall time and
# peak memory, side by side with the Agent Skills reference validator
# (skills-ref, Python) when it can be installed; the script says when it skips it.
#
#     bash cargo-skills/benches/check-5000.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${SKILLS:-5000}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet -p cargo-skills
bin=$PWD/target/release/cargo-skills

echo "generating $count skills in $work/skills"
mkdir -p "$work/skills"
for i in $(seq -w 1 "$count"); do
    mkdir -p "$work/skills/skill-$i"
    printf -- '---\nname: skill-%s\ndescription: Skill number %s. Use when the user asks for task %s.\nlicense: MIT\nmetadata:\n  owner: team-%s\n---\n# Skill %s\n\nDo task %s carefully, then report.\n' \
        "$i" "$i" "$i" "$i" "$i" "$i" > "$work/skills/skill-$i/SKILL.md"
done
printf '[package]\nname = "bench"\nversion = "0.1.0"\n\n[package.metadata.skills]\nmax_skills = %s\nprofile = "portable"\n' "$count" > "$work/Cargo.toml"

measure() { # label, command...
    local label=$1; shift
    local best=999999 rss=0
    for _ in $(seq 1 "$runs"); do
        local start end ms
        start=$(date +%s%N)
        /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2> "$work/stderr" || { cat "$work/stderr"; exit 1; }
        end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 ))
        (( ms < best )) && best=$ms
        rss=$(cat "$work/rss")
    done
    printf '%-44s best of %s: %6d ms   peak RSS: %7d KiB\n' "$label" "$runs" "$best" "$rss"
}

cd "$work"
measure "cargo skills check ($count skills)" "$bin" check skills

python=${PYTHON:-python3}
venv=$work/venv
if "$python" -m venv "$venv" > /dev/null 2>&1 && "$venv/bin/pip" install --quiet skills-ref > /dev/null 2>&1; then
    cat > "$work/validate_all.py" <<'PY'
import sys
from pathlib import Path
from skills_ref.validator import validate
errors = 0
for skill in sorted(Path(sys.argv[1]).iterdir()):
    errors += len(validate(skill))
sys.exit(1 if errors else 0)
PY
    version=$("$venv/bin/pip" show skills-ref | sed -n 's/^Version: //p')
    measure "skills-ref $version validate, one process" "$venv/bin/python" "$work/validate_all.py" skills
else
    echo "skipped: skills-ref (the reference validator) could not be installed here"
fi
