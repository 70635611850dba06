"""Every exported function, class and exception, against literal values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import flexmd
from conftest import ROOT

SPEC_MD = "## Output format\n- Summary — prose\n- Steps — ordered list\n"
ANSWER = "## Summary\nAll good.\n## Steps\n1. one\n2. two\n"


def test_loads_finds_and_repairs_the_json_in_an_answer() -> None:
    answer = 'Sure! Here it is:\n```json\n{"name": "flexmd", "tags": ["a", "b",],}\n```\nAnything else?'
    assert flexmd.loads(answer) == {"name": "flexmd", "tags": ["a", "b"]}
    assert flexmd.loads("[1, 2, 3]") == [1, 2, 3]
    assert flexmd.loads("{'single': 'quotes', unquoted: True}") == {"single": "quotes", "unquoted": True}


def test_loads_raises_json_not_found_a_value_error() -> None:
    with pytest.raises(flexmd.JSONNotFound) as caught:
        flexmd.loads("no structured data at all")
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, flexmd.FlexmdError)
    assert str(caught.value) == "no JSON value found in the text"


def test_loads_refuses_to_return_part_of_a_huge_value() -> None:
    huge = "[" + "0," * 2_100_000 + "0]"
    with pytest.raises(flexmd.JSONTooLarge, match="more than 2000000 values"):
        flexmd.loads(huge)
    part = flexmd.find_json(huge, repairs=True)
    assert "value_limit" in [r["kind"] for r in part["repairs"]]
    assert len(part["value"]) < 2_100_001


def test_find_json_modes() -> None:
    text = 'first {"a": 1} then {"b": 2}'
    # The last complete value in the prose, as with fences.
    assert flexmd.find_json(text) == {"b": 2}
    assert flexmd.find_json(text, all=True) == [{"a": 1}, {"b": 2}]
    found = flexmd.find_json('x {"a": 1,} y', repairs=True)
    assert (found["value"], found["method"], found["repairs"]) == ({"a": 1}, "json5", [])
    cut = flexmd.find_json('x {"a": 1, "b": [2, 3', repairs=True)
    assert cut["value"] == {"a": 1, "b": [2, 3]}
    assert (cut["start"], cut["end"], cut["source"], cut["method"]) == (2, 21, "prose", "repaired")
    assert [r["kind"] for r in cut["repairs"]] == ["unclosed_array", "unclosed_object"]
    assert flexmd.find_json("nothing") is None
    assert flexmd.find_json("nothing", all=True) == []


def test_parse_and_stringify_flexmd() -> None:
    text = "[[message role=user]]\n@id: 1\nHello\n"
    doc = flexmd.parse_flexmd(text)
    assert doc == {"frames": [{"type": "message", "role": "user", "meta": {"id": "1"}, "body_md": "Hello"}]}
    assert flexmd.stringify_flexmd(doc) == "[[message role=user]]\n@id: 1\n\nHello\n"
    assert flexmd.stringify_flexmd(doc, heading_level=2).startswith("## [[message role=user]]")
    typed, notes = flexmd.parse_flexmd("[[message]]\n@n: 1\n", meta="infer", diagnostics=True)
    assert typed["frames"][0]["meta"] == {"n": 1}
    assert notes == []
    typed = flexmd.parse_flexmd("[[task]]\n@n: 7\n@done: true\n", meta_schema={"n": "integer"})
    assert typed["frames"][0]["meta"] == {"n": 7, "done": "true"}
    with pytest.raises(ValueError, match="meta must be"):
        flexmd.parse_flexmd(text, meta="typed")
    with pytest.raises(ValueError, match="not a FlexDocument"):
        flexmd.stringify_flexmd({"frames": 3})
    with pytest.raises(ValueError, match="heading_level must be 1 to 6"):
        flexmd.stringify_flexmd(doc, heading_level=9)


def test_detect_parse_any_and_outline() -> None:
    text = "Notes:\n\n```flexmd\n[[message role=user]]\nHi\n```\n\n```markdown\n## Reply\nDone.\n```\n"
    objects = flexmd.detect_objects(text)
    assert [o["kind"] for o in objects] == ["flexmd_fence", "markdown_snippet"]
    result = flexmd.parse_any(text)
    assert [f["type"] for d in result["flexDocs"] for f in d["frames"]] == ["message"]
    assert flexmd.detect_objects("plain words") == []
    assert flexmd.outline("# A\ntext\n## B\nmore\n") == {
        "type": "md_outline",
        "nodes": [
            {
                "title": "A",
                "level": 1,
                "key": "a",
                "content_md": "text\n",
                "children": [
                    {"title": "B", "level": 2, "key": "b", "content_md": "more\n", "children": []}
                ],
            }
        ],
    }


def test_spec_round_trip_and_prompt() -> None:
    spec = flexmd.Spec.parse(SPEC_MD)
    assert spec.sections == ["Summary", "Steps"]
    assert spec.warnings == []
    assert repr(spec) == 'Spec(sections=["Summary", "Steps"])'
    as_dict = spec.to_dict()
    assert as_dict["sections"] == [
        {"name": "Summary", "kind": "prose"},
        {"name": "Steps", "kind": "ordered_list"},
    ]
    assert flexmd.Spec.from_json(as_dict) == spec
    assert flexmd.Spec.from_json(json.dumps(as_dict)) == spec
    assert flexmd.Spec.parse(spec.render()) == spec
    assert spec.prompt().startswith("## Output format (Markdown)\nInclude these sections")
    assert "Ordered-list sections must use numbered items" in spec.prompt()
    assert flexmd.Spec.default().sections == [
        "Short answer", "Long answer", "Reasoning", "Assumptions", "Unknowns"
    ]


def test_spec_validate_extract_to_json() -> None:
    spec = flexmd.Spec.parse(SPEC_MD)
    assert spec.to_json(ANSWER) == {"Summary": "All good.", "Steps": ["one", "two"]}
    report = spec.validate(ANSWER)
    assert (report["ok"], report["errors"]) == (True, [])
    missing = spec.validate("## Summary\nAll good.\n")
    assert missing["ok"] is False
    assert missing["errors"] == ["missing_section:Steps"]
    extracted = spec.extract(ANSWER)
    steps = extracted["sectionsByName"]["Steps"]
    assert (steps["nodeKey"], steps["md"]) == ("steps", "1. one\n2. two\n")
    assert [(i["index"], i["text"]) for i in steps["list"]["items"]] == [(1, "one"), (2, "two")]
    schema = spec.json_schema()
    assert schema["required"] == ["Summary", "Steps"]
    assert flexmd.validate(spec.to_json(ANSWER), schema) == {"Summary": "All good.", "Steps": ["one", "two"]}


def test_spec_errors_are_spec_errors() -> None:
    with pytest.raises(flexmd.SpecError) as caught:
        flexmd.Spec.parse("just some prose, no sections")
    assert isinstance(caught.value, ValueError)
    with pytest.raises(flexmd.SpecError, match="Spec.parse reads the Markdown block"):
        flexmd.Spec.from_json("## Output format\n- A — prose\n")
    with pytest.raises(flexmd.SpecError):
        flexmd.Spec.from_json('{"sections": [{"name": 3}]}')


def test_validate_values_texts_and_names() -> None:
    schema = {
        "type": "object",
        "required": ["n"],
        "properties": {"n": {"type": "integer"}, "tags": {"type": "array", "default": []}},
    }
    assert flexmd.validate({"n": "3"}, schema) == {"n": 3, "tags": []}
    assert flexmd.validate('Result: {"n": 3}', schema, defaults=False) == {"n": 3}
    with pytest.raises(flexmd.ValidationError) as caught:
        flexmd.validate({"n": "3"}, schema, coerce=False)
    assert isinstance(caught.value, ValueError)
    assert [(e["path"], e["code"]) for e in caught.value.errors] == [("n", "invalid_type")]
    assert caught.value.outcome["valid"] is False
    report = flexmd.validate({"n": "x"}, schema, report=True, hints=True)
    assert report["valid"] is False
    assert report["hints"][0]["path"] == "n"
    strict = flexmd.validate({"n": "3"}, schema, strict=True, report=True)
    assert (strict["valid"], [e["code"] for e in strict["errors"]]) == (False, ["coerced"])
    assert flexmd.validate({"phases": []}, "plan") == {"phases": []}
    with pytest.raises(flexmd.ValidationError) as no_json:
        flexmd.validate("no json here", schema)
    assert no_json.value.errors[0]["code"] == "no_json"


def test_schema_errors() -> None:
    with pytest.raises(flexmd.SchemaError, match="no schema named `nope`"):
        flexmd.validate({}, "nope")
    with pytest.raises(flexmd.SchemaError, match="cannot be compiled"):
        flexmd.validate({}, {"type": 12})
    with pytest.raises(TypeError, match="not JSON data"):
        flexmd.validate({1: object()}, {"type": "object"})


def test_schema_names_schema_and_hints() -> None:
    assert flexmd.schema_names() == ["analysis", "implementation", "review", "verification", "plan"]
    assert flexmd.schema("plan")["required"] == ["phases"]
    errors = flexmd.validate({"phases": "soon"}, "plan", report=True)["errors"]
    fixes = flexmd.hints(errors, "plan")
    assert fixes[0]["path"] == "phases"
    assert fixes[0]["hint"].startswith("Fix phases: Expected array, got string.")


def test_ask_retries_with_hints_until_valid() -> None:
    answers = iter(['{"phases": ["soon"]}', 'Here: ```json\n{"phases": []}\n```'])
    prompts = []

    def llm(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    assert flexmd.ask(llm, "Plan the release.", schema="plan") == {"phases": []}
    assert len(prompts) == 2
    assert prompts[0].startswith("Plan the release.\n\n")
    assert 'Your previous answer:\n\n````\n{"phases": ["soon"]}\n````' in prompts[1]
    assert "- Fix phases.[0]: Expected object, got string." in prompts[1]


def test_ask_report_spec_and_failures() -> None:
    spec = flexmd.Spec.parse(SPEC_MD)
    accepted = flexmd.ask(lambda p: ANSWER, "Report.", spec=spec, report=True)
    assert accepted["data"] == {"Summary": "All good.", "Steps": ["one", "two"]}
    assert len(accepted["attempts"]) == 1
    with pytest.raises(flexmd.ValidationError) as caught:
        flexmd.ask(lambda p: '{"phases": 1}', "Plan.", schema="plan", max_retries=1)
    assert len(caught.value.attempts) == 2
    assert caught.value.errors[0]["code"] == "invalid_type"
    assert str(caught.value).startswith("no valid answer after 2 attempts")

    class Down(Exception):
        pass

    def failing(prompt: str) -> str:
        raise Down("the API is down")

    with pytest.raises(Down, match="the API is down"):
        flexmd.ask(failing, "Plan.", schema="plan")
    with pytest.raises(TypeError, match="give one of schema="):
        flexmd.ask(lambda p: "", "Plan.")


def test_artifact_queries(tmp_path: Path) -> None:
    log = flexmd.Artifact.from_text("GET /a 200\nGET /b 500\nPOST /c 201\n", call_id="log")
    assert (log.call_id, log.kind) == ("log", "text")
    assert log.head(2) == ["GET /a 200", "GET /b 500"]
    assert log.tail(2) == ["POST /c 201", ""]
    assert log.cat(1, 2) == ["GET /b 500"]
    assert log.grep(" 5\\d\\d$") == ["GET /b 500"]
    assert log.grep("get", "i") == ["GET /a 200", "GET /b 500"]
    assert (log.byte_length(), log.line_count()) == (34, 4)
    assert log.estimate_tokens() == 18
    assert log.estimate_tokens("cl100k_base") == 18
    assert log.as_string().startswith("GET /a")
    with pytest.raises(flexmd.ToolCallError, match="invalid pattern"):
        log.grep("(")
    with pytest.raises(flexmd.ArtifactError, match="not JSON"):
        log.json_keys()

    data = flexmd.Artifact.from_text('{"users": [{"name": "a", "age": 3}, {"name": "b", "age": 40}]}', kind="json")
    assert data.json_type() == "json"
    assert data.json_keys() == ["users"]
    assert data.json_length() == 1
    assert data.json_get("$.users[*].name") == ["a", "b"]
    assert data.json_filter("$.users[?@.age > 18]") == [data.json_get("$")[0]]
    assert data.json_filter("$.nothing") == []
    with pytest.raises(flexmd.ToolCallError, match="invalid JSONPath"):
        data.json_get("$[")
    lines = flexmd.Artifact.from_text('{"id": 1}\n{"id": 2}\n{"id": 3}\n', kind="jsonl")
    assert lines.json_slice(-2) == [{"id": 2}, {"id": 3}]
    assert lines.json_pluck("$.id") == [1, 2, 3]
    assert lines.json_filter("$[?@.id > 1]") == [{"id": 2}, {"id": 3}]
    with pytest.raises(flexmd.ArtifactError):
        flexmd.Artifact.from_text("not json", kind="json")
    with pytest.raises(flexmd.ToolCallError, match="unknown kind"):
        flexmd.Artifact.from_text("x", kind="yaml")

    doc = tmp_path / "guide.md"
    doc.write_text("---\ntitle: Guide\n---\n# Intro\nSee [docs](https://x.y).\n\n```py\nprint(1)\n```\n## Usage\n![logo](l.png)\n")
    md = flexmd.Artifact.open(doc)
    assert (md.kind, md.call_id) == ("markdown", str(doc))
    assert md.md_frontmatter() == {"title": "Guide"}
    assert [h["text"] for h in md.md_headings()] == ["Intro", "Usage"]
    assert [h["text"] for h in md.md_headings(depth=1)] == ["Intro"]
    assert [s["heading"] for s in md.md_sections()] == ["Intro", "Usage"]
    assert [c["lang"] for c in md.md_code_blocks()] == ["py"]
    assert md.md_code_blocks(lang="rust") == []
    assert [link["url"] for link in md.md_links()] == ["https://x.y"]
    assert [i["url"] for i in md.md_images()] == ["l.png"]
    assert "See docs." in md.md_text()
    assert md.md_ast()["type"] == "root"
    with pytest.raises(FileNotFoundError):
        flexmd.Artifact.open(tmp_path / "missing.log")


def test_forge_tools_and_calls() -> None:
    log = flexmd.Artifact.from_text("a\nb\nc", call_id="log")
    data = flexmd.Artifact.from_text('{"a": [1, 2]}', kind="json", call_id="data")
    tools = flexmd.forge_tools([log, data])
    names = [d["function"]["name"] for d in tools.definitions]
    assert names[:3] == ["artifact_head", "artifact_tail", "artifact_grep"]
    assert "artifact_json_get" in names and "artifact_md_headings" not in names
    assert tools.format == "openai"
    anthropic = flexmd.forge_tools([log], format="anthropic")
    assert anthropic.definitions[0]["name"] == "artifact_head"
    assert "input_schema" in anthropic.definitions[0]

    assert tools.call({"name": "artifact_tail", "arguments": {"callId": "log", "n": 2}}) == "b\nc"
    openai_call = {"id": "call_1", "type": "function", "function": {"name": "artifact_json_get", "arguments": '{"callId": "data", "path": "$.a[1]"}'}}
    assert tools.call(openai_call) == "[\n  2\n]"
    assert tools.call(json.dumps(openai_call)) == "[\n  2\n]"
    anthropic_message = {"role": "assistant", "content": [
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "tu_1", "name": "artifact_line_count", "input": {"callId": "log"}},
    ]}
    assert tools.call_all(anthropic_message) == [{"id": "tu_1", "name": "artifact_line_count", "result": "3"}]
    assert tools.call_all([openai_call, {"name": "artifact_head", "arguments": {"callId": "nope"}}]) == [
        {"id": "call_1", "name": "artifact_json_get", "result": "[\n  2\n]"},
        {"name": "artifact_head", "error": 'artifact_head: `callId` must be one of "log", "data" (got "nope")'},
    ]
    with pytest.raises(flexmd.ToolCallError, match="unknown tool `artifact_md_text`"):
        tools.call({"name": "artifact_md_text", "arguments": {}})
    with pytest.raises(flexmd.ToolCallError, match="call_all runs several"):
        tools.call([openai_call, openai_call])
    with pytest.raises(flexmd.ToolCallError, match="not a tool call"):
        tools.call({"arguments": {}})
    with pytest.raises(ValueError, match="two artifacts have the call_id"):
        flexmd.forge_tools([log, log])
    with pytest.raises(ValueError, match="format must be"):
        flexmd.forge_tools([log], format="gemini")


def test_call_page_pages_by_tokens() -> None:
    log = flexmd.Artifact.from_text("".join(f"{i} GET /a 200\n" for i in range(500)), call_id="log")
    tools = flexmd.forge_tools([log])
    call = {"name": "artifact_cat", "arguments": {"callId": "log"}}
    first = tools.call_page(call, max_tokens=100)
    assert first["truncated"] is True and first["tokens"] <= 100
    assert first["omitted"] == {"unit": "lines", "count": 501 - len(first["text"].split("\n"))}
    lines = first["text"].split("\n")
    cursor = first["cursor"]
    while cursor:
        page = tools.call_page(call, max_tokens=100, cursor=cursor)
        lines += page["text"].split("\n")
        cursor = page.get("cursor")
    assert "\n".join(lines) == log.as_string()
    assert tools.call_page({"name": "artifact_line_count", "arguments": {"callId": "log"}}) == {
        "text": "501", "tokens": 1, "truncated": False
    }
    with pytest.raises(flexmd.ToolCallError, match="is not one this call returned"):
        tools.call_page(call, max_tokens=100, cursor="9.9.9")
    with pytest.raises(flexmd.ToolCallError, match="must be at least 16"):
        tools.call_page(call, max_tokens=3)
    # No ceiling-less budget: 10**12 is lowered to 200 000, and said.
    whole = tools.call_page(call, max_tokens=10**12)
    assert (whole["truncated"], whole["max_tokens_capped"]) == (False, 10**12)
    # A mangled digit of the position is refused, not followed.
    position, check = first["cursor"].rsplit(".", 1)
    edited = f"{int(position.split('.')[0]) + 1}.{position.split('.')[1]}.{check}"
    with pytest.raises(flexmd.ToolCallError, match="start again without a cursor"):
        tools.call_page(call, max_tokens=100, cursor=edited)


def test_provider_objects_are_read_through_model_dump() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Function(pydantic.BaseModel):
        name: str
        arguments: str

    class ToolCall(pydantic.BaseModel):  # the shape of openai's ChatCompletionMessageToolCall
        id: str
        type: str
        function: Function

    log = flexmd.Artifact.from_text("a\nb\nc", call_id="log")
    tools = flexmd.forge_tools([log])
    call = ToolCall(id="c9", type="function", function=Function(name="artifact_head", arguments='{"callId": "log", "n": 1}'))
    assert tools.call(call) == "a"
    assert tools.call_all([call]) == [{"id": "c9", "name": "artifact_head", "result": "a"}]


def test_exception_hierarchy() -> None:
    for cls in (flexmd.JSONNotFound, flexmd.JSONTooLarge, flexmd.SpecError, flexmd.SchemaError, flexmd.ValidationError, flexmd.ArtifactError, flexmd.ToolCallError):
        assert issubclass(cls, flexmd.FlexmdError)
        assert issubclass(cls, ValueError)
    error = flexmd.ValidationError("bad", errors=[{"path": "a"}])
    assert (str(error), error.errors, error.attempts) == ("bad", [{"path": "a"}], None)


def test_version() -> None:
    assert flexmd.__version__ == "0.1.0"


def test_a_sections_md_is_its_own_content() -> None:
    """flex-md's `content_md`: text under the heading up to the next heading;
    content only under sub-headings is read from them, with a warning that
    `strict` makes an error."""
    spec = flexmd.Spec.parse((ROOT / "examples" / "specs" / "answer.md").read_text())
    answer = (ROOT / "examples" / "responses" / "subsections.md").read_text()
    sections = spec.extract(answer)["sectionsByName"]
    long = sections["Long answer"]
    assert long["md"].strip() == (
        "Move the read path first, then the writes, so a rollback only touches one side."
    )
    assert "### Reads\nServe reads" in long["subtreeMd"]
    assumptions = sections["Assumptions"]
    assert [i["text"] for i in assumptions["list"]["items"]] == [
        "The new store handles the current read load.",
        "Dual writes add under 5 ms.",
        "The on-call team knows the rollback steps.",
    ]
    report = spec.validate(answer)
    assert report["ok"] is True
    assert report["warnings"] == ["content_in_subsections:Assumptions"]
    strict = spec.validate(answer, strict=True)
    assert strict["ok"] is False
    assert strict["errors"] == ["content_in_subsections:Assumptions"]
