"""The hostile inputs of ``inputs.json`` as bytes and its hostile schemas
as JSON text, for the Python and MCP suites (the CLI's suite reads the same recipes in Rust, the npm suite in
JavaScript)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

RECIPES = Path(__file__).with_name("inputs.json")


def piece(p: Any) -> bytes:
    """One piece: a string, ``[string, n]``, ``{"bytes": [...]}`` or
    ``{"stair": [indent, line, n]}``."""
    if isinstance(p, str):
        return p.encode("utf-8")
    if isinstance(p, list):
        return (p[0] * p[1]).encode("utf-8")
    if "bytes" in p:
        return bytes(p["bytes"])
    indent, line, n = p["stair"]
    return "".join(indent * i + line for i in range(n)).encode("utf-8")


def hostile_inputs() -> Dict[str, bytes]:
    """Every input, by name, in the file's order."""
    doc = json.loads(RECIPES.read_text(encoding="utf-8"))
    return {name: b"".join(piece(p) for p in pieces) for name, pieces in doc["inputs"]}


def hostile_schemas() -> Dict[str, str]:
    """Every hostile schema, by name, as JSON text: ``{"type": "string"}``
    wrapped n times in the recipe's template (prefix n times, the inner
    schema, suffix n times, so a depth past what JSON parsers read can still
    be written)."""
    doc = json.loads(RECIPES.read_text(encoding="utf-8"))
    schemas = {}
    for name, (template, n) in doc["schemas"]:
        prefix, suffix = json.dumps(template, separators=(",", ":")).split('"$HOLE"')
        schemas[name] = prefix * n + '{"type":"string"}' + suffix * n
    return schemas
