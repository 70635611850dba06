#!/usr/bin/env bash
# The npm package beside the JavaScript libraries it replaces, in one Node
# process (benches/scripts/npm_peers.mjs). Installs the peers under
# target/bench-peers/node (never globally) and builds the package with
# `cargo xtask js --build`. Not run by CI; results go to docs/benchmarks.md.
#
#   bash benches/scripts/npm_peers.sh [RUNS] [CASES_JSONL]
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-5}
CASES=${2:-../shared/conformance/llm-json/cases.jsonl}
PEERS=target/bench-peers/node
mkdir -p "$PEERS"
if [ ! -d "$PEERS/node_modules/mdast-util-from-markdown" ] || [ ! -d "$PEERS/node_modules/jsonrepair" ]; then
  (cd "$PEERS" && [ -f package.json ] || echo '{"private": true}' > package.json
   npm install --silent --no-audit --no-fund mdast-util-from-markdown@2.1.0 mdast-util-gfm@3.1.0 \
     micromark-extension-gfm@3.0.0 jsonrepair@3.15.0)
fi
cargo xtask js --build
node benches/scripts/npm_peers.mjs "$(pwd)/$PEERS" "$CASES" "$RUNS"
