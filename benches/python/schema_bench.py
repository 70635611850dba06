"""Python's jsonschema on the `schema` bench's data, timed the same way.

    cargo run --release -p flexmd-benches --example write_review_instances -- target/bench-data
    python3 benches/python/schema_bench.py target/bench-data

Prints the best of five rounds of validating all instances (is_valid, then the
errors of the invalid ones), in seconds and per instance.
"""

import json
import sys
import time

import jsonschema

data_dir = sys.argv[1] if len(sys.argv) > 1 else "."
with open(f"{data_dir}/review_instances.json") as f:
    instances = json.load(f)
with open(f"{data_dir}/review_schema.json") as f:
    schema = json.load(f)

validator_class = jsonschema.validators.validator_for(schema)
validator = validator_class(schema)

best = float("inf")
errors = 0
for _ in range(5):
    start = time.perf_counter()
    errors = 0
    for instance in instances:
        if not validator.is_valid(instance):
            errors += sum(1 for _ in validator.iter_errors(instance))
    best = min(best, time.perf_counter() - start)

print(
    f"python jsonschema {jsonschema_version}: {len(instances)} instances, "
    f"{errors} errors, best {best:.3f} s ({best / len(instances) * 1e6:.2f} us each)"
    if (jsonschema_version := __import__("importlib.metadata").metadata.version("jsonschema"))
    else ""
)
