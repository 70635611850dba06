#!/usr/bin/env bash
# Partial JSON while it streams: flexmd's StreamingJson against the peers
# that re-parse the whole text after every chunk — partial-json and the AI
# SDK's parsePartialJson in Node, jiter's partial mode in Python — on the
# same structured answers (2 KB, 20 KB, 200 KB), 16-byte chunks, a partial
# value after every chunk, medians of RUNS runs, all in this one run.
#
# Peers are installed locally under target/bench-peers (npm folder, venv),
# never globally. Usage: benches/scripts/partial_json_peers.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-5}
CHUNK=16
PEERS=target/bench-peers
mkdir -p "$PEERS/node" "$PEERS/data"

if [ ! -d "$PEERS/node/node_modules/partial-json" ] || [ ! -d "$PEERS/node/node_modules/@ai-sdk/ui-utils" ]; then
  (cd "$PEERS/node" && echo '{"private": true}' > package.json &&
    npm install --silent --no-audit --no-fund partial-json@0.1.7 @ai-sdk/ui-utils@1.2.11)
fi
if [ ! -x "$PEERS/venv/bin/python" ]; then
  python3 -m venv "$PEERS/venv"
  "$PEERS/venv/bin/pip" install --quiet jiter==0.19.0
fi

cargo build --release -q -p flexmd-benches --example stream_json_chunks
BIN=target/release/examples/stream_json_chunks

echo "| input | chunks | flexmd StreamingJson | partial-json (Node) | ai-sdk parsePartialJson (Node) | jiter partial (Python) |"
echo "|---|---|---|---|---|---|"
for size in 2000 20000 200000; do
  file="$PEERS/data/answer_$size.json"
  "$BIN" write "$size" "$file"
  bytes=$(wc -c < "$file")
  chunks=$(( (bytes + CHUNK - 1) / CHUNK ))
  flexmd=$("$BIN" time "$file" "$CHUNK" "$RUNS")
  node=$(PEERS_DIR="$(pwd)/$PEERS/node" node benches/scripts/partial_json_peers.mjs "$file" "$CHUNK" "$RUNS")
  py=$("$PEERS/venv/bin/python" benches/python/partial_json_peers.py "$file" "$CHUNK" "$RUNS")
  printf '%s\n%s\n%s\n' "$flexmd" "$node" "$py" > "$PEERS/data/result_$size.jsonl"
  python3 - "$bytes" "$chunks" "$PEERS/data/result_$size.jsonl" <<'PY'
import json, sys
bytes_, chunks, path = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [json.loads(l) for l in open(path)]
ours = rows[0]["ms"]
cells = []
for r in rows:
    ok = "" if r["final_ok"] else " (final value wrong)"
    ratio = "" if r is rows[0] else f" ({r['ms'] / ours:.0f}× flexmd)"
    cells.append(f"{r['ms']:.2f} ms{ratio}{ok}")
print(f"| {int(bytes_) / 1000:.0f} KB | {chunks} | " + " | ".join(cells) + " |")
PY
done
