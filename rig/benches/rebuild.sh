#!/usr/bin/env bash
# What skills-rig adds to a rig agent's debug rebuild: touch `main.rs` and
# rebuild, in two crates that embed the same two compiled skills (the
# example's: a script, an HTTP tool) with `include_skills!` in `main.rs`,
# and differ only in how the agent gets its tools:
#
#   skills-rig: `.skills(&SkillTools::new(Toolset::new(&agent::SKILLS)))`;
#   one tool:   one hand-written `DynamicTool` (`load_skill` over the same
#               set) and the catalog appended by hand.
#
# Both build the same agent on the same model; one shared target directory;
# the median of RUNS rebuilds each, interleaved.
#
#   bash rig/benches/rebuild.sh            (RUNS=5 by default)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-5}"
work="$(mktemp -d "${TMPDIR:-/tmp}/skills-rig-rebuild.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target"

model='
mod model {
    use bytes::Bytes;
    use http::{Request, Response};
    use rig_core::http_client::{self, HttpClientExt, LazyBody, MultipartForm, StreamingResponse};
    use std::future::Future;

    #[derive(Clone)]
    pub struct Offline;

    impl HttpClientExt for Offline {
        fn send<T, U>(&self, _: Request<T>) -> impl Future<Output = http_client::Result<Response<LazyBody<U>>>> + Send + '"'"'static
        where T: Into<Bytes> + Send, U: From<Bytes> + Send + '"'"'static {
            async { Err(http_client::Error::StreamEnded) }
        }
        fn send_multipart<U>(&self, _: Request<MultipartForm>) -> impl Future<Output = http_client::Result<Response<LazyBody<U>>>> + Send + '"'"'static
        where U: From<Bytes> + Send + '"'"'static {
            async { Err(http_client::Error::StreamEnded) }
        }
        async fn send_streaming<T>(&self, _: Request<T>) -> http_client::Result<StreamingResponse>
        where T: Into<Bytes> + Send {
            Err(http_client::Error::StreamEnded)
        }
    }
}
'

make_crate() {
    local name="$1" deps="$2" main="$3"
    mkdir -p "$work/$name/src"
    cat > "$work/$name/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.1.0"
edition = "2024"
rust-version = "1.95"
publish = false

[workspace]

[dependencies]
rig-core = { version = "0.44", default-features = false }
rig-agent = { version = "0.44", default-features = false }
bytes = "1"
http = "1"
serde_json = "1"
$deps
TOML
    cp "$here/Cargo.lock" "$work/$name/Cargo.lock"
    printf '%s\n%s\n' "$model" "$main" > "$work/$name/src/main.rs"
}

make_crate skills "skills = { path = \"$here/../skills\", package = \"skills-runtime\", features = [\"scripts\"] }
skills-rig = { path = \"$here/skills-rig\", features = [\"scripts\"] }" '
mod agent {
    skills::include_skills!("skills", track = false);
}

use skills_rig::AgentBuilderExt;

fn main() {
    let model = rig_core::providers::anthropic::wire::AnthropicConfig::new("k").connect(model::Offline).completion("m");
    let tools = skills_rig::SkillTools::new(skills::Toolset::new(&agent::SKILLS).with_scripts(skills::scripts::Scripts::new()));
    let agent = rig_agent::AgentBuilder::new(model).preamble("You help with releases.").skills(&tools).build();
    println!("{}", std::mem::size_of_val(&agent));
}'
cp -r "$here/examples/rig-agent/skills" "$work/skills/skills"

make_crate one-tool "skills = { path = \"$here/../skills\", package = \"skills-runtime\", features = [\"scripts\"] }" '
mod agent {
    skills::include_skills!("skills", track = false);
}

use rig_core::tool::{DynamicTool, ToolExecutionError, ToolOutput};
use rig_core::completion::message::ToolName;

fn main() {
    let model = rig_core::providers::anthropic::wire::AnthropicConfig::new("k").connect(model::Offline).completion("m");
    let tool = DynamicTool::new(
        ToolName::new("load_skill").unwrap(),
        "Load a skill: its full instructions.",
        serde_json::json!({"type": "object", "properties": {"name": {"type": "string", "enum": ["release"]}}, "required": ["name"]}),
        |arguments| {
            Box::pin(async move {
                let name = arguments["name"].as_str().unwrap_or_default();
                match agent::SKILLS.get(name) {
                    Some(skill) => Ok(ToolOutput::text(skill.rendered())),
                    None => Err(ToolExecutionError::not_found(format!("no skill {name}"))),
                }
            })
        },
    );
    let agent = rig_agent::AgentBuilder::new(model)
        .preamble("You help with releases.")
        .append_preamble(agent::SKILLS.catalog())
        .dynamic_tools(vec![tool])
        .build();
    println!("{}", std::mem::size_of_val(&agent));
}'

cp -r "$here/examples/rig-agent/skills" "$work/one-tool/skills"

for name in skills one-tool; do
    (cd "$work/$name" && cargo build -q 2>&1 | grep -v "^warning: unused" || true)
done

measure() {
    local name="$1"
    touch "$work/$name/src/main.rs"
    local start end
    start=$(date +%s%N)
    (cd "$work/$name" && cargo build -q)
    end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
}

declare -a with without
for _ in $(seq "$runs"); do
    with+=("$(measure skills)")
    without+=("$(measure one-tool)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
w=$(median "${with[@]}")
o=$(median "${without[@]}")
echo "touch main.rs, debug rebuild (median of $runs):"
echo "  skills-rig:                   ${w} ms   (${with[*]})"
echo "  one hand-written DynamicTool: ${o} ms   (${without[*]})"
awk -v w="$w" -v o="$o" 'BEGIN { printf "  ratio: %.2fx\n", w / o }'
