"""Mutation testing for scoreboard: which behaviours does no test check?

A mutant is the module with one small change (``<`` becomes ``<=``, ``and``
becomes ``or``, a call is dropped, ...).  Each mutant runs the module's tests in
a private copy of the repository; a mutant the tests still pass on "survived":
it names a behaviour no test pins.  See docs/mutation.md.

    python tools/mutation.py scoreboard/table/state.py --list-survivors
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

TOOL_ROOT = Path(__file__).resolve().parents[1]
TARGETS = Path("tools") / "mutation_targets.toml"
PRAGMA = "# pragma: no mutate"
SHORT_STRING = 20
LOG_NAMES = frozenset({"log", "logger", "logging", "LOG"})
COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "*.egg-info",
    ".hypothesis",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    "build",
    "dist",
)
PLUGIN_NAME = "_mutation_hypothesis"
PLUGIN = '''"""Written by tools/mutation.py: CI's derandomized examples, failing fast.

Shrinking a failing example can take a minute; a mutant only needs to fail.
No deadline: a loaded machine must not kill mutants.
"""

try:
    from hypothesis import Phase, settings
except ImportError:
    pass
else:
    phases = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    settings.register_profile(
        "mutation", derandomize=True, database=None, deadline=None, phases=phases
    )
    settings.load_profile("mutation")
'''
SANITY = '\nraise RuntimeError("mutation tool sanity check: this copy is imported")\n'

COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
ARITHMETIC_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}


# -- generating mutants ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Site:
    """One place to mutate: ``node`` is replaced by ``replacement``."""

    node: ast.AST
    replacement: ast.AST
    operator: str


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutated copy of a module, and where it differs from the original."""

    module: str
    line: int
    col: int
    operator: str
    original: str
    mutated: str
    source: str = field(repr=False, compare=False)

    def describe(self) -> str:
        """The survivor line a developer writes a test for.

        >>> Mutant("m.py", 3, 4, "compare", "a < b", "a <= b", "").describe()
        'm.py:3: a < b -> a <= b  [compare]'
        """
        return f"{self.module}:{self.line}: {self.original} -> {self.mutated}  [{self.operator}]"


def _is_log_call(node: ast.AST) -> bool:
    """``log.info(...)``, ``logger.warning(...)``: messages are not behaviour we pin."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id in LOG_NAMES and func is not node.func


def _is_docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """Child nodes worth mutating: no annotations, decorators, f-strings or log calls."""
    skip: set[str] = {"annotation", "returns", "decorator_list", "type_comment"}
    for name, value in ast.iter_fields(node):
        if name in skip:
            continue
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, ast.AST) and not _skipped(item):
                yield item


def _skipped(node: ast.AST) -> bool:
    if isinstance(node, ast.FunctionDef) and node.name == "__repr__":
        return True
    if isinstance(node, ast.Expr) and (_is_docstring(node) or _is_log_call(node.value)):
        return True
    if isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id in {"__all__", "__slots__"} for t in node.targets
    ):
        return True
    return isinstance(node, ast.JoinedStr | ast.Import | ast.ImportFrom) or _is_log_call(node)


def _constant_sites(node: ast.Constant) -> Iterator[Site]:
    value = node.value
    if isinstance(value, bool):
        yield Site(node, ast.Constant(not value), "boolean")
    elif isinstance(value, int):
        new = {0: 1, 1: 0}.get(value, value + 1)
        yield Site(node, ast.Constant(new), "number")
    elif isinstance(value, str) and len(value) <= SHORT_STRING and value != "XX":
        yield Site(node, ast.Constant("XX"), "string")


def _falsy_constant(node: ast.AST | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and not node.value)


def _expression_sites(node: ast.AST) -> Iterator[Site]:
    """Operator swaps and constant changes inside one expression node."""
    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            swap = COMPARE_SWAPS.get(type(op))
            if swap is not None:
                ops = [*node.ops[:index], swap(), *node.ops[index + 1 :]]
                yield Site(node, ast.Compare(node.left, ops, node.comparators), "compare")
    elif isinstance(node, ast.BoolOp):
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield Site(node, ast.BoolOp(other, node.values), "boolean-op")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield Site(node, node.operand, "unary")
    elif isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC_SWAPS:
        arithmetic = ARITHMETIC_SWAPS[type(node.op)]()
        yield Site(node, ast.BinOp(node.left, arithmetic, node.right), "arithmetic")
    elif isinstance(node, ast.Constant):
        yield from _constant_sites(node)


def _statement_sites(node: ast.AST, returns_none: bool) -> Iterator[Site]:
    """Dropped calls and counters, ``return x`` -> ``return None``."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield Site(node, ast.Pass(), "drop-call")
    elif isinstance(node, ast.AugAssign):
        yield Site(node, ast.Pass(), "drop-update")
        swap = ARITHMETIC_SWAPS.get(type(node.op))
        if swap is not None:
            yield Site(node, ast.AugAssign(node.target, swap(), node.value), "arithmetic")
    elif isinstance(node, ast.Return) and not returns_none and not _falsy_constant(node.value):
        yield Site(node, ast.Return(ast.Constant(None)), "return-none")


def _annotated_none(node: ast.AST) -> bool:
    returns = getattr(node, "returns", None)
    return isinstance(returns, ast.Constant) and returns.value is None


def sites(tree: ast.AST) -> Iterator[Site]:
    """Every mutation site in ``tree``, in source order of a depth-first walk."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, returns_none = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            returns_none = _annotated_none(node)
        yield from _statement_sites(node, returns_none)
        yield from _expression_sites(node)
        stack.extend((child, returns_none) for child in reversed(list(_children(node))))


class _Source:
    """A module's text addressed the way ``ast`` addresses it (line, UTF-8 byte column)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8")
        self.lines = text.splitlines()
        self.starts = [0]
        for line in text.encode("utf-8").splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def offsets(self, node: ast.AST) -> tuple[int, int]:
        start = self.starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = self.starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        return start, end

    def replaced(self, node: ast.AST, text: str) -> str:
        start, end = self.offsets(node)
        return (self.data[:start] + text.encode("utf-8") + self.data[end:]).decode("utf-8")

    def segment(self, node: ast.AST) -> str:
        start, end = self.offsets(node)
        return " ".join(self.data[start:end].decode("utf-8").split())

    def pragma(self, line: int) -> bool:
        return PRAGMA in self.lines[line - 1]


def _parents(tree: ast.AST) -> dict[int, tuple[ast.AST, str, int | None]]:
    found: dict[int, tuple[ast.AST, str, int | None]] = {}
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for index, item in enumerate(value):
                    found[id(item)] = (parent, name, index)
            elif isinstance(value, ast.AST):
                found[id(value)] = (parent, name, None)
    return found


def _swap(where: tuple[ast.AST, str, int | None], new: ast.AST) -> ast.AST:
    """Put ``new`` where the old node was; return the old node."""
    parent, name, index = where
    if index is None:
        old = getattr(parent, name)
        setattr(parent, name, new)
        return old  # type: ignore[no-any-return]
    items = getattr(parent, name)
    old, items[index] = items[index], new
    return old  # type: ignore[no-any-return]


def _mutated_text(source: _Source, tree: ast.Module, site: Site, where: tuple) -> str:
    """The module with one change, formatting kept where the result parses to the mutant."""
    _swap(where, site.replacement)
    try:
        expected = ast.dump(tree)
        snippet = ast.unparse(site.replacement)
        for candidate in (snippet, f"({snippet})"):
            text = source.replaced(site.node, candidate)
            try:
                if ast.dump(ast.parse(text)) == expected:
                    return text
            except SyntaxError:
                continue
        return ast.unparse(tree) + "\n"
    finally:
        _swap(where, site.node)


def mutants(module: str, text: str) -> list[Mutant]:
    """All mutants of one module's source ``text`` (``module`` is its path, for reports).

    >>> [m.mutated for m in mutants("m.py", "def f(a):\\n    return a < 2\\n")]
    ['None', 'a <= 2', '3']
    """
    source = _Source(text)
    tree = ast.parse(text)
    parents = _parents(tree)
    seen: set[str] = set()
    found: list[Mutant] = []
    for site in sites(tree):
        line = site.node.lineno  # type: ignore[attr-defined]
        if source.pragma(line):
            continue
        mutated_text = _mutated_text(source, tree, site, parents[id(site.node)])
        if mutated_text in seen or mutated_text == text:
            continue
        seen.add(mutated_text)
        original = source.segment(site.node)
        shown = ast.unparse(site.replacement)
        if isinstance(site.replacement, ast.Return):
            shown = shown.removeprefix("return ")
            original = original.removeprefix("return ")
        col = site.node.col_offset  # type: ignore[attr-defined]
        found.append(
            Mutant(module, line, col, site.operator, _short(original), _short(shown), mutated_text)
        )
    return sorted(found, key=lambda m: (m.line, m.col))


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- running mutants ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the tests said about one mutant: ``killed``, ``timeout`` or ``survived``."""

    mutant: Mutant
    status: str
    seconds: float


@dataclass(frozen=True, slots=True)
class RunSettings:
    """How each pytest run is started."""

    root: Path
    markers: str | None
    timeout: float | None
    extra_pytest: tuple[str, ...] = ()


def _environment(worker: Path) -> dict[str, str]:
    """Repeatable runs that import the worker's copy, never the editable checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k != "CI"}
    env.update(
        PYTHONPATH=str(worker),
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONHASHSEED="0",
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
    )
    return env


def run_tests(
    worker: Path, tests: Sequence[str], settings: RunSettings, timeout: float | None
) -> tuple[int | None, float]:
    """Run pytest in ``worker``; return (returncode or None on timeout, seconds)."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["-p", PLUGIN_NAME, "--doctest-modules"]
    if settings.markers:
        command += ["-m", settings.markers]
    command += [*settings.extra_pytest, *tests]
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=worker,
        env=_environment(worker),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code: int | None = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        code = None
    return code, time.monotonic() - started


class Workers:
    """Private copies of the repository, one per parallel job."""

    def __init__(self, root: Path, jobs: int) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="mutation-"))
        self.base.chmod(0o755)  # a test may run a case as another user (as root: nobody)
        self.free: queue.Queue[Path] = queue.Queue()
        for index in range(jobs):
            copy_root = self.base / f"w{index}"
            shutil.copytree(root, copy_root, ignore=COPY_IGNORE, symlinks=True)
            (copy_root / f"{PLUGIN_NAME}.py").write_text(PLUGIN, encoding="utf-8")
            self.free.put(copy_root)

    def run(
        self, module: str, text: str, tests: Sequence[str], settings: RunSettings
    ) -> tuple[int | None, float]:
        """Run ``tests`` with ``module`` replaced by ``text`` in a free copy.

        The first test file (and the module's doctests, when ``tests`` names
        the module) runs alone first: most mutants die there, and one file
        collects much faster than all of them.
        """
        worker = self.free.get()
        path = worker / module
        original = path.read_text(encoding="utf-8")
        try:
            path.write_text(text, encoding="utf-8")
            spent = 0.0
            code: int | None = 0
            for stage in stages(module, tests):
                if stage and code == 0:
                    code, seconds = run_tests(worker, stage, settings, settings.timeout)
                    spent += seconds
            return code, spent
        finally:
            path.write_text(original, encoding="utf-8")
            self.free.put(worker)

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def with_doctests(module: str, text: str, tests: Sequence[str]) -> list[str]:
    """``tests``, and ``module`` itself when its docstrings hold examples (its doctests).

    >>> with_doctests("m.py", 'def f():\\n    ">>> f()"\\n', ["t.py"])
    ['t.py', 'm.py']
    >>> with_doctests("m.py", "x = 1\\n", ["t.py"])
    ['t.py']
    """
    has_examples = any(
        ">>>" in (ast.get_docstring(node, clean=False) or "")
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    )
    return [*tests, module] if has_examples and module not in tests else list(tests)


def stages(module: str, tests: Sequence[str]) -> list[list[str]]:
    """The runs of one mutant: the first test file with the module's doctests, then the rest.

    >>> stages("m.py", ["t1.py", "t2.py", "m.py"])
    [['t1.py', 'm.py'], ['t2.py']]
    >>> stages("m.py", ["t1.py"])
    [['t1.py']]
    """
    rest = [test for test in tests[1:] if test != module]
    first = [*tests[:1], *([module] if module in tests[1:] else [])]
    return [stage for stage in (first, rest) if stage]


def _status(code: int | None) -> str:
    if code is None:
        return "timeout"
    return "survived" if code == 0 else "killed"


@dataclass(slots=True)
class ModuleReport:
    """Counts for one module, and the survivors to write tests for."""

    module: str
    tests: list[str]
    baseline_seconds: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)

    @property
    def kill_rate(self) -> float:
        total = len(self.outcomes)
        return 100.0 * (total - self.count("survived")) / total if total else 100.0

    def survivors(self, status: str = "survived") -> list[Mutant]:
        found = [o.mutant for o in self.outcomes if o.status == status]
        return sorted(found, key=lambda m: (m.line, m.col))

    def to_json(self) -> dict[str, object]:
        return {
            "module": self.module,
            "tests": self.tests,
            "baseline_seconds": round(self.baseline_seconds, 2),
            "mutants": len(self.outcomes),
            "killed": self.count("killed"),
            "timeout": self.count("timeout"),
            "survived": self.count("survived"),
            "kill_rate": round(self.kill_rate, 1),
            "survivors": [_plain(m) for m in self.survivors()],
            "timeouts": [_plain(m) for m in self.survivors("timeout")],
        }


def _plain(mutant: Mutant) -> dict[str, object]:
    return {k: v for k, v in asdict(mutant).items() if k != "source"}


class MutationError(RuntimeError):
    """The run cannot be trusted: failing baseline, tests not importing the copy, ..."""


def check_baseline(workers: Workers, report: ModuleReport, settings: RunSettings) -> float:
    """Time the unmutated tests and prove the tests import the worker's copy of the module."""
    worker = workers.free.get()
    workers.free.put(worker)
    code, seconds = run_tests(worker, report.tests, settings, None)
    if code == 5:
        raise MutationError(f"{report.module}: no tests selected in {report.tests}")
    if code != 0:
        raise MutationError(f"{report.module}: the unmutated tests fail (pytest exit {code})")
    original = (settings.root / report.module).read_text(encoding="utf-8")
    code, _ = workers.run(report.module, original + SANITY, report.tests, settings)
    if code == 0:
        raise MutationError(
            f"{report.module}: the tests pass even when the module cannot be imported: "
            "they do not import it, or they import another checkout"
        )
    return seconds


def run_module(
    workers: Workers,
    report: ModuleReport,
    chosen: Sequence[Mutant],
    settings: RunSettings,
    jobs: int,
) -> None:
    """Baseline, sanity check, then every chosen mutant of one module."""
    if not chosen:  # nothing to kill: no run to pay for
        return
    report.baseline_seconds = check_baseline(workers, report, settings)
    timeout = settings.timeout or max(5 * report.baseline_seconds, 10.0)
    per_mutant = RunSettings(settings.root, settings.markers, timeout, settings.extra_pytest)

    def one(mutant: Mutant) -> Outcome:
        code, seconds = workers.run(mutant.module, mutant.source, report.tests, per_mutant)
        return Outcome(mutant, _status(code), seconds)

    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        for done, outcome in enumerate(pool.map(one, chosen), start=1):
            report.outcomes.append(outcome)
            mark = {"killed": ".", "timeout": "T", "survived": "S"}[outcome.status]
            print(mark, end="\n" if done % 60 == 0 else "", file=sys.stderr, flush=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    print(file=sys.stderr)


# -- choosing modules, tests and mutants -------------------------------------


def load_targets(path: Path) -> dict[str, list[str]]:
    """Module path -> the test files that exercise it (tools/mutation_targets.toml)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return {module: list(tests) for module, tests in data.get("targets", {}).items()}


def choose(found: list[Mutant], sample: float | None, seed: int) -> list[Mutant]:
    """All mutants, or a seeded sample: ``sample`` >= 1 is a count, below 1 a fraction.

    >>> ms = [Mutant("m.py", n, 0, "number", "1", "2", "") for n in range(10)]
    >>> [m.line for m in choose(ms, 3, seed=1)] == [m.line for m in choose(ms, 3, seed=1)]
    True
    >>> len(choose(ms, 0.5, seed=1))
    5
    """
    if sample is None:
        return found
    count = int(sample) if sample >= 1 else round(sample * len(found))
    if count >= len(found):
        return found
    picked = random.Random(seed).sample(range(len(found)), count)
    return [found[index] for index in sorted(picked)]


def _row(name: str, report: ModuleReport) -> str:
    counts = (len(report.outcomes), *(report.count(s) for s in ("killed", "timeout", "survived")))
    return f"{name:<34} " + " ".join(f"{n:>8}" for n in counts) + f" {report.kill_rate:>6.1f}%"


def print_table(reports: Sequence[ModuleReport]) -> None:
    """One row per module: mutants, killed, timed out, survived, kill rate."""
    names = ("mutants", "killed", "timeout", "survived")
    print(f"{'module':<34} " + " ".join(f"{n:>8}" for n in names) + f" {'rate':>7}")
    for report in reports:
        print(_row(report.module, report))
    if len(reports) > 1:
        everything = [outcome for report in reports for outcome in report.outcomes]
        print(_row("total", ModuleReport("total", [], outcomes=everything)))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", help="module paths, e.g. scoreboard/table/state.py")
    parser.add_argument("--tests", nargs="+", help="test files (default: mutation_targets.toml)")
    parser.add_argument("--targets", type=Path, help=f"module -> tests (default: ROOT/{TARGETS})")
    parser.add_argument("--root", type=Path, help="repository to mutate (default: the current one)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default 5x baseline)")
    parser.add_argument("--sample", type=float, help="mutants per module (or a fraction < 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all-markers", action="store_true", help="also run mosquitto tests")
    parser.add_argument("--list-survivors", action="store_true")
    parser.add_argument("--list-mutants", action="store_true", help="print mutants, run nothing")
    parser.add_argument("--json", type=Path, help="write the report as JSON here")
    return parser.parse_args(argv)


def _tests_for(args: argparse.Namespace, module: str) -> list[str]:
    if args.tests:
        return list(args.tests)
    targets = load_targets(args.targets)
    if module not in targets:
        raise MutationError(f"{module}: not in {args.targets}; name tests with --tests")
    return targets[module]


def _plan(args: argparse.Namespace) -> list[tuple[ModuleReport, list[Mutant]]]:
    plan = []
    for module in args.modules:
        module = Path(module).as_posix()
        text = (args.root / module).read_text(encoding="utf-8")
        chosen = choose(mutants(module, text), args.sample, args.seed)
        tests = with_doctests(module, text, _tests_for(args, module))
        plan.append((ModuleReport(module, tests), chosen))
    return plan


def _default_root() -> Path:
    """The checkout you run from (your worktree), else the one holding this tool."""
    here = Path.cwd()
    return here if (here / "pyproject.toml").exists() else TOOL_ROOT


def _default_targets(root: Path) -> Path:
    mine = root / TARGETS
    return mine if mine.exists() else TOOL_ROOT / TARGETS


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.root = (args.root or _default_root()).resolve()
    args.targets = args.targets or _default_targets(args.root)
    try:
        plan = _plan(args)
    except (MutationError, OSError) as error:
        print(f"mutation: {error}", file=sys.stderr)
        return 2
    if args.list_mutants:
        for _, chosen in plan:
            print("\n".join(m.describe() for m in chosen))
        return 0
    markers = None if args.all_markers else "not mosquitto"
    settings = RunSettings(args.root, markers, args.timeout)
    workers = Workers(args.root, args.jobs)
    try:
        done: list[ModuleReport] = []
        for report, chosen in plan:
            print(f"{report.module}: {len(chosen)} mutants", file=sys.stderr)
            run_module(workers, report, chosen, settings, args.jobs)
            done.append(report)
            if args.json:  # after each module, so a long run's finished part is kept
                _write_json(done, args)
    except MutationError as error:
        print(f"mutation: {error}", file=sys.stderr)
        return 2
    finally:
        workers.close()
    return _report([report for report, _ in plan], args)


def _report(reports: list[ModuleReport], args: argparse.Namespace) -> int:
    print_table(reports)
    if args.list_survivors:
        for report in reports:
            for mutant in report.survivors():
                print(mutant.describe())
    if args.json:
        _write_json(reports, args)
    return 0 if all(not r.survivors() for r in reports) else 1


def _write_json(reports: list[ModuleReport], args: argparse.Namespace) -> None:
    data = {"sample": args.sample, "seed": args.seed, "modules": [r.to_json() for r in reports]}
    args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
