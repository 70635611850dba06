"""Load test of `flexmd mcp --http` beside the same calls over stdio.

CLIENTS concurrent clients (default 50), each CALLS tool calls (default
200) mixing a grep page (through its cursors), `json_find` and
`ofs_validate` on fixtures, through the official Python MCP SDK. Loopback
only, bounded in count and in time (it stops itself after LIMIT seconds,
default 600, and fails).

Over HTTP, one server serves every client, each in its own session; over
stdio, each client starts its own `flexmd mcp`. For each: failed calls
(must be 0), latency p50 / p99 per call, and the server's peak RSS (over
stdio, the largest process's and the sum). Over HTTP also: the RSS at
start, when idle after one client has run (what a process loads once: the
tokenizer tables), and after every session has closed or expired (a
per-session leak would keep it above the idle value).

    python benches/scripts/mcp_http_load.py [--flexmd target/release/flexmd]
        [--clients 50] [--calls 200] [--rounds 3] [--limit 600] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "load-test-token-0123456789abcdef"
SPEC = "## Output format\n- Summary — prose.\n- Steps — ordered list.\n"
ANSWER = "## Summary\nAll good.\n\n## Steps\n1. Measure\n2. Cache\n"
JSON_TEXT = 'Sure! Here it is:\n```json\n{"approved": true, "issues": ["no tests",],}\n```'


def make_root(folder: Path) -> Path:
    root = folder / "root"
    (root / "logs").mkdir(parents=True)
    lines = [
        f"2026-12-02T10:{i // 60 % 60:02}:{i % 60:02} GET /item/{i} {500 if i % 7 == 0 else 200}"
        for i in range(20000)
    ]
    (root / "logs" / "app.log").write_text("\n".join(lines) + "\n")
    return root


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int, field: str) -> int:
    """VmRSS or VmHWM of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


async def client_calls(session: ClientSession, calls: int, latencies: list[float]) -> int:
    """One client's calls; returns how many failed."""
    failed = 0
    opened = await session.call_tool("artifact_open", {"path": "logs/app.log"})
    if opened.isError if hasattr(opened, "isError") else opened.is_error:
        return calls
    cursor = None
    for i in range(calls):
        kind = i % 3
        if kind == 0:
            args: dict[str, Any] = {"callId": "logs/app.log", "pattern": " 500$", "max_tokens": 400}
            if cursor:
                args["cursor"] = cursor
            name = "artifact_grep"
        elif kind == 1:
            name, args = "json_find", {"text": JSON_TEXT}
        else:
            name, args = "ofs_validate", {"spec": SPEC, "response": ANSWER}
        started = time.perf_counter()
        try:
            result = await session.call_tool(name, args)
        except Exception:  # noqa: BLE001 - a failed call is counted, not raised
            failed += 1
            continue
        latencies.append(time.perf_counter() - started)
        if getattr(result, "is_error", getattr(result, "isError", False)):
            failed += 1
        elif name == "artifact_grep":
            cursor = json.loads(result.content[1].text)["cursor"] if len(result.content) > 1 else None
    return failed


async def over_http(url: str, calls: int, latencies: list[float]) -> int:
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await client_calls(session, calls, latencies)


async def over_stdio(flexmd: str, root: Path, calls: int, latencies: list[float],
                     pids: list[int]) -> int:
    server = StdioServerParameters(command=flexmd, args=["mcp", "--root", str(root)])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await client_calls(session, calls, latencies)


def summary(latencies: list[float], failed: int, seconds: float) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {
        "calls": len(latencies) + failed,
        "failed": failed,
        "seconds": round(seconds, 2),
        "p50_ms": round(1000 * statistics.median(ordered), 2) if ordered else None,
        "p99_ms": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 2) if ordered else None,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run_http(flexmd: str, root: Path, folder: Path, clients: int, calls: int,
                   rounds: int, settle: float) -> dict[str, Any]:
    token = folder / "token"
    token.write_text(TOKEN)
    port = free_port()
    process = subprocess.Popen(
        [flexmd, "mcp", "--http", f"127.0.0.1:{port}", "--token-file", str(token),
         "--root", str(root), "--max-sessions", str(clients + 8), "--session-idle", "5"],
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        cold = rss_kib(process.pid, "VmRSS")
        url = f"http://127.0.0.1:{port}/"
        # One client first: the tokenizer tables and the file's index are
        # loaded once per process, not per session; the idle RSS is read
        # after that.
        await over_http(url, calls, [])
        await asyncio.sleep(1)
        idle = rss_kib(process.pid, "VmRSS")
        latencies: list[float] = []
        failed = 0
        seconds = 0.0
        afters = []
        server_cpu = cpu_seconds(process.pid)
        client_cpu = time.process_time()
        for _ in range(rounds):
            started = time.perf_counter()
            failed += sum(await asyncio.gather(
                *(over_http(url, calls, latencies) for _ in range(clients))))
            seconds += time.perf_counter() - started
            if not afters:
                # The first round's CPU: the server's and this client's.
                server_cpu = cpu_seconds(process.pid) - server_cpu
                client_cpu = time.process_time() - client_cpu
            # Every client closed its session (DELETE); wait past the idle
            # expiry for any that did not, then read the RSS again. Round
            # after round, a per-session leak would make it grow.
            await asyncio.sleep(settle)
            afters.append(round(rss_kib(process.pid, "VmRSS") / 1024, 1))
        peak = rss_kib(process.pid, "VmHWM")
        after = rss_kib(process.pid, "VmRSS")
        result = summary(latencies, failed, seconds)
        result["after_each_round_rss_mib"] = afters
        result["first_round_cpu_s"] = {"server": round(server_cpu, 2), "client": round(client_cpu, 2)}
        result.update({"cold_rss_mib": round(cold / 1024, 1), "idle_rss_mib": round(idle / 1024, 1),
                       "peak_rss_mib": round(peak / 1024, 1), "after_rss_mib": round(after / 1024, 1)})
        return result
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
        if code != 0:
            raise SystemExit(f"the HTTP server exited {code} on SIGTERM")


async def run_stdio(flexmd: str, root: Path, clients: int, calls: int) -> dict[str, Any]:
    latencies: list[float] = []
    pids: list[int] = []
    peaks: dict[int, int] = {}

    async def watch() -> None:
        me = os.getpid()
        while True:
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    status = (entry / "status").read_text()
                    cmd = (entry / "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if cmd and cmd[0].endswith(b"flexmd") and b"mcp" in cmd and f"PPid:\t{me}" in status:
                    peaks[int(entry.name)] = max(peaks.get(int(entry.name), 0),
                                                 rss_kib(int(entry.name), "VmHWM"))
            await asyncio.sleep(0.2)

    watcher = asyncio.create_task(watch())
    started = time.perf_counter()
    failed = sum(await asyncio.gather(
        *(over_stdio(flexmd, root, calls, latencies, pids) for _ in range(clients))))
    seconds = time.perf_counter() - started
    watcher.cancel()
    result = summary(latencies, failed, seconds)
    result.update({
        "processes": len(peaks),
        "peak_rss_mib_largest": round(max(peaks.values(), default=0) / 1024, 1),
        "peak_rss_mib_sum": round(sum(peaks.values()) / 1024, 1),
    })
    return result


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--flexmd", default=str(ROOT / "target/release/flexmd"))
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3,
                        help="HTTP rounds of CLIENTS x CALLS on one server (the RSS after each)")
    parser.add_argument("--settle", type=float, default=7,
                        help="seconds to wait after a round before reading the RSS")
    parser.add_argument("--limit", type=float, default=600)
    parser.add_argument("--json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        root = make_root(folder)
        http = await asyncio.wait_for(run_http(args.flexmd, root, folder, args.clients, args.calls,
                                               args.rounds, args.settle),
                                      args.limit)
        stdio = await asyncio.wait_for(run_stdio(args.flexmd, root, args.clients, args.calls),
                                       args.limit)
    report = {"clients": args.clients, "calls_per_client": args.calls, "http_rounds": args.rounds,
              "http": http, "stdio": stdio}
    print(json.dumps(report, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if http["failed"] == 0 and stdio["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
