#!/usr/bin/env bash
# The hostile-input table of docs/reliability.md: time and peak RSS of the
# release CLI on big hostile inputs (the CLI test suite pins exit codes on
# small ones: crates/flexmd-cli/tests/cli/hostile.rs). Not run by CI (it
# writes about 1.3 GB).
#
#   bash benches/scripts/hostile.sh [DATA_DIR] [BIG_MB]
set -uo pipefail
. "$(dirname "$0")/lib.sh"
release_cli "${1:-target/hostile-data}"
big=${2:-1024}
spec=$PWD/examples/specs/answer.md

py() { python3 -c "$1"; }
[ -f "$data/line100mb.md" ] || py "open('$data/line100mb.md','w').write('# T\n' + 'word ' * 20_000_000 + '\n')"
[ -f "$data/quote.md" ] || py "open('$data/quote.md','w').write('>' * 100_000)"
[ -f "$data/bullets.md" ] || py "open('$data/bullets.md','w').write('- ' * 100_000)"
[ -f "$data/brackets.txt" ] || py "open('$data/brackets.txt','w').write('[' * 10_000_000)"
[ -f "$data/nested_arrays.json" ] || py "
import sys
unit = '[' * 100 + '1' + ']' * 100
open('$data/nested_arrays.json','w').write('[' + ','.join([unit] * 150_000) + ']')"
[ -f "$data/catastrophic.txt" ] || py "open('$data/catastrophic.txt','w').write('x' * 10_000_000 + '\n')"
[ -f "$data/headings.md" ] || py "open('$data/headings.md','w').write(''.join(f'## H{i}\ntext\n' for i in range(100_000)))"
[ -f "$data/recursive.schema.json" ] || py "
import json
json.dump({'\$defs': {'n': {'type': 'object', 'properties': {'a': {'type': 'string'}, 'next': {'\$ref': '#/\$defs/n'}}, 'required': ['a']}}, '\$ref': '#/\$defs/n'}, open('$data/recursive.schema.json','w'))"
[ -f "$data/instance50mb.json" ] || py "
import json
rows = [{'a': i, 'next': {'a': str(i)}} for i in range(1_100_000)]
json.dump({'a': 1, 'next': {'a': 2, 'items': rows}}, open('$data/instance50mb.json','w'))"
[ -f "$data/big.md" ] || py "
chunk = ''.join(f'## Part {i}\nSome text with a [link](http://x/{i}) and \`code\`.\n\n- item\n- item\n\n' for i in range(10_000))
with open('$data/big.md','w') as f:
    for _ in range(($big * 1024 * 1024) // len(chunk) + 1): f.write(chunk)"
ls -l "$data"

measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %M %x" -o /tmp/hostile.$$ "$@" > /tmp/hostile-out.$$ 2> /tmp/hostile-err.$$
  # /usr/bin/time writes "Command exited with non-zero status N" first then.
  read -r t m code < <(tail -n 1 /tmp/hostile.$$)
  printf '| %s | %.2f s | %.0f MiB | exit %s |\n' "$label" "$t" "$(awk "BEGIN{print $m/1024}")" "$code"
}

echo "| input, command | time | peak RSS | result |"
echo "|---|---|---|---|"
for cmd in outline "frames parse" detect json; do
  measure "100 MB single line, $cmd" $flexmd $cmd "$data/line100mb.md"
done
measure "100 MB single line, extract" $flexmd extract --spec "$spec" "$data/line100mb.md"
for f in quote bullets; do
  for cmd in outline "frames parse" detect; do
    measure "100 000-deep $f, $cmd" $flexmd $cmd "$data/$f.md"
  done
  measure "100 000-deep $f, extract" $flexmd extract --spec "$spec" "$data/$f.md"
  measure "100 000-deep $f, md-ast" $flexmd artifact md-ast "$data/$f.md"
done
measure "10 MB of unclosed [, json" $flexmd json "$data/brackets.txt"
measure "10 MB of unclosed [, json --all" $flexmd json --all "$data/brackets.txt"
measure "30 MB of nested arrays, json --all" $flexmd json --all "$data/nested_arrays.json"
measure "30 MB of nested arrays, json-get \$..*" $flexmd artifact json-get "$data/nested_arrays.json" '$..*'
measure "grep (x+x+)+y on a 10 MB line" $flexmd artifact grep "$data/catastrophic.txt" '(x+x+)+y'
measure "100 000 headings, md-sections" $flexmd artifact md-sections "$data/headings.md"
measure "100 000 headings, md-ast" $flexmd artifact md-ast "$data/headings.md"
measure "recursive \$ref, 50 MB instance, schema validate --hints" $flexmd schema validate --schema "$data/recursive.schema.json" --hints "$data/instance50mb.json"
for op in line-count head tail md-headings md-sections md-text md-links as-string estimate-tokens; do
  measure "${big} MB Markdown, $op" $flexmd artifact $op "$data/big.md"
done
measure "${big} MB Markdown, grep 'Part 9999\\.'" $flexmd artifact grep "$data/big.md" 'Part 9999\.'

rm -f /tmp/hostile.$$ /tmp/hostile-out.$$ /tmp/hostile-err.$$
