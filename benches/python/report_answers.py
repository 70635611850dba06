"""Writes N generated answers for `flexmd report`'s scale run: the Spark
example's answers (most valid; some miss a section, write a list as prose,
or hold messy JSON), each with a `model` (4) and a `prompt` (25), so the
report has 100 groups.

    python benches/python/report_answers.py 1000000 target/bench-data/report-1000000.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))

from spark_extract import generate  # noqa: E402


def main() -> int:
    count, output = int(sys.argv[1]), Path(sys.argv[2])
    partial = output.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        for record in generate(count):
            i = record["id"]
            record["model"] = f"model-{i % 4}"
            record["prompt"] = f"prompt-{(i // 4) % 25:02}"
            out.write(json.dumps(record) + "\n")
    partial.rename(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
