"""How ``make test`` hands test files to its two xdist workers (``--dist loadfile``).

xdist's loadfile sends whole files, the files with the most tests first.  Two
things cost the suite minutes with that order:

- the installer's files share one scratch install (``install_root.shared_install``,
  built once per process): spread over both workers it is built twice.  They are
  one unit here, so one worker builds it once.
- the files with a few long tests (processes, brokers, real timers) came last, so
  one worker ran the last of them while the other had nothing left.  The units
  in :data:`LONG_FIRST` go first, longest first, then the rest in xdist's order.

A file missing from these lists only runs in xdist's own order; a name that no
longer exists changes nothing.  Any other ``--dist`` keeps xdist's scheduler.
"""

from __future__ import annotations

from pathlib import PurePath

#: Files that share a session fixture, by the unit they run in.
UNITS = {
    "test_install.py": "installer",
    "test_install_bridge.py": "installer",
    "test_install_lobby.py": "installer",
    "test_install_lobby_mosquitto.py": "installer",
    "test_install_mosquitto.py": "installer",
    "test_install_session.py": "installer",
}

#: Units of long tests, longest first (measured on a 2-core box, 2026-12-03).
LONG_FIRST = (
    "installer",
    "tests/test_mutation_tool.py",
    "tests/test_bench_command.py",
    "tests/test_link_hanging.py",
    "tests/test_journal_replay.py",
    "tests/test_lobby_truth.py",
    "tests/test_good_road_plate_cli.py",
    "tests/test_shoe_bridge.py",
    "tests/test_link_tls.py",
    "tests/test_floor_keepalive.py",
    "tests/test_failover_storm.py",
    "tests/test_shoe_emulate_command.py",
    "tests/test_shoe_feed.py",
    "tests/test_lobby_clock.py",
    "tests/test_reused_shoe_ids.py",
    "tests/test_bench_smoke.py",
    "tests/test_floor_restart.py",
    "tests/test_lobby_wall_status.py",
)


def unit_of(nodeid: str) -> str:
    """The unit a test runs in: its file, or the unit its file shares a fixture with.

    >>> unit_of("tests/test_install_bridge.py::test_x"), unit_of("tests/test_cards.py::test_y")
    ('installer', 'tests/test_cards.py')
    """
    path = nodeid.split("::", 1)[0]
    return UNITS.get(PurePath(path).name, path)


def long_first(units: list[str]) -> list[str]:
    """``units`` in run order: those of :data:`LONG_FIRST` first, in its order, then the rest.

    >>> long_first(["tests/test_cards.py", "tests/test_bench_command.py", "installer"])
    ['installer', 'tests/test_bench_command.py', 'tests/test_cards.py']
    """
    rank = {unit: number for number, unit in enumerate(LONG_FIRST)}
    return sorted(units, key=lambda unit: rank.get(unit, len(rank)))


def make_scheduler(config, log):
    """xdist's loadfile scheduler with :func:`unit_of`'s units in :func:`long_first` order."""
    from xdist.scheduler import LoadFileScheduling

    class UnitScheduling(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # the queue is full: put it in run order once
                for unit in reversed(long_first(list(self.workqueue))):
                    self.workqueue.move_to_end(unit, last=False)
                self.ordered = True
            super()._assign_work_unit(node)

    return UnitScheduling(config, log)
