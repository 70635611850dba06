"""`flexmd mcp --http` end to end with the official Python MCP SDK's
Streamable HTTP client: the handshake with a bearer token, the artifact and
check tools, a large grep paged through its cursors, two clients whose
sessions cannot see each other's files or cursors, and the refusals a
server on a network owes its clients: a wrong token (401), a foreign Origin
(403), an oversized body (413), an expired session (404, after which a fresh
initialize works). Results are compared with what the `flexmd` CLI prints."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest
from mcp_helpers import is_error, page_through, root, text  # noqa: F401 (root: a fixture)

mcp = pytest.importorskip(
    "mcp", reason="the MCP SDK (pip install mcp) could not be installed here"
)
from mcp import ClientSession  # noqa: E402

try:  # mcp 2
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
except ImportError:  # pragma: no cover - mcp 1 names it differently
    pytest.skip("this test speaks mcp 2's Streamable HTTP client", allow_module_level=True)

CLI = os.environ.get(
    "FLEXMD_CLI", str(Path(__file__).resolve().parents[4] / "target/debug/flexmd")
)
TOKEN = "0123456789abcdef-not-a-real-secret"
SPEC = "## Output format\n- Summary — prose.\n- Steps — ordered list.\n"


def cli(*args: str, stdin: str | None = None) -> str:
    """What the CLI prints for the same input."""
    return subprocess.run(
        [CLI, *args], input=stdin, capture_output=True, text=True, check=False
    ).stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(tmp_path: Path, root: Path, *flags: str) -> Iterator[str]:
    """`flexmd mcp --http` on a free loopback port; yields its URL and
    stops it with SIGTERM, which must end it cleanly (exit 0)."""
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    port = free_port()
    process = subprocess.Popen(
        [CLI, "mcp", "--http", f"127.0.0.1:{port}", "--token-file", str(token_file),
         "--root", str(root), *flags],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                assert time.monotonic() < deadline, "the server did not start listening"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert code == 0


async def connect(url: str, body: Any, token: str = TOKEN) -> Any:
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                assert init.server_info.name == "flexmd"
                return await body(session)


def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    """A raw POST: the status and the body, whatever the status."""
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        **headers,
    })
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "raw", "version": "0"}},
}).encode()


def test_tools_over_http_page_like_stdio(tmp_path: Path, root: Path) -> None:
    log = root / "logs" / "app.log"

    async def body(session: ClientSession) -> None:
        opened = await session.call_tool("artifact_open", {"path": "logs/app.log"})
        assert not is_error(opened)
        assert json.loads(text(opened))["lines"] == 4001

        grep = {"callId": "logs/app.log", "pattern": " 500$", "lineNumbers": True}
        whole = await session.call_tool("artifact_grep", grep)
        expected = cli("artifact", "grep", str(log), "pattern= 500$", "lineNumbers=true")
        assert text(whole) == expected.rstrip("\n")

        lines, pages = await page_through(session, "artifact_grep", grep)
        assert pages > 5
        assert lines == text(whole).splitlines()

        answer = "## Summary\nAll good.\n"
        report = json.loads(text(await session.call_tool(
            "ofs_validate", {"spec": SPEC, "response": answer})))
        spec_file = tmp_path / "spec.md"
        spec_file.write_text(SPEC)
        assert report == json.loads(cli("validate", "--json", "--spec", str(spec_file), stdin=answer))
        found = json.loads(text(await session.call_tool(
            "json_find", {"text": 'Sure: {"a": 1,}'})))
        assert found == {"a": 1}

    with server(tmp_path, root) as url:
        asyncio.run(connect(url, body))


def test_two_sessions_see_only_their_own_files_and_cursors(tmp_path: Path, root: Path) -> None:
    grep = {"callId": "logs/app.log", "pattern": " 500$", "max_tokens": 500}

    async def both(url: str) -> None:
        first_open = asyncio.Event()
        second_done = asyncio.Event()
        given: dict[str, str] = {}

        async def first(session: ClientSession) -> None:
            await session.call_tool("artifact_open", {"path": "logs/app.log"})
            page = await session.call_tool("artifact_grep", grep)
            given["cursor"] = json.loads(page.content[1].text)["cursor"]
            first_open.set()
            await second_done.wait()
            # Its own cursor still works here.
            again = await session.call_tool("artifact_grep", {**grep, "cursor": given["cursor"]})
            assert not is_error(again)

        async def second(session: ClientSession) -> None:
            await first_open.wait()
            try:
                names = [t.name for t in (await session.list_tools()).tools]
                assert "artifact_grep" not in names
                unseen = await session.call_tool("artifact_grep", grep)
                assert is_error(unseen)
                assert text(unseen).startswith(
                    "unknown tool `artifact_grep` (no file is open yet: artifact_open one first)")
                # The same file opened here: the other session's cursor is
                # still not one this session gave.
                await session.call_tool("artifact_open", {"path": "logs/app.log"})
                stolen = await session.call_tool("artifact_grep", {**grep, "cursor": given["cursor"]})
                assert is_error(stolen)
                assert "is not one this call returned" in text(stolen)
                # The error quotes the cursor as it was sent.
                assert f'`cursor` "{given["cursor"]}"' in text(stolen)
            finally:
                second_done.set()

        await asyncio.gather(connect(url, first), connect(url, second))

    with server(tmp_path, root) as url:
        asyncio.run(both(url))


def test_refusals_wrong_token_foreign_origin_oversized_body(tmp_path: Path, root: Path) -> None:
    with server(tmp_path, root, "--max-message-bytes", "100000") as url:
        status, body = post(url, INITIALIZE, {"Authorization": "Bearer wrong"})
        assert status == 401
        assert "Authorization: Bearer TOKEN" in json.loads(body)["error"]["message"]
        status, _ = post(url, INITIALIZE, {})
        assert status == 401

        auth = {"Authorization": f"Bearer {TOKEN}"}
        status, _ = post(url, INITIALIZE, {**auth, "Origin": "https://evil.example"})
        assert status == 403

        big = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping",
                          "params": {"pad": "x" * 200_000}}).encode()
        status, body = post(url, big, auth)
        assert status == 413
        assert "100000 bytes" in json.loads(body)["error"]["message"]

        # Malformed JSON-RPC: an error, and the server goes on serving.
        status, _ = post(url, b"{not json", auth)
        assert status == 400
        status, _ = post(url, INITIALIZE, auth)
        assert status == 200

        async def ping(session: ClientSession) -> None:
            await session.send_ping()

        asyncio.run(connect(url, ping))


def test_an_expired_session_is_404_and_a_fresh_one_works(tmp_path: Path, root: Path) -> None:
    with server(tmp_path, root, "--session-idle", "1") as url:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        request = urllib.request.Request(url, data=INITIALIZE, method="POST", headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **auth,
        })
        with urllib.request.urlopen(request, timeout=30) as response:
            session = response.headers["Mcp-Session-Id"]
            response.read()
        assert session
        time.sleep(3)
        ping = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}).encode()
        status, _ = post(url, ping, {**auth, "Mcp-Session-Id": session,
                                     "MCP-Protocol-Version": "2025-06-18"})
        assert status == 404

        async def fresh(session: ClientSession) -> str:
            return text(await session.call_tool("schema_list", {}))

        assert json.loads(asyncio.run(connect(url, fresh))) == json.loads(cli("schema", "list"))


def test_sigterm_under_load_lets_calls_finish_and_exits_0(tmp_path: Path, root: Path) -> None:
    """Ten clients grep and validate in a loop; SIGTERM arrives meanwhile.
    The server must exit 0 within its shutdown deadline, with no hung task;
    the clients see their sessions end (their errors are expected)."""
    import threading

    stop = threading.Event()
    answered: list[int] = []

    async def busy(session: ClientSession) -> None:
        await session.call_tool("artifact_open", {"path": "logs/app.log"})
        while not stop.is_set():
            await session.call_tool("artifact_grep", {"callId": "logs/app.log", "pattern": " 500$"})
            await session.call_tool("ofs_validate", {"spec": SPEC, "response": "## Summary\nOk.\n"})
            answered.append(1)

    def clients(url: str) -> None:
        async def main() -> None:
            async def one() -> None:
                try:
                    await connect(url, busy)
                except BaseException:  # noqa: BLE001 - the server went away, as it should
                    pass

            await asyncio.wait_for(asyncio.gather(*(one() for _ in range(10))), timeout=60)

        asyncio.run(main())

    with server(tmp_path, root, "--shutdown-deadline", "5") as url:
        thread = threading.Thread(target=clients, args=(url,))
        thread.start()
        deadline = time.monotonic() + 30
        while len(answered) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(answered) >= 20, "the clients did not get going"
        started = time.monotonic()
    # Leaving the block sent SIGTERM and checked the exit code (0).
    assert time.monotonic() - started < 5 + 5
    stop.set()
    thread.join(timeout=60)
    assert not thread.is_alive()
