"""The exceptions flexmd raises.

Every one is a :class:`FlexmdError`; those raised because the input was
wrong are also :class:`ValueError`, so code that already catches
``ValueError`` around ``json.loads`` keeps working.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional


class FlexmdError(Exception):
    """The base of every flexmd exception."""


class JSONNotFound(FlexmdError, ValueError):
    """No JSON value was found in the text, even after repairs."""


class JSONTooLarge(FlexmdError, ValueError):
    """The JSON holds more values (2 000 000) than flexmd reads from one
    text: :func:`flexmd.loads` refuses to return a part as the whole."""


class NestingError(FlexmdError, RecursionError):
    """Data passed in nests deeper than flexmd reads (128 levels, where JSON
    parsers stop too), or a container holds itself. A ``RecursionError``,
    as :func:`json.dumps` raises on such data; never a crash."""


class SpecError(FlexmdError, ValueError):
    """The text is not an Output Format Spec (or its JSON is malformed)."""


class SchemaError(FlexmdError, ValueError):
    """The schema is unknown by that name, or it does not compile."""


class ConstrainError(FlexmdError, ValueError):
    """The schema (or spec) cannot be written for that provider or grammar
    dialect: a documented limit it passes, recursion the dialect lacks, a
    construct it cannot express. The message names the place (a JSON
    Pointer) and the limit."""


class ArtifactError(FlexmdError, ValueError):
    """The content is not the kind it was opened as (JSON that is not
    JSON, Markdown past the limits), or the query needs another kind."""


class ToolCallError(FlexmdError, ValueError):
    """A tool call (or a query) that cannot run: an unknown tool, arguments
    that do not fit, a bad pattern or JSONPath. The message is written for
    the model to act on: send it back as the tool's result."""


class ValidationError(FlexmdError, ValueError):
    """The data does not satisfy the schema (or no answer was valid).

    ``errors`` lists the violations as dicts (``path``, ``pointer``,
    ``schemaPath``, ``message``, ``code``, and ``line``/``column`` when the
    data came from a text); ``outcome`` is the whole validation report, and
    ``attempts`` every attempt of :func:`flexmd.ask`.
    """

    errors: List[Dict[str, Any]]
    outcome: Optional[Dict[str, Any]]
    attempts: Optional[List[Dict[str, Any]]]
    best: Optional[int]

    def __init__(
        self,
        message: str,
        errors: Optional[List[Dict[str, Any]]] = None,
        outcome: Optional[Dict[str, Any]] = None,
        attempts: Optional[List[Dict[str, Any]]] = None,
        best: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.errors = list(errors or [])
        self.outcome = outcome
        self.attempts = attempts
        self.best = best
