"""How ``make test`` hands test files to its xdist workers (``--dist loadfile``).

xdist's loadfile sends whole files, the files with the most tests first.  That
order cost the suite a minute or more on two cores:

- the installer's files share one scratch install (``install_root.shared_install``,
  built once per process): spread over the workers it is built more than once.
  They are one unit here, so one worker builds it once;
- a file with a few long tests that came last kept one worker busy while the
  others had nothing left;
- files that mostly wait (on a broker's keepalive, a link's timeout, a process's
  timer) ran side by side: with three of four workers waiting, the two cores
  stood half idle for a minute.

So the units go longest first, by the seconds each took in a measured run
(``unit_seconds.json``: wall and CPU per unit), except that a unit which mostly
waits is never sent right after another one: the waits run beside work.  Units
the table does not know (new or short files) follow in xdist's order.  Any other
``--dist`` keeps xdist's scheduler.  To measure the table again after the suite
changes: ``make test PYTEST_ARGS="-p tests.unit_timer"`` writes ``unit_seconds.json``.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath

#: Files that share a session fixture, by the unit they run in.
UNITS = {
    "test_install.py": "installer",
    "test_install_bridge.py": "installer",
    "test_install_lobby.py": "installer",
    "test_install_lobby_mosquitto.py": "installer",
    "test_install_mosquitto.py": "installer",
    "test_install_session.py": "installer",
}

TIMES = Path(__file__).with_name("unit_seconds.json")
#: A unit spending less than this share of its wall time on the CPU mostly waits.
WAITS_BELOW = 0.3
#: Waiting units are at least this many places apart in the run order.
WAITER_SPACING = 3


def unit_of(nodeid: str) -> str:
    """The unit a test runs in: its file, or the unit its file shares a fixture with.

    >>> unit_of("tests/test_install_bridge.py::test_x"), unit_of("tests/test_cards.py::test_y")
    ('installer', 'tests/test_cards.py')
    """
    path = nodeid.split("::", 1)[0]
    return UNITS.get(PurePath(path).name, path)


def measured() -> dict[str, tuple[float, float]]:
    """Each known unit's (wall, CPU) seconds from :data:`TIMES` (none if it is unreadable)."""
    try:
        table = json.loads(TIMES.read_text())
    except (OSError, ValueError):
        return {}
    return {str(unit): (float(wall), float(cpu)) for unit, (wall, cpu) in table.items()}


def run_order(units: list[str], times: dict[str, tuple[float, float]]) -> list[str]:
    """``units`` in run order: the measured ones longest first, a waiting one never within
    :data:`WAITER_SPACING` places of another (it waits for its turn), then the rest as given.

    >>> times = {"a": (30, 1), "b": (20, 15), "c": (25, 2), "d": (10, 8), "e": (5, 4)}
    >>> run_order(["x", "a", "b", "c", "d", "e"], times)
    ['a', 'b', 'd', 'c', 'e', 'x']
    """
    known = sorted((unit for unit in units if unit in times), key=lambda u: -times[u][0])
    order: list[str] = []
    waiting: list[str] = []
    last_waiter = -WAITER_SPACING
    for unit in known:
        wall, cpu = times[unit]
        if cpu < WAITS_BELOW * wall:
            waiting.append(unit)
        else:
            order.append(unit)
        if waiting and len(order) - last_waiter >= WAITER_SPACING:
            order.append(waiting.pop(0))
            last_waiter = len(order) - 1
    return [*order, *waiting, *(unit for unit in units if unit not in times)]


def make_scheduler(config, log):
    """xdist's loadfile scheduler with :func:`unit_of`'s units in :func:`run_order`."""
    from xdist.scheduler import LoadFileScheduling

    class UnitScheduling(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # the queue is full: put it in run order once
                for unit in reversed(run_order(list(self.workqueue), measured())):
                    self.workqueue.move_to_end(unit, last=False)
                self.ordered = True
            super()._assign_work_unit(node)

    return UnitScheduling(config, log)
