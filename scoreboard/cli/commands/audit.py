"""``scoreboard audit STATE_DIR [--json] [--expect-tip HASH]``: verify a display's journal
chain and list what it holds.

Exit status 0 when the chain is intact, 1 naming the file and line of the first
broken link (a file not on the chain is one), 2 when STATE_DIR is not a
display's state dir.  The listing: the chain's tip (its last line's hash, for
surveillance to keep off the box and give back as ``--expect-tip``), every shoe
the files hold (games, voids, corrections, refused messages, alerts, the
shoe's health reports; a file not on the chain is marked so), the gaps the
display wrote down (when it could not write, and why) and notes (a torn last
line, files set aside).  ``--json`` prints the same as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from scoreboard.cli import CommandError, UsageError
from scoreboard.journal.chain import ChainReport, Gap, NotAStateDir, verify
from scoreboard.journal.contents import HealthLine, ShoeHeld, shoes_held
from scoreboard.table.visible import escaped


def run(args: argparse.Namespace) -> int:
    try:
        report = verify(args.state_dir, expect_tip=args.expect_tip)
    except NotAStateDir as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise CommandError(
            f"{args.state_dir}: cannot be read ({error.strerror or error})"
        ) from None
    shoes = shoes_held(report.held)
    if args.json:
        print(json.dumps(as_json(report, shoes, args.state_dir), ensure_ascii=False))
    else:
        sys.stdout.write(as_text(report, shoes, args.state_dir))
    return 0 if report.ok else 1


def _name(path: Path, state_dir: Path) -> str:
    return str(path.relative_to(state_dir)) if path.is_relative_to(state_dir) else str(path)


def _when(at: object) -> str:
    if not isinstance(at, int | float):
        return "?"
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def as_text(report: ChainReport, shoes: list[ShoeHeld], state_dir: Path) -> str:
    """The report for a person: verdict first, then shoes, gaps, alerts and notes."""
    out = []
    files, lines = len(report.files), report.records
    if report.broken is None:
        out.append(f"{state_dir}: chain intact ({files} files, {lines} lines)")
    else:
        where = _name(report.broken.path, state_dir)
        out.append(f"{state_dir}: BROKEN at {where} line {report.broken.line}: {report.broken.why}")
    out.append(f"tip: {_tip_line(report, state_dir)}")
    if report.legacy:
        out.append(f"  {report.legacy} unchained lines of the old format before the chain began")
    off = _off(report)
    out.append("shoes:")
    for shoe in shoes:
        mark = " (NOT ON THE CHAIN)" if shoe.path in off else ""
        out.append(f"  {_name(shoe.path, state_dir)}{mark}: {_shoe_line(shoe)}")
        out += [f"    game {c.game} {_verb(c.kind)}{_reason(c.reason)} (line {c.line})"
                for c in shoe.changes]  # fmt: skip
        out += [f"    game {game}: a refused coup (line {line})" for game, line in shoe.refused]
        out += [f"    shoe health: {_health_line(h)}" for h in shoe.health]
    gaps = [f"  {_gap_line(gap, state_dir)}" for gap in report.gaps]
    out += ["gaps:", *gaps] if gaps else ["gaps: none"]
    alerts = [alert for shoe in shoes for alert in shoe.alerts]
    out += ["alerts:", *(f"  {_alert_line(a)}" for a in alerts)] if alerts else ["alerts: none"]
    out += ["notes:", *(f"  {note}" for note in report.notes)] if report.notes else []
    # Shoe ids, reasons and file names come from the feed and the disk: no line may hide
    # a control or direction-changing character that reverses or splits it.
    return "\n".join(escaped(line) for line in out) + "\n"


def _off(report: ChainReport) -> set[Path]:
    """The files no line of which is on the chain."""
    return {each.path for each in report.off if each.line == 1}


def _tip_line(report: ChainReport, state_dir: Path) -> str:
    """The chain's last line: its hash (what surveillance keeps off the box), file and line."""
    tip = report.tip
    if tip is None:
        return "none (the chain holds no line)"
    return f"{tip.line.hash} ({_name(tip.path, state_dir)} line {tip.line.number})"


def _shoe_line(shoe: ShoeHeld) -> str:
    voids = sum(c.kind == "void" for c in shoe.changes)
    corrections = sum(c.kind == "correct" for c in shoe.changes)
    parts = [
        f"shoe {shoe.shoe}" if shoe.shoe is not None else "no shoe",
        f"{shoe.games} games{_span(shoe.numbers)}",
        f"{voids} voided",
        f"{corrections} corrected",
        f"{len(shoe.refused)} refused",
        f"{len(shoe.alerts)} alerts",
        f"{_when(shoe.first_at)} to {_when(shoe.last_at)}",
    ]
    return ", ".join(parts)


def _span(numbers: tuple[int, ...]) -> str:
    """`` (1-72)``: the first and last game numbers held, when there are any."""
    return f" ({numbers[0]}-{numbers[-1]})" if numbers else ""


def _verb(kind: str) -> str:
    return {"void": "voided", "correct": "corrected"}.get(kind, kind)


def _reason(reason: str) -> str:
    return f": {reason}" if reason else ""


def _gap_line(gap: Gap, state_dir: Path) -> str:
    data = gap.data
    lost = data.get("lost")
    since = data.get("from")
    period = f"from {_when(since)} to " if since is not None else "at "
    text = (
        f"{_name(gap.path, state_dir)} line {gap.line}: {period}{_when(data.get('to'))}: "
        f"{data.get('why')}; {data.get('held', 0)} lines held in memory written, "
        f"{data.get('dropped', 0)} events dropped"
    )
    if isinstance(lost, dict):
        text += f"; {lost.get('lines')} lines of {lost.get('file')} lost"
    return text


def _health_line(health: HealthLine) -> str:
    """``error:2 raised: card not read (line 7)``: a shoe health report for staff."""
    detail = f": {health.detail}" if health.detail else ""
    return f"{health.condition} {health.state}{detail} (line {health.line})"


def _alert_line(alert: dict[str, Any]) -> str:
    return f"shoe {alert.get('shoe')} game {alert.get('game')}: {alert.get('kind')}: " + str(
        alert.get("detail")
    )


def as_json(report: ChainReport, shoes: list[ShoeHeld], state_dir: Path) -> dict[str, Any]:
    broken, tip = report.broken, report.tip
    off = _off(report)
    return {
        "state_dir": str(state_dir),
        "ok": report.ok,
        "broken": None
        if broken is None
        else {"file": _name(broken.path, state_dir), "line": broken.line, "why": broken.why},
        "tip": None
        if tip is None
        else {"hash": tip.line.hash, "file": _name(tip.path, state_dir), "line": tip.line.number},
        "off": [
            {"file": _name(each.path, state_dir), "line": each.line, "why": each.why}
            for each in report.off
        ],
        "files": [_name(path, state_dir) for path in report.files],
        "records": report.records,
        "legacy": report.legacy,
        "shoes": [
            {
                "file": _name(shoe.path, state_dir),
                "on_chain": shoe.path not in off,
                "shoe": shoe.shoe,
                "games": shoe.games,
                "numbers": list(shoe.numbers),
                "voided": list(shoe.voided),
                "changes": [
                    {
                        "game": c.game,
                        "kind": c.kind,
                        "reason": c.reason,
                        "line": c.line,
                        "by_snapshot": c.by_snapshot,
                    }
                    for c in shoe.changes
                ],
                "refused": [{"game": game, "line": line} for game, line in shoe.refused],
                "alerts": list(shoe.alerts),
                "health": [
                    {"condition": h.condition, "state": h.state, "detail": h.detail, "line": h.line}
                    for h in shoe.health
                ],
                "first_at": shoe.first_at,
                "last_at": shoe.last_at,
            }
            for shoe in shoes
        ],
        "gaps": [
            {"file": _name(gap.path, state_dir), "line": gap.line, **gap.data}
            for gap in report.gaps
        ],
        "notes": list(report.notes),
    }
