"""Measures each scheduling unit's wall and CPU seconds into ``unit_seconds.json``.

``make test PYTEST_ARGS="-p tests.unit_timer"``: each worker notes, per unit
(:func:`scheduling.unit_of`), the seconds its tests took and the CPU they used,
the processes they waited for included; the controller merges the notes and
writes the units of two seconds or more, longest first, for
:func:`scheduling.run_order`.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections import Counter

from tests.scheduling import TIMES, unit_of

NOTES = TIMES.parent.parent / ".pytest_cache" / "unit_seconds"
SHORTEST = 2.0  # seconds: shorter units run in xdist's order, at the end

_started: dict[str, tuple[float, float]] = {}
_wall: Counter[str] = Counter()
_cpu: Counter[str] = Counter()


def _used() -> float:
    own, waited = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


def pytest_runtest_logstart(nodeid):
    _started[nodeid] = (time.monotonic(), _used())


def pytest_runtest_logfinish(nodeid):
    began, used = _started.pop(nodeid, (time.monotonic(), _used()))
    _wall[unit_of(nodeid)] += time.monotonic() - began
    _cpu[unit_of(nodeid)] += _used() - used


def pytest_sessionfinish():
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    NOTES.mkdir(parents=True, exist_ok=True)
    if worker is not None:
        note = {unit: [_wall[unit], _cpu[unit]] for unit in _wall}
        (NOTES / f"{worker}.json").write_text(json.dumps(note))
        return
    notes = [json.loads(path.read_text()) for path in sorted(NOTES.glob("*.json"))]
    if not notes:  # not a run of xdist's workers (make test's serial run): nothing to order
        return
    wall: Counter[str] = Counter()
    cpu: Counter[str] = Counter()
    for note in notes:
        for unit, (seconds, used) in note.items():
            wall[unit] += seconds
            cpu[unit] += used
    rows = [
        f"  {json.dumps(unit)}: [{seconds:.1f}, {cpu[unit]:.1f}]"
        for unit, seconds in wall.most_common()
        if seconds >= SHORTEST
    ]
    TIMES.write_text("{\n" + ",\n".join(rows) + "\n}\n")
    for path in NOTES.glob("*.json"):
        path.unlink()
