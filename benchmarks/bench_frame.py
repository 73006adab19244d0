"""Frame cost as the screen sees it, through the kiosk's own loop, two trees side by side.

Drives the real :class:`scoreboard.kiosk.loop.Kiosk` (dummy video driver, windowed at
the benchmark size) with a scripted in-process feed, timing ``Kiosk.step``: the
poll, the renderer's update, the copy of the dirty rectangles to the display
surface and ``pygame.display.update``.  Animation frames (``Kiosk.draw`` at
each ``renderer.next_blink``) are timed apart from the coup that started them.
Cases (see ``kiosk_frames.py``): a coup early (1-10) and late (71-80) in an
80-coup shoe, the last coups of a 1,000-coup shoe, a full frame
(``renderer.invalidate()`` then a step), a theme reload with its first frame,
the cold first frame of a new kiosk, and the kiosk as shipped (the renderer's
default motion).  Medians and p99 in ms; motion is off for the comparison when
the tree's ``Renderer`` takes ``motion=``.

Run (from a checkout with its venv)::

    .venv/bin/python benchmarks/bench_frame.py                       # this tree only
    git -C . worktree add --detach /work/wt-base 2a91390             # once: the baseline
    .venv/bin/python benchmarks/bench_frame.py --compare /work/wt-base [--quick] [--rounds 3]

Each (theme, size) runs in a fresh process per tree, base and now interleaved
(``--rounds N``: N times over, the samples pooled), so drift in the machine's
load falls on both columns alike.  Each cell gives the wall-clock median and
p99 (what the screen waits) and the median of the process's CPU time (what a
busy neighbour on the shared cores moves less).  Targets (issue
10, 2-core machine): a coup <= 3 ms at 1920x1080 and <= 8 ms at 3840x2160, a
full frame <= 8 / <= 20 ms, a coup of a 1,000-coup shoe within 20 % of one of
an 80-coup shoe.  The verdict is ``ok`` when median and p99 are within,
``p99 over`` when only the median is.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import kiosk_frames
import sidebyside as sbs

SCRIPT = Path(__file__).resolve()
ROUND: dict[str, int] = {}  # kiosk_frames.Plan's defaults
QUICK = {"shoes": 1, "repeat": 5, "cold": 1, "long_timed": 6, "shipped_shoes": 1}
SMOKE = {"shoe": 12, "shoes": 1, "repeat": 2, "cold": 1, "long_shoe": 30, "long_timed": 2}
PLANS = {"full": ROUND, "quick": QUICK, "smoke": SMOKE}
"""What one round measures; ``--rounds`` runs that many rounds (a fresh process each)."""
COUP = {(1920, 1080): 3.0, (3840, 2160): 8.0}
FULL = {(1920, 1080): 8.0, (3840, 2160): 20.0}
LONG_RATIO = 1.20
FULL_FRAME = "full frame"
THEMES = "classic,midnight"
REPORTED = (
    "animation frame",
    "theme reload + first frame",
    "cold first frame (first in process)",
    "cold first frame (new Kiosk)",
)


def size_of(text: str) -> tuple[int, int]:
    width, height = (int(part) for part in text.lower().split("x"))
    return width, height


def child(args: argparse.Namespace) -> int:
    """Measure one theme and size in this interpreter's tree; print the JSON."""
    plan = kiosk_frames.Plan(**json.loads(args.plan))
    result = kiosk_frames.measure(args.theme, size_of(args.size), plan)
    result["plan"] = dataclasses.asdict(plan)
    print(json.dumps(result))
    return 0


def ratio(long: sbs.Figure | None, short: sbs.Figure | None) -> sbs.Figure | None:
    """The long shoe's figures over the short one's: wall median, wall p99, CPU median."""
    if long is None or short is None or short.median <= 0 or short.p99 <= 0:
        return None
    cpu = None if long.cpu is None or not short.cpu else long.cpu / short.cpu
    return sbs.Figure(long.median / short.median, long.p99 / short.p99, long.count, cpu)


def rows(results: Sequence[Mapping[str, Any]], size: tuple[int, int]) -> list[sbs.Row]:
    """The table's rows for one theme and size, one figure per tree."""

    def figures(case: str, key: str = "samples") -> list[sbs.Figure | None]:
        found = [result[key].get(case, {}) for result in results]
        return [sbs.figure(f.get("wall", []), f.get("cpu", [])) for f in found]

    coup, full = COUP.get(size), FULL.get(size)
    coup_text = f"<= {coup:g} ms" if coup else ""
    plan = results[0]["plan"]
    late = kiosk_frames.late_case(plan["shoe"])
    long_case = f"coup, late in a {plan['long_shoe']}-coup shoe"
    long_figures = figures(long_case)
    table = [
        sbs.Row(kiosk_frames.EARLY, figures(kiosk_frames.EARLY), coup, coup_text),
        sbs.Row(late, figures(late), coup, coup_text),
        sbs.Row(long_case, long_figures, coup, coup_text),
        sbs.Row(
            f"  long shoe / {plan['shoe']}-coup (late), x",
            [ratio(lf, sf) for lf, sf in zip(long_figures, figures(late), strict=True)],
            LONG_RATIO,
            f"<= {LONG_RATIO:.2f}x",
        ),
        sbs.Row(FULL_FRAME, figures(FULL_FRAME), full, f"<= {full:g} ms" if full else ""),
    ]
    table += [sbs.Row(case, figures(case)) for case in REPORTED]
    shipped = (
        kiosk_frames.late_case(plan["shoe"], "as shipped: "),
        "as shipped: animation frame",
        kiosk_frames.late_case(plan["shoe"], "rotated 90: "),
        "rotated 90: full frame",
    )
    table += [sbs.Row(case, figures(case, "shipped")) for case in shipped]
    return table


def merged(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One tree's rounds as one result: every case's samples concatenated."""
    result = dict(runs[0])
    for key in ("samples", "shipped"):
        cases: dict[str, dict[str, list[float]]] = {}
        for run in runs:
            for case, kinds in run[key].items():
                for kind, values in kinds.items():
                    cases.setdefault(case, {}).setdefault(kind, []).extend(values)
        result[key] = cases
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = sbs.parser((__doc__ or "").splitlines()[0])
    parser.add_argument("--themes", default=THEMES)
    parser.add_argument("--sizes", default="1920x1080,3840x2160")
    parser.add_argument("--quick", action="store_true", help="classic only, fewer samples")
    parser.add_argument("--rounds", type=int, default=1, help="fresh processes per tree and case")
    parser.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also save every raw sample")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the tables")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--theme", help=argparse.SUPPRESS)
    parser.add_argument("--size", help=argparse.SUPPRESS)
    parser.add_argument("--plan", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    plan = PLANS["smoke" if args.smoke else "quick" if args.quick else "full"]
    themes = "classic" if args.quick and args.themes == THEMES else args.themes
    plan_long = plan.get("long_shoe", kiosk_frames.Plan().long_shoe)
    where = sbs.trees(args.compare, args.tree)
    before = sbs.machine()
    saved: list[dict[str, Any]] = []
    blocks = []
    for theme in themes.split(","):
        for size_text in args.sizes.split(","):
            argv_child = ["--theme", theme, "--size", size_text, "--plan", json.dumps(plan)]
            per_round = [
                [sbs.run_child(t, SCRIPT, argv_child) for t in where] for _ in range(args.rounds)
            ]
            results = [merged(list(runs)) for runs in zip(*per_round, strict=True)]
            for t, result in zip(where, results, strict=True):
                if result.get("long_shoe_games", plan_long) != plan_long:
                    print(f"WARNING {t.label}: the long shoe holds {result['long_shoe_games']} "
                          f"games, not {plan_long}", file=sys.stderr)  # fmt: skip
            saved.append({"theme": theme, "size": size_text, "results": results})
            blocks.append((f"{theme} {size_text}", rows(results, size_of(size_text))))
            print(f"measured {theme} {size_text}", file=sys.stderr, flush=True)
    after = sbs.machine()
    print(sbs.describe(where, before, after))
    motion = {t.label: r["motion_keyword"] for t, r in zip(where, saved[0]["results"], strict=True)}
    print(
        "Renderer(motion=False) used for the comparison rows: "
        + ", ".join(
            f"{label}: {'yes' if used else 'n/a (no keyword)'}" for label, used in motion.items()
        )
    )
    for title, block in blocks:
        sbs.print_table(title, [t.label for t in where], block)
    if args.markdown is not None:
        labels = [t.label for t in where]
        text = "\n".join(sbs.markdown(title, labels, block) for title, block in blocks)
        args.markdown.write_text(sbs.describe(where, before, after) + "\n\n" + text)
    if args.json is not None:
        machine = {"before": before, "after": after}
        trees = [{"label": t.label, "path": str(t.path)} for t in where]
        args.json.write_text(json.dumps({"machine": machine, "trees": trees, "runs": saved}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
