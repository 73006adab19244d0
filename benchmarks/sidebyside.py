"""Run one benchmark in two (or more) source trees and print their columns in one table.

Each tree runs in its own interpreter: ``TREE/.venv/bin/python`` (made with
``pip install -e TREE`` the first time), so its ``scoreboard`` *and* its shipped
themes are its own (an editable install maps ``scoreboard.themes`` to the
checkout's ``themes/``; a ``PYTHONPATH`` alone would mix one tree's code with
another's themes).  The measuring script is always this tree's, so both sides
are measured the same way.  Every child reports which ``scoreboard`` it imported
and the run stops if that is not the tree it was meant to measure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import this_tree

HERE = Path(__file__).resolve().parent
THIS_TREE = HERE.parent


@dataclass(frozen=True, slots=True)
class Tree:
    """A source tree to measure: what the table calls it, where it is, which Python runs it."""

    label: str
    path: Path
    python: str


def revision(path: Path) -> str:
    """``abc1234`` (``+`` when the work tree has uncommitted changes), or ``?``."""
    try:
        head = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return head + ("+" if dirty else "")


def imports_from(python: str, path: Path) -> bool:
    """Whether ``python`` imports ``scoreboard`` from the tree at ``path``."""
    found = subprocess.run(
        [python, "-c", "import scoreboard; print(scoreboard.__file__)"],
        capture_output=True,
        text=True,
        check=False,
        cwd="/",
    ).stdout.strip()
    return bool(found) and Path(found).resolve().is_relative_to(path.resolve())


def tree(label: str, path: Path) -> Tree:
    """The tree at ``path`` with an interpreter that imports it (a venv made if needed)."""
    path = path.resolve()
    if not (path / "scoreboard" / "__init__.py").exists():
        raise SystemExit(f"{path} is not a scoreboard source tree (no scoreboard/__init__.py)")
    if imports_from(sys.executable, path):
        return Tree(f"{label} {revision(path)}", path, sys.executable)
    venv = path / ".venv"
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"making {venv} (pip install -e {path}) ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", str(path)], check=True)
    if not imports_from(str(python), path):
        raise SystemExit(f"{python} does not import scoreboard from {path}")
    return Tree(f"{label} {revision(path)}", path, str(python))


def parser(description: str) -> argparse.ArgumentParser:
    """A benchmark's parser with the options every side-by-side run takes: ``--compare``
    (repeatable) and ``--tree``."""
    found = argparse.ArgumentParser(description=description)
    found.add_argument(
        "--compare",
        action="append",
        metavar="[LABEL=]TREE",
        help="a checkout to measure beside this one (repeat for more: base, then others)",
    )
    found.add_argument("--tree", type=Path, help="the tree to measure (default: this one)")
    return found


def trees(compare: Sequence[str] | None, current: Path | None) -> list[Tree]:
    """``[base, ..., now]``: each ``--compare`` tree (``PATH`` or ``LABEL=PATH``), then this one.

    The first unlabelled one is ``base``, the next ``base2`` and so on.

    >>> labelled("start=/work/wt-start", 2), labelled("/work/wt-base", 1)
    (('start', PosixPath('/work/wt-start')), ('base', PosixPath('/work/wt-base')))
    """
    now = tree("now", current or THIS_TREE)
    found = [tree(*labelled(text, n)) for n, text in enumerate(compare or (), start=1)]
    return [*found, now]


def labelled(text: str, n: int) -> tuple[str, Path]:
    """``(label, path)`` from ``LABEL=PATH`` or ``PATH`` (then ``base``, ``base2``, ...)."""
    label, sep, path = text.partition("=")
    if sep and "/" not in label:
        return label, Path(path)
    return ("base" if n == 1 else f"base{n}"), Path(text)


def run_child(where: Tree, script: Path, argv: Sequence[str]) -> dict[str, Any]:
    """Run ``script --child ...`` in ``where``'s interpreter; its JSON (the last stdout line)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [where.python, str(script), "--child", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=where.path,
        check=False,
    )
    sys.stderr.write(done.stderr)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(
            f"{where.label}: {script.name} {' '.join(argv)} failed ({done.returncode})"
        )
    result: dict[str, Any] = json.loads(lines[-1])
    imported = Path(result.get("scoreboard", "/")).resolve()
    if not imported.is_relative_to(where.path):
        raise SystemExit(f"{where.label}: measured {imported}, not the tree {where.path}")
    return result


stats = this_tree.bench("stats")
percentile = stats.percentile
Figure = stats.Spread
"""Median and p99 of one case's wall-clock samples, their count, the median of its CPU time."""


def figure(values: Sequence[float], cpu: Sequence[float] = ()) -> Figure | None:
    """The samples' figure, or None when the case has none (a tree without it)."""
    return Figure.of(values, cpu) if values else None


def verdict(figure: Figure | None, limit: float | None, *, p99_only: bool = False) -> str:
    """``ok`` (median and p99 within), ``p99 over`` (median within), ``MISS``, or blank.

    With ``p99_only`` (a target on the p99 alone) a p99 over the limit is a ``MISS``.
    When the CPU median is known, ``/cpu ok`` or ``/cpu over`` follows: on a loaded
    box the wall clock can miss where the work itself fits.

    >>> verdict(Figure(2.0, 2.5, 10, 1.0), 3.0), verdict(Figure(4.0, 9.0, 10, 2.0), 3.0)
    ('ok/cpu ok', 'MISS/cpu ok')
    """
    if figure is None or limit is None:
        return "" if limit is None else "n/a"
    if figure.median > limit or (p99_only and figure.p99 > limit):
        wall = "MISS"
    else:
        wall = "ok" if figure.p99 <= limit else "p99 over"
    if figure.cpu is None:
        return wall
    return f"{wall}/cpu {'ok' if figure.cpu <= limit else 'over'}"


CELL = 30


def cell(figure: Figure | None) -> str:
    if figure is None:
        return f"{'n/a':>8}{'':>{CELL - 8}}"
    cpu = "" if figure.cpu is None else f"{figure.cpu:.2f}"
    return f"{figure.median:>8.2f}{figure.p99:>8.2f}{cpu:>8}{figure.count:>6d}"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: a case, each tree's figure, the target (None: report only)."""

    case: str
    figures: Sequence[Figure | None]
    limit: float | None = None
    limit_text: str = ""


def print_table(
    title: str, labels: Sequence[str], rows: Sequence[Row], *, p99_only: bool = False
) -> None:
    """Per tree: wall median, wall p99, CPU median, samples; the target and each verdict."""
    width = max(len(row.case) for row in rows) + 2
    head = "".join(f"{label[: CELL - 2]:>{CELL}}" for label in labels)
    verdicts = "".join(f" {label.split()[0]:<16}" for label in labels)
    print(f"\n{title}")
    print(f"{'':<{width}}{head}   {'target':<14}{verdicts}")
    sub = "".join(f"{'median':>8}{'p99':>8}{'cpu':>8}{'n':>6}" for _ in labels)
    print(f"{'case (ms)':<{width}}{sub}")
    for row in rows:
        cells = "".join(cell(figure) for figure in row.figures)
        marks = "".join(f" {verdict(f, row.limit, p99_only=p99_only):<16}" for f in row.figures)
        print(f"{row.case:<{width}}{cells}   {row.limit_text:<14}{marks}".rstrip())


def markdown(
    title: str, labels: Sequence[str], rows: Sequence[Row], *, p99_only: bool = False
) -> str:
    """The same table in Markdown, for docs/benchmarks.md (wall median / p99 (CPU median))."""
    head = " | ".join(f"{label}: median / p99 (cpu)" for label in labels)
    lines = [
        f"**{title}**",
        "",
        f"| case (ms) | {head} | target |",
        "|---" * (len(labels) + 2) + "|",
    ]
    for row in rows:
        cells = []
        for figure in row.figures:
            if figure is None:
                cells.append("n/a")
                continue
            cpu = "" if figure.cpu is None else f" ({figure.cpu:.1f})"
            mark = verdict(figure, row.limit, p99_only=p99_only)
            cells.append(
                f"{figure.median:.1f} / {figure.p99:.1f}{cpu}" + (f" {mark}" if mark else "")
            )
        lines.append(f"| {row.case.strip()} | {' | '.join(cells)} | {row.limit_text} |")
    return "\n".join(lines) + "\n"


machine = this_tree.bench("machine").machine
"""Cores, CPU model, load average and versions: what a figure needs beside it."""


def describe(where: Sequence[Tree], before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    trees_text = "; ".join(f"{t.label} = {t.path}" for t in where)
    return (
        f"{trees_text}\nmachine: {before['cpus']} cores, {before['cpu']}, Python "
        f"{before['python']}; load average (1, 5, 15 min) before {before['load_average']}, "
        f"after {after['load_average']}"
    )
