"""The flexmd Python package per call, beside the Python libraries it
replaces, in one process on the same inputs (the `python` row of
`cargo xtask bench`):

- the llm-json cases: `flexmd.loads` and `flexmd.find_json` beside
  `json_repair.loads`, per case, and the cases each gets right;
- the same cases in one `flexmd.find_json_many` call, per case;
- the `schema` row's `review` instances: `flexmd.validate(..., report=True)`
  (no coercion, no defaults: the outcome with its errors), and all of them
  in one `flexmd.validate_many` call, beside Python
  jsonschema (`is_valid`, then the errors of the invalid ones), on values
  and on JSON text.

    python3 benches/python/package_calls.py CASES_JSONL DATA_DIR [RUNS]

Each time crosses into the extension and back, as a caller's does. Prints
one JSON line per measure: {"tool", "op", "seconds_per_op", "right"?,
"invalid"?}: the median of RUNS rounds, per call.
"""

import importlib.metadata
import json
import statistics
import sys
import time

import flexmd
import json_repair
import jsonschema

cases_path, data_dir = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5


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


def per_call(items, call):
    """The median of `runs` rounds of `call` over `items`, per item."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for item in items:
            call(item)
        times.append((time.perf_counter() - start) / len(items))
    return statistics.median(times)


def quiet(call):
    def run(text):
        try:
            return call(text)
        except Exception:  # nothing found: a miss, not a stop
            return None
    return run


cases = [json.loads(line) for line in open(cases_path) if line.strip()]
inputs = [c["input"] for c in cases]


def right(call):
    return right_of([call(case["input"]) for case in cases])


def right_of(values):
    """How many cases `values` (one per case, in order) gets right."""
    got = 0
    for case, value in zip(cases, values):
        if "expected" in case:
            got += same(value, case["expected"])
        else:
            got += value in (None, "")
    return got


def per_item(items, call_many):
    """The median of `runs` rounds of one `call_many(items)`, per item."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call_many(items)
        times.append((time.perf_counter() - start) / len(items))
    return statistics.median(times)


repair_version = importlib.metadata.version("json_repair")
for tool, call in (
    ("flexmd.loads (Python package)", quiet(flexmd.loads)),
    ("flexmd.find_json (Python package)", quiet(flexmd.find_json)),
    (f"json_repair {repair_version} (Python)", quiet(json_repair.loads)),
):
    print(json.dumps({"tool": tool, "op": "per case", "seconds_per_op": per_call(inputs, call),
                      "right": f"{right(call)}/{len(cases)}"}))
print(json.dumps({"tool": "flexmd.find_json_many (Python package, one call for every case)",
                  "op": "per case", "seconds_per_op": per_item(inputs, flexmd.find_json_many),
                  "right": f"{right_of(flexmd.find_json_many(inputs))}/{len(cases)}"}))

with open(f"{data_dir}/review_instances.json") as f:
    instances = json.load(f)
with open(f"{data_dir}/review_schema.json") as f:
    schema = json.load(f)
texts = [json.dumps(i) for i in instances]
validator = jsonschema.validators.validator_for(schema)(schema)
schema_version = importlib.metadata.version("jsonschema")


def theirs(instance):
    return validator.is_valid(instance) or not any(True for _ in validator.iter_errors(instance))


def ours(data):
    return flexmd.validate(data, "review", coerce=False, defaults=False, report=True)["valid"]


def ours_many(items):
    return flexmd.validate_many(items, "review", coerce=False, defaults=False)


for op, items, load in (("values", instances, lambda i: i), ("text", texts, json.loads)):
    suffix = ", text in" if op == "text" else ""
    invalid = sum(1 for i in items if not ours(i))
    print(json.dumps({"tool": "flexmd.validate (Python package)" + suffix,
                      "op": op, "seconds_per_op": per_call(items, ours), "invalid": invalid}))
    invalid = sum(1 for o in ours_many(items) if not o["valid"])
    print(json.dumps({"tool": "flexmd.validate_many (Python package, one call for every instance)" + suffix,
                      "op": op, "seconds_per_op": per_item(items, ours_many), "invalid": invalid}))
    invalid = sum(1 for i in items if not theirs(load(i)))
    print(json.dumps({"tool": f"Python jsonschema {schema_version}" + (" + json.loads" if op == "text" else ""),
                      "op": op, "seconds_per_op": per_call(items, lambda i: theirs(load(i))),
                      "invalid": invalid}))
