"""The import rules of docs/architecture.md, enforced: data flows one way, the core stays pure.

Every module of the package is parsed (not imported) and each ``import`` it
makes, at the top or inside a function, is checked against the rule of its
layer.  A change that reaches back up the shape fails here with the module and
the import to move.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
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


class Parsed(Mapping[str, set[str]]):
    """Each module's imports, parsed the first time a test asks: the names alone (from the
    paths) are enough to collect the tests, so the workers that never run this file do not
    parse the package."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = {module_name(path): path for path in paths}
        self.parsed: dict[str, set[str]] = {}

    def __getitem__(self, module: str) -> set[str]:
        if module not in self.parsed:
            self.parsed[module] = imports(self.paths[module])
        return self.parsed[module]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


MODULES = Parsed(sorted(PACKAGE.rglob("*.py")))


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
    assert {"scoreboard.table.state", "scoreboard.protocol", "scoreboard.kiosk.loop"} <= set(
        MODULES
    )


#: One rule per room: the rooms of ours its modules may import (its own always), and
#: what else they must never import.  Read top to bottom, it is the way data flows:
#: the pure game at the bottom, the command line at the top.
PURE = ("game", "roads", "table")
ROOMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "regular_file": ((), ("pygame", "paho", "yaml")),
    "game": ((), IMPURE),
    "roads": (("game",), IMPURE),
    "table": (("game", "roads"), IMPURE),
    "protocol": (PURE, ("pygame", "paho", "yaml", "os")),
    "shoes": (("game",), (*IMPURE, "serial")),
    "journal": ((*PURE, "protocol", "regular_file"), ("pygame", "paho")),
    "settings": ((*PURE, "protocol", "shoes", "regular_file"), ("paho",)),
    "link": (("protocol", "settings"), ("pygame",)),
    "service": (PURE, ("pygame", "paho")),
    "screen.theme": ((*PURE, "settings", "regular_file"), ("paho",)),
    "screen.board": ((*PURE, "screen.theme", "settings"), ("paho",)),
    "screen.wall": ((*PURE, "screen.board", "screen.theme", "settings"), ("paho",)),
    "controller": ((*PURE, "protocol", "shoes", "journal", "settings", "link", "service",
                    "regular_file"), ("pygame",)),
    "keypad": ((*PURE, "protocol", "journal", "settings", "controller"), ("pygame",)),
    "bridge": ((*PURE, "protocol", "shoes", "journal", "settings", "controller", "keypad"),
               ("pygame",)),
    "feeds": ((*PURE, "protocol", "journal", "settings", "link", "controller", "bridge"),
              ("pygame",)),
    "lobby": ((*PURE, "protocol", "settings", "link", "feeds"), ("pygame",)),
    "kiosk": ((*PURE, "screen.theme", "screen.board", "settings", "service"), ("paho",)),
    "bench": ((*PURE, "protocol", "journal", "settings", "controller", "feeds",
               "screen.theme", "screen.board", "scoreboard"), ()),
    "cli": ((*PURE, "protocol", "shoes", "settings", "lobby", "service", "screen.theme",
             "regular_file", "scoreboard"), ("pygame", "paho", "serial")),
    "cli.commands": (("*",), ()),
    "__main__": (("cli",), ()),
    "schemas": ((), ("scoreboard",)),
    "screen": ((), ("scoreboard",)),
}  # fmt: skip
SUBROOMS = ("screen.theme", "screen.board", "screen.wall", "cli.commands")


def room(module: str) -> str:
    """The room a module of ours lives in: its first package, or one of SUBROOMS."""
    if module == "scoreboard":
        return "scoreboard"
    rest = module.removeprefix("scoreboard.")
    for sub in SUBROOMS:
        if rest == sub or rest.startswith(sub + "."):
            return sub
    return rest.split(".")[0]


@pytest.mark.parametrize("module", [m for m in sorted(MODULES) if m != "scoreboard"])
def test_each_room_imports_only_the_rooms_below_it(module: str) -> None:
    """The rule of the module's room (ROOMS) holds for every import, wherever it stands."""
    allowed, banned = ROOMS[room(module)]
    if allowed == ("*",):
        assert offending(module, banned=banned) == []
        return
    bad = [
        name
        for name in sorted(MODULES[module])
        if (name in MODULES and room(name) not in (room(module), *allowed)) or within(name, *banned)
    ]
    assert bad == [], f"{module} ({room(module)}) may import only {allowed}"


def test_the_rooms_allow_no_cycle() -> None:
    """Room A allowing B and B allowing A would hide a cycle: every rule points one way."""
    for name, (allowed, _banned) in ROOMS.items():
        for other in allowed:
            if other in ROOMS:
                assert name not in ROOMS[other][0], f"{name} <-> {other}"


def test_at_most_three_modules_are_loose_at_the_top() -> None:
    """Everything else lives in a room; regular_file is a leaf every reader of files uses."""
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "regular_file.py"]


def leaf(module: str) -> str:
    return module.rsplit(".", 1)[-1]


def test_a_private_module_is_imported_only_inside_its_own_package() -> None:
    """``pkg/_name.py`` is pkg's own business: other rooms use its public modules."""
    bad = [
        f"{module} -> {name}"
        for module, names in MODULES.items()
        for name in names
        if name in MODULES
        and leaf(name).startswith("_")
        and leaf(name) != "__main__"
        and not within(module, name.rsplit(".", 1)[0])
    ]
    assert bad == []


PACKAGES = sorted(module_name(path) for path in PACKAGE.rglob("__init__.py"))
#: Packages whose modules are found by name (one per command): their __init__ says so.
DISCOVERED = ("scoreboard.cli.commands", "scoreboard.cli.parsers")


@pytest.mark.parametrize("package", [p for p in PACKAGES if p not in DISCOVERED])
def test_each_package_states_its_public_surface(package: str) -> None:
    """Its ``__init__`` docstring names each public module, or re-exports from it."""
    init = PACKAGE.parent.joinpath(*package.split("."), "__init__.py")
    tree = ast.parse(init.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    reexported = {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    unnamed = [
        name
        for name in MODULES
        if name.rsplit(".", 1)[0] == package
        and not leaf(name).startswith("_")
        and name not in PACKAGES
        and name not in reexported
        and f"``{leaf(name)}``" not in doc
        and f":mod:`.{leaf(name)}`" not in doc
    ]
    assert doc and unnamed == [], f"name them in {init.relative_to(PACKAGE.parent)}"


#: The modules that open a serial line (pyserial): a shoe's port, or an emulated shoe's.
SERIAL_LINES = ("scoreboard.controller.emulated_shoe", "scoreboard.controller.shoe_line")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_serial_lines_import_pyserial(module: str) -> None:
    if module not in SERIAL_LINES:
        assert offending(module, banned=("serial",)) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_link_talks_to_paho(module: str) -> None:
    """One MQTT client for the display and the controller: everyone else uses the Link."""
    if module != "scoreboard.link.client":
        assert offending(module, banned=("paho",)) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_commands_wire_the_app_and_the_commands(module: str) -> None:
    if within(module, "scoreboard.cli.commands", "scoreboard.cli", "scoreboard.__main__"):
        return
    banned = ("scoreboard.cli.commands", "scoreboard.cli")
    if module != "scoreboard.kiosk.loop":
        banned += ("scoreboard.kiosk.loop",)
    assert offending(module, banned=banned) == []


#: What declaring a command's options never needs: ``scoreboard --help`` stays light.
HEAVY_FOR_THE_PARSER = ("pygame", "paho", "serial", "scoreboard.screen.board", "scoreboard.kiosk",
                        "scoreboard.link", "scoreboard.feeds", "scoreboard.controller",
                        "scoreboard.cli.commands")  # fmt: skip


@pytest.mark.parametrize(
    "module", [m for m in layer("scoreboard.cli") if not within(m, "scoreboard.cli.commands")]
)
def test_the_parser_imports_no_command_and_nothing_heavy(module: str) -> None:
    """A command's module is imported by name when it runs, never by the parser."""
    assert offending(module, banned=HEAVY_FOR_THE_PARSER) == []


@pytest.mark.parametrize("module", layer("scoreboard.cli.commands"))
def test_a_command_imports_no_other_command(module: str) -> None:
    """What commands share is in ``cli.options`` or a private ``commands._`` module."""
    others = [
        name
        for name in layer("scoreboard.cli.commands")
        if name not in (module, "scoreboard.cli.commands")
    ]
    public = tuple(name for name in others if not name.rsplit(".", 1)[1].startswith("_"))
    assert offending(module, banned=public) == []


def test_a_violation_is_caught(tmp_path: Path) -> None:
    """The checker itself: an import from inside a function is seen, relative ones resolved."""
    sample = tmp_path / "scoreboard" / "game" / "sample.py"
    sample.parent.mkdir(parents=True)
    sample.write_text("def f():\n    import pygame\n    from ..screen import grid\n")
    found = imports(sample)
    assert "pygame" in found and "scoreboard.screen.grid" in found
    assert room("scoreboard.screen.board._hand") == "screen.board"
    assert room("scoreboard.game.rules") == "game"


def import_graph(modules: Mapping[str, set[str]]) -> dict[str, set[str]]:
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


def test_no_module_imports_itself_round_a_cycle() -> None:
    assert cycles(import_graph(MODULES)) == []


def private_reaches(path: Path, owners: tuple[str, ...] | None = None) -> list[str]:
    """Where ``path`` uses an underscore attribute of another object: ``x._name``, ``x`` not
    ``self``, ``cls`` or ``super()``; with ``owners``, only when ``x`` is one of those names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__") or not isinstance(node.value, ast.Name):
            continue
        name = node.value.id
        if name not in ("self", "cls") and (owners is None or name in owners):
            found.append(f"{module_name(path)}:{node.lineno} {name}.{node.attr}")
    return found


#: Underscore names the standard library makes public: a namedtuple's ``_replace``,
#: argparse's subparsers type (only for annotations), ``os._exit`` (a process ending
#: where a normal exit could block).
PUBLIC_UNDERSCORES = ("entry._replace", "argparse._SubParsersAction", "os._exit")


def test_no_module_touches_another_objects_privates() -> None:
    """An object is changed through its public methods: no ``x._name`` with ``x`` anything
    but ``self`` or ``cls``, anywhere in the package (TableState's rules included)."""
    bad = [
        reach
        for path in sorted(PACKAGE.rglob("*.py"))
        for reach in private_reaches(path)
        if reach.split(" ", 1)[1] not in PUBLIC_UNDERSCORES
    ]
    assert bad == []


def test_the_privates_check_sees_a_write_and_a_call(tmp_path: Path) -> None:
    sample = tmp_path / "scoreboard" / "table" / "sample.py"
    sample.parent.mkdir(parents=True)
    sample.write_text(
        "def rule(table, self):\n    table._records = {}\n    table._rebuild()\n"
        "    self._own = 1\n    return table.__class__, table.games\n"
    )
    assert private_reaches(sample) == [
        "scoreboard.table.sample:2 table._records",
        "scoreboard.table.sample:3 table._rebuild",
    ]


def test_the_cycle_check_sees_function_and_type_checking_imports(tmp_path: Path) -> None:
    root = tmp_path / "scoreboard"
    (root / "paint").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "paint" / "__init__.py").write_text("from scoreboard.paint import panels\n")
    (root / "paint" / "panels.py").write_text(
        "def draw():\n    from scoreboard.paint.counters import draw_counters\n"
    )
    (root / "paint" / "counters.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from scoreboard.paint.panels import Painter\n"
    )
    (root / "paint" / "ask.py").write_text("from scoreboard.paint import panels\n")
    sample = {module_name(path): imports(path) for path in sorted(root.rglob("*.py"))}
    assert cycles(import_graph(sample)) == [
        ["scoreboard.paint.counters", "scoreboard.paint.panels"]
    ]
