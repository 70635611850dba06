"""Grammars for local engines, checked by the engines themselves: every
GBNF grammar is read by XGrammar (and, for JSON Schemas, by llguidance's GBNF
reader too), every EBNF grammar by XGrammar, every Lark grammar by
llguidance; each must accept what `flexmd schema validate` (or `flexmd
validate --strict`) accepts and refuse the mutations it claims to enforce."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

from conftest import ROOT, Cli
from engines import gbnf_as_lark, llguidance_accepts, xgrammar_accepts

FIXTURES = ROOT / "crates" / "flexmd-constrain" / "tests" / "fixtures" / "export"

# Valid answers for each schema, checked valid by the CLI before use.
VALID: Dict[str, List[Any]] = {
    "invoice": [
        {"number": "INV-0001", "items": [{"description": "x", "quantity": 1, "unit_price": 2.5}], "due": "2026-01-01"},
        {
            "number": "INV-0042",
            "status": "paid",
            "customer_email": None,
            "items": [
                {"description": "Consulting \"November\"", "quantity": 12, "unit_price": 140},
                {"description": "Travel, é", "quantity": 1, "unit_price": 85.5e0},
            ],
            "notes": ["net 30", ""],
            "due": "2026-12-31",
        },
    ],
    "tree": [
        {"root": {"name": "a"}},
        {"root": {"name": "a", "children": [{"name": "b", "children": [{"name": "c", "children": []}]}, {"name": "d"}]}},
    ],
    "shapes": [
        {"shape": {"kind": "circle", "radius": 1.5}, "meta": {"id": "0b7e2a1c-1d2e-4f00-a000-000000000001", "tags": ["a", "b", "c"]}},
        {"shape": {"kind": "square", "side": 2}, "meta": {"id": "0b7e2a1c-1d2e-4f00-a000-000000000002"}},
    ],
    "review": [
        {
            "approved": True,
            "issues": [],
            "summary": {"critical": 0, "high": 0, "medium": 0, "low": 0, "info": 1},
            "recommendation": "approve",
        },
        {
            "approved": False,
            "issues": [{"severity": "high", "type": "bug", "file": "src/a.rs", "line": 12, "message": "off by one", "autoFixable": False}],
            "summary": {"critical": 0, "high": 1, "medium": 0, "low": 0, "info": 0},
            "recommendation": "request_changes",
        },
    ],
}

# Answers each grammar must refuse: (schema, answer text, what is wrong).
REFUSED = [
    ("invoice", '{"number": "INV-0001", "due": "2026-01-01"}', "a required property missing"),
    ("invoice", '{"number": 1, "items": [], "due": "x"}', "a number for a string"),
    ("invoice", '{"number": "I", "items": [{"description": "x", "quantity": -1, "unit_price": 1}], "due": "x"}', "a sign where minimum is 1"),
    ("invoice", '{"number": "I", "status": "void", "items": [], "due": "x"}', "a value outside the enum"),
    ("invoice", '{"number": "I", "items": [], "due": "x", "extra": true}', "an undeclared property"),
    ("invoice", '{"number": "I", "items": [], "due": "x",}', "a trailing comma"),
    ("invoice", '{"number": "I", "items": [], "due": "x"', "an unclosed object"),
    ("tree", '{"root": {"children": []}}', "a nested required property missing"),
    ("shapes", '{"shape": {"kind": "triangle", "side": 1}, "meta": {"id": "x"}}', "a const no branch has"),
    ("review", '{"approved": "yes", "issues": [], "summary": {"critical": 0, "high": 0, "medium": 0, "low": 0, "info": 0}, "recommendation": "approve"}', "a string for a boolean"),
]


def schema_arg(name: str) -> str:
    path = FIXTURES / f"{name}.schema.json"
    return str(path) if path.exists() else name


def grammar(cli: Cli, name: str, fmt: str) -> str:
    code, text = cli.run("grammar", "--schema", schema_arg(name), "--format", fmt)
    assert code == 0
    return text


def engines(cli: Cli, name: str) -> Dict[str, Callable[[str], bool]]:
    gbnf = grammar(cli, name, "gbnf")
    return {
        "lark/llguidance": llguidance_accepts(grammar(cli, name, "lark")),
        "gbnf/llguidance": llguidance_accepts(gbnf_as_lark(gbnf)),
        "gbnf/xgrammar": xgrammar_accepts(gbnf),
        "ebnf/xgrammar": xgrammar_accepts(grammar(cli, name, "ebnf")),
    }


@pytest.mark.parametrize("name", sorted(VALID))
def test_engines_accept_what_validation_accepts(flexmd_cli: Cli, name: str, tmp_path: Path) -> None:
    run = engines(flexmd_cli, name)
    for i, answer in enumerate(VALID[name]):
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(answer))
        report = flexmd_cli.json("schema", "validate", "--schema", schema_arg(name), "--json", path)
        assert report["valid"], f"{name} #{i} should be valid: {report['errors']}"
        for text in (json.dumps(answer, ensure_ascii=False), json.dumps(answer, indent=2, ensure_ascii=False)):
            for engine, accepts in run.items():
                assert accepts(text), f"{engine} refuses a valid {name}:\n{text}"


@pytest.mark.parametrize("name,text,why", REFUSED, ids=[why for _, _, why in REFUSED])
def test_engines_refuse_what_the_grammar_enforces(flexmd_cli: Cli, name: str, text: str, why: str) -> None:
    for engine, accepts in engines(flexmd_cli, name).items():
        assert not accepts(text), f"{engine} accepts {why}: {text}"


def test_every_predefined_schema_compiles_in_every_engine(flexmd_cli: Cli) -> None:
    for name in ["analysis", "implementation", "review", "verification", "plan"]:
        assert len(engines(flexmd_cli, name)) == 4


SPEC = ROOT / "examples" / "specs" / "answer.md"
GOOD_ANSWER = (
    "## Short answer\nYes.\n\n## Long answer\nBecause.\n\n```sh\n# not a heading\n```\n\n"
    "## Reasoning\n1. one\n2. two\n\n## Assumptions\n- a\n  - a.1\n\n## Unknowns\nNone\n\n"
    "| # | property1 | property2 | property3 |\n|---|---|---|---|\n| 1 | a | b c | d |\n| 2 | e | f | g |\n"
)
SPEC_MUTATIONS = [
    ("a missing section", GOOD_ANSWER.replace("## Unknowns\nNone\n\n", "")),
    ("a `*` bullet", GOOD_ANSWER.replace("- a\n", "* a\n")),
    ("prose in a list section", GOOD_ANSWER.replace("- a\n  - a.1\n", "Some prose.\n")),
    ("a wrong table column", GOOD_ANSWER.replace("| property3 |\n|---", "| other |\n|---")),
    ("an unclosed fence", GOOD_ANSWER.replace("# not a heading\n```\n", "# not a heading\n")),
    ("rows numbered out of order", GOOD_ANSWER.replace("| 2 | e", "| 3 | e")),
]


def spec_engines(cli: Cli, *options: str) -> Dict[str, Callable[[str], bool]]:
    def text(fmt: str) -> str:
        code, out = cli.run("grammar", "--spec", SPEC, "--format", fmt, *options)
        assert code == 0
        return out

    # Not llguidance's GBNF reader here: it makes every rule without
    # recursion one greedy lexeme, and a section's body then swallows the
    # blank line before the next heading. llama.cpp and XGrammar read GBNF a
    # character at a time; llguidance users take the `lark` format, written
    # for its lexer.
    return {
        "lark/llguidance": llguidance_accepts(text("lark")),
        "gbnf/xgrammar": xgrammar_accepts(text("gbnf")),
        "ebnf/xgrammar": xgrammar_accepts(text("ebnf")),
    }


def test_spec_grammars_accept_strictly_valid_answers(flexmd_cli: Cli, tmp_path: Path) -> None:
    clean = (ROOT / "examples" / "responses" / "clean.md").read_text()
    for i, answer in enumerate([clean, GOOD_ANSWER]):
        path = tmp_path / f"{i}.md"
        path.write_text(answer)
        report = flexmd_cli.json("validate", "--spec", SPEC, "--strict", "--json", path)
        assert report["ok"], report["errors"]
        for engine, accepts in spec_engines(flexmd_cli, "--max-rows", "5").items():
            assert accepts(answer), f"{engine} refuses a strictly valid answer:\n{answer}"


@pytest.mark.parametrize("why,text", SPEC_MUTATIONS, ids=[why for why, _ in SPEC_MUTATIONS])
def test_spec_grammars_refuse_what_they_enforce(flexmd_cli: Cli, why: str, text: str) -> None:
    for engine, accepts in spec_engines(flexmd_cli, "--max-rows", "5").items():
        assert not accepts(text), f"{engine} accepts {why}:\n{text}"
