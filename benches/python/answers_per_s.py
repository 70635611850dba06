"""Answers per second for the Spark example's job in one Python process,
without Spark: flexmd against the pure-Python baseline (markdown-it-py
sections + json_repair) on the same generated answers, and flexmd from a
thread pool, on these answers and on longer ones (inputs past 4 KB release
the GIL).

    python benches/python/answers_per_s.py [COUNT]

Prints one JSON line per engine; docs/scaling.md records the figures.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "python"))

import spark_extract  # noqa: E402


def measure(name: str, job, answers) -> None:
    job(answers[:200])  # warm up: imports, the spec parsed once
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        job(answers)
        best = min(best, time.perf_counter() - started)
    print(json.dumps({"engine": name, "answers": len(answers), "seconds": round(best, 3),
                      "answers_per_s": round(len(answers) / best)}))


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    spec = (ROOT / "examples" / "specs" / "answer.md").read_text(encoding="utf-8")
    answers = [(r["id"], r["answer"]) for r in spark_extract.generate(count)]
    measure("flexmd", lambda a: spark_extract.flexmd_rows(spec, a), answers)
    measure("baseline", lambda a: spark_extract.baseline_rows(spec, a), answers)

    def pooled(a, threads=2):
        chunks = [a[i::threads] for i in range(threads)]
        with ThreadPoolExecutor(threads) as pool:
            return [r for rows in pool.map(lambda c: spark_extract.flexmd_rows(spec, c), chunks) for r in rows]

    measure("flexmd, 2 threads", pooled, answers)

    # Long answers (past 4 KB, where the GIL is released while parsing).
    def long(answer: str) -> str:
        body = "\n".join(f"Detail {n}: the rate window and the retry budget agree." for n in range(150))
        return answer.replace("## Long answer\n", "## Long answer\n" + body + "\n", 1)

    longer = [(i, long(a)) for i, a in answers[: max(count // 5, 200)]]
    size = sum(len(a) for _, a in longer) // len(longer)
    measure(f"flexmd, {size // 1024} KB answers", lambda a: spark_extract.flexmd_rows(spec, a), longer)
    measure(f"flexmd, {size // 1024} KB answers, 2 threads", pooled, longer)


if __name__ == "__main__":
    main()
