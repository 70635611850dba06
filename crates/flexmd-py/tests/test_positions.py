"""Positions are `str` indices (code points): on answers with accents, CJK,
emoji and a byte-order mark, slicing the answer with every range a result
returns gives exactly the text the result says it covers."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import flexmd

BOM = "\ufeff"

JSON_ANSWERS = [
    'Résumé 😀 — 結果:\n```json\n{"naïve": "café", "n": 1,}\n```\n',
    BOM + '这是答案 🎉: {"ok": true, "items": ["é", "😀"], }  trailing words',
    "Ünïcödé prose first {'single': 'quotes', 'n': 2} then 🙂 and more\n"
    '```json\n{"second": [1, 2\n```',
]

SPEC = flexmd.Spec.parse("## Output format\n- Summary — prose\n- Steps — ordered list\n")
MARKDOWN_ANSWERS = [
    BOM + "**Summary:** Ça marche 😀 très bien.\n\n## Steps\n1) 第一步\n2) deuxième 🎉\n",
    "## Résumé 😀\nNothing here.\n\n## Summary\n\n## Steps\n- 一\n- 二\n",
]


def line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and code-point column of `index`, lines ending at
    \\n, \\r\\n or \\r."""
    before = text[:index]
    line_start = max(before.rfind("\n"), before.rfind("\r")) + 1
    lines = before.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    return lines, index - line_start + 1


def check_issue(text: str, issue: Dict[str, Any]) -> None:
    span = issue["span"]
    assert 0 <= span["start"] <= span["end"] <= len(text), issue
    assert (issue["line"], issue["column"]) == line_col(text, span["start"]), issue


@pytest.mark.parametrize("text", JSON_ANSWERS)
def test_find_json_ranges_slice_the_value(text: str) -> None:
    found = flexmd.find_json(text, repairs=True)
    assert flexmd.loads(text[found["start"] : found["end"]]) == found["value"]
    for f in flexmd.find_json(text, all=True, repairs=True):
        assert flexmd.loads(text[f["start"] : f["end"]]) == f["value"]
        for repair in f["repairs"]:
            assert f["start"] <= repair["offset"] <= f["end"], repair


def test_repair_offsets_point_at_what_was_repaired() -> None:
    text = '😀😀 {"a": "é", "b": [1, 2'
    found = flexmd.find_json(text, repairs=True)
    assert [(r["kind"], r["offset"]) for r in found["repairs"]] == [
        ("unclosed_array", len(text)),
        ("unclosed_object", len(text)),
    ]
    assert text[found["start"]] == "{"


FRAME_ANSWERS = [
    BOM + "Voilà 😀:\n```markdown\n# Titre é\n```\nfin",
    "结果 🎉\n```flexmd\n[[message role=user]] 你好\n@tags: é, ü\n\nBonjour 😀\n```\n",
    "Ça 🙂\n[[message role=user]] Één\n@priority: hög\n\ntexte\n\n[[message role=tool]] Zwei\n\nok 🎉\n",
]


@pytest.mark.parametrize("text", FRAME_ANSWERS)
def test_detected_objects_slice_to_their_raw_text(text: str) -> None:
    objects = flexmd.detect_objects(text)
    assert objects, "every answer here holds an object"
    for o in objects:
        assert text[o["start"] : o["end"]] == o["raw"], o


@pytest.mark.parametrize("text", MARKDOWN_ANSWERS)
def test_issue_spans_and_columns_are_code_points(text: str) -> None:
    report = SPEC.validate(text)
    issues: List[Dict[str, Any]] = report["details"]["errors"] + report["details"]["warnings"]
    assert issues, "every answer here breaks or bends the spec"
    for issue in issues:
        check_issue(text, issue)
    # The stream reports the same places, chunked anywhere.
    stream = SPEC.stream()
    events: List[Dict[str, Any]] = []
    for i in range(0, len(text), 3):
        events += stream.push(text[i : i + 3])
    events += stream.finish()
    for event in events:
        if event["event"] == "violation":
            check_issue(text, event)
    assert events[-1]["report"] == report


def test_a_lenient_heading_points_at_its_text() -> None:
    text = MARKDOWN_ANSWERS[0]
    warnings = SPEC.validate(text)["details"]["warnings"]
    warning = next(w for w in warnings if w["code"] == "lenient_heading")
    assert text[warning["span"]["start"] :].startswith("**Summary:**")


@pytest.mark.parametrize("text", JSON_ANSWERS)
def test_fitted_candidate_and_stream_found_slice_the_value(text: str) -> None:
    report = flexmd.find_json_as(text, {"type": "object"})
    assert flexmd.loads(text[report["start"] : report["end"]]) == report["value"]
    stream = flexmd.StreamingJson()
    stream.push(text)
    found = stream.finish(repairs=True)["found"]
    assert found == flexmd.find_json(text, repairs=True)


def test_diagnostics_of_frames_and_specs_are_code_points() -> None:
    text = "😀 é\n[[message role=user role=tool]] ü\n@tags: a\n@tags: b\n\n[[broken 🎉\nbody\n"
    _, notes = flexmd.parse_flexmd(text, diagnostics=True)
    assert {n["code"] for n in notes} >= {"frames::duplicate_attribute", "frames::duplicate_meta"}
    for note in notes:
        check_issue(text, note)
    spec_text = "## Output format\n- Résumé 😀 — prose\n😀 stray line\n"
    spec = flexmd.Spec.parse(spec_text)
    assert [w["code"] for w in spec.warnings] == ["ofs::unknown_line"]
    for warning in spec.warnings:
        check_issue(spec_text, warning)
    assert spec_text[spec.warnings[0]["span"]["start"] :].startswith("😀 stray line")
