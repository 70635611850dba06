"""`flexmd mcp` end to end with the official Python MCP SDK (`mcp` from
PyPI) as the client: the handshake, the tool list, opening a file under a
root, grep, a result paged through its cursors, a failing answer, and the
refusals. Every result is compared with what the `flexmd` CLI prints."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip(
    "mcp", reason="the MCP SDK (pip install mcp) could not be installed here"
)
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

CLI = os.environ.get(
    "FLEXMD_CLI", str(Path(__file__).resolve().parents[4] / "target/debug/flexmd")
)

SPEC = "## Output format\n- Summary — prose.\n- Steps — ordered list.\n"


def cli(*args: str, stdin: str | None = None) -> str:
    """What the CLI prints for the same input."""
    done = subprocess.run(
        [CLI, *args], input=stdin, capture_output=True, text=True, check=False
    )
    return done.stdout


@pytest.fixture()
def root(tmp_path: Path) -> Path:
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
    return result.content[0].text


def field(obj: Any, name: str) -> Any:
    """A field by its snake_case name (mcp 2) or its camelCase one (mcp 1)."""
    if hasattr(obj, name):
        return getattr(obj, name)
    head, *rest = name.split("_")
    return getattr(obj, head + "".join(part.title() for part in rest))


def is_error(result: Any) -> bool:
    return bool(field(result, "is_error"))


def run(root: Path, body: Any) -> Any:
    async def main() -> Any:
        server = StdioServerParameters(command=CLI, args=["mcp", "--root", str(root)])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                assert field(init, "server_info").name == "flexmd"
                return await body(session)

    return asyncio.run(main())


def test_open_grep_and_page_through_a_result(root: Path) -> None:
    log = root / "logs" / "app.log"

    async def body(session: ClientSession) -> None:
        names = [t.name for t in (await session.list_tools()).tools]
        assert names == [
            "artifact_open",
            "ofs_prompt",
            "ofs_validate",
            "ofs_extract",
            "json_find",
            "schema_validate",
            "schema_list",
            "detect",
        ]
        opened = await session.call_tool("artifact_open", {"path": "logs/app.log"})
        assert not is_error(opened)
        info = json.loads(text(opened))
        assert (info["callId"], info["kind"], info["lines"]) == ("logs/app.log", "text", 4001)
        names = [t.name for t in (await session.list_tools()).tools]
        assert "artifact_grep" in names

        grep = {"callId": "logs/app.log", "pattern": " 500$", "lineNumbers": True}
        whole = await session.call_tool("artifact_grep", grep)
        assert not is_error(whole)
        expected = cli("artifact", "grep", str(log), "pattern= 500$", "lineNumbers=true")
        assert text(whole) == expected.rstrip("\n")
        assert len(text(whole).splitlines()) == 572

        # The same result in pages of at most 500 tokens, put back together.
        lines: list[str] = []
        cursor = None
        pages = 0
        while True:
            args = {**grep, "max_tokens": 500}
            if cursor:
                args["cursor"] = cursor
            page = await session.call_tool("artifact_grep", args)
            assert not is_error(page)
            pages += 1
            lines.extend(text(page).splitlines())
            if len(page.content) == 1:
                break
            note = json.loads(page.content[1].text)
            assert note["truncated"] is True and note["omitted"]["unit"] == "lines"
            cursor = note["cursor"]
        assert pages > 5
        assert lines == text(whole).splitlines()

    run(root, body)


def test_a_failing_answer_and_bad_calls(root: Path, tmp_path: Path) -> None:
    spec_file = tmp_path / "spec.md"
    spec_file.write_text(SPEC)
    answer = "## Summary\nAll good.\n"

    async def body(session: ClientSession) -> None:
        failing = await session.call_tool("ofs_validate", {"spec": SPEC, "response": answer})
        assert not is_error(failing)
        report = json.loads(text(failing))
        assert report["ok"] is False
        assert report["errors"] == ["missing_section:Steps"]
        assert report == json.loads(
            cli("validate", "--json", "--spec", str(spec_file), stdin=answer)
        )

        bad = await session.call_tool("ofs_validate", {"spec": SPEC})
        assert is_error(bad)
        assert text(bad) == "ofs_validate: `response` is required"

        outside = await session.call_tool("artifact_open", {"path": "../secret.txt"})
        assert is_error(outside)
        assert "is outside the roots" in text(outside)
        assert str(root.resolve()) in text(outside)
        link = await session.call_tool("artifact_open", {"path": "escape.txt"})
        assert is_error(link)
        assert "is outside the roots (through `..` or a symlink)" in text(link)

        # Still serving after all that.
        await session.send_ping()
        schemas = json.loads(text(await session.call_tool("schema_list", {})))
        assert schemas == json.loads(cli("schema", "list"))
        resource = await session.read_resource(f"schema://{schemas[0]['name']}")
        assert json.loads(resource.contents[0].text) == json.loads(
            cli("schema", "show", schemas[0]["name"])
        )

    run(root, body)
