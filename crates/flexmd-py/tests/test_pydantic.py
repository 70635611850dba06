"""Pydantic v2 model classes as schemas: their JSON Schema is used, their
instances come back."""

from __future__ import annotations

from typing import List, Optional

import pytest

import flexmd

pydantic = pytest.importorskip("pydantic")


class Issue(pydantic.BaseModel):
    severity: str
    line: int


class Review(pydantic.BaseModel):
    approved: bool
    issues: List[Issue] = []
    summary: Optional[str] = None


def test_a_model_round_trips() -> None:
    review = Review(approved=False, issues=[Issue(severity="high", line=3)], summary="one bug")
    assert flexmd.validate(review, Review) == review
    assert flexmd.validate(review.model_dump(), Review) == review
    assert flexmd.validate(review.model_dump_json(), Review) == review


def test_an_answer_is_coerced_into_the_model() -> None:
    answer = 'Here is the review:\n```json\n{"approved": "false", "issues": [{"severity": "low", "line": "12"},],}\n```'
    review = flexmd.validate(answer, Review)
    assert review == Review(approved=False, issues=[Issue(severity="low", line=12)])
    report = flexmd.validate(answer, Review, report=True)
    assert [(c["kind"], c["path"]) for c in report["changes"]] == [
        ("default", "summary"),
        ("coerced", "approved"),
        ("coerced", "issues.[0].line"),
    ]


def test_invalid_data_lists_the_errors_in_flexmds_shape() -> None:
    with pytest.raises(flexmd.ValidationError) as caught:
        flexmd.validate({"issues": [{"severity": "low"}]}, Review)
    codes = sorted((e["path"], e["code"]) for e in caught.value.errors)
    assert codes == [("approved", "missing_required"), ("issues.[0].line", "missing_required")]


def test_a_pydantic_only_rule_is_a_validation_error_too() -> None:
    class Positive(pydantic.BaseModel):
        n: int

        @pydantic.field_validator("n")
        @classmethod
        def positive(cls, n: int) -> int:
            if n <= 0:
                raise ValueError("n must be positive")
            return n

    assert flexmd.validate({"n": 2}, Positive) == Positive(n=2)
    with pytest.raises(flexmd.ValidationError) as caught:
        flexmd.validate({"n": -1}, Positive)
    assert caught.value.errors[0]["path"] == "n"
    assert "n must be positive" in caught.value.errors[0]["message"]
    assert isinstance(caught.value.__cause__, pydantic.ValidationError)


def test_ask_returns_the_model() -> None:
    answers = iter(['{"approved": "maybe"}', '{"approved": true, "summary": "fine"}'])
    review = flexmd.ask(lambda prompt: next(answers), "Review the diff.", schema=Review)
    assert review == Review(approved=True, summary="fine")


def test_hints_take_the_model_class() -> None:
    errors = flexmd.validate({"approved": "maybe"}, Review, report=True)["errors"]
    fixes = flexmd.hints(errors, Review)
    assert fixes[0]["path"] == "approved"
    assert fixes[0]["hint"].startswith("Fix approved:")
