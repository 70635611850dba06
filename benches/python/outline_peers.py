"""The `outline` row's Python peer: markdown-it-py (with tables) parsing the
inputs that `outline_timing RUNS DATA_DIR` wrote and cutting the tokens into
sections at the headings (what a Python app does to read an answer's
sections), timed like flexmd: each repeated until a round takes 50 ms, the
median of RUNS rounds (a parse of a second or more: timed once).

    python3 benches/python/outline_peers.py DATA_DIR [RUNS]

Prints one JSON line per input: {"tool", "op", "input", "file", "seconds_per_op"}.
"""

import json
import statistics
import sys
import time
from importlib.metadata import version

from markdown_it import MarkdownIt

data, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
md = MarkdownIt("commonmark").enable("table")


def sections(text):
    """Each heading's title and the tokens under it."""
    tokens = md.parse(text)
    out, current = [], None
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            current = {"title": tokens[i + 1].content, "level": int(token.tag[1]), "tokens": []}
            out.append(current)
        elif current is not None:
            current["tokens"].append(token)
    return out


def timed(work):
    # A parse of a second or more is timed once (repeating it only takes minutes).
    start = time.perf_counter()
    work()
    once = time.perf_counter() - start
    if once >= 1:
        return once
    reps = 1
    while True:
        start = time.perf_counter()
        for _ in range(reps):
            work()
        if time.perf_counter() - start >= 0.05:
            break
        reps *= 2
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(reps):
            work()
        samples.append((time.perf_counter() - start) / reps)
    return statistics.median(samples)


for name, file in (
    ("20 KB answer", "answer-20k.md"),
    ("1 MB document", "document-1m.md"),
    ("5 MB document", "document-5m.md"),
):
    with open(f"{data}/{file}", encoding="utf-8") as f:
        text = f.read()
    print(json.dumps({
        "tool": f"markdown-it-py {version('markdown-it-py')} sections",
        "op": "sections",
        "input": name,
        "file": file,
        "seconds_per_op": timed(lambda: sections(text)),
    }))
