#!/usr/bin/env bash
# flexmd's find_json beside the JSON repairers on the llm-json cases: pass
# counts per kind and time per case, all measured in this run. Installs the
# peers (Python json_repair, JS jsonrepair) under target/peers. Not run by CI;
# results go to docs/reliability.md.
#
#   bash benches/scripts/llm_json_peers.sh [CASES_JSONL]
set -euo pipefail
cd "$(dirname "$0")/../.."
cases=$(realpath "${1:-../shared/conformance/llm-json/cases.jsonl}")
peers=target/peers
mkdir -p "$peers"
[ -x "$peers/venv/bin/python" ] || python3 -m venv "$peers/venv"
"$peers/venv/bin/pip" install -q json_repair==0.64.6
[ -d "$peers/node/node_modules/jsonrepair" ] || npm install -q --prefix "$peers/node" jsonrepair@3.15.0 >/dev/null
cargo build -q --release -p flexmd-benches --example llm_json_cases
{
  target/release/examples/llm_json_cases "$cases"
  "$peers/venv/bin/python" benches/python/llm_json_peers.py "$cases"
  (cd "$peers/node" && node "$OLDPWD/benches/scripts/llm_json_peers.mjs" "$cases")
} > "$peers/results.jsonl"
python3 - "$peers/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
# The 1 MB valid-document lines are timings, not scores.
rows = [r for r in rows if "by_kind" in r]
ours = rows[0]
kinds = sorted(ours["by_kind"])
print("| kind | " + " | ".join(r["name"] for r in rows) + " |")
print("|---|" + "---|" * len(rows))
for k in kinds:
    cells = [f'{r["by_kind"].get(k, [0, 0])[0]}/{r["by_kind"].get(k, [0, 0])[1]}' for r in rows]
    print(f"| {k} | " + " | ".join(cells) + " |")
print("| **all** | " + " | ".join(f'**{r["passed"]}/{r["total"]}**' for r in rows) + " |")
print("| time per case, × flexmd | " + " | ".join(f'{r["seconds_per_case"] / ours["seconds_per_case"]:.2f}× ({r["seconds_per_case"]*1e6:.1f} µs)' for r in rows) + " |")
worse = [(k, r["name"]) for k in kinds for r in rows[1:] if r["by_kind"].get(k, [0])[0] > ours["by_kind"][k][0]]
print("\nkinds where a peer passes more than flexmd:", worse or "none")
PY
