"""Streams: the events of Spec.stream() and StreamingJson are the lines
`flexmd extract --stream` and `flexmd json --stream` print for the same
input, and any chunking ends in the same result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import flexmd
from conftest import EXAMPLES, SPEC, Cli, example_ids, in_code_points


def lines(out: str) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("path", EXAMPLES, ids=example_ids(EXAMPLES))
def test_extract_stream_equals_the_cli(flexmd_cli: Cli, path: Path) -> None:
    spec = flexmd.Spec.parse(SPEC.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    for flags, kwargs in [([], {}), (["--as-json", "--strict"], {"as_json": True, "strict": True})]:
        stream = spec.stream(**kwargs)
        events = stream.push(text) + stream.finish()
        _, out = flexmd_cli.run("extract", "--stream", *flags, "--spec", SPEC, path)
        assert events == in_code_points(lines(out), text), flags
        # Any chunking ends in the same result.
        stream = spec.stream(**kwargs)
        for i in range(0, len(text), 7):
            stream.push(text[i : i + 7])
        assert stream.finish()[-1] == events[-1], flags


@pytest.mark.parametrize("path", EXAMPLES, ids=example_ids(EXAMPLES))
def test_json_stream_equals_the_cli(flexmd_cli: Cli, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    stream = flexmd.StreamingJson()
    update = stream.push(text)
    events = ([update] if update else []) + [stream.finish(repairs=True)]
    _, out = flexmd_cli.run("json", "--stream", "--repairs", path)
    assert events == in_code_points(lines(out), text)
    # One character at a time: the patches build the value, which only grows.
    stream = flexmd.StreamingJson()
    doc: Any = None
    for ch in text:
        update = stream.push(ch)
        if update:
            for op in update["patches"]:
                doc = apply(doc, op)
            assert doc == stream.value
    end = stream.finish()
    for op in end["patches"]:
        doc = apply(doc, op)
    assert doc == end["value"] == events[-1]["value"]


def apply(doc: Any, op: Dict[str, Any]) -> Any:
    """One RFC 6902 add or replace."""
    path = op["path"]
    if path == "":
        return op["value"]
    parent_path, _, key = path.rpartition("/")
    parent = doc
    for part in parent_path.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        parent = parent[int(part)] if isinstance(parent, list) else parent[part]
    key = key.replace("~1", "/").replace("~0", "~")
    if isinstance(parent, list):
        index = int(key)
        if op["op"] == "add" and index == len(parent):
            parent.append(op["value"])
        elif op["op"] == "add":
            parent.insert(index, op["value"])
        else:
            parent[index] = op["value"]
    else:
        parent[key] = op["value"]
    return doc


def test_states_and_a_finished_stream() -> None:
    stream = flexmd.StreamingJson()
    assert stream.push("no JSON yet ") is None
    assert stream.value is None
    update = stream.push('```json\n{"n": 4')
    assert update == {
        "event": "update",
        "patches": [{"op": "add", "path": "", "value": {}}],
        "done": [],
        "cursor": {"path": "/n", "state": "pending"},
    }
    assert stream.state("/n") == "pending"
    stream.push("2}\n```")
    assert (stream.value, stream.state(""), stream.state("/n")) == ({"n": 42}, "done", "done")
    assert stream.finish() == {"event": "finished", "patches": [], "value": {"n": 42}}
    with pytest.raises(flexmd.FlexmdError):
        stream.push("more")


def test_a_violation_and_its_correction() -> None:
    spec = flexmd.Spec.parse("- Summary — prose\n- Risks — list, the main ones\n")
    stream = spec.stream()
    events = stream.push("## Risks\nNothing to worry about.\n## Summary\n")
    violation = next(e for e in events if e["event"] == "violation")
    assert (violation["code"], violation["section"], violation["line"]) == (
        "section_not_bullets",
        "Risks",
        2,
    )
    prompt = stream.correction(violation)
    assert prompt is not None and prompt.startswith("The section `Risks` of your answer")
    assert "## Risks" in prompt and "(the main ones)" in prompt
    assert prompt == spec.correction(violation)
    report = spec.validate("## Risks\nNothing to worry about.\n")
    errors = {e["code"]: e for e in report["details"]["errors"]}
    assert spec.correction(errors["section_not_bullets"]) == prompt
    assert spec.correction(errors["missing_section"]).startswith(
        "Your answer has no section `Summary`.\n"
    )
    end = stream.finish()
    assert end[-1]["event"] == "finished" and end[-1]["report"]["ok"] is False
    with pytest.raises(flexmd.FlexmdError):
        stream.finish()
