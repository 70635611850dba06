"""One loop over a provider's stream: `read_stream` / `aread_stream` feed
OpenAI and Anthropic SDK stream events (and plain text) to the streaming
readers, and give the events `flexmd extract --stream` / `json --stream`
print for the same text."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, AsyncIterator, List

import pytest

import flexmd
from conftest import SPEC, Cli, in_code_points

ANSWER = (
    "## Short answer\nYes, cache them 😀.\n\n## Long answer\nRates change daily.\n\n"
    "## Reasoning\n1. fewer calls\n2. stable within a day\n\n## Assumptions\n- one region\n\n"
    "## Unknowns\nNone\n"
)


def pieces(text: str, size: int = 7) -> List[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def openai_chat_chunks(text: str) -> List[Any]:
    from openai.types.chat import ChatCompletionChunk

    def chunk(delta: dict, finish: Any = None) -> Any:
        return ChatCompletionChunk.model_validate(
            {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        )

    return [chunk({"role": "assistant", "content": ""})] + [
        chunk({"content": p}) for p in pieces(text)
    ] + [chunk({}, "stop")]


def openai_responses_events(text: str) -> List[Any]:
    from openai.types.responses import ResponseTextDeltaEvent, ResponseTextDoneEvent

    events: List[Any] = [
        ResponseTextDeltaEvent(type="response.output_text.delta", delta=p, item_id="i",
                               output_index=0, content_index=0, sequence_number=n, logprobs=[])
        for n, p in enumerate(pieces(text))
    ]
    events.append(ResponseTextDoneEvent(type="response.output_text.done", text=text, item_id="i",
                                        output_index=0, content_index=0, sequence_number=999,
                                        logprobs=[]))
    return events


def anthropic_events(text: str) -> List[Any]:
    from anthropic.types import (
        RawContentBlockDeltaEvent, RawContentBlockStopEvent, TextDelta,
    )

    return [
        RawContentBlockDeltaEvent(type="content_block_delta", index=0,
                                  delta=TextDelta(type="text_delta", text=p))
        for p in pieces(text)
    ] + [RawContentBlockStopEvent(type="content_block_stop", index=0)]


SOURCES = {
    "text": lambda t: pieces(t),
    "openai_chat": openai_chat_chunks,
    "openai_responses": openai_responses_events,
    "anthropic": anthropic_events,
}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_provider_stream_gives_the_clis_events(
    source: str, flexmd_cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "answer.md"
    path.write_text(ANSWER, encoding="utf-8")
    spec = flexmd.Spec.parse(SPEC.read_text(encoding="utf-8"))
    _, out = flexmd_cli.run("extract", "--stream", "--as-json", "--spec", SPEC, path)
    cli_events = in_code_points([json.loads(line) for line in out.splitlines()], ANSWER)
    events = list(flexmd.read_stream(spec.stream(as_json=True), SOURCES[source](ANSWER)))
    assert events[-1] == cli_events[-1], "the same end"
    assert [e for e in events if e["event"] == "section_completed"] == [
        e for e in cli_events if e["event"] == "section_completed"
    ]
    assert events[-1]["result"]["Reasoning"] == ["fewer calls", "stable within a day"]


def test_async_streams_and_json() -> None:
    async def stream() -> AsyncIterator[Any]:
        for item in openai_chat_chunks('Here: {"rates": [1.1, 1.2], "ok": true}'):
            await asyncio.sleep(0)
            yield item

    async def collect() -> List[Any]:
        return [e async for e in flexmd.aread_stream(flexmd.StreamingJson(), stream())]

    events = asyncio.run(collect())
    assert events[-1]["event"] == "finished"
    assert events[-1]["value"] == {"rates": [1.1, 1.2], "ok": True}
    assert all(e["event"] == "update" for e in events[:-1])


def test_items_that_are_not_text_or_events_are_refused() -> None:
    with pytest.raises(TypeError, match="must be text or a provider SDK's stream event, not int"):
        list(flexmd.read_stream(flexmd.StreamingJson(), [1]))
