"""Issue 9, item 4: without a key, one unsigned snapshot used to rewrite recorded games
for good (the real controller's coups and snapshots were then refused as conflicts).
With v2 a forgery copying the current session lasts only until the controller's next
payloads: on a real mosquitto, the board ends on the controller's truth."""

from __future__ import annotations

import time

import pytest
from mqtt_broker import Display, needs_mosquitto, publisher, running_broker, unique_prefix

from scoreboard.controller import Controller
from scoreboard.game.events import CoupReceived, Origin, Snapshot
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import Topics, wire
from scoreboard.table.applied import FeedStatus

pytestmark = [needs_mosquitto, pytest.mark.slow]


def coups(dealer, count: int) -> list:
    """The dealer's events up to and including its ``count``-th coup from here."""
    taken, dealt = [], 0
    for event in dealer:
        taken.append(event)
        dealt += isinstance(event, CoupReceived)
        if dealt == count:
            return taken
    raise AssertionError("the dealer ran out")


def forged(games: list[Game]) -> tuple[Game, ...]:
    """The same game numbers with game 2 given another winner's coup (a rewritten game)."""
    second = games[1]
    other = next(g for g in games if g.coup.winner is not second.coup.winner)
    return tuple(Game(2, other.coup) if g.number == 2 else g for g in games)


def test_an_unsigned_forged_snapshot_is_healed_by_the_controllers_next_payloads(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        display = Display(broker.settings(), prefix).start()
        controller = Controller(
            broker.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        controller.start()
        dealer = iter(Dealer(decks=8, seed=44))
        try:
            assert display.until(lambda: display.session.subscribed)
            controller.deal(timed(coups(dealer, 6), 0.0, 0.0))
            assert controller.flush(10)
            truth = tuple(controller.games)
            assert display.until(lambda: display.table.games == truth)
            # The forger copies the session it sees and claims the next seq.
            position = controller.origin
            lie = forged(list(truth))
            assert lie != truth
            forgery = Snapshot(
                controller.shoe_id,
                lie,
                origin=Origin(position.session, position.seq + 1),
            )
            topic, payload = wire(topics, forgery)
            client = publisher(broker.settings())
            client.publish(topic, payload, qos=1).wait_for_publish(5)
            client.disconnect()
            client.loop_stop()
            assert display.until(lambda: display.table.games == lie)  # the forgery showed
            # The real controller deals on: its next coups and snapshots win.
            controller.deal(timed(coups(dealer, 2), 0.0, 0.0))
            assert controller.flush(10)
            truth = tuple(controller.games)
            assert display.until(lambda: display.table.games == truth), (
                [g.coup.winner.value for g in display.table.games],
                [g.coup.winner.value for g in truth],
            )
            assert display.until(lambda: display.status() is FeedStatus.LIVE)
            time.sleep(0.2)
            assert not display.table.missing
        finally:
            controller.stop()
            display.stop()
