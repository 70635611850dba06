"""Functions are safe to call from threads, and give the same results
there as in a loop (long inputs are parsed with the GIL released)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any, List

import flexmd
from conftest import SPEC

SPEC_OBJ = flexmd.Spec.parse(SPEC.read_text(encoding="utf-8"))
ARTIFACT = flexmd.Artifact.from_text(
    "\n".join(json.dumps({"id": i, "ok": i % 3 == 0}) for i in range(100)), kind="jsonl", call_id="rows"
)
TOOLS = flexmd.forge_tools([ARTIFACT])


def answer(i: int) -> str:
    """Answer i: some short, some past the size from which the GIL is released."""
    filler = "Detail line %d.\n" % i * (i % 7) * 60
    return (
        f"## Short answer\nAnswer {i}.\n\n## Long answer\n{filler}Done.\n\n"
        f"## Reasoning\n1. step {i}\n2. step {i + 1}\n\n## Assumptions\n- none\n\n## Unknowns\nNone\n\n"
        f"```json\n{{\"id\": {i}, \"tags\": [\"t{i % 5}\",], \"score\": \"{i % 10}\"}}\n```\n"
    )


ANSWERS = [answer(i) for i in range(1000)]


def work(text: str) -> List[Any]:
    return [
        SPEC_OBJ.to_json(text),
        SPEC_OBJ.validate(text),
        flexmd.loads(text),
        flexmd.find_json(text, all=True, repairs=True),
        flexmd.validate(text, {"type": "object", "properties": {"score": {"type": "integer"}}}, report=True),
        TOOLS.call({"name": "artifact_json_filter", "arguments": {"callId": "rows", "path": "$[?@.ok == true]"}})[:200],
    ]


def test_a_thread_pool_gives_the_results_of_a_loop() -> None:
    assert any(len(a) > 4096 for a in ANSWERS) and any(len(a) < 4096 for a in ANSWERS)
    looped = [work(a) for a in ANSWERS]
    with ThreadPoolExecutor(max_workers=8) as pool:
        pooled = list(pool.map(work, ANSWERS))
    assert pooled == looped
    assert looped[3][2] == {"id": 3, "tags": ["t3"], "score": "3"}
    assert looped[3][4]["data"] == {"id": 3, "tags": ["t3"], "score": 3}


def test_one_spec_and_one_artifact_are_shared_by_threads() -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(lambda _: ARTIFACT.json_length(), range(200)))
        heads = list(pool.map(lambda n: ARTIFACT.head(n % 5), range(200)))
    assert counts == [100] * 200
    assert heads[7] == ARTIFACT.head(2)
