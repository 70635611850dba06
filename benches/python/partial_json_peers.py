"""The partial-JSON peer in Python: jiter's partial mode (pydantic-core's
parser, which pydantic-ai and the OpenAI SDK's streaming helpers use),
re-parsing the whole text so far after every chunk. Same file, chunk size
and timing loop as flexmd's side (benches/examples/stream_json_chunks.rs).

python partial_json_peers.py FILE CHUNK RUNS
"""

import json
import sys
import time

import jiter


def main() -> None:
    path, chunk, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    text = open(path, encoding="utf-8").read()
    whole = json.loads(text)
    times = []
    last = None
    for _ in range(runs):
        start = time.perf_counter()
        buffer = ""
        for at in range(0, len(text), chunk):
            buffer += text[at : at + chunk]
            last = jiter.from_json(buffer.encode(), partial_mode="trailing-strings")
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(json.dumps({"tool": "jiter partial mode (Python)", "ms": round(times[len(times) // 2], 3), "final_ok": last == whole}))


if __name__ == "__main__":
    main()
