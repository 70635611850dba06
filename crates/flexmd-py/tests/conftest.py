"""Shared fixtures: the bundled examples and the `flexmd` CLI to compare with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[3]
# Every bundled example (a folder's README describes its examples; it is none).
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.md") if p.name != "README.md")
SPEC = ROOT / "examples" / "specs" / "answer.md"


def _find_cli() -> Optional[Path]:
    """The CLI the suite compares with: $FLEXMD_CLI, else the workspace's
    newest build, else one on PATH."""
    if os.environ.get("FLEXMD_CLI"):
        return Path(os.environ["FLEXMD_CLI"])
    builds = [
        p for p in (ROOT / "target" / "debug" / "flexmd", ROOT / "target" / "release" / "flexmd")
        if p.exists()
    ]
    if builds:
        return max(builds, key=lambda p: p.stat().st_mtime)
    found = shutil.which("flexmd")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def cli() -> Path:
    path = _find_cli()
    if path is None:
        subprocess.run(["cargo", "build", "-p", "flexmd-cli"], cwd=ROOT, check=True)
        path = ROOT / "target" / "debug" / "flexmd"
    return path


class Cli:
    """Runs the CLI from an empty directory (no project config applies)."""

    def __init__(self, path: Path, cwd: Path) -> None:
        self.path = path
        self.cwd = cwd

    def run(self, *args: Any, stdin: Optional[str] = None) -> Tuple[int, str]:
        done = subprocess.run(
            [str(self.path), *map(str, args)],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.cwd,
            timeout=120,
        )
        assert done.returncode in (0, 1), done.stderr
        return done.returncode, done.stdout

    def json(self, *args: Any, stdin: Optional[str] = None) -> Any:
        code, out = self.run(*args, stdin=stdin)
        assert out.strip(), f"flexmd {' '.join(map(str, args))} printed nothing (exit {code})"
        return json.loads(out)

    def tool(self, *args: Any) -> Any:
        """What `flexmd artifact OP` prints, as the value it stands for: the
        tools print an empty list as `(empty list)`, nothing as `(undefined)`."""
        out = self.run(*args)[1]
        return {"(empty list)\n": [], "(undefined)\n": None}.get(out) if out in (
            "(empty list)\n",
            "(undefined)\n",
        ) else json.loads(out)

    def text(self, *args: Any) -> str:
        return self.run(*args)[1]


@pytest.fixture(scope="session")
def flexmd_cli(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(cli, tmp_path_factory.mktemp("cwd"))


def example_ids(paths: List[Path]) -> List[str]:
    return [str(p.relative_to(ROOT / "examples")) for p in paths]


# Keys whose integer values are byte offsets in the CLI's JSON, and keys
# that hold the user's data (which may have keys of those names).
OFFSET_KEYS = ("start", "end", "offset")
DATA_KEYS = ("value", "patches", "before", "after", "result", "data")


def in_code_points(value: Any, text: str) -> Any:
    """The CLI's JSON for `text` with its byte offsets (`start`, `end`,
    `offset`, `span`) as code-point indices, the unit the Python API
    returns: `text[start:end]` is then what they cover."""
    to_index = {}
    at = 0
    for i, c in enumerate(text):
        to_index[at] = i
        at += len(c.encode("utf-8"))
    to_index[at] = len(text)

    def walk(v: Any) -> Any:
        if isinstance(v, dict):
            return {
                k: to_index[x]
                if k in OFFSET_KEYS and type(x) is int
                else (x if k in DATA_KEYS else walk(x))
                for k, x in v.items()
            }
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return walk(value)
