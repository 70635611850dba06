#!/usr/bin/env bash
# The 1 GB comparison of issue 7: time and peak RSS of flexmd's artifact
# operations beside wc, GNU grep and jq on the same files. Not run by CI
# (it writes 3 GB); results go to docs/benchmarks.md.
#
#   bash benches/scripts/artifact_1gb.sh [DATA_DIR] [SIZE_MB]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
release_cli "${1:-target/bench-data}" -p flexmd-benches --examples --bins
size=${2:-1024}
[ -f "$data/log.txt" ] || target/release/examples/artifact_data "$data" "$size"
ls -l "$data"

# Run a command 3 times; print the best wall time and its peak RSS.
measure() {
  local label=$1; shift
  local best="" rss=""
  for _ in 1 2 3; do
    # Output to a file, not /dev/null: GNU grep stops at the first match
    # when it sees its output is /dev/null.
    /usr/bin/time -f "%e %M" -o /tmp/measure.$$ "$@" > /tmp/measure-out.$$
    read -r t m < /tmp/measure.$$
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
  done
  printf '%-44s %8.2f s %9.1f MiB\n' "$label" "$best" "$(awk "BEGIN{print $rss/1024}")"
}

echo "== log.txt"
measure "wc -l"                              wc -l "$data/log.txt"
measure "flexmd artifact line-count"         $flexmd artifact line-count "$data/log.txt"
measure "flexmd artifact head"               $flexmd artifact head "$data/log.txt" n=10
measure "flexmd artifact tail"               $flexmd artifact tail "$data/log.txt" n=10
measure "flexmd artifact cat (1000 lines mid-file)" $flexmd artifact cat "$data/log.txt" start=5000000 end=5001000
# `grep -c` prints one number, as cheap to write as flexmd's capped output.
measure "grep -c FATAL (GNU grep)"           grep -c FATAL "$data/log.txt"
measure "flexmd artifact grep FATAL"         $flexmd artifact grep "$data/log.txt" FATAL
measure "grep -ci 'fatal.*served' (GNU grep)" grep -ci 'fatal.*served' "$data/log.txt"
measure "flexmd artifact grep 'fatal.*served' i" $flexmd artifact grep "$data/log.txt" 'fatal.*served' i
echo "== events.jsonl"
measure "jq -c .id"                          jq -c .id "$data/events.jsonl"
measure "json_pluck \$.id (library, all values)" target/release/examples/json_pluck "$data/events.jsonl" '$.id'
measure "json_pluck \$.kind (library, all values)" target/release/examples/json_pluck "$data/events.jsonl" '$.kind'
measure "jq -c .kind"                        jq -c .kind "$data/events.jsonl"
measure "flexmd artifact json-pluck (tool, capped)" $flexmd artifact json-pluck "$data/events.jsonl" '$.id'
echo "== doc.md"
measure "flexmd artifact md-sections depth=2" $flexmd artifact md-sections "$data/doc.md" depth=2
measure "flexmd artifact md-headings"        $flexmd artifact md-headings "$data/doc.md"
