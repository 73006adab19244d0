"""The figures as a technician reads them (a table and the verdict last) or as one JSON object.

Every JSON key carries its unit (``frame_full_ms``, ``idle_cpu_percent``,
``peak_rss_mib``); sizes are keys such as ``"1920x1080"``; a figure not
measured is ``null`` beside its reason, never a number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoreboard import __version__

from .frames import FrameFigures
from .results import Results, size_text
from .stats import Spread
from .verdict import Check, Verdict

DUMMY_NOTE = "dummy driver: no real display copy"


def spread_json(spread: Spread | None, median: str = "median") -> dict[str, Any] | None:
    if spread is None:
        return None
    found: dict[str, Any] = {median: round(spread.median, 4), "p99": round(spread.p99, 4)}
    found["samples"] = spread.count
    if spread.cpu is not None:
        found[f"cpu_{median}"] = round(spread.cpu, 4)
    return found


def frames_json(results: Results, pick: str) -> dict[str, Any]:
    found = {size_text(f.size): spread_json(getattr(f, pick)) for f in results.frames}
    return {**found, **dict.fromkeys(results.frames_failed)}


def check_json(check: Check) -> dict[str, Any]:
    status = {True: "pass", False: "fail", None: "skipped"}[check.passed]
    found = {"name": check.name, "value": check.value, "limit": round(check.limit, 4)}
    found.update(unit=check.unit, status=status)
    if check.skipped is not None or check.failed is not None:
        found["reason"] = check.failed or check.skipped
    return found


def as_json(results: Results, checks: Sequence[Check], verdict: Verdict) -> dict[str, Any]:
    """One object with every figure, the machine, each check and the verdict."""
    memory, latency = results.memory, results.latency
    return {
        "scoreboard": __version__,
        "screen": {"size": size_text(results.screen), "rotate": results.rotate},
        "theme": results.theme,
        "quick": results.quick,
        "seconds": round(results.seconds, 1),
        "machine": {**results.machine, **results.display},
        "road_append_us": spread_json(results.road_append_us),
        "frame_coup_ms": frames_json(results, "coup"),
        "frame_animation_ms": frames_json(results, "animation"),
        "frame_full_ms": frames_json(results, "full"),
        "frame_failed": results.frames_failed,
        "idle_cpu_percent": round(results.idle.percent, 3),
        "idle_seconds": round(results.idle.seconds, 2),
        "memory": {
            "peak_rss_mib": round(memory.peak_mib, 1),
            "rss_after_first_shoe_mib": round(memory.after[0], 1),
            "rss_after_last_shoe_mib": round(memory.after[-1], 1),
            "rss_growth_from_shoe": memory.settled_shoe,
            "rss_growth_mib": round(memory.growth_mib, 2),
            "rss_growth_per_shoe_kib": round(memory.growth_per_shoe_kib, 1),
            "shoes": memory.shoes,
        },
        "publish_flip_ms": spread_json(latency.flip, "p50"),
        "publish_applied_ms": spread_json(latency.applied, "p50"),
        "publish_flip_coups": {"published": latency.published, "shown": latency.shown},
        "publish_flip_skipped": latency.skipped,
        "publish_flip_failed": latency.failed,
        "checks": [check_json(check) for check in checks],
        "verdict": {"pass": verdict.passed, "line": verdict.line},
    }


def pair(spread: Spread | None) -> str:
    return f"{'n/a':>8}{'':>8}" if spread is None else f"{spread.median:>8.2f}{spread.p99:>8.2f}"


def frame_line(figures: FrameFigures, screen: tuple[int, int]) -> str:
    label = size_text(figures.size) + (" (screen)" if figures.size == screen else "")
    cells = pair(figures.coup) + "  " + pair(figures.animation) + "  " + pair(figures.full)
    return f"  {label:<20}{cells}"


def as_text(results: Results, checks: Sequence[Check], verdict: Verdict) -> str:
    """The report a technician reads: the machine, each figure, each check, the verdict last."""
    m, d = results.machine, results.display
    where = f"{m.get('board') or m.get('cpu')}, {m.get('cpus')} cpus, {m.get('os')}"
    driver = f"video driver {d.get('video_driver')}"
    if not results.display_copy:
        driver += f" ({DUMMY_NOTE})"
    rotated = f", rotated {results.rotate}" if results.rotate else ""
    lines = [
        f"scoreboard bench{' --quick' if results.quick else ''}: screen "
        f"{size_text(results.screen)}{rotated}, theme {results.theme}; {driver}",
        f"machine: {where}; Python {m.get('python')}, pygame-ce {d.get('pygame')}, "
        f"SDL {d.get('sdl')}; load average {m.get('load_average')} -> "
        f"{m.get('load_average_after')}; {results.seconds:.0f} s",
        "",
        f"road append (µs)      median {results.road_append_us.median:.2f}  p99 "
        f"{results.road_append_us.p99:.2f}  ({results.road_append_us.count:,} appends)",
        f"frames (ms)           {'per-coup update':>16}  {'animation frame':>16}  "
        f"{'full frame':>16}",
        f"{'':<22}{'median     p99':>16}  {'median     p99':>16}  {'median     p99':>16}",
        *(frame_line(figures, results.screen) for figures in results.frames),
        *(f"  {size:<20}failed: {why}" for size, why in results.frames_failed.items()),
        f"idle CPU              {results.idle.percent:.2f} % of one core over "
        f"{results.idle.seconds:.1f} s with nothing arriving",
        memory_line(results),
        latency_line(results),
        "",
        "checks:",
        *(check_line(check) for check in checks),
        *load_note(results.machine),
        verdict.line,
    ]
    return "\n".join(lines)


def load_note(machine: Mapping[str, Any]) -> list[str]:
    """A line when other work kept the cores busy: the wall-clock figures include its waits.

    >>> load_note({"cpus": 2, "load_average": "0.40 0.30 0.20"})
    []
    >>> load_note({"cpus": 2, "load_average": "3.10 2.00 1.00"})[0][:37]
    'note: load average 3.10 on 2 cpus: ot'
    """
    cpus, loads = machine.get("cpus") or 0, str(machine.get("load_average", "")).split()
    if not cpus or not loads or float(loads[0]) < cpus / 2:
        return []
    return [
        f"note: load average {loads[0]} on {cpus} cpus: other work ran meanwhile and the "
        "figures (wall clock) include its waits; on a busy box run it again when idle"
    ]


def memory_line(results: Results) -> str:
    memory = results.memory
    shoes = dict.fromkeys((1, memory.settled_shoe, memory.shoes))
    after = ", ".join(f"shoe {shoe} {memory.after[shoe - 1]:.1f}" for shoe in shoes)
    return (
        f"memory                peak RSS {memory.peak_mib:.1f} MiB; RSS after {after} MiB "
        f"({memory.growth_per_shoe_kib:+.0f} KiB a shoe over shoes "
        f"{memory.settled_shoe}-{memory.shoes})"
    )


def latency_line(results: Results) -> str:
    latency = results.latency
    head = "publish→flip (ms)     "
    if latency.flip is None:
        reason = latency.failed or latency.skipped
        return f"{head}{'failed' if latency.failed else 'skipped'}: {reason}"
    applied = (
        "" if latency.applied is None else f"; publish→applied p50 {latency.applied.median:.1f}"
    )
    failed = f"; FAILED: {latency.failed}" if latency.failed else ""
    return (
        f"{head}p50 {latency.flip.median:.1f}  p99 {latency.flip.p99:.1f}  "
        f"({latency.shown} of {latency.published} coups shown{applied}){failed}"
    )


def check_line(check: Check) -> str:
    mark = {True: "ok  ", False: "FAIL", None: "skip"}[check.passed]
    if check.passed is None:
        return f"  {mark}  {check.figure_text()}"
    if check.passed is False:
        return f"  {mark}  {check.failure_text()}"
    return f"  {mark}  {check.figure_text()} <= {check.limit:.3g} {check.unit}"
