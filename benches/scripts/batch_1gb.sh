#!/usr/bin/env bash
# Batch mode on a JSON Lines file of SIZE_MB (default 1024): time and peak
# RSS of `flexmd extract --jsonl` and `flexmd json --jsonl` on one and on
# all cores, to show that memory stays flat whatever the input's size (the
# records are read one line at a time, at most a few groups per worker in
# flight). The input is the generated answers of the `batch` bench row,
# repeated until it is SIZE_MB long. Not run by CI (it writes SIZE_MB);
# results go to docs/benchmarks.md.
#
#   bash benches/scripts/batch_1gb.sh [DATA_DIR] [SIZE_MB]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
release_cli "${1:-target/bench-data}"
size=${2:-1024}
seed="$data/answers-20000.jsonl"
[ -f "$seed" ] || python3 examples/python/spark_extract.py generate 20000 "$seed"
big="$data/answers-${size}m.jsonl"
if [ ! -f "$big" ]; then
  : > "$big.part"
  while [ "$(stat -c %s "$big.part")" -lt $((size * 1024 * 1024)) ]; do
    cat "$seed" >> "$big.part"
  done
  mv "$big.part" "$big"
fi
records=$(wc -l < "$big")
echo "$big: $(($(stat -c %s "$big") / 1024 / 1024)) MiB, $records records"
cores=$(nproc)

# One run: wall time, peak RSS and answers per second.
measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o /tmp/batch-measure.$$ "$@" > /dev/null 2> /tmp/batch-err.$$ || {
    # 1: some records break the spec (as generated); more is a failure.
    [ $? -le 1 ] || { cat /tmp/batch-err.$$; exit 1; }
  }
  # GNU time writes "Command exited with non-zero status 1" first.
  read -r t m < <(tail -n 1 /tmp/batch-measure.$$)
  printf '%-40s %8.2f s %9.1f MiB %10.0f answers/s\n' "$label" "$t" \
    "$(awk "BEGIN{print $m/1024}")" "$(awk "BEGIN{print $records/$t}")"
}

for jobs in 1 "$cores"; do
  measure "extract --jsonl --jobs $jobs" \
    $flexmd extract --spec examples/specs/answer.md --as-json --jsonl --field answer --jobs "$jobs" "$big"
  measure "json --jsonl --jobs $jobs" \
    $flexmd json --jsonl --field answer --jobs "$jobs" "$big"
done
rm -f /tmp/batch-measure.$$ /tmp/batch-err.$$
