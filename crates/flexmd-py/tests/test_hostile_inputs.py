"""The CLI's hostile inputs (deep nesting of each construct, invalid UTF-8,
NUL bytes, lone CR, a byte order mark, a YAML alias bomb, empty; recipes in
``crates/flexmd-cli/tests/hostile/inputs.json``) through every Python entry
point that reads text. Each input runs in a child interpreter with a time
limit, so a crash or a hang fails its test; each result must equal what the
CLI prints for the same input, and where the CLI prints only an error, the
Python call must raise a :class:`flexmd.FlexmdError` (or, for text that is
not UTF-8, the ``ValueError`` Python raises for a lone surrogate)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

from conftest import ROOT, SPEC, Cli, in_code_points

# Every input ends within this many seconds, all calls together.
LIMIT = 120

_spec = importlib.util.spec_from_file_location(
    "hostile_inputs", ROOT / "crates/flexmd-cli/tests/hostile/inputs.py"
)
assert _spec is not None and _spec.loader is not None
_recipes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_recipes)
INPUTS: Dict[str, bytes] = _recipes.hostile_inputs()

# Each call: the Python code (over `text`, `path` and `spec`), the CLI
# arguments (FILE and SPEC stand for the paths), and how to read the CLI's
# output as the value the Python call returns.
CALLS: Dict[str, Tuple[str, List[str], str]] = {
    "outline": ("flexmd.outline(text)", ["outline", "FILE"], "json"),
    "frames": ("flexmd.parse_flexmd(text)", ["frames", "parse", "FILE"], "json"),
    "ofs-parse": ("flexmd.Spec.parse(text).to_dict()", ["ofs", "parse", "FILE"], "json"),
    "validate": ("spec.validate(text)", ["validate", "--json", "--spec", "SPEC", "FILE"], "points"),
    "extract": ("spec.extract(text)", ["extract", "--spec", "SPEC", "FILE"], "json"),
    "extract-stream": (
        "(lambda s: s.push(text) + s.finish())(spec.stream())",
        ["extract", "--stream", "--spec", "SPEC", "FILE"],
        "lines",
    ),
    "detect": ("flexmd.detect_objects(text)", ["detect", "FILE"], "points-or-empty"),
    "parse-any": ("flexmd.parse_any(text)", ["parse-any", "FILE"], "json"),
    "json": ("flexmd.find_json(text, all=True)", ["json", "--all", "FILE"], "points-or-empty"),
    "json-stream": (
        "(lambda s: [u for u in [s.push(text)] if u] + [s.finish()])(flexmd.StreamingJson())",
        ["json", "--stream", "FILE"],
        "lines",
    ),
    "json-schema": (
        "flexmd.find_json_as(text, 'review')",
        ["json", "--schema", "review", "--repairs", "FILE"],
        "points",
    ),
    "schema": (
        "flexmd.validate(text, 'plan', report=True, hints=True)",
        ["schema", "validate", "--json", "--schema", "plan", "--hints", "FILE"],
        "json",
    ),
    "grep": ("flexmd.Artifact.open(path).grep('(x+x+)+y')", ["artifact", "grep", "FILE", "(x+x+)+y"], "tool"),
    "md-sections": (
        "flexmd.Artifact.open(path, kind='markdown').md_sections()",
        ["artifact", "md-sections", "FILE", "--as", "markdown"],
        "tool",
    ),
    "md-ast": (
        "flexmd.Artifact.open(path, kind='markdown').md_ast()",
        ["artifact", "md-ast", "FILE", "--as", "markdown"],
        "tool",
    ),
    "md-frontmatter": (
        "flexmd.Artifact.open(path, kind='markdown').md_frontmatter()",
        ["artifact", "md-frontmatter", "FILE", "--as", "markdown"],
        "tool",
    ),
    "json-get": (
        "flexmd.Artifact.open(path, kind='json').json_get('$..*')",
        ["artifact", "json-get", "FILE", "$..*", "--as", "json"],
        "tool",
    ),
    "tools": ("flexmd.forge_tools([flexmd.Artifact.open(path)]).definitions", ["tools", "FILE"], "json"),
    "spec-grammar": (
        "flexmd.Spec.parse(text).grammar(format='lark')",
        ["grammar", "--spec", "FILE", "--format", "lark"],
        "text",
    ),
}

# Runs every call on one input and writes `{call: {"ok": value} | {"error": [...]}}`.
CHILD = """
import json, sys
import flexmd
path, spec_path, out = sys.argv[1:4]
text = open(path, "rb").read().decode("utf-8", "surrogateescape")
spec = flexmd.Spec.parse(open(spec_path, encoding="utf-8").read())
calls = json.loads(sys.stdin.read())
results = {}
for name, code in calls.items():
    try:
        results[name] = {"ok": eval(code)}
    except Exception as e:
        results[name] = {"error": [[c.__name__ for c in type(e).__mro__], str(e)]}
with open(out, "w", encoding="utf-8") as f:
    json.dump(results, f)
"""


def lines(out: str) -> List[Any]:
    return [json.loads(line) for line in out.splitlines()]


class Truncated(str):
    """The part of a result the CLI shows within its budget (a tool's
    result past it ends with a `[truncated: …]` line)."""

    def __eq__(self, value: object) -> bool:
        return json.dumps(value, indent=2, ensure_ascii=False).startswith(self)

    __hash__ = str.__hash__


def tool(out: str) -> Any:
    if "\n[truncated: " in out:
        return Truncated(out[: out.index("\n[truncated: ")])
    return {"(empty list)\n": [], "(undefined)\n": None}.get(out) if out in (
        "(empty list)\n",
        "(undefined)\n",
    ) else json.loads(out)


READERS: Dict[str, Callable[[int, str, str], Any]] = {
    "json": lambda code, out, text: json.loads(out),
    "points": lambda code, out, text: in_code_points(json.loads(out), text),
    "points-or-empty": lambda code, out, text: [] if code == 1 else in_code_points(json.loads(out), text),
    "lines": lambda code, out, text: in_code_points(lines(out), text),
    "tool": lambda code, out, text: tool(out),
    "text": lambda code, out, text: out,
}


@pytest.mark.parametrize("name", list(INPUTS))
def test_every_call_answers_a_hostile_input_as_the_cli_does(
    name: str, flexmd_cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / name
    path.write_bytes(INPUTS[name])
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(SPEC), str(out)],
        input=json.dumps({call: code for call, (code, _, _) in CALLS.items()}),
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert done.returncode == 0, f"the interpreter ended with {done.returncode}: {done.stderr}"
    results = json.loads(out.read_text(encoding="utf-8"))
    text = INPUTS[name].decode("utf-8", "surrogateescape")
    for call, (_, args, reader) in CALLS.items():
        cli = subprocess.run(
            [str(flexmd_cli.path), *(str(path) if a == "FILE" else str(SPEC) if a == "SPEC" else a for a in args)],
            capture_output=True,
            text=True,
            cwd=flexmd_cli.cwd,
            timeout=LIMIT,
        )
        got = results[call]
        if reader == "points-or-empty" and cli.returncode == 1:
            # Nothing found: the CLI says so on stderr, Python returns [].
            assert got == {"ok": []}, call
        elif not cli.stdout:
            # The CLI refused with an error: so must Python.
            assert "error" in got, f"{call}: the CLI refused ({cli.stderr.strip()}), Python returned"
            kinds, message = got["error"]
            expected = "ValueError" if name == "invalid_utf8" else "FlexmdError"
            assert expected in kinds, f"{call}: {kinds} {message}"
            assert message.strip(), call
        else:
            assert "ok" in got, f"{call}: the CLI answered, Python raised {got['error']}"
            assert READERS[reader](cli.returncode, cli.stdout, text) == got["ok"], call


# The hostile JSON Schemas of the same file (`{"type": "string"}` wrapped n
# times in a template: deep nesting at, over and far past the bounds)
# through every call that reads a schema, passed as the dict `json.loads`
# makes of the text. Each result equals what the CLI prints; where the CLI
# refuses, the call raises a FlexmdError, or the RecursionError Python's own
# JSON reader raises past its depth.
SCHEMAS: Dict[str, str] = _recipes.hostile_schemas()

SCHEMA_CALLS: Dict[str, Tuple[str, List[str], str]] = {
    **{
        f"grammar-{f}": (
            f"flexmd.grammar(json.loads(text), format={f!r})",
            ["grammar", "--schema", "FILE", "--format", f],
            "text",
        )
        for f in ("lark", "gbnf", "ebnf", "regex")
    },
    **{
        f"export-{p}": (
            f"flexmd.export_schema(json.loads(text), {p!r}, name='hostile')",
            ["schema", "export", "FILE", "--for", p, "--name", "hostile", "--json"],
            "json",
        )
        for p in ("openai", "openai-tool", "anthropic", "anthropic-tool", "gemini")
    },
}



@pytest.mark.parametrize("name", list(SCHEMAS))
def test_every_call_answers_a_hostile_schema_as_the_cli_does(
    name: str, flexmd_cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(SCHEMAS[name], encoding="utf-8")
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(SPEC), str(out)],
        input=json.dumps({call: code for call, (code, _, _) in SCHEMA_CALLS.items()}),
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert done.returncode == 0, f"the interpreter ended with {done.returncode}: {done.stderr}"
    results = json.loads(out.read_text(encoding="utf-8"))
    for call, (_, args, reader) in SCHEMA_CALLS.items():
        cli = subprocess.run(
            [str(flexmd_cli.path), *(str(path) if a == "FILE" else a for a in args)],
            capture_output=True,
            text=True,
            cwd=flexmd_cli.cwd,
            timeout=LIMIT,
        )
        got = results[call]
        if not cli.stdout:
            assert "error" in got, f"{call}: the CLI refused ({cli.stderr.strip()}), Python returned"
            kinds, message = got["error"]
            assert "FlexmdError" in kinds or "RecursionError" in kinds, f"{call}: {kinds} {message}"
            assert message.strip(), call
        else:
            assert "ok" in got, f"{call}: the CLI answered, Python raised {got['error']}"
            assert READERS[reader](cli.returncode, cli.stdout, "") == got["ok"], call
