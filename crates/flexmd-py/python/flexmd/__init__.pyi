"""flexmd makes LLM output dependable.

Find and repair the JSON in a model's answer (:func:`loads`), tell a model in
plain Markdown what shape to answer in and extract its answer
(:class:`Spec`), validate data against JSON Schemas or Pydantic models with
coercion and defaults (:func:`validate`), ask again with precise hints until
the answer is valid (:func:`ask`), and let a model query tool outputs too
large for a prompt (:class:`Artifact`, :func:`forge_tools`).

Every function returns the JSON the ``flexmd`` command-line tool prints for
the same input, as plain dicts and lists.
"""

from os import PathLike
from pathlib import Path
from typing import (
    Any,
    AsyncIterable,
    AsyncIterator,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypeVar,
    Union,
    overload,
)

from ._errors import (
    ArtifactError as ArtifactError,
    ConstrainError as ConstrainError,
    FlexmdError as FlexmdError,
    JSONNotFound as JSONNotFound,
    JSONTooLarge as JSONTooLarge,
    NestingError as NestingError,
    SchemaError as SchemaError,
    SpecError as SpecError,
    ToolCallError as ToolCallError,
    ValidationError as ValidationError,
)

__version__: str

JSON = Any
"""A JSON value as Python holds it: dict, list, str, int, float, bool or None."""

Model = TypeVar("Model")
ArtifactKind = Literal["json", "json5", "jsonl", "ndjson", "markdown", "text"]
ToolFormat = Literal["openai", "openai-responses", "anthropic"]

# ---- lenient JSON -----------------------------------------------------------

Preset = Literal["strict", "standard", "salvage"]
"""How far fitting to a schema goes: repairs only; repairs, coercions and
defaults; and also dropping what still violates."""

@overload
def loads(text: str) -> JSON: ...
@overload
def loads(
    text: str, *, schema: Type[Model], preset: Preset = "standard", registry: Optional["Registry"] = None
) -> Model: ...
@overload
def loads(
    text: str,
    *,
    schema: Union[Dict[str, Any], str, "Spec", None] = None,
    preset: Preset = "standard",
    registry: Optional["Registry"] = None,
) -> JSON: ...
def loads(
    text: str, *, schema: Any = None, preset: Preset = "standard", registry: Optional["Registry"] = None
) -> Any:
    """The JSON value in an LLM answer: in a fence or in prose, repaired
    (trailing commas, single quotes, comments, cut-off endings, Python
    literals, ...). The drop-in for ``json.loads`` on model output.

    With ``schema`` (a Pydantic model class, a JSON Schema dict, a
    predefined schema's name or a :class:`Spec`): the value that fits it
    best, fitted to it as ``flexmd json --schema`` does (key case, enum
    case, ``"yes"``, ``"1,234"``, ``"45%"``, defaults; through ``anyOf`` and
    ``Optional`` fields too). A model class gives the model instance.

    Raises :class:`JSONNotFound` (a ``ValueError``) when there is none (or
    nothing fits), :class:`JSONTooLarge` for JSON of more than 2 000 000
    values (more than flexmd reads from one text), and with a schema
    :class:`ValidationError` when the best value still violates it.

    >>> loads('Sure! ```json\\n{"a": [1, 2,],}\\n```')
    {'a': [1, 2]}
    """

def find_json_as(
    text: str, schema: Any, *, preset: Preset = "standard", registry: Optional["Registry"] = None
) -> Dict[str, Any]:
    """The value in ``text`` that fits ``schema`` best, fitted to it, with
    everything done to it: the report ``flexmd json --schema S --repairs``
    prints (``value``, ``valid``, ``errors``, ``candidate``, ``start``,
    ``end``, ``source``, ``method``, ``repairs``, ``coercions``,
    ``dropped``, ``cost``, ``candidates``, ``preset``). Each coercion has its
    ``pointer``, ``rule``, ``before``, ``after``, ``cost`` and, inside an
    ``anyOf``/``oneOf``, the ``branch`` it chose. Raises
    :class:`JSONNotFound` when nothing fits."""

def find_json(text: str, all: bool = False, repairs: bool = False) -> Any:
    """The JSON in a text, as ``flexmd json`` prints it: the best value, or
    ``None`` when there is none; with ``all=True`` every value (a list);
    with ``repairs=True`` each as ``{value, start, end, source, method,
    repairs, pick}``: where it was found and how it was repaired."""

def find_json_many(texts: Iterable[str], all: bool = False, repairs: bool = False) -> List[Any]:
    """:func:`find_json` on each text of ``texts``, in one call: one result
    per text, in order (``None`` where a text holds no JSON); other Python
    threads run while the texts are read. Raises ``TypeError`` for an
    item that is not a ``str`` (or for a ``str`` given as ``texts``)."""

# ---- frames and detection -----------------------------------------------------

def parse_flexmd(
    text: str,
    meta: Literal["strings", "infer", "schema"] = "strings",
    meta_schema: Optional[Dict[str, Literal["string", "number", "integer", "boolean", "strings"]]] = None,
    meta_anywhere: bool = False,
    array_keys: Optional[List[str]] = None,
    diagnostics: bool = False,
) -> Any:
    """FlexMD frames (``[[type key=value]]`` headers, ``@key: value`` meta,
    Markdown bodies) to a FlexDocument dict ``{"frames": [...]}``, as
    ``flexmd frames parse`` prints it. ``meta`` types meta values (``infer``:
    booleans, null and numbers; ``meta_schema``: a type per key);
    ``array_keys`` are keys whose values are comma-separated lists (default
    tags, refs). With ``diagnostics=True``, returns ``(document,
    diagnostics)``."""

def stringify_flexmd(document: Dict[str, Any], heading_level: Optional[int] = None) -> str:
    """A FlexDocument dict written as FlexMD (headers as ``## [[...]]``
    headings at ``heading_level`` when given)."""

def detect_objects(text: str) -> List[Dict[str, Any]]:
    """The structured objects in any text (FlexMD fences and frames,
    Markdown snippets, JSON), as ``flexmd detect`` prints them."""

def parse_any(text: str, diagnostics: bool = False) -> Any:
    """The best reading of any text: ``{flexDocs, markdownSnippets,
    remainder}``, as ``flexmd parse-any`` prints it; with
    ``diagnostics=True``, ``(result, diagnostics)``."""

def outline(markdown: str) -> Dict[str, Any]:
    """The heading outline of Markdown: nested nodes with ``title``,
    ``level``, ``key``, ``content_md`` and ``children``, as ``flexmd
    outline`` prints it."""

def render_outline(outline: Dict[str, Any]) -> str:
    """An outline (as :func:`outline` returns it) written back as Markdown,
    as ``flexmd outline render`` does: each heading at its level with its
    title and content; keys and ids are never written."""

# ---- output format specs -------------------------------------------------------

class Spec:
    """An Output Format Spec: a few Markdown lines that tell a model which
    sections to answer with and what each holds (prose, list, ordered list,
    table). Immutable and safe to share between threads.

    >>> spec = Spec.parse("## Output format\\n- Summary — prose\\n- Steps — ordered list\\n")
    >>> spec.to_json("## Summary\\nAll good.\\n## Steps\\n1. one\\n2. two\\n")
    {'Summary': 'All good.', 'Steps': ['one', 'two']}
    """

    @staticmethod
    def parse(text: str) -> "Spec":
        """Reads a spec from its Markdown block (or its JSON text); raises
        :class:`SpecError` when the text holds none."""
    @staticmethod
    def from_json(value: Union[Dict[str, Any], str]) -> "Spec":
        """Reads a spec from its OutputFormatSpec JSON (a dict or JSON text)."""
    @staticmethod
    def default() -> "Spec":
        """The general-purpose five-section spec (Short answer, Long answer,
        Reasoning, Assumptions, Unknowns)."""
    @property
    def sections(self) -> List[str]:
        """The section names, in the spec's order."""
    @property
    def warnings(self) -> List[Dict[str, Any]]:
        """What reading the spec noticed (lines that are not part of it)."""
    def prompt(self) -> str:
        """The text to put in a prompt: the canonical block and only the
        rules it needs (``flexmd ofs enrich``)."""
    def rules(self) -> str:
        """The rules alone, without the block (flex-md's
        ``enrichInstructions``): for a prompt that shows the block its own
        way. :meth:`prompt` is the block followed by these."""
    @overload
    def grammar(
        self,
        format: "GrammarFormat" = "gbnf",
        *,
        heading_level: int = 2,
        think_lines: Optional[int] = None,
        max_items: Optional[int] = None,
        max_rows: Optional[int] = None,
        report: Literal[False] = False,
    ) -> str: ...
    @overload
    def grammar(
        self,
        format: "GrammarFormat" = "gbnf",
        *,
        heading_level: int = 2,
        think_lines: Optional[int] = None,
        max_items: Optional[int] = None,
        max_rows: Optional[int] = None,
        report: Literal[True],
    ) -> Dict[str, Any]: ...
    def grammar(
        self,
        format: "GrammarFormat" = "gbnf",
        *,
        heading_level: int = 2,
        think_lines: Optional[int] = None,
        max_items: Optional[int] = None,
        max_rows: Optional[int] = None,
        report: bool = False,
    ) -> Any:
        """A grammar for the answers this spec asks for, in one canonical
        layout ``flexmd validate --strict`` accepts (sections in the spec's
        order, headings of ``heading_level``); ``think_lines`` allows a
        leading ``<think>`` block of at most that many lines; ``max_items``
        and ``max_rows`` bound lists and tables and then enforce their
        numbering. The same text as ``flexmd grammar --spec``."""
    def render(self) -> str:
        """The canonical Markdown block (``flexmd ofs render``)."""
    def to_dict(self) -> Dict[str, Any]:
        """The spec as OutputFormatSpec JSON (``flexmd ofs parse``)."""
    def json_schema(self) -> Dict[str, Any]:
        """The JSON Schema of the object :meth:`to_json` makes."""
    def validate(self, answer: str, strict: bool = False) -> Dict[str, Any]:
        """Checks an answer: ``{ok, valid, errors, warnings, details}``, as
        ``flexmd validate --json`` prints it. ``strict`` counts every
        leniency used (a bold pseudo-heading, ``1)`` numbering, ...) as an
        error."""
    def extract(self, answer: str, lists_in_prose: bool = False) -> Dict[str, Any]:
        """The answer's outline and sections (``sectionsByName`` with
        ``nodeKey``, ``md``, ``subtreeMd``, ``list``, ``tables``), as
        ``flexmd extract`` prints it. A section's ``md`` is the text under
        its heading up to the next heading of any level; ``subtreeMd`` its
        whole subtree when it has sub-headings."""
    def to_json(self, answer: str, lists_in_prose: bool = False) -> Dict[str, Any]:
        """The answer as a plain dict keyed by section name: prose as a
        string, lists as lists, tables as lists of rows, empty sections as
        ``None`` (``flexmd extract --as-json``)."""
    def check(
        self, answer: str, strict: bool = False, lists_in_prose: bool = False
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """:meth:`validate` and :meth:`to_json` in one read of the answer."""
    def stream(
        self, strict: bool = False, as_json: bool = False, lists_in_prose: bool = False
    ) -> "StreamingExtractor":
        """A stream that checks and extracts an answer while the model is
        still writing it (``flexmd extract --stream``)."""
    def correction(self, issue: Dict[str, Any]) -> Optional[str]:
        """A prompt asking the model to write one section again, for an
        issue (a ``violation`` event, or an error from ``validate``'s
        ``details``); ``None`` for an issue of no section."""
    def __eq__(self, other: object) -> bool: ...

class StreamingExtractor:
    """An answer checked and extracted while it streams in
    (:meth:`Spec.stream`). Each event is the dict ``flexmd extract
    --stream`` prints as a line: ``section_started``, ``section_delta``,
    ``section_completed``, ``list_item``, ``table_row``,
    ``payload_completed``, ``violation``; the last one ``finished``.

    >>> spec = Spec.parse("- Summary — prose\n- Risks — list\n")
    >>> stream = spec.stream()
    >>> [e["event"] for e in stream.push("## Summary\nFine.\n## Risks\n- a\n")]
    ['section_started', 'section_delta', 'section_completed', 'section_started', 'section_delta']
    >>> stream.finish()[-1]["report"]["ok"]
    True
    """

    def push(self, text: str) -> List[Dict[str, Any]]:
        """Reads the next piece of the answer; returns the events it settled."""
    def finish(self) -> List[Dict[str, Any]]:
        """Ends the answer: the last events, then ``{"event": "finished",
        "report": ..., "result": ...}`` with what :meth:`Spec.validate` and
        :meth:`Spec.extract` (or :meth:`Spec.to_json`) give. Pushing after
        this raises :class:`FlexmdError`."""
    @property
    def text(self) -> str:
        """Everything pushed so far."""
    def correction(self, issue: Dict[str, Any]) -> Optional[str]:
        """A prompt asking the model to write a violation's section again:
        stop the model at the first ``violation`` and send this."""

class StreamingJson:
    """The JSON in an answer, read while it streams in: a partial value
    that only grows (strings grow; numbers, booleans and ``None`` appear
    complete; a type never changes), with JSON Patch operations per piece.

    >>> stream = StreamingJson()
    >>> stream.push('Sure: {"title": "Cach')["patches"]
    [{'op': 'add', 'path': '', 'value': {'title': 'Cach'}}]
    >>> stream.state("/title")
    'partial'
    >>> stream.finish()["value"]
    {'title': 'Cach'}
    """

    def __init__(self) -> None: ...
    def push(self, text: str) -> Optional[Dict[str, Any]]:
        """Reads the next piece of the text: ``{"event": "update",
        "patches": [...], "done": [...], "cursor": {...}}`` as ``flexmd json
        --stream`` prints it, or ``None`` when the value did not change."""
    @property
    def value(self) -> JSON:
        """The partial value so far (``None`` before it starts)."""
    def state(self, pointer: str) -> Optional[str]:
        """``"pending"``, ``"partial"`` or ``"done"`` for a JSON Pointer
        (``""`` is the whole value); ``None`` for a path not there."""
    def finish(self, repairs: bool = False) -> Dict[str, Any]:
        """Ends the text: ``{"event": "finished", "patches": [...],
        "value": ...}``, where ``value`` is what :func:`loads` gives for the
        whole text (``None`` when there is none); with ``repairs``, also
        ``found`` as :func:`find_json` gives it."""

# ---- schemas -------------------------------------------------------------------

Provider = Literal["openai", "openai-tool", "anthropic", "anthropic-tool", "gemini"]
"""A provider's structured-output mode (``-tool``: a strict tool the request
forces)."""

GrammarFormat = Literal["lark", "gbnf", "ebnf", "regex"]
"""A grammar dialect: llguidance's Lark, llama.cpp's GBNF, XGrammar's EBNF,
or one regex (Outlines)."""

def export_schema(
    schema: Any,
    provider: Provider,
    *,
    name: Optional[str] = None,
    registry: Optional["Registry"] = None,
) -> Dict[str, Any]:
    """The request fragment that makes ``provider`` constrain its answer to
    ``schema`` (a dict, a predefined schema's name or a Pydantic model
    class), as ``flexmd schema export --for PROVIDER --json`` prints it:
    ``provider``, ``name``, ``request`` (merge it into the request body),
    ``schema`` and ``changes`` (each ``{pointer, rule, action, keyword,
    detail}``, ``action`` one of ``rewritten``, ``dropped``,
    ``unenforced``). Check the answer with ``validate(answer, schema,
    from_provider=provider)``. Raises :class:`ConstrainError` when the
    provider cannot take the schema, naming the place or the limit."""

@overload
def grammar(
    schema: Any,
    format: GrammarFormat = "gbnf",
    *,
    report: Literal[False] = False,
    registry: Optional["Registry"] = None,
) -> str: ...
@overload
def grammar(
    schema: Any,
    format: GrammarFormat = "gbnf",
    *,
    report: Literal[True],
    registry: Optional["Registry"] = None,
) -> Dict[str, Any]: ...
def grammar(
    schema: Any,
    format: GrammarFormat = "gbnf",
    *,
    report: bool = False,
    registry: Optional["Registry"] = None,
) -> Any:
    """A grammar that holds a local model to ``schema`` while it writes, in
    ``format``; with ``report=True`` the dict ``flexmd grammar --json``
    prints (``format``, ``grammar``, ``rules``, ``coverage``: per place, what
    is ``enforced`` and what is left ``unenforced`` to validation). Raises
    :class:`ConstrainError` when the dialect cannot express the schema."""

@overload
def validate(
    data: Any,
    schema: Type[Model],
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    report: Literal[False] = False,
    hints: bool = False,
    registry: Optional["Registry"] = None,
    from_provider: Optional[Provider] = None,
) -> Model: ...
@overload
def validate(
    data: Any,
    schema: Union[Dict[str, Any], str],
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    report: Literal[False] = False,
    hints: bool = False,
    registry: Optional["Registry"] = None,
    from_provider: Optional[Provider] = None,
) -> JSON: ...
@overload
def validate(
    data: Any,
    schema: Any,
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    report: Literal[True],
    hints: bool = False,
    registry: Optional["Registry"] = None,
    from_provider: Optional[Provider] = None,
) -> Dict[str, Any]: ...
def validate(
    data: Any,
    schema: Any,
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    report: bool = False,
    hints: bool = False,
    registry: Optional["Registry"] = None,
    from_provider: Optional[Provider] = None,
) -> Any:
    """Validate ``data`` against ``schema`` and return the valid data.

    ``data`` is a value (dict, list, ...) or a text holding JSON (a model's
    answer: the JSON is found and repaired first). ``schema`` is a JSON
    Schema dict, the name of a predefined schema (:func:`schema_names`) or a
    Pydantic v2 model class, in which case the model instance is returned.
    ``coerce`` turns ``"42"`` into ``42`` and a scalar into a list where that
    makes the data valid, and reads numbers from text as JavaScript's
    ``parseFloat``/``parseInt`` do (``"12px"`` becomes ``12``, ``"3.7"`` an
    integer ``3``; each such change is a warning naming its ``rule``);
    ``defaults`` fills in the schema's defaults; ``strict`` counts repairs
    and coercions as errors. Names and ``$ref``s resolve in ``registry`` (a
    :class:`Registry`, or a :class:`Project`'s), else among the predefined
    schemas.

    Raises :class:`ValidationError` (with ``.errors``) when the data is
    invalid, :class:`SchemaError` for an unknown name or a schema that does
    not compile. With ``report=True``, returns the outcome dict (``valid``,
    ``data``, ``errors``, ``warnings``, ``changes``, and ``hints`` with
    ``hints=True``) as ``flexmd schema validate --json`` prints it.
    """

def validate_many(
    items: Iterable[Any],
    schema: Any,
    *,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    hints: bool = False,
    registry: Optional["Registry"] = None,
) -> List[Dict[str, Any]]:
    """:func:`validate` with ``report=True`` on each item of ``items``
    against one ``schema``, in one call: the outcome dict of each item, in
    order, and no exception for the invalid ones. The schema is compiled
    once, and other Python threads run while the items are validated.
    Items are values, texts holding JSON (found and repaired first) or
    Pydantic model instances."""

def hints(
    errors: List[Dict[str, Any]], schema: Any, *, registry: Optional["Registry"] = None
) -> List[Dict[str, Any]]:
    """How to fix each violation in ``errors`` (as :class:`ValidationError`
    lists them) of ``schema``: each violation with a ``hint`` to send the
    model."""

def schema_names() -> List[str]:
    """The predefined schemas: analysis, implementation, review,
    verification, plan."""

def schema(name: str) -> Dict[str, Any]:
    """A predefined schema, by name; raises :class:`SchemaError` for an
    unknown one."""

class Registry:
    """A set of named JSON Schemas: the five predefined ones (unless
    ``predefined=False``) and your own. Give it as ``registry=`` to
    :func:`validate`, :func:`loads`, :func:`find_json_as`, :func:`hints`
    and :func:`ask`: schema names and ``$ref``s (``flexmd://schemas/NAME``,
    ``elsabro://schemas/NAME``) then resolve in it. A call or an ``ask``
    keeps the schemas it started with when more are registered meanwhile.

    >>> r = Registry()
    >>> r.register("point", {"type": "object", "required": ["x", "y"]})
    >>> validate({"x": 1, "y": 2}, "point", registry=r)
    {'x': 1, 'y': 2}
    """

    def __init__(self, predefined: bool = True) -> None: ...
    def register(self, name: str, schema: Any) -> None:
        """Registers ``schema`` (a JSON Schema dict or a Pydantic model
        class) as ``name``, replacing a schema of that name. A schema that
        does not compile or whose ``$ref`` does not resolve raises
        :class:`SchemaError`, and nothing changes."""
    def load_dir(self, directory: Union[str, "PathLike[str]"]) -> List[str]:
        """Registers every ``*.json`` file of ``directory`` under its name
        without ``.json``; returns the names. A file that is not JSON or
        not a valid schema raises :class:`SchemaError`, and nothing
        changes."""
    def names(self) -> List[str]:
        """The registered names, in registration order."""
    def schema(self, name: str) -> Dict[str, Any]:
        """The schema registered as ``name``; :class:`SchemaError` for an
        unknown one (its message lists the known names)."""
    def summaries(self) -> List[Dict[str, Any]]:
        """Each schema's ``{name, title, description}``, as ``flexmd
        schema list`` prints them."""
    def __contains__(self, name: object) -> bool: ...
    def __len__(self) -> int: ...

class Project:
    """A project's schema settings, as kept in
    ``.planning/schemas-config.json``: whether to coerce, fill defaults and
    fail on invalid data (``validation``), the directory of custom schemas
    (``customSchemas``), and which schema each agent's output must follow
    (``agentDefaults``). The ``flexmd`` command reads the same file.

    >>> project = Project.find()
    >>> project.config["schemas"]["validation"]["maxRetries"]
    2
    """

    @staticmethod
    def find(start: Union[str, "PathLike[str]", None] = None) -> "Project":
        """The file ``$FLEXMD_CONFIG`` names; else, walking up from
        ``start`` (default: the current directory), the nearest directory
        with a ``.planning/`` and its ``.planning/schemas-config.json`` (the
        defaults when there is no such file); else the defaults. A
        malformed file raises :class:`SchemaError`."""
    @staticmethod
    def load(path: Union[str, "PathLike[str]"]) -> "Project":
        """Reads the config file at ``path``, which must exist."""
    @property
    def path(self) -> Optional[Path]:
        """The file read; ``None`` when the settings are the defaults."""
    @property
    def root(self) -> Path:
        """The project directory (the one holding ``.planning/``)."""
    @property
    def config(self) -> Dict[str, Any]:
        """The settings as the file spells them, defaults filled in."""
    def registry(self) -> Registry:
        """The predefined schemas and, when ``autoLoad`` is on, those of the
        custom schema directory."""
    def schema_for_agent(self, agent: str) -> str:
        """The schema ``agentDefaults`` gives ``agent``;
        :class:`SchemaError` (listing the known agents) for another."""
    def step_schema(self, step: Dict[str, Any]) -> str:
        """The schema a flow step (``{"agent", "outputSchema", "config"}``)
        must produce: ``outputSchema``, else its agent's
        ``agentDefaults``."""
    def step_retries(self, step: Dict[str, Any]) -> int:
        """The retries a flow step allows after the first attempt: 0 when
        its ``retryOnSchemaError`` is false, else ``maxSchemaRetries``,
        falling back on the config's ``retryOnError`` and ``maxRetries``."""

@overload
def ask(
    llm: Callable[[str], Any],
    prompt: str,
    *,
    schema: Type[Model],
    spec: None = None,
    max_retries: int = 3,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    patch: bool = False,
    max_tokens_total: Optional[int] = None,
    report: Literal[False] = False,
    registry: Optional["Registry"] = None,
) -> Model: ...
@overload
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
    registry: Optional["Registry"] = None,
) -> Any: ...
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
    registry: Optional["Registry"] = None,
) -> Any:
    """Ask ``llm`` until its answer is valid, and return the valid data.

    ``llm`` is any function from prompt text to answer text (your OpenAI,
    Anthropic or local model call). The first prompt is ``prompt`` and the
    structure the answer must have; each retry gives the model its last
    answer and a hint for each failing path. ``schema`` (a dict, a
    predefined name or a Pydantic model class) asks for JSON, ``spec`` for a
    Markdown answer. ``patch`` asks a retry for the failing fields only;
    ``max_tokens_total`` caps all prompts and answers (estimated at four
    bytes a token).

    ``llm`` may return the answer text, ``None`` (an empty answer, asked
    again with a hint) or an OpenAI / Anthropic response object. A Pydantic
    model's own validators are part of the check: data they reject is asked
    for again, with their messages as hints. An ``async`` function needs
    :func:`ask_async`.

    Raises :class:`ValidationError` (``.errors`` of the best attempt,
    ``.attempts``) when no answer was valid, ``ValueError`` for a negative
    count; an exception ``llm`` raises is raised as it is. With
    ``report=True``, returns ``{data, changes, attempts}``.
    """

@overload
async def ask_async(
    llm: Callable[[str], Any],
    prompt: str,
    *,
    schema: Type[Model],
    spec: None = None,
    max_retries: int = 3,
    coerce: bool = True,
    defaults: bool = True,
    strict: bool = False,
    patch: bool = False,
    max_tokens_total: Optional[int] = None,
    report: Literal[False] = False,
    registry: Optional["Registry"] = None,
) -> Model: ...
@overload
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
    registry: Optional["Registry"] = None,
) -> Any: ...
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
    registry: Optional["Registry"] = None,
) -> Any:
    """:func:`ask` for an ``async`` model function (``AsyncOpenAI``,
    ``AsyncAnthropic``): ``await flexmd.ask_async(llm, prompt, schema=...)``,
    with the same arguments, prompts, hints, result and errors."""

def read_stream(
    reader: Union["StreamingExtractor", "StreamingJson"], stream: Iterable[Any]
) -> Iterator[Dict[str, Any]]:
    """Feeds a model's stream to ``reader`` (``spec.stream()`` or a
    :class:`StreamingJson`) and yields each event as it comes, then the
    ``finished`` ones. ``stream`` holds text chunks or a provider SDK's
    stream events as they come (OpenAI Chat Completions chunks, OpenAI
    Responses events, Anthropic message-stream events); items that carry no
    text are skipped."""

def aread_stream(
    reader: Union["StreamingExtractor", "StreamingJson"], stream: AsyncIterable[Any]
) -> AsyncIterator[Dict[str, Any]]:
    """:func:`read_stream` over an async stream (``AsyncOpenAI``,
    ``AsyncAnthropic``, any async iterable of text)."""

# ---- artifacts and tools ---------------------------------------------------------

class Artifact:
    """A tool output too large for a prompt, queried lazily: lines, JSON
    (json, json5, JSON Lines) or Markdown. Files are mapped, not read into
    memory. Immutable and safe to share between threads."""

    @staticmethod
    def open(
        path: Union[str, "PathLike[str]"],
        kind: Optional[ArtifactKind] = None,
        call_id: Optional[str] = None,
    ) -> "Artifact":
        """Maps a file; its kind from ``kind``, else from its extension
        (.json, .json5, .jsonl, .ndjson, .md, .markdown; anything else
        text). ``call_id`` (default: the path as given) is the id tool calls
        name it by. Raises ``FileNotFoundError``, or :class:`ArtifactError`
        for JSON content that is not JSON."""
    @staticmethod
    def from_text(text: str, kind: ArtifactKind = "text", call_id: str = "artifact") -> "Artifact":
        """An artifact over a text held in memory."""
    @property
    def call_id(self) -> str:
        """The id tool calls name it by."""
    @property
    def kind(self) -> ArtifactKind:
        """How it is read."""
    def head(self, n: int = 10) -> List[str]:
        """The first ``n`` lines."""
    def tail(self, n: int = 10) -> List[str]:
        """The last ``n`` lines."""
    def cat(self, start: Optional[int] = None, end: Optional[int] = None) -> List[str]:
        """Lines ``start`` to ``end`` (0-based, end exclusive; negative
        counts from the end)."""
    def grep(self, pattern: str, flags: str = "") -> List[str]:
        """The lines matching a regular expression, each line matched on its
        own, in linear time. ``flags`` as JavaScript writes them: ``i``
        (case-insensitive), ``m`` (accepted; ``^``/``$`` already match at
        each line's ends), ``s`` (``.`` matches ``\\r`` too), ``u`` (Unicode
        classes and case folding); ``g``, ``y`` and other letters are
        refused. Raises :class:`ToolCallError` for a bad pattern or flag."""
    def byte_length(self) -> int:
        """The size in bytes."""
    def line_count(self) -> int:
        """The number of lines (a final line break starts an empty last line)."""
    def estimate_tokens(
        self,
        encoding: Literal["o200k_base", "cl100k_base", "p50k_base", "r50k_base", "gpt2"] = "o200k_base",
    ) -> int:
        """The exact token count in ``encoding``."""
    def as_string(self) -> str:
        """The whole content as text (invalid UTF-8 as U+FFFD)."""
    def json_type(self) -> Literal["json", "json5", "jsonl", "ndjson"]:
        """The JSON format."""
    def json_keys(self) -> Optional[List[str]]:
        """The root object's keys (``None`` when the root is not an object)."""
    def json_length(self) -> int:
        """The number of records: 1 for a json or json5 document (whatever
        its root holds), the non-blank lines of JSON Lines."""
    def json_get(self, path: str) -> List[JSON]:
        """The values a JSONPath (RFC 9535) selects; raises
        :class:`ToolCallError` for a bad path."""
    def json_filter(self, path: str) -> List[JSON]:
        """The records (or root array items) the path matches in;
        ``$[?@.status == 'active']`` tests each record itself."""
    def json_slice(self, start: Optional[int] = None, end: Optional[int] = None) -> List[JSON]:
        """Records (or root array items) ``start`` to ``end``."""
    def json_pluck(self, path: str) -> List[JSON]:
        """One value per record: what the path selects in it."""
    def md_frontmatter(self) -> Optional[Dict[str, Any]]:
        """The YAML front matter (``None`` when there is none)."""
    def md_headings(self, depth: Optional[int] = None) -> List[Dict[str, Any]]:
        """The headings in document order (``{depth, text, startLine,
        endLine}``: the heading's line and its section's last line, 0-based
        as ``cat`` counts), of exactly ``depth`` when given."""
    def md_sections(self, depth: Optional[int] = None) -> List[Dict[str, Any]]:
        """Each heading's section as lines (``{depth, heading, headingLine,
        bodyStartLine, bodyEndLine}``, 0-based lines; the body ends before the next heading
        of the same or a higher level), of exactly ``depth`` when given
        (deeper headings are then part of the body). ``cat`` reads a body."""
    def md_code_blocks(self, lang: Optional[str] = None) -> List[Dict[str, Any]]:
        """The fenced code blocks (of language ``lang`` when given)."""
    def md_links(self, start: Optional[int] = None, end: Optional[int] = None) -> List[Dict[str, Any]]:
        """The links of lines ``start`` to ``end``."""
    def md_images(self, start: Optional[int] = None, end: Optional[int] = None) -> List[Dict[str, Any]]:
        """The images of lines ``start`` to ``end``."""
    def md_text(self, start: Optional[int] = None, end: Optional[int] = None) -> str:
        """The plain text of lines ``start`` to ``end``, without Markdown syntax."""
    def md_ast(self, start: Optional[int] = None, end: Optional[int] = None) -> Dict[str, Any]:
        """The mdast tree (remark's shape, with positions) of lines ``start`` to ``end``."""

class ToolSet:
    """The function-calling tools forged over a set of artifacts, and the
    dispatcher for a model's calls."""

    @property
    def definitions(self) -> List[Dict[str, Any]]:
        """The tool definitions, in this set's format: pass them as
        ``tools=`` to the provider's API."""
    @property
    def format(self) -> ToolFormat:
        """``"openai"`` or ``"anthropic"``."""
    def call(self, tool_call: Any) -> str:
        """Runs one tool call (a dict, JSON text, or the provider SDK's own
        tool-call object) and returns the text to give the model back.
        Raises :class:`ToolCallError`, whose message is the text to give
        it instead, when the call cannot run."""
    def call_page(
        self, tool_call: Any, max_tokens: int = 20000, cursor: Optional[str] = None
    ) -> Dict[str, Any]:
        """One page of a call's result within ``max_tokens`` (o200k_base):
        ``{text, tokens, truncated, omitted?, cursor?}``. Pages end between
        whole lines or whole JSON values (a page of values is a JSON array);
        give ``cursor`` back, with the same call, for the next page. A
        single line or value over the budget raises :class:`ToolCallError`
        saying how to narrow the call. ``max_tokens`` above 200 000 is
        lowered to it (``max_tokens_capped`` gives what was asked). A cursor
        that was edited, or belongs to other arguments or to a file that
        changed, raises :class:`ToolCallError` (start again without one)."""
    def call_all(self, calls: Any) -> List[Dict[str, Any]]:
        """Runs every call in ``calls`` (a call, an assistant message
        holding them, or a list): ``{id?, name, result | error}`` each, as
        ``flexmd call --json`` prints them."""

class Turn:
    """One agent turn. Give it each tool result as it arrives
    (:meth:`add_result`): a small one comes back as it is; a large one is
    kept as an artifact of the turn and the model sees a notice instead
    (size, a head and tail preview, the tools to read it with and its
    ``callId``). Offer the model :meth:`merged_tools` (your tools and the
    artifact tools), run its artifact tool calls with :meth:`call`, and
    :meth:`end` the turn when it is done.

    A turn is used by one thread at a time; using it while one of its calls
    runs (from another thread) raises :class:`FlexmdError`. Your tool
    functions run with the turn free, and may read it.

    >>> turn = Turn(max_inline_bytes=64)
    >>> turn.add_result("call_1", "ping", "pong")
    {'text': 'pong', 'spooled': False}
    >>> turn.add_result("call_2", "read_log", "ok\n" * 100)["spooled"]
    True
    >>> turn.call({"name": "artifact_head", "arguments": {"callId": "call_2", "n": 1}})
    'ok\n'
    """

    def __init__(
        self,
        max_inline_bytes: int = 16384,
        max_inline_tokens: int = 4000,
        preview_lines: int = 5,
        format: ToolFormat = "openai",
    ) -> None:
        """A result over ``max_inline_bytes`` bytes or ``max_inline_tokens``
        tokens (o200k_base) is kept; its notice previews ``preview_lines``
        lines of its head and tail. Definitions come in ``format``."""
    def add_result(
        self,
        call_id: str,
        tool_name: str,
        content: Union[str, bytes],
        kind: Literal["auto", "text", "json", "markdown"] = "auto",
    ) -> Dict[str, Any]:
        """Adds the result of the tool call ``call_id`` of ``tool_name``,
        read as ``kind`` (``"auto"``: JSON when it is JSON, Markdown when it
        has headings or code fences, else text). Returns ``{"text": str,
        "spooled": bool}``: the text to give the model in its place. A
        result of an artifact tool is never kept. A ``call_id`` already used
        in this turn raises :class:`ToolCallError`."""
    def add_artifact(self, artifact: Artifact, tool_name: str) -> Dict[str, Any]:
        """Adds an artifact you have (``Artifact.open(path)``) as the result
        of ``tool_name``, under its ``call_id``; returns its notice."""
    def register(
        self,
        name: str,
        description: str,
        parameters: Dict[str, Any],
        function: Callable[[Artifact, Dict[str, Any]], Any],
        kind: Optional[Literal["text", "json", "markdown"]] = None,
        serialise: Optional[Callable[[Any], str]] = None,
    ) -> None:
        """Registers a tool of your own over the turn's artifacts:
        ``function(artifact, arguments)`` gets the :class:`Artifact` the
        call names and the other arguments, checked against
        ``parameters`` (their JSON Schema without ``callId``, which the
        turn adds); its value is given to the model as JSON, or as
        ``serialise(value)`` returns it, within the turn's caps. ``kind``
        offers it for artifacts of that kind only. It replaces a tool of
        the same name, and stays registered when the turn ends."""
    @property
    def definitions(self) -> List[Dict[str, Any]]:
        """The artifact tools in the turn's format (each ``callId`` enum
        naming the artifacts it reads) and yours; empty while the turn
        has no artifact."""
    def merged_tools(self, tools: Sequence[Any]) -> List[Dict[str, Any]]:
        """Your tools (dicts in any of the three formats, or SDK objects)
        with the artifact tools merged in: yours keep their place and
        fields unless an artifact tool of the same name replaces one; the
        artifact tools follow."""
    @property
    def format(self) -> ToolFormat:
        """The definitions' format."""
    def is_artifact_tool(self, name: str) -> bool:
        """Whether ``name`` is an artifact tool (forged or yours)."""
    @property
    def call_ids(self) -> List[str]:
        """The ``call_id`` of each artifact kept, in the order added."""
    def artifact(self, call_id: str) -> Optional[Artifact]:
        """The artifact kept for ``call_id``, or ``None``."""
    def call(self, tool_call: Any) -> str:
        """Runs one artifact tool call (a dict, JSON text, or the
        provider's tool-call object) and returns the text to give the
        model; raises :class:`ToolCallError`, with the text to give it
        instead, when the call cannot run. An exception your tool function
        raises is raised as it is."""
    def end(self) -> int:
        """Ends the turn: drops its artifacts (your tools stay) and returns
        how many were dropped."""

def forge_tools(artifacts: Sequence[Artifact], format: ToolFormat = "openai") -> ToolSet:
    """Forges the tools for ``artifacts``: the line tools for all, the
    ``artifact_json_*`` tools when one is JSON, the ``artifact_md_*`` tools
    when one is Markdown. Each tool's ``callId`` lists only the artifacts it
    works on."""

# ---- reports ------------------------------------------------------------------

def report(
    answers: Union[str, "PathLike[str]", Iterable[Union[Dict[str, Any], str]]],
    spec: Union["Spec", str, None] = None,
    schema: Any = None,
    *,
    group_by: Iterable[str] = (),
    field: str = "response",
    preset: Literal["strict", "standard", "salvage"] = "standard",
    strict: bool = False,
    worst: int = 20,
    answers_of: Union[str, "PathLike[str]", None] = None,
    html: Union[str, "PathLike[str]", None] = None,
    jobs: int = 0,
    registry: Optional["Registry"] = None,
) -> Dict[str, Any]:
    """How well ``answers`` follow their format, in aggregate: the dict
    ``flexmd report --json`` prints (per group of ``group_by`` fields: the
    valid share with its 95% Wilson interval, the lenient share, each
    error, leniency and repair by code, each section's problems, lengths
    in tokens, the worst answers; and the lines that hold no answer). With
    ``html``, the self-contained HTML page is written there too."""

def frame(
    answers: Union[str, "PathLike[str]", Iterable[Union[Dict[str, Any], str]]],
    spec: Union["Spec", str, None] = None,
    schema: Any = None,
    *,
    group_by: Iterable[str] = (),
    field: str = "response",
    preset: Literal["strict", "standard", "salvage"] = "standard",
    strict: bool = False,
    answers_of: Union[str, "PathLike[str]", None] = None,
    jobs: int = 0,
    registry: Optional["Registry"] = None,
) -> Any:
    """One row per answer as a pandas ``DataFrame``: ``line``, one column
    per ``group_by`` field, ``valid``, ``lenient``, ``errors``,
    ``warnings``, ``repairs`` (lists of codes) and ``tokens``. Needs
    pandas."""
