"""`ask` and `ask_async`: the re-ask loop with the user's own Pydantic
validators, async model functions, empty answers and provider objects, and
arguments checked in Python's terms."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any, List

import pytest
from pydantic import BaseModel, field_validator, model_validator

import flexmd


class Even(BaseModel):
    n: int

    @field_validator("n")
    @classmethod
    def even(cls, n: int) -> int:
        if n % 2:
            raise ValueError("n must be even")
        return n


class Window(BaseModel):
    start: int
    end: int

    @model_validator(mode="after")
    def ordered(self) -> "Window":
        if self.end < self.start:
            raise ValueError("end must not come before start")
        return self


class Scripted:
    """A model that answers from a script and records the prompts."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.prompts: List[str] = []

    def __call__(self, prompt: str) -> Any:
        self.prompts.append(prompt)
        return self.answers.pop(0)


def test_a_field_validator_rejection_is_asked_again_with_its_message() -> None:
    llm = Scripted('{"n": "3"}', '{"n": 4}')
    assert flexmd.ask(llm, "Pick n.", schema=Even) == Even(n=4)
    assert len(llm.prompts) == 2
    assert "- Fix n: Value error, n must be even" in llm.prompts[1]
    assert 'Your previous answer:\n\n````\n{"n": "3"}\n````' in llm.prompts[1]


def test_a_model_validator_rejection_is_asked_again() -> None:
    llm = Scripted('{"start": 5, "end": 1}', '{"start": 1, "end": 5}')
    report = flexmd.ask(llm, "A window.", schema=Window, report=True)
    assert report["data"] == {"start": 1, "end": 5}
    first = report["attempts"][0]["errors"]
    assert [(e["path"], e["code"]) for e in first] == [("", "value_error")]
    assert "end must not come before start" in llm.prompts[1]


def test_validators_that_never_pass_exhaust_the_retries() -> None:
    llm = Scripted('{"n": 1}', '{"n": 3}')
    with pytest.raises(flexmd.ValidationError) as caught:
        flexmd.ask(llm, "Pick n.", schema=Even, max_retries=1)
    assert caught.value.errors[0]["message"] == "Value error, n must be even"
    assert len(caught.value.attempts) == 2


def test_none_and_empty_answers_are_retried_with_a_hint() -> None:
    llm = Scripted(None, "", '{"n": 2}')
    assert flexmd.ask(llm, "Pick n.", schema=Even) == Even(n=2)
    assert "Fix root: The answer was empty" in llm.prompts[1]
    assert "Fix root: The answer was empty" in llm.prompts[2]


def test_provider_response_objects_are_read_as_their_text() -> None:
    from anthropic.types import Message, TextBlock, Usage
    from openai.types.chat import ChatCompletion

    chat = ChatCompletion.model_validate(
        {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
         "choices": [{"index": 0, "finish_reason": "stop",
                      "message": {"role": "assistant", "content": '{"n": 6}'}}]}
    )
    assert flexmd.ask(lambda p: chat, "Pick n.", schema=Even) == Even(n=6)
    message = Message(
        id="m", type="message", role="assistant", model="claude", stop_reason="end_turn",
        content=[TextBlock(type="text", text='Here: {"n": 8}')],
        usage=Usage(input_tokens=1, output_tokens=1),
    )
    assert flexmd.ask(lambda p: message, "Pick n.", schema=Even) == Even(n=8)
    with pytest.raises(TypeError, match="must return the answer text \\(a str\\), not int"):
        flexmd.ask(lambda p: 42, "Pick n.", schema=Even)


def test_ask_async_awaits_an_async_model() -> None:
    prompts: List[str] = []
    answers = ['{"n": 1}', '{"n": 10}']

    async def llm(prompt: str) -> str:
        prompts.append(prompt)
        await asyncio.sleep(0)
        return answers.pop(0)

    assert asyncio.run(flexmd.ask_async(llm, "Pick n.", schema=Even)) == Even(n=10)
    assert "n must be even" in prompts[1]
    # A plain function works there too; the result is what `ask` gives.
    assert asyncio.run(flexmd.ask_async(lambda p: '{"n": 2}', "Pick n.", schema=Even)) == flexmd.ask(
        lambda p: '{"n": 2}', "Pick n.", schema=Even
    )


def test_an_async_model_in_the_sync_ask_says_what_to_use() -> None:
    async def llm(prompt: str) -> str:
        return '{"n": 2}'

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "coroutine was never awaited"
        with pytest.raises(TypeError, match="use `await flexmd.ask_async"):
            flexmd.ask(llm, "Pick n.", schema=Even)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_retries": -1}, "max_retries must be a whole number ≥ 0, not -1"),
        ({"max_retries": 1.5}, "max_retries must be a whole number ≥ 0, not 1.5"),
        ({"max_retries": True}, "max_retries must be a whole number ≥ 0, not True"),
        ({"max_tokens_total": -5}, "max_tokens_total must be a whole number ≥ 0, not -5"),
    ],
)
def test_wrong_counts_are_value_errors(kwargs: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        flexmd.ask(lambda p: '{"n": 2}', "Pick n.", schema=Even, **kwargs)
