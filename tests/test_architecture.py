"""The import rules of docs/architecture.md, enforced: data flows one way, the core stays pure.

Every module of the package is parsed (not imported) and each ``import`` it
makes, at the top or inside a function, is checked against the rule of its
layer.  A change that reaches back up the shape fails here with the module and
the import to move.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scoreboard"

#: What the pure core may never touch: the screen, the network, the disk, the clock.
IMPURE = ("pygame", "paho", "yaml", "os", "pathlib", "io", "socket", "shutil", "tempfile",
          "threading", "time", "logging", "subprocess", "sqlite3")  # fmt: skip


def module_name(path: Path) -> str:
    parts = path.with_suffix("").parts
    parts = parts[len(parts) - 1 - parts[::-1].index("scoreboard") :]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute, wherever the import statement stands."""
    found: set[str] = set()
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else None
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = (package or module_name(path)).split(".")
                base = ".".join(anchor[: len(anchor) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


MODULES = {module_name(path): imports(path) for path in sorted(PACKAGE.rglob("*.py"))}


def within(name: str, *prefixes: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def ours(name: str) -> bool:
    return within(name, "scoreboard")


def offending(
    module: str, allowed: tuple[str, ...] = (), banned: tuple[str, ...] = ()
) -> list[str]:
    """The imports of ``module`` outside ``allowed`` (ours) or inside ``banned`` (anything)."""
    bad = []
    for name in sorted(MODULES[module]):
        if (allowed and ours(name) and not within(name, *allowed)) or within(name, *banned):
            bad.append(name)
    return bad


def layer(prefix: str) -> list[str]:
    return [name for name in MODULES if within(name, prefix)]


def test_the_package_is_found() -> None:
    assert {"scoreboard.core.table", "scoreboard.protocol", "scoreboard.app"} <= set(MODULES)


@pytest.mark.parametrize("module", layer("scoreboard.core"))
def test_the_core_imports_only_the_core_and_nothing_impure(module: str) -> None:
    assert offending(module, allowed=("scoreboard.core",), banned=IMPURE) == []


@pytest.mark.parametrize("module", layer("scoreboard.protocol"))
def test_the_protocol_reads_and_writes_payloads_only(module: str) -> None:
    """bytes <-> events: no screen, no network client, no disk."""
    allowed = ("scoreboard.core", "scoreboard.protocol")
    assert offending(module, allowed=allowed, banned=("pygame", "paho", "yaml", "os")) == []


@pytest.mark.parametrize("module", layer("scoreboard.shoes"))
def test_the_shoes_read_and_write_bytes_only(module: str) -> None:
    """A shoe's wire <-> messages <-> table events, pure: no serial port, disk, clock or log."""
    allowed = ("scoreboard.core", "scoreboard.shoes")
    assert offending(module, allowed=allowed, banned=(*IMPURE, "serial")) == []


@pytest.mark.parametrize("module", layer("scoreboard.render"))
def test_the_renderer_never_reaches_the_feeds_or_the_network(module: str) -> None:
    allowed = ("scoreboard.core", "scoreboard.theme", "scoreboard.render")
    assert offending(module, allowed=allowed, banned=("paho",)) == []


ADAPTERS = [*layer("scoreboard.feeds"), *layer("scoreboard.journal"), "scoreboard.link"]
#: The theme's modules: what the rest of the package reads of a theme.
THEME = (
    "scoreboard.theme",
    "scoreboard.theme_values",
    "scoreboard.theme_fields",
    "scoreboard.theme_checks",
)


@pytest.mark.parametrize("module", [*ADAPTERS, *layer("scoreboard.controller")])
def test_feeds_the_link_the_controller_and_the_journal_never_draw(module: str) -> None:
    banned = ("pygame", "scoreboard.render", "scoreboard.app", *THEME)
    assert offending(module, banned=(*banned, "scoreboard.commands")) == []


#: The modules that open a serial line (pyserial): a shoe's port, or an emulated shoe's.
SERIAL_LINES = ("scoreboard.controller.emulated_shoe", "scoreboard.controller.shoe_line")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_serial_lines_import_pyserial(module: str) -> None:
    if module not in SERIAL_LINES:
        assert offending(module, banned=("serial",)) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_link_talks_to_paho(module: str) -> None:
    """One MQTT client for the display and the controller: everyone else uses the Link."""
    if module != "scoreboard.link":
        assert offending(module, banned=("paho",)) == []


@pytest.mark.parametrize("module", [*THEME, "scoreboard.config"])
def test_settings_know_nothing_of_feeds_or_the_screen_loop(module: str) -> None:
    banned = ("paho", "scoreboard.feeds", "scoreboard.journal", "scoreboard.app")
    assert offending(module, banned=(*banned, "scoreboard.render", "scoreboard.commands")) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_commands_wire_the_app_and_the_commands(module: str) -> None:
    if within(module, "scoreboard.commands", "scoreboard.cli", "scoreboard.__main__"):
        return
    banned = ("scoreboard.commands", "scoreboard.cli")
    if module != "scoreboard.app":
        banned += ("scoreboard.app",)
    assert offending(module, banned=banned) == []


#: What declaring a command's options never needs: ``scoreboard --help`` stays light.
HEAVY_FOR_THE_PARSER = ("pygame", "paho", "serial", "scoreboard.render", "scoreboard.app",
                        "scoreboard.link", "scoreboard.feeds", "scoreboard.controller",
                        "scoreboard.commands")  # fmt: skip


@pytest.mark.parametrize("module", layer("scoreboard.cli"))
def test_the_parser_imports_no_command_and_nothing_heavy(module: str) -> None:
    """A command's module is imported by name when it runs, never by the parser."""
    assert offending(module, banned=HEAVY_FOR_THE_PARSER) == []


@pytest.mark.parametrize("module", layer("scoreboard.commands"))
def test_a_command_imports_no_other_command(module: str) -> None:
    """What commands share is in ``cli.options`` or a private ``commands._`` module."""
    others = [
        name for name in layer("scoreboard.commands") if name not in (module, "scoreboard.commands")
    ]
    public = tuple(name for name in others if not name.rsplit(".", 1)[1].startswith("_"))
    assert offending(module, banned=public) == []


def test_a_violation_is_caught(tmp_path: Path) -> None:
    """The checker itself: an import from inside a function is seen, relative ones resolved."""
    sample = tmp_path / "scoreboard" / "core" / "sample.py"
    sample.parent.mkdir(parents=True)
    sample.write_text("def f():\n    import pygame\n    from ..render import grid\n")
    found = imports(sample)
    assert "pygame" in found and "scoreboard.render.grid" in found


def import_graph(modules: dict[str, set[str]]) -> dict[str, set[str]]:
    """Module -> the modules of ours it names, wherever the import stands (in a function,
    under ``TYPE_CHECKING``).  ``from pkg import sub`` names ``pkg.sub``, not the package:
    the package is being imported already when one of its own modules runs."""
    graph: dict[str, set[str]] = {}
    for module, names in modules.items():
        named = {name for name in names if name in modules and name != module}
        graph[module] = {
            name
            for name in named
            if not any(other.startswith(name + ".") and other.rsplit(".", 1)[0] == name
                       for other in named)  # a package named only for its submodules
        }  # fmt: skip
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected groups of two or more modules (Tarjan's walk)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            if group:
                found.append(sorted([node, *group]))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(found)


#: The one cycle left, to be taken apart with the move to a ``table/`` room (issue 24):
#: the table's rule modules and the state they update import each other.
KNOWN_CYCLES = [
    [
        "scoreboard.core.event_rules",
        "scoreboard.core.order",
        "scoreboard.core.table",
        "scoreboard.core.unfinished",
    ]
]


def test_no_module_imports_itself_round_a_cycle() -> None:
    assert cycles(import_graph(MODULES)) == KNOWN_CYCLES


def test_the_cycle_check_sees_function_and_type_checking_imports(tmp_path: Path) -> None:
    root = tmp_path / "scoreboard"
    (root / "render").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "render" / "__init__.py").write_text("from scoreboard.render import panels\n")
    (root / "render" / "panels.py").write_text(
        "def draw():\n    from scoreboard.render.counters import draw_counters\n"
    )
    (root / "render" / "counters.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from scoreboard.render.panels import Painter\n"
    )
    (root / "render" / "ask.py").write_text("from scoreboard.render import panels\n")
    sample = {module_name(path): imports(path) for path in sorted(root.rglob("*.py"))}
    assert cycles(import_graph(sample)) == [
        ["scoreboard.render.counters", "scoreboard.render.panels"]
    ]
