"""`flexmd.report` and `flexmd.frame`: the figures `flexmd report --json`
prints for the same answers, and one row per answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import flexmd
from conftest import ROOT, SPEC, Cli

ANSWERS = ROOT / "examples" / "report" / "answers.jsonl"
RECORDS = [json.loads(line) for line in ANSWERS.read_text(encoding="utf-8").splitlines()]


def test_report_is_the_cli_json(flexmd_cli: Cli) -> None:
    expected = flexmd_cli.json("report", "--spec", SPEC, "--group-by", "model", ANSWERS, "--json")
    assert flexmd.report(ANSWERS, SPEC.read_text(encoding="utf-8"), group_by=["model"]) == expected
    # The same records given as dicts, and the spec as a Spec.
    spec = flexmd.Spec.parse(SPEC.read_text(encoding="utf-8"))
    assert flexmd.report(RECORDS, spec, group_by=["model"]) == expected
    by_model = {g["group"]["model"]: g for g in expected["groups"]}
    assert by_model["drops"]["errors"] == {"missing_section": 4}
    assert by_model["json"]["repairs"] == {"json5": 1, "missing_comma": 2, "python_literal": 1, "unescaped_newline": 1}


def test_the_html_page_is_written(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    figures = flexmd.report(ANSWERS, SPEC.read_text(encoding="utf-8"), group_by=["model"], html=page)
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>")
    assert f"{figures['answers']} answers from <code>{ANSWERS}</code>" in html


def test_offsets_are_str_indices() -> None:
    # A bold label read as a heading, after text with characters of 2 to 4
    # bytes: the span indexes the str as Python does.
    answer = "Zoë says 🙂\n\n**Short answer:**\nYes.\n"
    figures = flexmd.report([{"response": answer}], "- Short answer — prose")
    example = figures["groups"][0]["worst"][0]
    span = example["warnings"][0]["span"]
    assert answer[span["start"] : span["end"]] == "**Short answer:**"
    assert example["excerpt"]["answer_length"] == len(answer)


def test_a_schema_report_and_result_lines_read_back(flexmd_cli: Cli, tmp_path: Path) -> None:
    pydantic = pytest.importorskip("pydantic")

    class Verdict(pydantic.BaseModel):
        verdict: str
        score: int

    records = [
        {"m": "a", "response": '{"verdict": "pass", "score": 3}'},
        {"m": "a", "response": "{verdict: 'pass', score: 3,}"},
        {"m": "b", "response": '{"verdict": "pass" "score": "high"}'},
    ]
    figures = flexmd.report(records, schema=Verdict, group_by=["m"])
    a, b = figures["groups"]
    assert (a["valid"], a["lenient"], a["repairs"]) == (2, 1, {"json5": 1})
    assert (b["valid"], b["errors"], b["repairs"]) == (0, {"invalid_type": 1}, {"missing_comma": 1})
    assert b["sections"]["score"]["wrong_kind"] == 1

    # What `validate --jsonl` printed, read back beside its answers: as the CLI reads it.
    code, results = flexmd_cli.run("validate", "--spec", SPEC, "--jsonl", ANSWERS)
    lines = tmp_path / "results.jsonl"
    lines.write_text(results, encoding="utf-8")
    read = flexmd.report(lines, answers_of=ANSWERS, group_by=["model"])
    expected = flexmd_cli.json("report", lines, "--answers", ANSWERS, "--group-by", "model", "--json")
    assert read == expected


def test_frame_has_a_row_per_answer(flexmd_cli: Cli) -> None:
    pytest.importorskip("pandas")
    rows = flexmd.frame(ANSWERS, SPEC.read_text(encoding="utf-8"), group_by=["model", "prompt"])
    assert list(rows.columns) == ["line", "model", "prompt", "valid", "lenient", "errors", "warnings", "repairs", "tokens"]
    assert len(rows) == 16
    assert rows.groupby("model")["valid"].sum().to_dict() == {"bullets": 4, "drops": 0, "json": 4, "tidy": 4}
    # Each Markdown answer's codes are what `validate --jsonl` gives it.
    _, out = flexmd_cli.run("validate", "--spec", SPEC, "--jsonl", ANSWERS)
    cli = {r["line"]: r for r in map(json.loads, out.splitlines())}
    for row in rows[rows["model"] != "json"].to_dict("records"):
        line = cli[row["line"]]
        assert row["errors"] == [e["code"] for e in line["details"]["errors"]]
        assert row["warnings"] == [w["code"] for w in line["details"]["warnings"]]
        assert row["valid"] == line["valid"]
    assert rows[rows["model"] == "json"]["repairs"].tolist() == [["missing_comma", "python_literal"], ["missing_comma"], ["json5"], ["unescaped_newline"]]
    assert (rows["tokens"] > 0).all()


def test_bad_arguments_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="not bytes"):
        flexmd.report(b"{}", "- Short answer — prose")
    with pytest.raises(ValueError, match="preset must be"):
        flexmd.report([], schema="review", preset="loose")
    with pytest.raises(flexmd.SchemaError, match="no schema named `nope`"):
        flexmd.report([], schema="nope")
    with pytest.raises(FileNotFoundError):
        flexmd.report(tmp_path / "missing.jsonl", "- Short answer — prose")
    with pytest.raises(ValueError, match="spec or schema"):
        flexmd.report([], "- A — prose", schema="review")
    with pytest.raises(ValueError, match=r"answers\[1\] holds a lone surrogate"):
        flexmd.report(["ok", {"response": "\ud800 x"}], "- Short answer — prose")
    deep: dict = {"response": "x"}
    inner = deep
    for _ in range(100_000):
        inner["k"] = {}
        inner = inner["k"]
    with pytest.raises(flexmd.NestingError, match=r"answers\[0\] nests too deeply"):
        flexmd.report([deep], "- Short answer — prose")
    with pytest.raises(TypeError, match=r"answers\[0\]: Object of type object"):
        flexmd.report([object()], "- Short answer — prose")
    # A line that holds no answer is counted, not raised.
    figures = flexmd.report(["## Short answer\nYes.", 7, {"model": "m"}], "- Short answer — prose")
    assert figures["invalid_lines"]["count"] == 2
    assert [l["code"] for l in figures["invalid_lines"]["listed"]] == ["not_text", "missing_field"]
