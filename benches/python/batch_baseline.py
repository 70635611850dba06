"""The `batch` row's Python baseline: the Spark example's pure-Python job
(markdown-it-py sections along the spec, json_repair on the JSON fence) over
a JSON Lines file of answers, in a multiprocessing pool.

    python benches/python/batch_baseline.py ANSWERS_JSONL SPEC PROCESSES [RUNS]

Reads `{"id", "answer"}` records; prints one JSON line:
{"tool", "op", "processes", "answers", "seconds", "answers_per_second"}, the
median of RUNS runs of the whole file (the pool started inside the timing,
as a batch job starts it).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "python"))

import spark_extract  # noqa: E402

SPEC = ""


def init(spec: str) -> None:
    global SPEC
    SPEC = spec


def job(chunk):
    return spark_extract.baseline_rows(SPEC, chunk)


def main() -> None:
    path, spec_path, processes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    spec = Path(spec_path).read_text(encoding="utf-8")
    answers = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                answers.append((record["id"], record["answer"]))
    chunks = [answers[i : i + 64] for i in range(0, len(answers), 64)]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        if processes == 1:
            init(spec)
            rows = [r for c in chunks for r in job(c)]
        else:
            with Pool(processes, initializer=init, initargs=(spec,)) as pool:
                rows = [r for rs in pool.imap(job, chunks) for r in rs]
        times.append(time.perf_counter() - start)
        assert len(rows) == len(answers)
    seconds = statistics.median(times)
    import json_repair  # noqa: F401  (its version, for the record)
    from importlib.metadata import version

    print(json.dumps({
        "tool": f"Python markdown-it-py {version('markdown-it-py')} + json_repair {version('json_repair')}",
        "op": "batch",
        "processes": processes,
        "answers": len(answers),
        "seconds": seconds,
        "answers_per_second": len(answers) / seconds,
    }))


if __name__ == "__main__":
    main()
