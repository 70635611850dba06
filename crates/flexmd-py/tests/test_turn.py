"""An agent turn from Python: large tool results become artifacts the model
reads with forged tools merged into the host's, Python functions run as
tools of their own, and ending the turn drops the artifacts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

import flexmd
from conftest import ROOT, Cli

LOG = "".join(f"line {i}: {'ERROR disk full' if i % 10 == 3 else 'ok'}\n" for i in range(200))


def test_small_results_pass_and_large_ones_are_kept() -> None:
    turn = flexmd.Turn(max_inline_bytes=256)
    assert turn.add_result("call_1", "ping", "pong") == {"text": "pong", "spooled": False}
    assert turn.definitions == []
    shown = turn.add_result("call_2", "read_log", LOG)
    assert shown["spooled"] is True
    text = shown["text"]
    # Lines counted as the ADK counts them: the empty piece after the last
    # newline is a line.
    assert text.startswith(
        "The result of `read_log` is too large to show here (2750 bytes, 201 lines, 1240 tokens)."
    )
    assert "callId \"call_2\"" in text
    assert "First 5 lines:\n  line 0: ok\n" in text
    assert "Last 5 lines:\n  line 196: ok\n  line 197: ok\n  line 198: ok\n  line 199: ok\n  \nRead it" in text
    assert turn.call_ids == ["call_2"]
    names = [d["function"]["name"] for d in turn.definitions]
    assert names[:4] == ["artifact_head", "artifact_tail", "artifact_grep", "artifact_cat"]
    head = turn.definitions[0]["function"]["parameters"]["properties"]["callId"]
    assert head["enum"] == ["call_2"]
    assert turn.call({"name": "artifact_tail", "arguments": {"callId": "call_2", "n": 3}}) == (
        "line 198: ok\nline 199: ok\n"
    )
    # An artifact tool's result is never kept, however large.
    again = turn.add_result("call_3", "artifact_cat", LOG)
    assert again["spooled"] is False and again["text"].startswith("line 0: ok\n")
    assert turn.is_artifact_tool("artifact_grep") and not turn.is_artifact_tool("read_log")


def test_calls_match_the_cli_on_the_same_file(flexmd_cli: Cli) -> None:
    path = ROOT / "examples" / "answers" / "release-plan.md"
    if not path.exists():
        path = sorted((ROOT / "examples").rglob("*.md"))[0]
    turn = flexmd.Turn()
    shown = turn.add_artifact(flexmd.Artifact.open(path), "fetch")
    assert shown["spooled"] is True
    calls = [
        {"id": "a", "name": "artifact_head", "arguments": {"callId": str(path), "n": 3}},
        {"id": "b", "name": "artifact_grep", "arguments": {"callId": str(path), "pattern": "^#"}},
        {"id": "c", "name": "artifact_md_headings", "arguments": {"callId": str(path)}},
    ]
    expected = flexmd_cli.json("call", path, "--call", json.dumps(calls))
    for call, cli in zip(calls, expected):
        assert turn.call(call) == cli["result"], call["name"]


def test_merged_tools_keep_the_hosts_own_fields() -> None:
    turn = flexmd.Turn(max_inline_bytes=64, format="anthropic")
    turn.add_result("toolu_1", "read_log", LOG)
    host = [
        {"name": "search", "description": "Search.", "input_schema": {"type": "object"},
         "cache_control": {"type": "ephemeral"}},
        {"name": "artifact_head", "description": "mine", "input_schema": {"type": "object"}},
    ]
    merged = turn.merged_tools(host)
    assert merged[0] == host[0]
    assert merged[1]["name"] == "artifact_head" and merged[1]["description"] != "mine"
    assert merged[1]["input_schema"]["properties"]["callId"]["enum"] == ["toolu_1"]
    assert [t["name"] for t in merged[2:4]] == ["artifact_tail", "artifact_grep"]
    assert turn.format == "anthropic"


def test_own_tools_run_python_functions() -> None:
    turn = flexmd.Turn(max_inline_bytes=64, format="openai-responses")
    seen: Dict[str, Any] = {}

    def count_errors(artifact: flexmd.Artifact, args: Dict[str, Any]) -> Dict[str, Any]:
        seen["artifact"] = artifact
        lines = artifact.grep(args["word"])
        return {"count": len(lines), "first": lines[0] if lines else None}

    turn.register(
        "count_lines",
        "Count the lines of a tool result that contain a word.",
        {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"],
         "additionalProperties": False},
        count_errors,
        kind="text",
    )
    assert turn.definitions == []  # no artifact yet
    turn.add_result("call_1", "read_log", LOG, kind="text")
    tool = next(d for d in turn.definitions if d["name"] == "count_lines")
    assert tool["type"] == "function" and tool["strict"] is False
    assert tool["parameters"]["required"] == ["callId", "word"]
    out = turn.call({"name": "count_lines", "arguments": json.dumps({"callId": "call_1", "word": "ERROR"})})
    assert json.loads(out) == {"count": 20, "first": "line 3: ERROR disk full"}
    assert seen["artifact"].call_id == "call_1" and seen["artifact"].kind == "text"
    # The turn checks the arguments before the function runs.
    with pytest.raises(flexmd.ToolCallError, match="count_lines: `word` is required"):
        turn.call({"name": "count_lines", "arguments": {"callId": "call_1"}})
    with pytest.raises(flexmd.ToolCallError, match="unknown argument `limit`"):
        turn.call({"name": "count_lines", "arguments": {"callId": "call_1", "word": "x", "limit": 1}})
    with pytest.raises(flexmd.ToolCallError, match="call_9"):
        turn.call({"name": "count_lines", "arguments": {"callId": "call_9", "word": "x"}})
    # A JSON result is not offered a text-only tool.
    turn.add_result("call_2", "list", json.dumps([{"n": i} for i in range(50)]))
    tool = next(d for d in turn.definitions if d["name"] == "count_lines")
    assert tool["parameters"]["properties"]["callId"]["enum"] == ["call_1"]


def test_own_serialiser_and_errors_from_the_function() -> None:
    turn = flexmd.Turn(max_inline_bytes=64)
    turn.register(
        "shout", "Shout the first line.", {"type": "object", "properties": {}},
        lambda artifact, args: artifact.head(1)[0],
        serialise=lambda value: value.upper(),
    )

    def broken(artifact: flexmd.Artifact, args: Dict[str, Any]) -> None:
        raise RuntimeError("the tool broke")

    def reentrant(artifact: flexmd.Artifact, args: Dict[str, Any]) -> int:
        return len(turn.call_ids)

    turn.register("broken", "Fails.", {"type": "object"}, broken)
    turn.register("reentrant", "Uses the turn.", {"type": "object"}, reentrant)
    turn.add_result("call_1", "read_log", LOG)
    assert turn.call({"name": "shout", "arguments": {"callId": "call_1"}}) == "LINE 0: OK"
    with pytest.raises(RuntimeError, match="the tool broke"):
        turn.call({"name": "broken", "arguments": {"callId": "call_1"}})
    # The function runs with the turn free: it may read it.
    assert turn.call({"name": "reentrant", "arguments": {"callId": "call_1"}}) == "1"
    with pytest.raises(TypeError, match="callables"):
        turn.register("x", "x", {"type": "object"}, "not a function")
    with pytest.raises(ValueError, match="kind must be"):
        turn.register("x", "x", {"type": "object"}, broken, kind="pdf")


def test_end_drops_the_artifacts_and_keeps_own_tools() -> None:
    turn = flexmd.Turn(max_inline_bytes=64)
    turn.register("noop", "Nothing.", {"type": "object"}, lambda a, args: None)
    turn.add_result("call_1", "read_log", LOG)
    assert turn.artifact("call_1") is not None and turn.artifact("call_1").line_count() == 201
    assert turn.end() == 1
    assert turn.definitions == [] and turn.call_ids == [] and turn.artifact("call_1") is None
    with pytest.raises(flexmd.ToolCallError):
        turn.call({"name": "artifact_head", "arguments": {"callId": "call_1"}})
    turn.add_result("call_2", "read_log", LOG)
    assert "noop" in [d["function"]["name"] for d in turn.definitions]


def test_wrong_arguments_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="max_inline_bytes must be a whole number"):
        flexmd.Turn(max_inline_bytes=-1)
    with pytest.raises(ValueError, match="format must be"):
        flexmd.Turn(format="gemini")
    turn = flexmd.Turn(max_inline_bytes=8)
    with pytest.raises(ValueError, match="kind must be"):
        turn.add_result("c", "t", "x", kind="yaml")
    with pytest.raises(TypeError, match="content must be str or bytes, not int"):
        turn.add_result("c", "t", 12)
    turn.add_result("c", "t", b"0123456789\nabc\n")
    with pytest.raises(flexmd.ToolCallError, match="already used"):
        turn.add_result("c", "t", "again and again")
