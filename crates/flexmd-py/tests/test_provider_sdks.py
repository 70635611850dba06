"""The provider SDKs' own objects go straight into `ToolSet.call`: OpenAI's
tool calls and assistant messages, Anthropic's tool_use blocks and
messages (built offline, as the SDKs return them)."""

from __future__ import annotations

import json

import pytest

import flexmd

LOG = flexmd.Artifact.from_text("one\ntwo\nthree", call_id="log")
TOOLS = flexmd.forge_tools([LOG])


def test_openai_tool_calls_and_messages() -> None:
    chat = pytest.importorskip("openai.types.chat", reason="the openai SDK is not installed (pip install openai)")
    call = chat.ChatCompletionMessageToolCall(
        id="call_1",
        type="function",
        function={"name": "artifact_head", "arguments": json.dumps({"callId": "log", "n": 2})},
    )
    assert TOOLS.call(call) == "one\ntwo"
    message = chat.ChatCompletionMessage(role="assistant", content=None, tool_calls=[call])
    assert TOOLS.call_all(message) == [{"id": "call_1", "name": "artifact_head", "result": "one\ntwo"}]
    # What goes back to the model, in OpenAI's shape.
    reply = {"role": "tool", "tool_call_id": call.id, "content": TOOLS.call(call)}
    assert reply["content"] == "one\ntwo"


def test_anthropic_tool_use_blocks_and_messages() -> None:
    types = pytest.importorskip("anthropic.types", reason="the anthropic SDK is not installed (pip install anthropic)")
    block = types.ToolUseBlock(id="toolu_1", type="tool_use", name="artifact_tail", input={"callId": "log", "n": 1})
    assert TOOLS.call(block) == "three"
    message = types.Message(
        id="msg_1",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[types.TextBlock(type="text", text="Reading the log."), block],
        stop_reason="tool_use",
        stop_sequence=None,
        usage=types.Usage(input_tokens=10, output_tokens=5),
    )
    assert TOOLS.call_all(message) == [{"id": "toolu_1", "name": "artifact_tail", "result": "three"}]
    assert TOOLS.call_all(message.content) == TOOLS.call_all(message)
    anthropic_tools = flexmd.forge_tools([LOG], format="anthropic").definitions
    assert [t["name"] for t in anthropic_tools][:2] == ["artifact_head", "artifact_tail"]


def test_responses_api_tools_are_the_sdks_shape() -> None:
    responses = pytest.importorskip(
        "openai.types.responses", reason="the openai SDK is not installed (pip install openai)"
    )
    FunctionTool = responses.FunctionTool

    tools = flexmd.forge_tools([LOG], format="openai-responses").definitions
    for tool in tools:
        parsed = FunctionTool.model_validate(tool)
        assert (parsed.type, parsed.strict) == ("function", False)
        assert parsed.model_dump(exclude_none=True) == tool
    assert [t["name"] for t in tools] == [
        t["function"]["name"] for t in flexmd.forge_tools([LOG]).definitions
    ]
