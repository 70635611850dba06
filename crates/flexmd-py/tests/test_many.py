"""The batch calls, `find_json_many` and `validate_many`: one result per
item, in order, equal to what the CLI prints for each (and to the single
calls), whatever the mix of items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import flexmd
from conftest import EXAMPLES, Cli, in_code_points

# Every bundled example and a few short answers of the kinds the finder
# meets: broken JSON, nothing, an empty text, a fence left open.
TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES] + [
    "Sure — here it is: {name: 'Zoë', tags: ['a', 'b',], done: True",
    "no JSON here",
    "",
    '```json\n{"a": [1, 2\n```',
]


def cli_records(flexmd_cli: Cli, *flags: str) -> list:
    """What `flexmd json --jsonl FLAGS` prints for TEXTS, each record's result."""
    stdin = "\n".join(json.dumps(t) for t in TEXTS)
    code, out = flexmd_cli.run("json", "--jsonl", *flags, stdin=stdin)
    assert code in (0, 1), out
    return [json.loads(line)["result"] for line in out.splitlines() if line.strip()]


def test_find_json_many_is_the_cli_record_by_record(flexmd_cli: Cli) -> None:
    assert flexmd.find_json_many(TEXTS) == cli_records(flexmd_cli)
    found = flexmd.find_json_many(TEXTS, repairs=True)
    expected = [
        None if f is None else in_code_points(f, text)
        for f, text in zip(cli_records(flexmd_cli, "--repairs"), TEXTS)
    ]
    assert found == expected
    assert found[-4]["value"] == {"name": "Zoë", "tags": ["a", "b"], "done": True}
    # `text[start:end]` is what a value was read from, in code points.
    text = TEXTS[-4]
    assert text[found[-4]["start"] : found[-4]["end"]].startswith("{name: 'Zoë'")
    assert flexmd.find_json_many(TEXTS, all=True) == [flexmd.find_json(t, all=True) for t in TEXTS]
    assert flexmd.find_json_many(TEXTS, all=True, repairs=True) == [
        flexmd.find_json(t, all=True, repairs=True) for t in TEXTS
    ]


def test_find_json_many_takes_any_iterable_of_str_and_nothing_else() -> None:
    assert flexmd.find_json_many(t for t in ["[1]", "{a: 2}"]) == [[1], {"a": 2}]
    assert flexmd.find_json_many([]) == []
    with pytest.raises(TypeError, match=r"^texts must be a list \(or any iterable\) of str, not a str$"):
        flexmd.find_json_many("[1]")
    with pytest.raises(TypeError, match=r"^texts\[1\] must be a str, not int$"):
        flexmd.find_json_many(["[1]", 3])
    with pytest.raises(TypeError, match=r"^texts must be a list \(or any iterable\) of str, not int$"):
        flexmd.find_json_many(3)  # type: ignore[arg-type]
    # A lone surrogate: the item is named (a single call's UnicodeEncodeError would not say which).
    with pytest.raises(ValueError, match=r"^texts\[1\]: a string holds a lone surrogate"):
        flexmd.find_json_many(["{}", '{"a": "\ud800"}'])
    with pytest.raises(ValueError, match=r"^items\[2\]: a string holds a lone surrogate"):
        flexmd.validate_many([{}, "{}", '{"a": "\ud800"}'], "review")
    # Deep nesting and CRLF, as the single call reads them.
    deep = "[" * 100_000 + "]" * 100_000
    assert flexmd.find_json_many([deep, "\r\n{a: 1}\r\n"]) == [flexmd.find_json(deep), {"a": 1}]


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "agent" in p.parts], ids=lambda p: p.name)
def test_validate_many_is_the_cli_answer_by_answer(flexmd_cli: Cli, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for flags, kwargs in [
        ([], {}),
        (["--no-coerce", "--no-defaults"], {"coerce": False, "defaults": False}),
        (["--strict"], {"strict": True}),
        (["--hints"], {"hints": True}),
    ]:
        expected = flexmd_cli.json("schema", "validate", "--json", "--schema", "review", *flags, path)
        # The same answer three times, as text, and its value twice: each
        # item gets the outcome its own call would.
        value = flexmd.find_json(text)
        outcomes = flexmd.validate_many([text, value, text], "review", **kwargs)
        assert outcomes[0] == expected == outcomes[2], flags
        assert outcomes[1] == flexmd.validate(value, "review", report=True, **kwargs), flags


def test_validate_many_items_and_errors() -> None:
    schema = {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}
    outcomes = flexmd.validate_many([{"n": 1}, {"n": "2"}, {}, 'Here: {"n": 3}'], schema)
    assert [o["valid"] for o in outcomes] == [True, True, False, True]
    assert [o["data"] for o in outcomes] == [{"n": 1}, {"n": 2}, None, {"n": 3}]
    assert outcomes[2]["errors"][0]["code"] == "missing_required"
    strict = flexmd.validate_many([{"n": "2"}], schema, strict=True)
    assert strict[0]["valid"] is False and strict[0]["errors"][0]["code"] == "coerced"
    assert flexmd.validate_many([], schema) == []
    with pytest.raises(flexmd.SchemaError):
        flexmd.validate_many([{}], "no such schema")
    with pytest.raises(TypeError, match=r"^items must be a list \(or any iterable\) of values or texts, not int$"):
        flexmd.validate_many(3, schema)  # type: ignore[arg-type]
    deep: list = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(flexmd.NestingError, match=r"^items\[1\]"):
        flexmd.validate_many([{}, deep], schema)


def test_validate_many_takes_pydantic_models_and_their_instances() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Ticket(pydantic.BaseModel):
        id: int
        title: str = "untitled"

    outcomes = flexmd.validate_many([Ticket(id=1), {"id": "2"}, {"title": "x"}], Ticket)
    assert [o["valid"] for o in outcomes] == [True, True, False]
    assert outcomes[1]["data"] == {"id": 2, "title": "untitled"}
