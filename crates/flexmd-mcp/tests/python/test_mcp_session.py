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
from mcp_helpers import field, is_error, page_through, root, text  # noqa: F401 (root: a fixture)

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
        lines, pages = await page_through(session, "artifact_grep", grep)
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


# Hostile calls through the official client: every one ends with a result
# or an error within PATIENCE seconds (the SDK has no timeout of its own).
PATIENCE = 30


try:  # mcp 2
    from mcp.shared.exceptions import MCPError as ProtocolError
except ImportError:  # mcp 1
    from mcp.shared.exceptions import McpError as ProtocolError  # type: ignore[attr-defined,no-redef]


def run_hostile(root: Path, body: Any, *flags: str) -> Any:
    from datetime import timedelta

    from importlib.metadata import version

    # mcp 1 takes a timedelta, mcp 2 seconds.
    major = int(version("mcp").split(".")[0])
    timeout: Any = PATIENCE if major >= 2 else timedelta(seconds=PATIENCE)

    async def main() -> Any:
        server = StdioServerParameters(command=CLI, args=["mcp", "--root", str(root), *flags])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=timeout) as session:
                await session.initialize()
                return await body(session)

    return asyncio.run(asyncio.wait_for(main(), timeout=4 * PATIENCE))


def test_hostile_calls_get_answers(root: Path) -> None:
    for i in range(25):
        (root / f"f{i}.log").write_text(f"line {i}\n")

    async def body(session: ClientSession) -> None:
        # Data nested past the server's bound: a JSON-RPC error, not silence.
        deep: Any = []
        for _ in range(130):
            deep = [deep]
        with pytest.raises(ProtocolError) as refused:
            await session.call_tool(
                "schema_validate", {"schema_name": "implementation", "data": deep}
            )
        assert "nests 13" in str(refused.value) and "at most 127" in str(refused.value)

        # A message over --max-message-bytes (1 MB here).
        with pytest.raises(ProtocolError) as too_long:
            await session.call_tool("detect", {"text": "x" * 2_000_000})
        assert "--max-message-bytes" in str(too_long.value)

        # Wrong argument types: a tool error saying what is wrong.
        wrong = await session.call_tool("detect", {"text": 5})
        assert is_error(wrong)
        assert "text" in text(wrong)

        # A budget past the ceiling is lowered to it, and the result says so.
        opened = await session.call_tool("artifact_open", {"path": "logs/app.log"})
        assert not is_error(opened)
        capped = await session.call_tool(
            "artifact_grep",
            {"callId": "logs/app.log", "pattern": "GET", "max_tokens": 10**12},
        )
        notes = [json.loads(c.text) for c in capped.content[1:]]
        assert {"max_tokens_capped": 10**12, "max_tokens": 2000} in [
            {k: n.get(k) for k in ("max_tokens_capped", "max_tokens")} for n in notes
        ]

        # Past --max-open (20): refused, and the tool list stays small.
        for i in range(19):
            ok = await session.call_tool("artifact_open", {"path": f"f{i}.log"})
            assert not is_error(ok)
        refused_open = await session.call_tool("artifact_open", {"path": "f24.log"})
        assert is_error(refused_open)
        assert "--max-open" in text(refused_open)
        tools = await session.list_tools()
        size = len(json.dumps([t.model_dump(mode="json") for t in tools.tools]))
        assert size < 20_000, size

        await session.send_ping()

    run_hostile(
        root,
        body,
        "--max-message-bytes",
        "1000000",
        "--max-open",
        "20",
        "--max-result-tokens",
        "2000",
    )


# Lines the SDK cannot send (it refuses a lone surrogate itself), as raw
# bytes: each gets an error with the code given, or (None) a result.
RAW_LINES: dict[str, tuple[bytes, int | None]] = {
    # A lone surrogate, as JSON.stringify writes it: read as U+FFFD.
    "lone_surrogate": (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call",'
        b'"params":{"name":"json_find","arguments":{"text":"say {\\"a\\": \\"\\ud800\\"}"}}}',
        None,
    ),
    "not_json": (b"not json", -32700),
    "invalid_utf8": (b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"\xff"}', -32700),
    "cut_short": (b'{"jsonrpc":"2.0","id":1,"method":"tools/c', -32700),
    "not_an_object": (b"[1, 2]", -32600),
    "no_jsonrpc": (b'{"id": 1, "method": "ping"}', -32600),
    "params_not_an_object": (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":5}', -32602),
    "arguments_not_an_object": (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call",'
        b'"params":{"name":"detect","arguments":5}}',
        -32602,
    ),
}


@pytest.mark.parametrize("case", sorted(RAW_LINES))
def test_lines_no_client_would_send_get_an_error(case: str, root: Path) -> None:
    line, code = RAW_LINES[case]
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    session = b"\n".join(
        [
            json.dumps(init).encode(),
            b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
            line,
            b'{"jsonrpc":"2.0","id":99,"method":"ping"}',
            b"",
        ]
    )
    server = subprocess.Popen(
        [CLI, "mcp", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(session)
        server.stdin.flush()
        answers: list[dict[str, Any]] = []
        # Read until the line's answer and the ping's; a hang fails
        # through the timeout.
        import threading

        done = threading.Event()

        def read() -> None:
            assert server.stdout is not None
            # A result comes back with id 1, an error with 1 or null.
            for raw in server.stdout:
                answers.append(json.loads(raw))
                ids = [a.get("id") for a in answers]
                if 99 in ids and (1 in ids or (code is not None and None in ids)):
                    break
            done.set()

        threading.Thread(target=read, daemon=True).start()
        assert done.wait(PATIENCE), f"no answer in {PATIENCE} s: {answers}"
    finally:
        server.kill()
        _, stderr = server.communicate()
    errors = [a for a in answers if "error" in a]
    if code is None:
        assert errors == [], answers
        found = [a for a in answers if a.get("id") == 1]
        assert json.loads(found[0]["result"]["content"][0]["text"]) == {"a": "\ufffd"}
        assert "lone surrogate escape(s) read as U+FFFD" in stderr.decode(), stderr
        return
    assert len(errors) == 1, answers
    assert errors[0]["error"]["code"] == code, errors
    assert f"error {code}" in stderr.decode(), stderr


def _hostile_inputs() -> dict[str, bytes]:
    """The CLI's hostile inputs (crates/flexmd-cli/tests/hostile/inputs.json)."""
    import importlib.util

    path = Path(__file__).resolve().parents[3] / "flexmd-cli/tests/hostile/inputs.py"
    spec = importlib.util.spec_from_file_location("hostile_inputs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.hostile_inputs()


def test_hostile_inputs_get_answers_as_the_cli_gives_them(root: Path, tmp_path: Path) -> None:
    """Every hostile input of the CLI's suite, through every tool that reads
    text, in one session: each call answers within PATIENCE seconds, and the
    checks' JSON is the CLI's for the same text. A JSON-RPC message cannot
    carry invalid UTF-8: the text tools get it decoded with U+FFFD, as a
    client would send it; `artifact_open` reads the raw bytes."""
    inputs = _hostile_inputs()
    spec_file = tmp_path / "spec.md"
    spec_file.write_text(SPEC)
    for name, data in inputs.items():
        (root / f"{name}.md").write_bytes(data)

    def same_as_cli(result: Any, *args: str, text_file: Path, empty_on_1: bool = False) -> None:
        done = subprocess.run(
            [CLI, *args, str(text_file)], capture_output=True, text=True, check=False
        )
        if not done.stdout and not empty_on_1:
            # Nothing found: the CLI says so on stderr, the tool in an error.
            assert is_error(result) and text(result).strip(), args
            return
        expected: Any = [] if empty_on_1 and done.returncode == 1 else json.loads(done.stdout)
        assert not is_error(result), (args, text(result))
        assert json.loads(text(result)) == expected, (text_file.name, args)

    async def body(session: ClientSession) -> None:
        for name, data in inputs.items():
            decoded = data.decode("utf-8", "replace")
            text_file = tmp_path / f"{name}.txt"
            text_file.write_text(decoded, encoding="utf-8")
            validated = await session.call_tool("ofs_validate", {"spec": SPEC, "response": decoded})
            same_as_cli(validated, "validate", "--json", "--spec", str(spec_file), text_file=text_file)
            found = await session.call_tool("json_find", {"text": decoded, "all": True})
            same_as_cli(found, "json", "--all", text_file=text_file)
            detected = await session.call_tool("detect", {"text": decoded})
            same_as_cli(detected, "detect", text_file=text_file, empty_on_1=True)
            checked = await session.call_tool(
                "schema_validate", {"data": decoded, "schema_name": "plan"}
            )
            same_as_cli(
                checked, "schema", "validate", "--json", "--schema", "plan", "--hints",
                text_file=text_file,
            )
            extracted = await session.call_tool("ofs_extract", {"spec": SPEC, "response": decoded})
            assert text(extracted), name

            opened = await session.call_tool("artifact_open", {"path": f"{name}.md", "as": "markdown"})
            assert not is_error(opened), (name, text(opened))
            for tool, args in [
                ("grep", ["pattern=(x+x+)+y"]),
                ("md_sections", []),
                ("md_ast", []),
                ("md_frontmatter", []),
                ("md_text", []),
            ]:
                arguments = dict(a.split("=", 1) for a in args)
                answered = await session.call_tool(
                    f"artifact_{tool}", {"callId": f"{name}.md", **arguments}
                )
                done = subprocess.run(
                    [CLI, "artifact", tool.replace("_", "-"), str(root / f"{name}.md"),
                     "--as", "markdown", *args],
                    capture_output=True, text=True, check=False,
                )
                if is_error(answered) and "more than `max_tokens`" in text(answered):
                    # One line past the server's budget (the CLI has none):
                    # the error says how to read it.
                    assert "narrow the call" in text(answered), (name, tool)
                elif is_error(answered):
                    # The CLI refused too, with the same message.
                    assert done.returncode == 1 and not done.stdout, (name, tool)
                    assert text(answered) == done.stderr.strip(), (name, tool)
                elif len(answered.content) == 1 and "[truncated: " not in done.stdout:
                    assert text(answered) == done.stdout.rstrip("\n"), (name, tool)
                else:
                    # Past a budget (the server's pages, the CLI's cut): the
                    # same text up to the shorter one's end.
                    shown = done.stdout.split("\n[truncated: ")[0]
                    first = text(answered)
                    assert first[: len(shown)] == shown[: len(first)], (name, tool)
        await session.send_ping()

    run_hostile(root, body)
