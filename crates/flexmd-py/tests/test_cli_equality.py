"""Every bundled example, through every text command: the Python API
returns exactly the JSON the CLI prints for the same input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import flexmd
from conftest import EXAMPLES, SPEC, Cli, example_ids, in_code_points

pytestmark = pytest.mark.parametrize("path", EXAMPLES, ids=example_ids(EXAMPLES))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_find_json(flexmd_cli: Cli, path: Path) -> None:
    text = read(path)
    for flags, kwargs in [
        ([], {}),
        (["--repairs"], {"repairs": True}),
        (["--all"], {"all": True}),
        (["--all", "--repairs"], {"all": True, "repairs": True}),
    ]:
        code, out = flexmd_cli.run("json", *flags, path)
        found = flexmd.find_json(text, **kwargs)
        if code == 1:
            assert found in (None, []), flags
            with pytest.raises(flexmd.JSONNotFound):
                flexmd.loads(text)
        else:
            assert in_code_points(json.loads(out), text) == found, flags
    if flexmd_cli.run("json", path)[0] == 0:
        assert flexmd.loads(text) == flexmd_cli.json("json", path)


def test_spec_validate_extract(flexmd_cli: Cli, path: Path) -> None:
    spec = flexmd.Spec.parse(read(SPEC))
    text = read(path)
    assert spec.validate(text) == in_code_points(
        flexmd_cli.json("validate", "--json", "--spec", SPEC, path), text
    )
    assert spec.validate(text, strict=True) == in_code_points(
        flexmd_cli.json("validate", "--json", "--strict", "--spec", SPEC, path), text
    )
    assert spec.extract(text) == flexmd_cli.json("extract", "--spec", SPEC, path)
    assert spec.to_json(text) == flexmd_cli.json("extract", "--as-json", "--spec", SPEC, path)
    report, plain = spec.check(text)
    assert (report, plain) == (spec.validate(text), spec.to_json(text))


def test_frames_detect_outline(flexmd_cli: Cli, path: Path) -> None:
    text = read(path)
    assert flexmd.parse_flexmd(text) == flexmd_cli.json("frames", "parse", path)
    assert flexmd.parse_flexmd(text, meta="infer", meta_anywhere=True) == flexmd_cli.json(
        "frames", "parse", "--meta", "infer", "--meta-anywhere", path
    )
    doc = flexmd.parse_flexmd(text)
    assert flexmd.stringify_flexmd(doc) == flexmd_cli.run(
        "frames", "stringify", stdin=json.dumps(doc)
    )[1]
    assert flexmd.detect_objects(text) == (
        in_code_points(flexmd_cli.json("detect", path), text)
        if flexmd_cli.run("detect", path)[0] == 0
        else []
    )
    assert flexmd.parse_any(text) == flexmd_cli.json("parse-any", path)
    assert flexmd.outline(text) == flexmd_cli.json("outline", path)


def test_schema_validate(flexmd_cli: Cli, path: Path) -> None:
    text = read(path)
    for name in ("review", "plan"):
        for flags, kwargs in [
            ([], {}),
            (["--no-coerce", "--no-defaults"], {"coerce": False, "defaults": False}),
            (["--strict"], {"strict": True}),
            (["--hints"], {"hints": True}),
        ]:
            expected = flexmd_cli.json(
                "schema", "validate", "--json", "--schema", name, *flags, path
            )
            got = flexmd.validate(text, name, report=True, **kwargs)
            assert got == expected, (name, flags)


def test_artifact_tools(flexmd_cli: Cli, path: Path) -> None:
    for kind in ("markdown", "text"):
        artifact = flexmd.Artifact.open(path, kind=kind, call_id=str(path))
        for fmt in ("openai", "openai-responses", "anthropic"):
            tools = flexmd.forge_tools([artifact], format=fmt)
            assert tools.definitions == flexmd_cli.json(
                "tools", "--as", kind, "--format", fmt, path
            )
        tools = flexmd.forge_tools([artifact])
        calls = [
            {"id": "a", "name": "artifact_head", "arguments": {"callId": str(path), "n": 3}},
            {"id": "b", "name": "artifact_grep", "arguments": {"callId": str(path), "pattern": "^#", "lineNumbers": True}},
            {"id": "c", "name": "artifact_line_count", "arguments": {"callId": str(path)}},
            {"id": "d", "name": "artifact_md_headings", "arguments": {"callId": str(path)}},
            {"id": "e", "name": "artifact_cat", "arguments": {"callId": str(path), "start": -2}},
        ]
        expected = flexmd_cli.json(
            "call", "--as", kind, path, "--call", json.dumps(calls)
        )
        assert tools.call_all(calls) == expected
    md = flexmd.Artifact.open(path)
    paged = flexmd.forge_tools([md])
    grep = {"name": "artifact_grep", "arguments": {"callId": str(path), "pattern": "."}}
    cursor = None
    while True:
        flags = ["--max-tokens", "40"] + (["--cursor", cursor] if cursor else [])
        page = paged.call_page(grep, max_tokens=40, cursor=cursor)
        assert page == flexmd_cli.json("call", path, "--call", json.dumps(grep), *flags)
        cursor = page.get("cursor")
        if cursor is None:
            break
    assert md.kind == "markdown"
    assert md.md_headings() == flexmd_cli.tool("artifact", "md-headings", path)
    assert md.md_sections() == flexmd_cli.tool("artifact", "md-sections", path)
    assert md.md_code_blocks() == flexmd_cli.tool("artifact", "md-code-blocks", path)
    assert md.md_links() == flexmd_cli.tool("artifact", "md-links", path)
    assert md.md_ast() == flexmd_cli.tool("artifact", "md-ast", path)
    assert md.md_text() + "\n" == flexmd_cli.text("artifact", "md-text", path)
    assert "\n".join(md.head(5)) + "\n" == flexmd_cli.text("artifact", "head", path, "n=5")
    assert md.line_count() == int(flexmd_cli.text("artifact", "line-count", path))
    assert md.estimate_tokens() == int(flexmd_cli.text("artifact", "estimate-tokens", path))


def test_render_outline_and_rules(flexmd_cli: Cli, path: Path) -> None:
    text = read(path)
    tree = flexmd.outline(text)
    assert flexmd.render_outline(tree) == flexmd_cli.run(
        "outline", "render", stdin=json.dumps(tree)
    )[1]
    spec = flexmd.Spec.parse(read(SPEC))
    rules = spec.rules()
    assert rules and rules in spec.prompt(), "the prompt is the block and these rules"
    assert spec.render().splitlines()[0] not in rules, "the rules alone, without the block"
