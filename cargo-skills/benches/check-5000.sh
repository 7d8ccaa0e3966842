#!/usr/bin/env bash
# `cargo skills check` over a generated tree of 5,000 skills: wall time and
# peak memory, side by side with the Agent Skills reference validator
# (skills-ref, Python) when it can be installed; the script says when it skips it.
#
#     bash cargo-skills/benches/check-5000.sh
#     WARM=1 RUNS=3 bash cargo-skills/benches/check-5000.sh   # each timed run right after an untimed one
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
count=${SKILLS:-5000}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet -p cargo-skills
bin=$PWD/target/release/cargo-skills

echo "generating $count skills in $work/skills (bodies of real size: about 4 KB, one in twenty over 50 KB)"
mkdir -p "$work/skills"
paragraph="Read the request, find the files it names, and follow each step in order before you report what changed. "
section=""
for _ in $(seq 1 6); do section="$section$paragraph"; done
for i in $(seq -w 1 "$count"); do
    mkdir -p "$work/skills/skill-$i"
    sections=6
    if (( 10#$i % 20 == 0 )); then sections=90; fi
    {
        printf -- '---\nname: skill-%s\ndescription: Skill number %s. Use when the user asks for task %s.\nlicense: MIT\nmetadata:\n  owner: team-%s\n---\n# Skill %s\n\n' "$i" "$i" "$i" "$i" "$i"
        for s in $(seq 1 "$sections"); do printf '## Step %s\n\n%s\n\n' "$s" "$section"; done
    } > "$work/skills/skill-$i/SKILL.md"
done
echo "$(cat "$work"/skills/*/SKILL.md | wc -c) bytes of SKILL.md"
printf '[package]\nname = "bench"\nversion = "0.1.0"\n\n[package.metadata.skills]\nmax_skills = %s\nprofile = "portable"\n' "$count" > "$work/Cargo.toml"

# Each measured command: a label, then the command. Runs alternate between
# them (one round runs each once), so that the machine's slow and fast
# phases fall on both tools alike; each is reported as its best run.
labels=(); commands=()
add() { labels+=("$1"); shift; commands+=("$(printf '%q ' "$@")"); }

cd "$work"
add "cargo skills check ($count skills)" "$bin" check skills

# The real collections beside the repository, every skill directory on the
# command line (as a CI gate over a collection runs it), by their resolved
# paths, as a CI gate names them (`$PWD/...`): both tools get the same paths.
corpus=$(cd "$repo/../shared/corpus" 2>/dev/null && pwd -P || true)
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
    find "$corpus" -name SKILL.md -printf '%h\n' | sort > "$work/corpus-dirs"
    echo "corpus: $(wc -l < "$work/corpus-dirs") skills, $(find "$corpus" -name SKILL.md -exec cat {} + | wc -c) bytes of SKILL.md"
    # Invalid skills are expected there: only the time counts. `lenient`
    # reads them as other clients do (7 errors, 1,574 warnings); `portable`,
    # the issue's command, holds them to the standard (1,729 errors).
    add "cargo skills check, real corpus, lenient" xargs -a "$work/corpus-dirs" "$bin" check --profile lenient
    add "cargo skills check, real corpus, portable" xargs -a "$work/corpus-dirs" "$bin" check --profile portable
else
    echo "skipped: the real corpus (../shared/corpus) is not beside this checkout"
fi

python=${PYTHON:-python3}
venv=$work/venv
if "$python" -m venv "$venv" > /dev/null 2>&1 && "$venv/bin/pip" install --quiet skills-ref > /dev/null 2>&1; then
    cat > "$work/validate_all.py" <<'PY'
import sys
from pathlib import Path
from skills_ref.validator import validate
errors = 0
paths = sorted(Path(sys.argv[1]).iterdir()) if len(sys.argv) == 2 else [Path(p) for p in sys.argv[1:]]
for skill in paths:
    errors += len(validate(skill))
sys.exit(0)
PY
    version=$("$venv/bin/pip" show skills-ref | sed -n 's/^Version: //p')
    add "skills-ref $version validate, one process" "$venv/bin/python" "$work/validate_all.py" skills
    if [ -n "$corpus" ] && [ -d "$corpus" ]; then
        add "skills-ref $version, real corpus" xargs -a "$work/corpus-dirs" "$venv/bin/python" "$work/validate_all.py"
    fi
else
    echo "skipped: skills-ref (the reference validator) could not be installed here"
fi

declare -a best rss
for _ in $(seq 1 "$runs"); do
    for i in "${!commands[@]}"; do
        # WARM=1: the same command once, untimed, just before (a first run
        # after other work is up to twice as slow on a VM; BENCHMARKS.md).
        if [ "${WARM:-0}" = 1 ]; then
            eval "${commands[$i]}" > /dev/null 2>&1 || true
        fi
        start=$(date +%s%N)
        # Invalid skills exit 1: only the time counts. RSS is the command's own
        # (`xargs` passes it on to the one process it starts).
        eval "/usr/bin/time -f %M -o \"\$work/rss\" ${commands[$i]}" > /dev/null 2>&1 || true
        end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 ))
        if [ -z "${best[$i]:-}" ] || (( ms < best[$i] )); then best[$i]=$ms; fi
        rss[$i]=$(tail -1 "$work/rss")
    done
done
for i in "${!commands[@]}"; do
    printf '%-44s best of %s: %6d ms   peak RSS: %7d KiB\n' "${labels[$i]}" "$runs" "${best[$i]}" "${rss[$i]}"
done
