"""flexmd makes LLM output dependable.

Find and repair the JSON in a model's answer (:func:`loads`), tell a model in
plain Markdown what shape to answer in and extract its answer
(:class:`Spec`), validate data against JSON Schemas or Pydantic models with
coercion and defaults (:func:`validate`), ask again with precise hints until
the answer is valid (:func:`ask`), and let a model query tool outputs too
large for a prompt (:class:`Artifact`, :func:`forge_tools`, and an agent's
:class:`Turn`).

Every function returns the same JSON the ``flexmd`` command-line tool prints
for the same input, as plain dicts and lists.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import json
import os
from typing import Any, AsyncIterator, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from . import _flexmd
from ._errors import (
    ArtifactError,
    ConstrainError,
    FlexmdError,
    JSONNotFound,
    JSONTooLarge,
    NestingError,
    SchemaError,
    SpecError,
    ToolCallError,
    ValidationError,
)
from ._flexmd import (
    Artifact,
    Project,
    Registry,
    Spec,
    StreamingExtractor,
    StreamingJson,
    ToolSet,
    Turn,
    __version__,
    detect_objects,
    find_json,
    find_json_as as _find_json_as,
    find_json_many as _find_json_many,
    forge_tools,
    hints as _hints,
    outline,
    parse_any,
    parse_flexmd,
    render_outline,
    schema,
    schema_names,
    stringify_flexmd,
)

__all__ = [
    "Artifact",
    "ArtifactError",
    "ConstrainError",
    "FlexmdError",
    "JSONNotFound",
    "JSONTooLarge",
    "NestingError",
    "Project",
    "Registry",
    "SchemaError",
    "Spec",
    "SpecError",
    "StreamingExtractor",
    "StreamingJson",
    "ToolCallError",
    "ToolSet",
    "Turn",
    "ValidationError",
    "__version__",
    "ask",
    "ask_async",
    "aread_stream",
    "detect_objects",
    "export_schema",
    "find_json",
    "find_json_as",
    "find_json_many",
    "forge_tools",
    "grammar",
    "hints",
    "loads",
    "outline",
    "parse_any",
    "parse_flexmd",
    "read_stream",
    "frame",
    "render_outline",
    "report",
    "schema",
    "schema_names",
    "stringify_flexmd",
    "validate",
    "validate_many",
]


def __dir__() -> List[str]:
    """The public API only: what ``__all__`` lists (no helpers, no modules)."""
    return sorted(__all__)


def _model_class(schema: Any) -> Optional[type]:
    """The Pydantic model class ``schema`` is, if it is one."""
    if isinstance(schema, type) and hasattr(schema, "model_json_schema") and hasattr(
        schema, "model_validate"
    ):
        return schema
    return None


def _schema_json(schema: Any) -> Any:
    """A schema as the native module takes it: a name or a JSON Schema dict."""
    model = _model_class(schema)
    return model.model_json_schema() if model is not None else schema


def _summary(errors: List[Dict[str, Any]]) -> str:
    """The first violations, one per clause, for an exception message."""
    shown = [
        f"{e.get('path') or 'root'}: {e.get('message', '')}" for e in errors[:3]
    ]
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return "; ".join(shown) + more


def _as_model(model: type, data: Any) -> Any:
    """``data`` as an instance of ``model``; a Pydantic failure becomes a
    :class:`ValidationError` in flexmd's shape."""
    try:
        return model.model_validate(data)
    except Exception as e:  # pydantic.ValidationError, without importing pydantic
        details = getattr(e, "errors", None)
        errors = []
        for d in details() if callable(details) else []:
            loc = ".".join(str(p) for p in d.get("loc", ()))
            errors.append(
                {
                    "path": loc,
                    "pointer": "/" + "/".join(str(p) for p in d.get("loc", ())) if loc else "",
                    "schemaPath": "",
                    "message": d.get("msg", ""),
                    "code": d.get("type", "model_validation"),
                }
            )
        raise ValidationError(
            f"{model.__name__}: {_summary(errors) or e}", errors=errors
        ) from e


def validate(
    data: Any,
    schema: Any,
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    report: bool = False,
    hints: bool = False,
    registry: Optional[Registry] = None,
    from_provider: Optional[str] = None,
) -> Any:
    """Validate ``data`` against ``schema`` and return the valid data.

    ``data`` is a value (dict, list, ...) or a text holding JSON (a model's
    answer: the JSON is found and repaired first). ``schema`` is a JSON
    Schema dict, the name of a predefined schema (see :func:`schema_names`)
    or a Pydantic v2 model class, in which case the model instance is
    returned. ``coerce`` turns ``"42"`` into ``42`` and a scalar into a list
    where that makes the data valid, and reads numbers from text as
    JavaScript's ``parseFloat``/``parseInt`` do (``"12px"`` becomes ``12``,
    ``"3.7"`` an integer ``3``; each such change is a warning naming its
    ``rule``); ``defaults`` fills in the schema's defaults; ``strict``
    counts repairs and coercions as errors.

    Raises :class:`ValidationError` (with ``.errors``) when the data is
    invalid. With ``report=True``, returns the whole outcome dict instead
    (``valid``, ``data``, ``errors``, ``warnings``, ``changes``, and
    ``hints`` with ``hints=True``), as ``flexmd schema validate --json``
    prints it, and raises nothing for invalid data.

    ``from_provider`` (``"openai"``, ``"openai-tool"``, ``"anthropic"``,
    ``"anthropic-tool"``, ``"gemini"``) says the data is a provider's answer
    to the schema :func:`export_schema` made: it is read back in the
    schema's shape first (the nulls OpenAI sends for omitted optional
    properties removed; the report lists them in ``nullsRemoved``), so every
    constraint the provider did not enforce is checked, as ``flexmd schema
    validate --from`` does.

    >>> validate('Sure: {"n": "3"}', {"type": "object", "properties": {"n": {"type": "integer"}}})
    {'n': 3}
    """
    model = _model_class(schema)
    if model is not None and isinstance(data, model):
        data = data.model_dump(mode="json")
    if from_provider is not None:
        outcome = _flexmd.validate_from(
            data, _schema_json(schema), from_provider, coerce, defaults, strict, registry
        )
        if hints:
            outcome["hints"] = _hints(outcome["errors"], _schema_json(schema), registry)
    else:
        outcome = _flexmd.validate_report(
            data, _schema_json(schema), coerce, defaults, strict, hints, registry
        )
    if report:
        return outcome
    if not outcome["valid"]:
        errors = outcome["errors"]
        raise ValidationError(
            f"invalid: {_summary(errors)}", errors=errors, outcome=outcome
        )
    value = outcome["data"]
    return _as_model(model, value) if model is not None else value


def validate_many(
    items: Iterable[Any],
    schema: Any,
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    hints: bool = False,
    registry: Optional[Registry] = None,
) -> List[Dict[str, Any]]:
    """:func:`validate` with ``report=True`` on each item of ``items``
    against one ``schema``, in one call: the outcome dict of each item, in
    order, and no exception for the invalid ones. ``schema`` is compiled
    once, and other Python threads run while the items are validated.
    Items are values, texts
    holding JSON (found and repaired first) or Pydantic model instances;
    the options are :func:`validate`'s.

    >>> [o["valid"] for o in validate_many([{"n": 1}, {"n": "x"}], {"properties": {"n": {"type": "integer"}}})]
    [True, False]
    """
    model = _model_class(schema)
    if model is not None:
        items = [i.model_dump(mode="json") if isinstance(i, model) else i for i in items]
    with _collector_paused():
        return _flexmd.validate_report_many(
            items, _schema_json(schema), coerce, defaults, strict, hints, registry
        )


def find_json_many(texts: Iterable[str], all: bool = False, repairs: bool = False) -> List[Any]:
    """:func:`find_json` on each text of ``texts``, in one call: one result
    per text, in order (``None`` where a text holds no JSON); other Python
    threads run while the texts are read. Raises ``TypeError`` for an
    item that is not a ``str`` (or for a ``str`` given as ``texts``).

    >>> find_json_many(["x {a: 1}", "none", "[1, 2"])
    [{'a': 1}, None, [1, 2]]
    """
    with _collector_paused():
        return _find_json_many(texts, all, repairs)


def _answers_source(answers: Any) -> Dict[str, Any]:
    """``answers`` as the extension reads it: a path (``str`` or
    ``os.PathLike``) to a JSON Lines file, or records (dicts, or answer
    strings) made into JSON Lines text."""
    if isinstance(answers, (str, os.PathLike)):
        return {"path": os.fspath(answers)}
    if isinstance(answers, (bytes, bytearray, dict)):
        raise TypeError(
            "answers must be a path to a JSON Lines file or an iterable of records (dicts or strings), "
            f"not {type(answers).__name__}"
        )
    lines = []
    for i, record in enumerate(answers):
        try:
            lines.append(json.dumps(record, ensure_ascii=False))
        except RecursionError as e:
            raise NestingError(f"answers[{i}] nests too deeply to be written as JSON") from e
        except (TypeError, ValueError) as e:
            raise TypeError(f"answers[{i}]: {e}") from e
    text = "\n".join(lines) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Name the record, as the batch calls do.
        for i, line in enumerate(lines):
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as e:
                raise ValueError(
                    f"answers[{i}] holds a lone surrogate ({line[e.start]!r}): it cannot be UTF-8"
                ) from e
    return {"text": text}


def _report_answers(
    answers: Any,
    spec: Any,
    schema: Any,
    *,
    group_by: Iterable[str],
    answers_of: Optional[Any],
    **options: Any,
) -> Any:
    """The extension's report over ``answers`` (a path or records), with
    ``options`` passed on."""
    return _flexmd.report_answers(
        **_answers_source(answers),
        spec=spec,
        schema=_schema_json(schema),
        group_by=list(group_by),
        answers_of=os.fspath(answers_of) if answers_of is not None else None,
        **options,
    )


def report(
    answers: Any,
    spec: Any = None,
    schema: Any = None,
    *,
    group_by: Iterable[str] = (),
    field: str = "response",
    preset: str = "standard",
    strict: bool = False,
    worst: int = 20,
    answers_of: Optional[Any] = None,
    html: Optional[Any] = None,
    jobs: int = 0,
    registry: Optional[Registry] = None,
) -> Dict[str, Any]:
    """How well ``answers`` follow their format, in aggregate: the dict
    ``flexmd report --json`` prints. Per group of ``group_by`` fields
    (``["model", "prompt"]``): the valid share with its 95% Wilson
    interval, the share valid only through a lenient reading or a JSON
    repair, each error, leniency and repair by code, each section's
    problems, the answers' lengths in tokens and the worst answers; and
    the lines that hold no answer. With ``html`` (a path), the
    self-contained HTML page is written there too.

    ``answers`` is a path to a JSON Lines file, or an iterable of records:
    dicts holding the answer in ``field`` and the group fields, or answer
    strings. They are checked against ``spec`` (a :class:`Spec` or its
    Markdown text; an answer written as JSON is read against its
    sections), or ``schema`` (a registered name, a JSON Schema dict or a
    Pydantic model; ``preset`` as in :func:`find_json_as`); with neither,
    the records are the result lines ``flexmd extract|validate|json
    --jsonl`` printed, and ``answers_of`` may name the answers file they
    came from. One pass on every core (``jobs`` to choose), without the
    GIL; memory grows with the groups, not the answers.

    >>> records = [{"model": "a", "response": "## Short answer\\nYes."}, {"model": "b", "response": "Yes."}]
    >>> figures = report(records, "- Short answer — prose", group_by=["model"])
    >>> [(g["group"]["model"], g["valid"], g["errors"]) for g in figures["groups"]]
    [('a', 1, {}), ('b', 0, {'missing_section': 1})]
    """
    return _report_answers(
        answers, spec, schema, group_by=group_by, field=field, preset=preset, strict=strict,
        answers_of=answers_of, jobs=jobs, registry=registry,
        worst=worst, html=os.fspath(html) if html is not None else None,
    )


def frame(
    answers: Any,
    spec: Any = None,
    schema: Any = None,
    *,
    group_by: Iterable[str] = (),
    field: str = "response",
    preset: str = "standard",
    strict: bool = False,
    answers_of: Optional[Any] = None,
    jobs: int = 0,
    registry: Optional[Registry] = None,
) -> Any:
    """One row per answer, as a pandas ``DataFrame``, for those who plot
    themselves: ``line`` (in the input), one column per ``group_by`` field,
    ``valid``, ``lenient`` (valid only through a lenient reading or a
    repair), ``errors``, ``warnings`` and ``repairs`` (lists of codes) and
    ``tokens`` (the answer's length, o200k). The arguments are
    :func:`report`'s; lines that hold no answer are left out (``report``
    counts them). Needs pandas.

    >>> rows = frame([{"model": "a", "response": "## Short answer\\nYes."}], "- Short answer — prose", group_by=["model"])
    >>> rows[["line", "model", "valid", "errors"]].to_dict("records")
    [{'line': 1, 'model': 'a', 'valid': True, 'errors': []}]
    """
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("flexmd.frame needs pandas: pip install pandas") from e
    group_by = list(group_by)
    rows = _report_answers(
        answers, spec, schema, group_by=group_by, field=field, preset=preset, strict=strict,
        answers_of=answers_of, jobs=jobs, registry=registry, rows=True,
    )
    columns = ["line", *group_by, "valid", "lenient", "errors", "warnings", "repairs", "tokens"]
    flat = [{**{k: v for k, v in row.items() if k != "group"}, **row["group"]} for row in rows]
    return pandas.DataFrame(flat, columns=columns)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a batch's results are
    built: each of their many dicts and lists counts towards a collection,
    and every collection walks all of them again (a batch of 100 000
    outcomes took 1.7x as long with it running). They hold no cycles, so
    nothing is left for it to find; its own schedule resumes after."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _schema_name(schema: Any, name: Optional[str]) -> Optional[str]:
    """The name a request gives the schema: ``name``, a predefined schema's
    name, a Pydantic model's class name; else None, and the native module
    takes the schema's ``title`` or ``response``."""
    if name is not None:
        return name
    if isinstance(schema, str):
        return schema
    model = _model_class(schema)
    return model.__name__ if model is not None else None


def export_schema(
    schema: Any,
    provider: str,
    *,
    name: Optional[str] = None,
    registry: Optional[Registry] = None,
) -> Dict[str, Any]:
    """The request fragment that makes ``provider`` constrain its answer to
    ``schema`` (a JSON Schema dict, a predefined schema's name or a Pydantic
    model class), as ``flexmd schema export --for PROVIDER --json`` prints
    it: ``request`` (merge it into the request body: ``response_format``
    for ``"openai"``, a forced strict tool for ``"openai-tool"`` and
    ``"anthropic-tool"``, ``output_config`` for ``"anthropic"``,
    ``generationConfig`` for ``"gemini"``), ``schema`` (the rewritten
    schema), and ``changes`` — each ``{pointer, rule, action, keyword,
    detail}`` with ``action`` ``rewritten``, ``dropped`` or ``unenforced``.
    Validate the answer with ``validate(answer, schema,
    from_provider=provider)`` to check what the provider did not enforce.

    Raises :class:`ConstrainError` when the provider cannot take the schema
    (its documented limits, recursion for Anthropic, a free-form map, a root
    that is not an object), naming the place.

    >>> fragment = export_schema({"type": "object", "properties": {"n": {"type": "integer"}}}, "openai", name="count")
    >>> fragment["request"]["response_format"]["json_schema"]["schema"]["properties"]["n"]
    {'type': ['integer', 'null']}
    """
    return _flexmd.export_schema(
        _schema_json(schema), provider, _schema_name(schema, name), registry
    )


def grammar(
    schema: Any,
    format: str = "gbnf",
    *,
    report: bool = False,
    registry: Optional[Registry] = None,
) -> Any:
    """A grammar that holds a local model to ``schema`` (a JSON Schema dict,
    a predefined schema's name or a Pydantic model class) while it writes,
    in ``format``: ``"gbnf"`` (llama.cpp), ``"lark"`` (llguidance: vLLM,
    SGLang), ``"ebnf"`` (XGrammar) or ``"regex"`` (Outlines). Returns the
    grammar text, or with ``report=True`` the dict ``flexmd grammar --json``
    prints: ``format``, ``grammar``, ``rules`` and ``coverage`` (per place,
    what the grammar ``enforced`` and what it left ``unenforced`` — validate
    the answer to check those). For an Output Format Spec, see
    :meth:`Spec.grammar`.

    Raises :class:`ConstrainError` when the dialect cannot express the
    schema (recursion in ``"regex"``), naming the place.

    >>> print(grammar({"enum": ["yes", "no"]}), end="")
    root ::= "\"yes\"" | "\"no\""
    """
    result = _flexmd.schema_grammar(_schema_json(schema), format, registry)
    return result if report else result["grammar"]


def loads(
    text: str,
    *,
    schema: Any = None,
    preset: str = "standard",
    registry: Optional[Registry] = None,
) -> Any:
    """The JSON value in a model's answer, found and repaired: a drop-in for
    :func:`json.loads` on LLM output (fenced or in prose; trailing commas,
    quotes, comments and cut-offs fixed).

    With ``schema`` (a Pydantic model class, a JSON Schema dict, a
    predefined schema's name or a :class:`Spec`), the value that fits it
    best, fitted to it as ``flexmd json --schema`` does: keys in another
    case renamed, enum values in another case matched, ``"yes"``,
    ``"1,234"`` and ``"45%"`` read as what the schema asks for, defaults
    filled (``preset="strict"`` repairs only; ``"salvage"`` also drops what
    still violates). A Pydantic model class gives the model instance.

    Raises :class:`JSONNotFound` when there is no JSON (or nothing fits),
    :class:`JSONTooLarge` past 2 000 000 values, :class:`ValidationError`
    (with ``.errors``) when the best value still violates the schema.
    :func:`find_json_as` returns the whole report, every change listed.

    >>> loads('Sure! {"a": [1, 2,],}')
    {'a': [1, 2]}
    >>> loads('{"Count": "1,234"}', schema={"type": "object", "properties": {"count": {"type": "integer"}}})
    {'count': 1234}
    """
    if schema is None:
        return _flexmd.loads(text)
    model = _model_class(schema)
    report = _find_json_as(text, _schema_json(schema), preset, registry)
    if not report["valid"]:
        errors = report["errors"]
        raise ValidationError(f"invalid: {_summary(errors)}", errors=errors, outcome=report)
    value = report["value"]
    return _as_model(model, value) if model is not None else value


def find_json_as(
    text: str,
    schema: Any,
    *,
    preset: str = "standard",
    registry: Optional[Registry] = None,
) -> Dict[str, Any]:
    """The value in ``text`` that fits ``schema`` best, fitted to it, with
    everything that was done: the report ``flexmd json --schema S
    --repairs`` prints.

    ``schema`` is a Pydantic model class, a JSON Schema dict, a predefined
    schema's name or a :class:`Spec`. The report holds ``value``, ``valid``,
    ``errors`` (what still violates the schema), ``candidate`` (``json``,
    ``markdown_sections`` or ``raw_answer``), where it was (``start``,
    ``end``, ``source``, ``method``), the ``repairs`` made to read the JSON,
    the ``coercions`` made to fit it (each with its ``pointer``, ``rule``,
    ``before``, ``after``, ``cost``, and the ``branch`` of an ``anyOf`` or
    ``oneOf`` it chose), ``dropped`` (``preset="salvage"``), ``cost``,
    ``candidates`` and ``preset``. Raises :class:`JSONNotFound` when
    nothing fits; an enum value that several could be is a
    :class:`ValidationError` (code ``ambiguous_enum``).

    >>> r = find_json_as('{"ok": "yes"}', {"type": "object", "properties": {"ok": {"type": "boolean"}}})
    >>> r["value"], [c["rule"] for c in r["coercions"]]
    ({'ok': True}, ['boolean_from_string'])
    """
    return _find_json_as(text, _schema_json(schema), preset, registry)


def hints(
    errors: List[Dict[str, Any]], schema: Any, *, registry: Optional[Registry] = None
) -> List[Dict[str, Any]]:
    """How to fix each violation in ``errors`` (as :class:`ValidationError`
    lists them) of ``schema`` (a dict, a schema name in ``registry`` or the
    predefined ones, or a Pydantic model class): one ``{path, message,
    fix, ...}`` dict each."""
    return _hints(errors, _schema_json(schema), registry)


def _session(
    prompt: str,
    schema: Any,
    spec: Optional[Spec],
    max_retries: Any,
    coerce: bool,
    defaults: bool,
    strict: bool,
    patch: bool,
    max_tokens_total: Any,
    registry: Optional[Registry],
) -> Any:
    """The native retry session for :func:`ask` and :func:`ask_async`."""
    return _flexmd.AskSession(
        prompt,
        None if schema is None else _schema_json(schema),
        spec,
        max_retries,
        coerce,
        defaults,
        strict,
        patch,
        max_tokens_total,
        registry,
    )


def _answer_text(reply: Any) -> str:
    """The text of a model's reply: a str; ``None`` is an empty answer (the
    model is asked again, with a hint); an OpenAI Responses or Chat
    Completions object, or an Anthropic Message, gives its text."""
    if reply is None:
        return ""
    if isinstance(reply, str):
        return reply
    text = getattr(reply, "output_text", None)  # OpenAI Responses
    if isinstance(text, str):
        return text
    choices = getattr(reply, "choices", None)  # OpenAI Chat Completions
    if isinstance(choices, list) and choices:
        content = getattr(getattr(choices[0], "message", None), "content", None)
        return content if isinstance(content, str) else ""
    blocks = getattr(reply, "content", None)  # Anthropic Messages
    if isinstance(blocks, list):
        return "".join(
            b.text for b in blocks if getattr(b, "type", None) == "text" and isinstance(b.text, str)
        )
    raise TypeError(
        f"the model function must return the answer text (a str), not {type(reply).__name__}"
    )


def _model_errors(model: type, data: Any) -> List[Dict[str, Any]]:
    """What ``model``'s own validation (field and model validators) says
    of data the JSON Schema accepted: violations in flexmd's shape, the
    hints of the next attempt; empty when it accepts."""
    try:
        model.model_validate(data)
    except Exception as e:  # pydantic.ValidationError, without importing pydantic
        details = getattr(e, "errors", None)
        errors = []
        for d in details() if callable(details) else []:
            loc = [str(p) for p in d.get("loc", ())]
            errors.append(
                {
                    "path": ".".join(loc),
                    "pointer": "".join("/" + p for p in loc),
                    "schemaPath": "",
                    "message": d.get("msg", ""),
                    "code": d.get("type", "model_validation"),
                }
            )
        return errors or [
            {"path": "", "pointer": "", "schemaPath": "", "message": str(e), "code": "model_validation"}
        ]
    return []


def _judge(session: Any, reply: Any, model: Optional[type], report: bool) -> Tuple[bool, Any]:
    """One reply judged in ``session``: ``(True, result)`` once it is
    accepted (the schema's check, then the model's own validators), else
    ``(False, None)`` with the next prompt ready."""
    valid, data = session.answer(_answer_text(reply))
    if not valid:
        return False, None
    errors = _model_errors(model, data) if model is not None else []
    if errors:
        session.reject(errors)
        return False, None
    accepted = session.accept()
    if report:
        return True, accepted
    data = accepted["data"]
    return True, _as_model(model, data) if model is not None else data


def ask(
    llm: Callable[[str], Any],
    prompt: str,
    *,
    schema: Any = None,
    spec: Optional[Spec] = None,
    max_retries: int = 3,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    patch: bool = False,
    max_tokens_total: Optional[int] = None,
    report: bool = False,
    registry: Optional[Registry] = None,
) -> Any:
    """Ask ``llm`` until its answer is valid, and return the valid data.

    ``llm`` is any function from a prompt to the answer text: a wrapper of
    OpenAI, Anthropic or a local model that you already have (it may also
    return the SDK's response object; ``None`` is an empty answer, asked
    again). The first prompt is ``prompt`` followed by the structure the
    answer must have (the JSON Schema, or the spec's prompt block); each
    retry gives the model its last answer and a precise hint for each
    failing path. ``schema`` is a JSON Schema dict, a predefined name or a
    Pydantic model class (then the model instance is returned, and when the
    model's own validators reject data the schema accepted, their messages
    are the next attempt's hints); ``spec`` a :class:`Spec`, for Markdown
    answers (then the answer as a dict keyed by section name). Schema
    names and ``$ref``s resolve in ``registry`` (default: the predefined
    schemas). For an ``async`` model function, use :func:`ask_async`.

    Raises :class:`ValidationError` (``.errors`` of the best attempt,
    ``.attempts``) when no answer was valid after ``max_retries`` retries,
    ``ValueError`` for a negative ``max_retries`` or ``max_tokens_total``;
    an exception ``llm`` raises is raised as it is. With ``report=True``,
    returns ``{data, changes, attempts}`` instead.
    """
    model = _model_class(schema)
    session = _session(
        prompt, schema, spec, max_retries, coerce, defaults, strict, patch, max_tokens_total, registry
    )
    while True:
        reply = llm(session.prompt)
        if inspect.isawaitable(reply):
            if inspect.iscoroutine(reply):
                reply.close()  # never awaited: no "was never awaited" warning
            raise TypeError(
                "the model function is async: use `await flexmd.ask_async(...)`"
            )
        done, result = _judge(session, reply, model, report)
        if done:
            return result


async def ask_async(
    llm: Callable[[str], Any],
    prompt: str,
    *,
    schema: Any = None,
    spec: Optional[Spec] = None,
    max_retries: int = 3,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    patch: bool = False,
    max_tokens_total: Optional[int] = None,
    report: bool = False,
    registry: Optional[Registry] = None,
) -> Any:
    """:func:`ask` for an ``async`` model function (an ``AsyncOpenAI`` or
    ``AsyncAnthropic`` client's call): ``await flexmd.ask_async(llm, ...)``.
    The same arguments, prompts, hints, result and errors; a plain function
    works too."""
    model = _model_class(schema)
    session = _session(
        prompt, schema, spec, max_retries, coerce, defaults, strict, patch, max_tokens_total, registry
    )
    while True:
        reply = llm(session.prompt)
        if inspect.isawaitable(reply):
            reply = await reply
        done, result = _judge(session, reply, model, report)
        if done:
            return result


def _delta_text(item: Any) -> Optional[str]:
    """The text a streamed item adds: a str as is; an OpenAI Chat
    Completions chunk's ``choices[0].delta.content``; an OpenAI Responses
    ``response.output_text.delta`` event's ``delta``; an Anthropic
    ``content_block_delta`` event's ``text_delta``. ``None`` for items that
    add no text (role chunks, tool calls, start and stop events)."""
    if isinstance(item, str):
        return item
    kind = getattr(item, "type", None)
    if kind == "response.output_text.delta":
        delta = getattr(item, "delta", None)
        return delta if isinstance(delta, str) else None
    if kind == "content_block_delta":
        delta = getattr(item, "delta", None)
        if getattr(delta, "type", None) == "text_delta":
            text = getattr(delta, "text", None)
            return text if isinstance(text, str) else None
        return None
    choices = getattr(item, "choices", None)
    if isinstance(choices, list):
        if not choices:
            return None
        content = getattr(getattr(choices[0], "delta", None), "content", None)
        return content if isinstance(content, str) else None
    if kind is not None:
        return None  # another event of a provider's stream
    raise TypeError(
        f"a stream item must be text or a provider SDK's stream event, not {type(item).__name__}"
    )


def _pushed(reader: Any, text: str) -> List[Dict[str, Any]]:
    """The events one piece of text gives ``reader``, as a list."""
    out = reader.push(text)
    if out is None:
        return []
    return out if isinstance(out, list) else [out]


def _finished(reader: Any) -> List[Dict[str, Any]]:
    out = reader.finish()
    return out if isinstance(out, list) else [out]


def read_stream(reader: Any, stream: Any) -> Iterator[Dict[str, Any]]:
    """Feeds a model's stream to ``reader`` (``spec.stream()`` or a
    :class:`StreamingJson`) and yields each event as it comes, then the
    ``finished`` ones. ``stream`` is any iterable of text chunks or of a
    provider SDK's stream events as they come: OpenAI Chat Completions
    chunks, OpenAI Responses events, Anthropic message-stream events
    (items that carry no text are skipped).

    >>> events = list(read_stream(StreamingJson(), ['{"a": ', "1}"]))
    >>> events[-1]["value"]
    {'a': 1}
    """
    for item in stream:
        text = _delta_text(item)
        if text:
            yield from _pushed(reader, text)
    yield from _finished(reader)


async def aread_stream(reader: Any, stream: Any) -> AsyncIterator[Dict[str, Any]]:
    """:func:`read_stream` over an async stream (``AsyncOpenAI`` and
    ``AsyncAnthropic`` streams, any async iterable of text):
    ``async for event in flexmd.aread_stream(spec.stream(), stream)``."""
    async for item in stream:
        text = _delta_text(item)
        if text:
            for event in _pushed(reader, text):
                yield event
    for event in _finished(reader):
        yield event
