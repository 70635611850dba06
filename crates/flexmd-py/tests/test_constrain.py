"""Provider strict schemas, the way back and grammars through Python: each
result equals the CLI's JSON for the same input, and the exports are
compared with the OpenAI SDK's own strict-schema conversion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import pytest

import flexmd
from conftest import ROOT, Cli

INVOICE = ROOT / "examples" / "constrain" / "invoice.schema.json"
ANSWER = ROOT / "examples" / "constrain" / "invoice.openai.json"
REPLY = ROOT / "examples" / "constrain" / "invoice.reply.md"
SPEC = ROOT / "examples" / "specs" / "answer.md"
PROVIDERS = ["openai", "openai-tool", "anthropic", "anthropic-tool", "gemini"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_export_equals_the_cli(flexmd_cli: Cli, provider: str) -> None:
    schema = json.loads(INVOICE.read_text())
    assert flexmd.export_schema(schema, provider, name="invoice") == flexmd_cli.json(
        "schema", "export", INVOICE, "--for", provider, "--json"
    )
    assert flexmd.export_schema("review", provider) == flexmd_cli.json(
        "schema", "export", "review", "--for", provider, "--json"
    )


def test_the_request_name_is_given_registered_titled_or_response() -> None:
    schema = json.loads(INVOICE.read_text())
    assert flexmd.export_schema(schema, "openai", name="bill")["name"] == "bill"
    assert flexmd.export_schema("review", "openai")["name"] == "review"
    assert flexmd.export_schema(schema, "openai")["name"] == "Invoice"
    assert flexmd.export_schema({"type": "string"}, "gemini")["name"] == "response"


def test_validate_from_equals_the_cli(flexmd_cli: Cli) -> None:
    schema = json.loads(INVOICE.read_text())
    answer = json.loads(ANSWER.read_text())
    cli = flexmd_cli.json(
        "schema", "validate", "--schema", INVOICE, "--from", "openai", "--json", ANSWER
    )
    assert flexmd.validate(answer, schema, from_provider="openai", report=True) == cli
    # A text holding the answer, as a provider's message content is.
    assert flexmd.validate(ANSWER.read_text(), schema, from_provider="openai") == cli["data"]
    assert cli["nullsRemoved"] == ["/status", "/notes"]
    # Read as it is, the nulls are errors.
    with pytest.raises(flexmd.ValidationError):
        flexmd.validate(answer, schema)


def test_a_reply_in_prose_keeps_its_repairs_and_places(flexmd_cli: Cli) -> None:
    """A provider's message with a fenced, repaired answer: the repair
    warnings and each error's line stay, and the constraints the provider
    did not enforce (pattern, minimum) are errors."""
    schema = json.loads(INVOICE.read_text())
    outcome = flexmd.validate(REPLY.read_text(), schema, from_provider="openai", report=True, hints=True)
    assert outcome == flexmd_cli.json(
        "schema", "validate", "--schema", INVOICE, "--from", "openai", "--json", "--hints", REPLY
    )
    assert [(e["pointer"], e["code"], e["line"]) for e in outcome["errors"]] == [
        ("/number", "pattern_mismatch", 5),
        ("/items/0/quantity", "too_small", 9),
    ]
    assert [(w["code"], w["line"]) for w in outcome["warnings"]] == [("json5", 4)]
    assert outcome["nullsRemoved"] == ["/status", "/notes"]


@pytest.mark.parametrize("fmt", ["lark", "gbnf", "ebnf", "regex"])
def test_grammars_equal_the_cli(flexmd_cli: Cli, fmt: str) -> None:
    schema = json.loads(INVOICE.read_text())
    assert flexmd.grammar(schema, fmt) == flexmd_cli.text("grammar", "--schema", INVOICE, "--format", fmt)
    assert flexmd.grammar(schema, fmt, report=True) == flexmd_cli.json(
        "grammar", "--schema", INVOICE, "--format", fmt, "--json"
    )
    spec = flexmd.Spec.parse(SPEC.read_text())
    assert spec.grammar(fmt, think_lines=5, max_rows=3) == flexmd_cli.text(
        "grammar", "--spec", SPEC, "--format", fmt, "--think", "5", "--max-rows", "3"
    )
    assert spec.grammar(fmt, report=True) == flexmd_cli.json(
        "grammar", "--spec", SPEC, "--format", fmt, "--json"
    )


def test_what_cannot_be_expressed_is_a_constrain_error() -> None:
    tree = {
        "$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}}}},
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/n"}},
    }
    with pytest.raises(flexmd.ConstrainError, match="refers to itself at `/\\$defs/n/properties/kids/items`"):
        flexmd.export_schema(tree, "anthropic")
    with pytest.raises(flexmd.ConstrainError, match="regex takes no recursive schema"):
        flexmd.grammar(tree, "regex")
    with pytest.raises(flexmd.ConstrainError, match="unknown provider `claude`"):
        flexmd.export_schema(tree, "claude")  # type: ignore[arg-type]
    with pytest.raises(flexmd.ConstrainError, match="unknown grammar format `peg`"):
        flexmd.grammar(tree, "peg")  # type: ignore[arg-type]
    assert issubclass(flexmd.ConstrainError, ValueError)


def test_a_schema_no_utf8_can_hold_is_a_value_error_naming_the_schema() -> None:
    with pytest.raises(ValueError, match="^the schema: a dict key holds a lone surrogate"):
        flexmd.export_schema({"type": "object", "properties": {"a\ud800": {"type": "string"}}}, "openai")
    with pytest.raises(ValueError, match="^the schema: a string holds a lone surrogate"):
        flexmd.grammar({"enum": ["\udc00x"]}, "gbnf")


def test_pydantic_models_export_and_come_back_as_models() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Item(pydantic.BaseModel):
        name: str
        qty: int = 1

    class Order(pydantic.BaseModel):
        id: str
        items: List[Item]
        note: Optional[str] = None

    export = flexmd.export_schema(Order, "openai")
    assert export["name"] == "Order"
    strict = export["schema"]
    assert strict["required"] == ["id", "items", "note"]
    assert strict["properties"]["items"]["items"]["properties"]["qty"] == {"type": ["integer", "null"]}
    order = flexmd.validate(
        {"id": "A1", "items": [{"name": "x", "qty": None}], "note": None},
        Order,
        from_provider="openai",
    )
    assert order == Order(id="A1", items=[Item(name="x", qty=1)], note=None)


def test_openai_sdk_conversion_agrees_where_documented() -> None:
    """The OpenAI SDK's `to_strict_json_schema` (what `client.chat.
    completions.parse` sends): both close every object and list every
    property in `required`; flexmd also lets an optional property be null
    (the SDK makes the model invent a value) and drops what the API does not
    take (titles, defaults) — docs/constrain.md."""
    pydantic = pytest.importorskip("pydantic")
    sdk = pytest.importorskip("openai.lib._pydantic")

    class Step(pydantic.BaseModel):
        title: str
        minutes: Optional[int] = None

    class Plan(pydantic.BaseModel):
        goal: str
        steps: List[Step]
        owner: str = "team"

    theirs = sdk.to_strict_json_schema(Plan)
    ours = flexmd.export_schema(Plan, "openai")["schema"]

    def objects(schema: object, out: list) -> list:
        if isinstance(schema, dict):
            if schema.get("type") == "object" or "properties" in schema:
                out.append(schema)
            for value in schema.values():
                objects(value, out)
        elif isinstance(schema, list):
            for value in schema:
                objects(value, out)
        return out

    for obj in objects(theirs, []) + objects(ours, []):
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])
    # The SDK keeps `$defs` and `$ref`; flexmd copies the definition in.
    step_theirs = theirs["$defs"]["Step"]
    step_ours = ours["properties"]["steps"]["items"]
    assert sorted(step_theirs["properties"]) == sorted(step_ours["properties"]) == ["minutes", "title"]
    # Optional[int] = None: both allow null (Pydantic writes the union).
    assert step_theirs["properties"]["minutes"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
    assert step_ours["properties"]["minutes"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
    # owner: str = "team": the SDK requires a string (keeping the default);
    # flexmd allows null and fills the default on the way back.
    assert theirs["properties"]["owner"] == {"default": "team", "title": "Owner", "type": "string"}
    assert ours["properties"]["owner"] == {"type": ["string", "null"]}


def test_pydantic_ai_transformers_agree_where_documented() -> None:
    """Pydantic AI's per-provider transformers (`pydantic_ai.profiles`):
    for OpenAI, both close every object, require every property and drop
    titles; flexmd also lets a property with a default be null (filled on
    the way back) where Pydantic AI makes the model write one. For Gemini,
    both keep `required` and `minItems`; Pydantic AI passes `maxLength`,
    `default` and `$ref` through, flexmd copies the reference in, drops the
    default (the way back restores it) and reports `maxLength` as checked
    after the answer — docs/constrain.md."""
    pydantic = pytest.importorskip("pydantic")
    openai_profile = pytest.importorskip("pydantic_ai.profiles.openai")
    google_profile = pytest.importorskip("pydantic_ai.profiles.google")

    class Step(pydantic.BaseModel):
        title: str = pydantic.Field(max_length=80)
        minutes: Optional[int] = None

    class Plan(pydantic.BaseModel):
        goal: str
        steps: List[Step] = pydantic.Field(min_length=1)
        owner: str = "team"

    source = Plan.model_json_schema()
    theirs = openai_profile.OpenAIJsonSchemaTransformer(source, strict=True).walk()
    ours = flexmd.export_schema(Plan, "openai")["schema"]
    for schema in (theirs, ours):
        assert schema["additionalProperties"] is False
        assert schema["required"] == ["goal", "steps", "owner"]
        assert "title" not in schema and "title" not in schema["properties"]["goal"]
    assert theirs["$defs"]["Step"]["required"] == ["title", "minutes"]
    assert ours["properties"]["steps"]["items"]["required"] == ["title", "minutes"]
    assert theirs["properties"]["owner"] == {"type": "string"}
    assert ours["properties"]["owner"] == {"type": ["string", "null"]}

    theirs = google_profile.GoogleJsonSchemaTransformer(source, strict=True).walk()
    export = flexmd.export_schema(Plan, "gemini")
    ours = export["schema"]
    assert theirs["required"] == ours["required"] == ["goal", "steps"]
    assert theirs["properties"]["steps"]["minItems"] == ours["properties"]["steps"]["minItems"] == 1
    assert theirs["properties"]["steps"]["items"] == {"$ref": "#/$defs/Step"}
    assert theirs["$defs"]["Step"]["properties"]["title"] == {"maxLength": 80, "type": "string"}
    assert theirs["properties"]["owner"] == {"default": "team", "type": "string"}
    assert ours["properties"]["owner"] == {"type": "string"}
    step = ours["properties"]["steps"]["items"]
    assert step["properties"]["title"] == {"type": "string", "description": "(maxLength: 80)"}
    assert [(c["pointer"], c["action"]) for c in export["changes"] if c["keyword"] == "maxLength"] == [
        ("/$defs/Step/properties/title", "unenforced")
    ]
