"""Code a user writes against the stubs: `mypy --strict` must accept it and
infer the types `reveal_type` names (test_package.py runs it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional

from pydantic import BaseModel

import flexmd


class Review(BaseModel):
    approved: bool
    issues: List[str] = []


def use(answer: str, llm: Any) -> None:
    data: Any = flexmd.loads(answer)
    spec: flexmd.Spec = flexmd.Spec.parse(answer)
    prompt: str = spec.prompt()
    plain: Dict[str, Any] = spec.to_json(answer)
    review = flexmd.validate(answer, Review)
    reveal_type(review)
    asked = flexmd.ask(llm, prompt, schema=Review)
    reveal_type(asked)
    report = flexmd.validate(answer, "review", report=True)
    reveal_type(report)
    log = flexmd.Artifact.open("build.log")
    lines: List[str] = log.grep("error", "i")
    tools = flexmd.forge_tools([log], format="anthropic")
    text: str = tools.call({"name": "artifact_head", "arguments": {"callId": "build.log"}})
    try:
        flexmd.loads("none")
    except flexmd.JSONNotFound as e:
        message: str = str(e)
    except flexmd.ValidationError as e:
        errors: List[Dict[str, Any]] = e.errors
    stream: flexmd.StreamingExtractor = spec.stream(as_json=True)
    events: List[Dict[str, Any]] = stream.push(answer) + stream.finish()
    fix: Optional[str] = spec.correction(events[0])
    partial = flexmd.StreamingJson()
    update: Optional[Dict[str, Any]] = partial.push(answer)
    state: Optional[str] = partial.state("")
    fitted = flexmd.loads(answer, schema=Review)
    reveal_type(fitted)
    fit_report = flexmd.find_json_as(answer, Review, preset="salvage")
    reveal_type(fit_report)
    project = flexmd.Project.find()
    registry: flexmd.Registry = project.registry()
    registry.register("review_v2", Review)
    names: List[str] = registry.names() + registry.load_dir("schemas")
    agent_schema: str = project.schema_for_agent("code-reviewer")
    retries: int = project.step_retries({"agent": "code-reviewer"})
    root: Path = project.root
    turn = flexmd.Turn(max_inline_bytes=4096, format="anthropic")
    shown: Dict[str, Any] = turn.add_result("toolu_1", "read_log", b"ok\n" * 5000)
    turn.register(
        "count", "Count lines.", {"type": "object"}, lambda a, args: a.line_count(), kind="text"
    )
    offered: List[Dict[str, Any]] = turn.merged_tools([{"name": "search", "input_schema": {}}])
    reply: str = turn.call({"name": "count", "arguments": {"callId": "toolu_1"}})
    kept: Optional[flexmd.Artifact] = turn.artifact("toolu_1")
    dropped: int = turn.end()
    checked = flexmd.validate(answer, agent_schema, registry=registry)
    reveal_type(checked)
    del data, plain, lines, text, events, fix, update, state, names, retries, root
    del shown, offered, reply, kept, dropped
    figures: Dict[str, Any] = flexmd.report(
        [{"model": "a", "response": answer}], "- Short answer — prose", group_by=["model"], html="r.html"
    )
    rows: Any = flexmd.frame("answers.jsonl", schema=Review, group_by=("model",), preset="strict")
    del figures, rows


async def use_async(llm: Any) -> None:
    asked = await flexmd.ask_async(llm, "Review this.", schema=Review, max_retries=1)
    reveal_type(asked)
