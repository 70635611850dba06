"""What the MCP end-to-end tests share: the root a server is started on."""

from __future__ import annotations

from pathlib import Path

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
