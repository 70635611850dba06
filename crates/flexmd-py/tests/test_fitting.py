"""Fitting an answer to a schema from Python (`loads(text, schema=...)`,
`find_json_as`), and coercion through the unions Pydantic gives every
`Optional` field: the same results as `flexmd json --schema` and `flexmd
schema validate` for the same input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

import pytest
from pydantic import BaseModel, Field

import flexmd
from conftest import EXAMPLES, ROOT, SPEC, Cli, in_code_points

PERSON_SCHEMA = ROOT / "crates/flexmd-schema/tests/fixtures/unions/pydantic_person.schema.json"
MESSY_REVIEW = ROOT / "examples/agent/messy_review.md"


class Address(BaseModel):
    street: str
    zip: Optional[int] = None
    country: str = "NL"


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Person(BaseModel):
    """A person as an agent reports them (Pydantic v2's schema, as emitted)."""

    name: str
    age: Optional[int] = None
    score: float | None = None
    tags: Optional[list[str]] = None
    address: Optional[Address] = None
    active: bool | None = None
    pet: Union[Cat, Dog, None] = None
    favourite: Optional[Annotated[Union[Cat, Dog], Field(discriminator="kind")]] = None


ANSWER = (
    "Here you go:\n```json\n"
    '{"Name": "Ann", "age": "212", "score": "4.5", "tags": "a", '
    '"address": {"street": "x", "zip": "1,011"}, "active": "yes", '
    '"pet": {"kind": "Dog"}, "favourite": {"kind": "cat", "lives": 7.0}}\n```\n'
)


def test_the_rust_fixture_is_what_pydantic_emits() -> None:
    # The Rust tests of the same behaviour read this file: it must stay the
    # schema Pydantic really gives.
    assert Person.model_json_schema() == json.loads(PERSON_SCHEMA.read_text())


def test_optional_fields_coerce_like_their_type() -> None:
    data = {"name": "Ann", "age": "212", "score": "4.5", "active": "true",
            "address": {"street": "x", "zip": "1011"}, "pet": {"kind": "dog"}}
    person = flexmd.validate(data, Person)
    assert person == Person.model_validate(data), "the same as Pydantic's lax mode"
    assert person.age == 212
    assert person.address == Address(street="x", zip=1011, country="NL")
    assert person.pet == Dog(kind="dog", good=True)
    changes = flexmd.validate(data, Person, report=True)["changes"]
    assert [(c["path"], c.get("branch")) for c in changes if c["kind"] == "coerced"] == [
        ("age", "anyOf/0"),
        ("score", "anyOf/0"),
        ("active", "anyOf/0"),
        ("address.zip", "anyOf/0"),
    ]


def test_loads_with_a_model_fits_and_returns_the_model() -> None:
    person = flexmd.loads(ANSWER, schema=Person)
    assert person == Person(
        name="Ann", age=212, score=4.5, tags=["a"],
        address=Address(street="x", zip=1011), active=True,
        pet=Dog(kind="dog"), favourite=Cat(kind="cat", lives=7),
    )


def test_find_json_as_is_what_the_cli_prints(flexmd_cli: Cli, tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(ANSWER, encoding="utf-8")
    report = flexmd.find_json_as(ANSWER, Person)
    assert report == flexmd_cli.json("json", "--schema", PERSON_SCHEMA, "--repairs", answer)
    assert report["valid"] is True
    assert [(c["pointer"], c["rule"], c.get("branch")) for c in report["coercions"]][:3] == [
        ("/name", "key_case", None),
        ("/age", "number_from_string", "anyOf/0"),
        ("/score", "number_from_string", "anyOf/0"),
    ]
    assert flexmd.loads(ANSWER, schema=Person).model_dump(mode="json") == flexmd_cli.json(
        "json", "--schema", PERSON_SCHEMA, answer
    )


@pytest.mark.parametrize("preset", ["strict", "standard", "salvage"])
def test_every_example_and_preset_against_the_cli(flexmd_cli: Cli, preset: str) -> None:
    spec = flexmd.Spec.parse(SPEC.read_text(encoding="utf-8"))
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        for schema, arg in [("review", "review"), (spec, SPEC)]:
            code, out = flexmd_cli.run("json", "--schema", arg, "--preset", preset, "--repairs", path)
            if not out.strip():
                with pytest.raises((flexmd.JSONNotFound, flexmd.ValidationError)):
                    flexmd.find_json_as(text, schema, preset=preset)
                continue
            report = flexmd.find_json_as(text, schema, preset=preset)
            assert report == in_code_points(json.loads(out), text), (path.name, arg, preset)
            assert code == (0 if report["valid"] else 1)


def test_the_readme_example_4_in_python(flexmd_cli: Cli) -> None:
    # `flexmd json --schema review examples/agent/messy_review.md`
    text = MESSY_REVIEW.read_text(encoding="utf-8")
    assert flexmd.loads(text, schema="review") == flexmd_cli.json(
        "json", "--schema", "review", MESSY_REVIEW
    )


def test_fitting_errors_in_python_terms() -> None:
    with pytest.raises(ValueError, match='preset must be "strict", "standard" or "salvage"'):
        flexmd.loads("{}", schema="review", preset="lenient")
    with pytest.raises(flexmd.JSONNotFound, match="no value in the text fits"):
        flexmd.loads("no json here", schema={"type": "object"})
    with pytest.raises(flexmd.ValidationError) as invalid:
        flexmd.loads('{"n": "many"}', schema={"type": "object", "properties": {"n": {"type": "integer"}}})
    assert invalid.value.errors[0]["code"] == "invalid_type"
    assert invalid.value.errors[0]["path"] == "n"
    with pytest.raises(flexmd.ValidationError) as ambiguous:
        flexmd.loads('{"s": "app"}', schema={"properties": {"s": {"enum": ["apple", "apply"]}}})
    assert ambiguous.value.errors[0]["code"] == "ambiguous_enum"
    with pytest.raises(flexmd.SchemaError, match="no schema named `nope`"):
        flexmd.loads("{}", schema="nope")


VERIFICATION = ROOT / "examples/agent/verification_answer.md"


def test_numbers_in_text_read_as_parse_float_and_parse_int(flexmd_cli: Cli) -> None:
    # "142 tests" -> 142 and "87.5%" -> 87.5, each a warning naming its
    # rule; `strict` makes them errors; the CLI says the same.
    text = VERIFICATION.read_text(encoding="utf-8")
    report = flexmd.validate(text, "verification", report=True)
    assert report == flexmd_cli.json(
        "schema", "validate", "--json", "--schema", "verification", VERIFICATION
    )
    assert report["data"]["tests"] == {"total": 142, "passed": 141, "failed": 0, "skipped": 1}
    assert report["data"]["coverage"] == {
        "statements": 87.5, "branches": 74.25, "functions": 91, "lines": 88,
    }
    lossy = [(c["path"], c["from"]) for c in report["changes"] if c["rule"] == "leading_number"]
    assert lossy[:2] == [("tests.total", "142 tests"), ("tests.skipped", "1 (flaky: net::retry_backoff)")]
    assert report["warnings"][1]["message"] == (
        'Coerced "142 tests" to 142 '
        "(rule leading_number: the number the text starts with, the rest dropped)"
    )
    strict = flexmd.validate(text, "verification", report=True, strict=True)
    assert strict == flexmd_cli.json(
        "schema", "validate", "--json", "--strict", "--schema", "verification", VERIFICATION
    )
    assert strict["valid"] is False and strict["errors"][1]["code"] == "coerced"
    schema = {"type": "object", "properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}
    outcome = flexmd.validate({"n": "3.7"}, schema, report=True)
    assert outcome["data"] == {"n": 3}
    assert [(c["rule"], c["branch"]) for c in outcome["changes"]] == [("truncate_to_integer", "anyOf/0")]
    assert flexmd.find_json_as(text, "verification") == in_code_points(
        flexmd_cli.json("json", "--schema", "verification", "--repairs", VERIFICATION), text
    )
