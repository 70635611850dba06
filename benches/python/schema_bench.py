"""Python's jsonschema on the `schema` row's data, timed as flexmd is.

    cargo run --release -p flexmd-benches --example schema_timing -- 5 target/bench-data
    python3 benches/python/schema_bench.py target/bench-data [RUNS]

Validates every instance (is_valid, then the errors of the invalid ones), as
values already parsed and as text (json.loads first); prints one JSON line
per measure: {"tool", "op", "seconds_per_op", "invalid"}, the median of RUNS
rounds per instance.
"""

import importlib.metadata
import json
import statistics
import sys
import time

import jsonschema

data_dir = sys.argv[1] if len(sys.argv) > 1 else "."
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
with open(f"{data_dir}/review_instances.json") as f:
    instances = json.load(f)
with open(f"{data_dir}/review_schema.json") as f:
    schema = json.load(f)
texts = [json.dumps(i) for i in instances]

validator = jsonschema.validators.validator_for(schema)(schema)
version = importlib.metadata.version("jsonschema")


def judge(instance):
    return validator.is_valid(instance) or not any(True for _ in validator.iter_errors(instance))


def time_rounds(round_):
    times, invalid = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        invalid = round_()
        times.append((time.perf_counter() - start) / len(instances))
    return {"seconds_per_op": statistics.median(times), "invalid": invalid}


for op, items, load in (("values", instances, lambda i: i), ("text", texts, json.loads)):
    name = f"Python jsonschema {version}" + (" + json.loads" if op == "text" else "")
    measured = time_rounds(lambda: sum(1 for i in items if not judge(load(i))))
    print(json.dumps({"tool": name, "op": op, **measured}))
