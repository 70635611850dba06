"""Python's json_repair on the llm-json cases, scored and timed like flexmd.

    python3 benches/python/llm_json_peers.py ../shared/conformance/llm-json/cases.jsonl

Prints one JSON line: {"name", "passed", "total", "by_kind": {kind: [passed, total]},
"seconds_per_case"} (the best of five rounds over all cases, divided by their count).
Values compare as flexmd's runner compares them: numbers by value, `true` is not `1`,
key order ignored. A case with `"found": false` and no `expected` passes when nothing
is returned (an exception, None or "").
"""

import json
import sys
import time

import json_repair


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


cases = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
by_kind = {}
passed = 0
for case in cases:
    try:
        got = json_repair.loads(case["input"])
    except Exception:  # a peer that raises has found nothing
        got = None
    if "expected" in case:
        ok = same(got, case["expected"])
    else:
        # `"found": false`: no JSON may be returned (json_repair's "" is none).
        ok = got in (None, "")
    kind = case["category"].removeprefix("json/")
    entry = by_kind.setdefault(kind, [0, 0])
    entry[0] += ok
    entry[1] += 1
    passed += ok

best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    for case in cases:
        try:
            json_repair.loads(case["input"])
        except Exception:
            pass
    best = min(best, time.perf_counter() - start)

print(json.dumps({
    "name": f"json_repair {json_repair.__version__ if hasattr(json_repair, '__version__') else ''} (Python)".replace("  ", " "),
    "passed": passed,
    "total": len(cases),
    "by_kind": by_kind,
    "seconds_per_case": best / len(cases),
}))
