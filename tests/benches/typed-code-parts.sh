#!/usr/bin/env bash
# What each part of the typed tool code costs a debug rebuild (BENCHMARKS.md,
# issue 21, "Where the remaining cost is"). The generated file of the 64 x 3
# tools crate (build.rs path) is copied into a crate that `include!`s it,
# parts of it are cut out, and each variant is rebuilt RUNS times after
# touching main.rs, in two rounds. Needs a directory kept by build-cost.sh:
#
#     KEEP=1 SETS=tools SIZES=64 RUNS=1 bash tests/benches/build-cost.sh   # prints "keeping DIR"
#     bash tests/benches/typed-code-parts.sh DIR
#     PROFILE=1 bash tests/benches/typed-code-parts.sh DIR   # + rustc's -Ztime-passes (nightly)
#
# The cuts work on the rustfmt'ed text and are for measuring only: the
# variant without conversions compiles but does not work (what used them is
# `unimplemented!()`).
set -euo pipefail
cd "$(dirname "$0")/../.."
workspace=$(pwd)
kept=${1:?usage: typed-code-parts.sh DIR-KEPT-BY-build-cost.sh}
RUNS=${RUNS:-5}
dir="$kept/tools-64"
export CARGO_TARGET_DIR="$kept/target"
# shellcheck source=tests/benches/build-timing.sh
source "$workspace/tests/benches/build-timing.sh"

generated=$(ls "$CARGO_TARGET_DIR"/debug/build/bench-buildrs-*/out/skills.rs | head -1)
parts="$dir/parts"
variants="$kept/variants"
mkdir -p "$parts/src" "$variants"
cp -r "$dir/buildrs/skills" "$parts/"
manifest bench-parts "$(grep '^skills-runtime' "$dir/buildrs/Cargo.toml")" > "$parts/Cargo.toml"
sed 's|include!(concat!(env!("OUT_DIR"), "/skills.rs"));|include!("generated.rs");|; s|^mod agent {|#[allow(unused_variables)]\nmod agent {|' \
    "$dir/buildrs/src/main.rs" > "$parts/src/main.rs"
grep -q '"parts"' "$dir/Cargo.toml" || sed -i 's/"empty"\]/"empty", "parts"]/' "$dir/Cargo.toml"

# The cuts. Blocks are found by their first line and end at the closing brace
# of the same indentation, as rustfmt writes them.
rustfmt --edition 2021 --emit stdout < "$generated" > "$variants/whole.rs"
drop_blocks() { awk -v start="$1" '
    skip { if ($0 == indent "}") skip = 0; next }
    $0 ~ start { match($0, /^ */); indent = substr($0, 1, RLENGTH); skip = 1; next }
    { print }'; }
no_eq_hash() { sed 's/__p :: PartialEq, __p :: Eq, __p :: Hash)/__p :: PartialEq)/'; }
no_docs() { grep -v -E '^\s*(#\[doc = .*\]|///)'; }
few_methods() { drop_blocks '^ *pub fn (name|tool|policy|to_call|request|request_to)\('; }
no_conversions() {
    drop_blocks '^ *impl __p::(FromJson|ToJson) for' |
        sed -E 's/__p::decode\(call\)\.map\(ToolCall::[A-Za-z0-9_]+\)/::core::unimplemented!()/;
                s/__p::ToJson::to_json\(arguments\)/::core::unimplemented!()/;
                s/__p::encode\(&SKILL\.tools\[[0-9]+usize\], arguments\)/::core::unimplemented!()/'
}
no_derives() {
    sed 's/#\[derive(__p :: Debug, __p :: Clone, __p :: PartialEq)\]//;
         s/#\[derive(__p :: Debug, __p :: Clone, __p :: Copy, __p :: PartialEq, __p :: Eq, __p :: Hash)\]/#[derive(__p :: Clone, __p :: Copy)]/'
}
tables_only() { awk '
    /^pub mod skill_/ { print; inside = 1; next }
    inside && $0 == "}" { print; inside = 0; next }
    inside { if ($0 ~ /use super::|pub const SKILL/) print; next }
    { print }'; }
whole="$variants/whole.rs"
no_eq_hash < "$whole" > "$variants/no-eq-hash.rs"
no_eq_hash < "$whole" | no_docs | few_methods > "$variants/trimmed.rs"
no_conversions < "$whole" > "$variants/no-conversions.rs"
no_derives < "$whole" > "$variants/no-derives.rs"
tables_only < "$whole" > "$variants/tables-only.rs"

order="whole no-eq-hash trimmed no-conversions no-derives tables-only"
echo "| variant | round 1 | round 2 |"
echo "|---|---|---|"
declare -A rebuild
for round in 1 2; do
    for variant in $order; do
        cp "$variants/$variant.rs" "$parts/src/generated.rs"
        (cd "$parts" && cargo build --offline --quiet)
        rebuild[$variant]+="$(timed "$parts" edit_main) ms | "
    done
done
for variant in $order; do echo "| $variant | ${rebuild[$variant]}"; done
echo "| floor / statics | $(timed "$dir/floor" edit_main) / $(timed "$dir/statics" edit_main) ms | |"

if [ -n "${PROFILE:-}" ]; then
    rustup toolchain install nightly --profile minimal > /dev/null 2>&1 || true
    passes="total|macro_expand_crate|resolve_crate|misc_checking_3|type_check_crate|MIR_borrow_checking|coherence_checking|serialize_dep_graph|incr_comp_persist_result_cache|link"
    echo
    echo "| variant | pass | time |"
    echo "|---|---|---|"
    for variant in whole no-derives tables-only; do
        cp "$variants/$variant.rs" "$parts/src/generated.rs"
        time_passes "$parts" bench-parts "$variant" "$kept/nightly" "$passes"
    done
fi
