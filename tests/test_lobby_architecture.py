"""The lobby's import rules (as tests/test_architecture.py for the rest): its state stays pure.

The lobby's state (tables, floor, arrange, the sample floor) imports only the
pure core (game, roads, table) and itself, nothing impure; the whole package never draws and never
wires
the app or the commands; only ``scoreboard.link.client`` talks to paho.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scoreboard" / "lobby"
PURE = ("tables", "floor", "arrange", "sample")
#: The pure core's rooms.
CORE = ("scoreboard.game", "scoreboard.roads", "scoreboard.table")
IMPURE = ("pygame", "paho", "yaml", "os", "pathlib", "io", "socket", "shutil", "tempfile",
          "threading", "time", "logging", "subprocess", "sqlite3")  # fmt: skip


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: use absolute imports"
            found.add(node.module or "")
    return found


def within(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("module", PURE)
def test_the_lobby_state_imports_only_the_core_and_itself(module: str) -> None:
    allowed = (*CORE, *(f"scoreboard.lobby.{name}" for name in PURE))
    bad = [
        name
        for name in imports(PACKAGE / f"{module}.py")
        if (within(name, "scoreboard") and not within(name, *allowed)) or within(name, *IMPURE)
    ]
    assert bad == []


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_lobby_package_never_draws_nor_wires_the_app(path: Path) -> None:
    banned = ("pygame", "paho", "scoreboard.screen", "scoreboard.kiosk", "scoreboard.cli")
    assert [name for name in imports(path) if within(name, *banned)] == []


def test_the_checker_sees_an_impure_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("def f():\n    import time\n    from scoreboard.screen.board import grid\n")
    assert {"time", "scoreboard.screen.board"} <= imports(sample)
