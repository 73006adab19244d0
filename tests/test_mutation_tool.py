"""tools/mutation.py: it finds mutants, kills them with good tests, and names survivors."""

from __future__ import annotations

import ast
import doctest
import importlib.util
import json
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "mutation.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


mutation = load_tool()

AGES = "def is_adult(age):\n    return age >= 18\n"
STRONG = (
    "from ages import is_adult\n\n"
    "def test_18_is_adult():\n    assert is_adult(18) is True\n    assert is_adult(17) is False\n"
)
WEAK = (
    "from ages import is_adult\n\n"
    "def test_far_from_18():\n    assert is_adult(40)\n    assert not is_adult(3)\n"
)


def sample_repo(root: Path, test: str) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "ages.py").write_text(AGES, encoding="utf-8")
    (root / "tests" / "test_ages.py").write_text(test, encoding="utf-8")
    return root


def run_tool(root: Path, *extra: str) -> tuple[int, dict]:
    report = root.parent / f"{root.name}.json"
    argv = ["ages.py", "--root", str(root), "--tests", "tests/test_ages.py", "--jobs", "1"]
    code = mutation.main([*argv, "--json", str(report), *extra])
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return code, data


def test_mutants_skip_docstrings_log_calls_annotations_and_pragma_lines() -> None:
    source = textwrap.dedent(
        '''\
        """Module doc."""
        import logging
        log = logging.getLogger(__name__)

        def f(a: int = 3) -> int:
            """Doc."""
            log.info("value %d", a + 1)
            if a > 2:  # pragma: no mutate
                return 1
            return a
        '''
    )
    found = mutation.mutants("m.py", source)
    assert [(m.line, m.original, m.mutated) for m in found] == [
        (5, "3", "4"),
        (9, "1", "None"),
        (9, "1", "0"),
        (10, "a", "None"),
    ]
    for mutant in found:
        compile(mutant.source, "m.py", "exec")
        assert mutant.source.count("\n") == source.count("\n")


def test_operators_keep_the_rest_of_the_line() -> None:
    source = "def f(a, b):\n    x = a < b and not a  # keep me\n    x += a * 2\n    g(x)\n"
    shown = {(m.operator, m.mutated) for m in mutation.mutants("m.py", source)}
    assert ("compare", "a <= b") in shown
    assert ("boolean-op", "a < b or not a") in shown
    assert ("unary", "a") in shown
    assert ("arithmetic", "a // 2") in shown
    assert ("drop-update", "pass") in shown
    assert ("drop-call", "pass") in shown
    for mutant in mutation.mutants("m.py", source):
        assert "# keep me" in mutant.source


@pytest.mark.slow
def test_a_test_that_pins_the_boundary_kills_every_mutant(tmp_path: Path) -> None:
    code, data = run_tool(sample_repo(tmp_path / "repo", STRONG))
    (module,) = data["modules"]
    assert code == 0
    assert (module["mutants"], module["killed"], module["survived"]) == (3, 3, 0)
    assert module["kill_rate"] == 100.0


@pytest.mark.slow
def test_a_weak_test_leaves_survivors_named_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_tool(sample_repo(tmp_path / "repo", WEAK), "--list-survivors")
    (module,) = data["modules"]
    assert code == 1
    assert (module["mutants"], module["killed"], module["survived"]) == (3, 1, 2)
    out = capsys.readouterr().out
    assert "ages.py:2: age >= 18 -> age > 18  [compare]" in out
    assert "ages.py:2: 18 -> 19  [number]" in out


@pytest.mark.slow
def test_a_failing_baseline_stops_the_run(tmp_path: Path) -> None:
    broken = STRONG.replace("is_adult(17) is False", "is_adult(17) is True")
    code, data = run_tool(sample_repo(tmp_path / "repo", broken))
    assert code == 2
    assert data == {}


@pytest.mark.slow
def test_tests_that_do_not_import_the_module_are_refused(tmp_path: Path) -> None:
    code, _ = run_tool(sample_repo(tmp_path / "repo", "def test_nothing():\n    pass\n"))
    assert code == 2


DOCTESTED = '''def is_adult(age):
    """
    >>> is_adult(18), is_adult(17)
    (True, False)
    """
    return age >= 18
'''


@pytest.mark.slow
def test_a_mutant_only_the_modules_doctest_kills_is_killed(tmp_path: Path) -> None:
    root = sample_repo(tmp_path / "repo", WEAK)
    (root / "ages.py").write_text(DOCTESTED, encoding="utf-8")
    code, data = run_tool(root)
    (module,) = data["modules"]
    assert module["tests"] == ["tests/test_ages.py", "ages.py"]
    assert (module["mutants"], module["killed"], module["survived"]) == (3, 3, 0)
    assert code == 0


def test_the_tools_own_examples_hold() -> None:
    assert doctest.testmod(mutation).failed == 0


# -- the mapping cannot go stale ----------------------------------------------

ROOT = TOOL.parents[1]
PINNED = (
    "scoreboard/game",
    "scoreboard/roads",
    "scoreboard/table",
    "scoreboard/protocol",
    "scoreboard/journal",
)


def _dotted(path: Path) -> str:
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _reexported(package: str) -> dict[str, str]:
    """Name -> the module a package's ``__init__`` takes it from."""
    tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


def imported_modules(test: Path) -> set[str]:
    """The pinned modules (file paths) ``test`` imports, by name or through its package."""
    modules = {
        _dotted(path.relative_to(ROOT)): path.relative_to(ROOT).as_posix()
        for package in PINNED
        for path in (ROOT / package).glob("*.py")
    }
    packages = {_dotted(Path(package)): _reexported(package) for package in PINNED}
    names: list[str] = []
    for node in ast.walk(ast.parse(test.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module in packages:
            via = packages[node.module]
            names += [via.get(a.name, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return {modules[name] for name in names if name in modules}


def test_every_test_file_importing_a_pinned_module_is_in_its_mutation_targets() -> None:
    """A test that imports a module of core/, protocol/ or journal/ runs on its mutants.

    Imported by name (``from scoreboard.table.state import ...``) or through the
    package (``from scoreboard.protocol import parse_message`` is messages.py's).
    """
    targets = mutation.load_targets(ROOT / "tools" / "mutation_targets.toml")
    missing = [
        f"{test.name} -> {module}"
        for test in sorted((ROOT / "tests").glob("test_*.py"))
        for module in sorted(imported_modules(test))
        if f"tests/{test.name}" not in targets.get(module, [])
    ]
    assert missing == [], "add them to tools/mutation_targets.toml"


def test_every_pinned_module_has_mutation_targets_that_exist() -> None:
    targets = mutation.load_targets(ROOT / "tools" / "mutation_targets.toml")
    for package in PINNED:
        for path in (ROOT / package).glob("*.py"):
            module = path.relative_to(ROOT).as_posix()
            if next(mutation.sites(ast.parse(path.read_text(encoding="utf-8"))), None):
                assert targets.get(module), f"{module} can be mutated and has no tests mapped"
    for module, tests in targets.items():
        assert (ROOT / module).is_file(), module
        assert all((ROOT / test).is_file() for test in tests), module


def test_the_copies_can_be_read_by_another_user(tmp_path: Path) -> None:
    """A test may run a case as an unprivileged user (``test_storage_faults.py`` does, as
    root): it must reach the copy's files, not stop at a private temporary directory."""
    workers = mutation.Workers(sample_repo(tmp_path / "repo", STRONG), jobs=1)
    try:
        copy = workers.free.get()
        for folder in (workers.base, copy, copy / "tests"):
            assert folder.stat().st_mode & 0o005 == 0o005, folder
    finally:
        workers.close()
