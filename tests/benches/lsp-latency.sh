#!/usr/bin/env bash
# `cargo skills lsp`: the time from a didChange to its diagnostics in a
# package of 64 skills and one of 5,000 (one skill file edited 200 times),
# and the server's peak resident memory, with the release binary.
#
#     bash tests/benches/lsp-latency.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/skills-lsp-latency.XXXXXX")
trap 'rm -rf "$root"' EXIT
cargo build --release --quiet -p cargo-skills
bin=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/cargo-skills
python3 -m venv "$root/venv"
"$root/venv/bin/pip" install --quiet pygls==2.1.1

package() {
    local dir=$1 count=$2 i name
    mkdir -p "$dir/src"
    printf '[package]\nname = "w"\nversion = "0.1.0"\nedition = "2024"\n\n[package.metadata.skills]\ndir = "skills"\n' > "$dir/Cargo.toml"
    echo 'fn main() {}' > "$dir/src/main.rs"
    for i in $(seq 0 $((count - 1))); do
        name=$(printf 's%04d' "$i")
        mkdir -p "$dir/skills/$name"
        printf -- '---\nname: %s\ndescription: Skill %s files a report. Use when the user asks for report %s.\n---\n# Skill %s\n\nFile the report.\n' \
            "$name" "$i" "$i" "$i" > "$dir/skills/$name/SKILL.md"
    done
}

# The server's own peak memory, measured around it alone.
printf '#!/bin/sh\nexec /usr/bin/time -f %%M -o "%s/rss" "%s" "$@"\n' "$root" "$bin" > "$root/server"
chmod +x "$root/server"

echo "| skills | open, ms | didChange to diagnostics, ms (median / p90 / max of 200) | hover / completion / symbols, ms | references, ms | code lenses, ms | workspace diagnostics, ms | server's peak RSS, MiB |"
echo "|---|---|---|---|---|---|---|---|"
for count in 64 5000; do
    package "$root/w$count" "$count"
    "$root/venv/bin/python3" "$workspace/tests/benches/lsp-latency.py" \
        "$root/server" "$root/w$count" 200 > "$root/out.json"
    python3 - "$root/out.json" "$count" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {r['open_ms']} | {r['median_ms']} / {r['p90_ms']} / {r['max_ms']} | {r['hover_ms']} / {r['completion_ms']} / {r['symbols_ms']} | {r['references_ms']} | {r['lenses_ms']} | {r['workspace_ms']} |", end="")
PY
    echo " $(( $(tail -1 "$root/rss") / 1024 )) |"
done
