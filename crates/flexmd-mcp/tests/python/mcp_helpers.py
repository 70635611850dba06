"""What the MCP end-to-end tests share: the root a server is started on (a
fixture, imported by each test module), and readers of tool results.

Not a `conftest.py`: the Python package's tests import their own `conftest`
by name, and pytest, run over both suites at once, keeps one module of that
name: the last loaded would shadow theirs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A root with a 4 001-line log (every seventh request a 500), and a
    symlink out of it to a file beside it that must stay unreadable."""
    root = tmp_path / "root"
    (root / "logs").mkdir(parents=True)
    lines = [
        f"2026-12-02T10:{i // 60 % 60:02}:{i % 60:02} GET /item/{i} {500 if i % 7 == 0 else 200}"
        for i in range(4000)
    ]
    (root / "logs" / "app.log").write_text("\n".join(lines) + "\n")
    (tmp_path / "secret.txt").write_text("password\n")
    (root / "escape.txt").symlink_to(tmp_path / "secret.txt")
    return root


def text(result: Any) -> str:
    """A tool result's first text."""
    return result.content[0].text


def field(obj: Any, name: str) -> Any:
    """A field by its snake_case name (mcp 2) or its camelCase one (mcp 1)."""
    if hasattr(obj, name):
        return getattr(obj, name)
    head, *rest = name.split("_")
    return getattr(obj, head + "".join(part.title() for part in rest))


def is_error(result: Any) -> bool:
    return bool(field(result, "is_error"))


async def page_through(session: Any, tool: str, args: dict[str, Any]) -> tuple[list[str], int]:
    """Every line of `tool`'s result, called with `max_tokens` 500 and each
    page's cursor until a page has no note; and how many pages it took.
    Each note must say `truncated` and count in lines."""
    lines: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = await session.call_tool(
            tool, {**args, "max_tokens": 500, **({"cursor": cursor} if cursor else {})}
        )
        assert not is_error(page), text(page)
        pages += 1
        lines.extend(text(page).splitlines())
        if len(page.content) == 1:
            return lines, pages
        note = json.loads(page.content[1].text)
        assert note["truncated"] is True and note["omitted"]["unit"] == "lines"
        cursor = note["cursor"]
