"""A display killed mid-shoe gets, on restart, every coup it missed (item 6).

A real ``scoreboard run --headless`` is SIGKILLed (a power cut); the controller
deals the rest of the shoe and starts the next one while it is down; after the
restart the broker hands over the session's queued QoS 1 messages, so the shoe
that ended meanwhile is archived whole, for MQTT 5 and 3.1.1 alike.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mqtt_broker import DisplayProcess, needs_mosquitto, running_broker, unique_prefix, wait_for

from scoreboard.controller import Controller
from scoreboard.game.events import CoupReceived
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal
from scoreboard.table.state import TableState

pytestmark = [needs_mosquitto, pytest.mark.slow]


def archived_games(state_dir: Path, tmp_path: Path) -> list[tuple[int, ...]]:
    """The game numbers of each archived shoe, read back through the journal's own replay."""
    shoes = []
    for number, archive in enumerate(sorted((state_dir / "shoes").glob("*.jsonl"))):
        copy = tmp_path / f"replay-{number}"
        copy.mkdir()
        shutil.copy(archive, copy / "journal.jsonl")
        table = TableState()
        with Journal(copy) as journal:
            journal.replay(table)
        shoes.append(tuple(game.number for game in table.games))
    return shoes


@pytest.mark.parametrize("protocol", ["5", "3.1.1"])
def test_a_shoe_that_ends_while_the_display_is_down_is_archived_whole(tmp_path, protocol):
    dealer = Dealer(decks=2, seed=606)
    first, second = list(dealer.shoe()), list(dealer.shoe())
    coups_a = [e for e in first if isinstance(e, CoupReceived)]
    coups_b = [e for e in second if isinstance(e, CoupReceived)]
    seen = [i for i, e in enumerate(first) if isinstance(e, CoupReceived)][4] + 1  # 5 coups
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        display = DisplayProcess(tmp_path, broker, prefix, "--mqtt-protocol", protocol).start()
        controller = Controller(
            broker.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        try:
            assert wait_for(lambda: display.status().get("online") is True, 30), display.log_text()
            controller.start()
            controller.deal(timed(first[:seen], 0.0, 0.0))
            assert controller.flush(10)
            assert wait_for(lambda: display.status().get("games") == 5, 20), display.status()
            display.kill()  # a power cut: no goodbye, the broker keeps the session
            controller.deal(timed(first[seen:] + second[:6], 0.0, 0.0))
            assert controller.flush(10)
            display.start()
            done = {"shoe": coups_b[0].shoe, "games": 4}  # second[:6]: new shoe, burn, 4 coups

            def caught_up() -> bool:
                status = display.status()
                return all(status.get(key) == value for key, value in done.items())

            assert wait_for(caught_up, 30), (display.status(), display.log_text())
        finally:
            controller.stop()
            display.stop()
    assert archived_games(tmp_path / "state", tmp_path) == [
        tuple(coup.game.number for coup in coups_a)
    ]
    assert "Traceback" not in display.log_text()
