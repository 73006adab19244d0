"""The same dealer, shown by the demo feed and through MQTT, ends a shoe the same way.

The demo applies the dealer's events in-process; over MQTT the simulated
controller publishes them to a real mosquitto and a display applies what it
receives.  Both boards must show the end of a shoe alike: the last coup stays,
then the shuffle mark over the finished shoe, then the new shoe.  Each board is
run at a fast pace and its table sampled as the app loop would poll it; the
states that lasted (not the zero-wait steps between two events of one moment)
are compared.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

from mqtt_broker import Display, needs_mosquitto, running_broker, unique_prefix

from scoreboard.controller import Controller
from scoreboard.feeds.simulated import SimulatedFeed
from scoreboard.game.events import CoupReceived
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer
from scoreboard.game.variants import VARIANTS
from scoreboard.table.state import TableState

PACE = 0.2  # seconds per coup
SHUFFLE = 0.8  # seconds of shuffle between shoes
SEED = 3
LASTED = PACE / 3  # a state shown at least this long was on screen, not a step between events

State = tuple[str | None, int, bool, bool]  # (shoe, games, shuffling, cut_card_out)


def dealer() -> Dealer:
    return Dealer(decks=1, seed=SEED)


def state_of(table: TableState) -> State:
    return (table.shoe_id, len(table.games), table.shuffling, table.cut_card_out)


def second_shoe_under_way(table: TableState) -> bool:
    return table.shoe_number >= 2 and len(table.games) >= 2


def watch(
    poll: Callable[[float], None],
    next_deadline: Callable[[float], float | None],
    wake: threading.Event,
    table: TableState,
    timeout: float = 30.0,
) -> list[tuple[State, float]]:
    """Poll like the app loop and sample the table: each state seen and how long it lasted."""
    seen: list[tuple[State, float]] = []
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        now = time.monotonic()
        poll(now)
        state = state_of(table)
        if not seen or seen[-1][0] != state:
            seen.append((state, now))
        if second_shoe_under_way(table):
            break
        due = next_deadline(now)
        wake.wait(0.005 if due is None else max(0.0, min(0.005, due - now)))
        wake.clear()
    assert second_shoe_under_way(table), f"the second shoe never got going: {seen[-3:]}"
    lasted = [(state, later - at) for (state, at), (_, later) in pairwise(seen)]
    return [*lasted, (seen[-1][0], float("inf"))]


def shown(samples: list[tuple[State, float]]) -> list[State]:
    """The states that stayed on screen, once each, in order."""
    states: list[State] = []
    for state, duration in samples:
        if state[0] is not None and duration >= LASTED and (not states or states[-1] != state):
            states.append(state)
    return states


def demo_board() -> tuple[list[State], list[tuple[State, float]]]:
    feed = SimulatedFeed(dealer(), pace=PACE, shuffle_seconds=SHUFFLE)
    table, wake = TableState(), threading.Event()
    feed.start(wake.set)
    samples = watch(lambda now: feed.poll(table, now), feed.next_deadline, wake, table)
    return shown(samples), samples


def mqtt_board(tmp_path) -> tuple[list[State], list[tuple[State, float]]]:
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        display = Display(broker.settings(), prefix).start()
        controller = Controller(
            broker.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        thread = threading.Thread(
            target=controller.deal, args=(dealer().timed(PACE, SHUFFLE),), kwargs={"shoes": 2}
        )
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            controller.start()
            thread.start()
            samples = watch(
                lambda _now: display.poll(), display.feed.next_deadline, display.wake, display.table
            )
        finally:
            controller.stop()
            thread.join(10)
            display.stop()
    return shown(samples), samples


@needs_mosquitto
def test_the_demo_and_mqtt_show_the_end_of_a_shoe_the_same_way(tmp_path):
    # The two boards deal side by side (each its own dealer, table and clock): one
    # shoe's time, not two.
    with ThreadPoolExecutor(max_workers=1) as pool:
        demo_run = pool.submit(demo_board)
        mqtt, mqtt_samples = mqtt_board(tmp_path)
        demo, demo_samples = demo_run.result()
    assert mqtt == demo, (demo_samples, mqtt_samples)
    # ... and that way is: the last coup stays, the shuffle shows over it, the new shoe starts.
    first, second = demo[0][0], demo[-1][0]
    new_shoe = demo.index((second, 0, False, False))
    last = demo[new_shoe - 2][1]
    assert demo[new_shoe - 2 : new_shoe + 1] == [
        (first, last, False, True),
        (first, last, True, True),
        (second, 0, False, False),
    ]
    assert last == sum(isinstance(event, CoupReceived) for event in dealer().shoe())
    for samples in (demo_samples, mqtt_samples):
        durations = dict(samples)
        assert durations[(first, last, False, True)] >= PACE * 0.5  # the last coup stayed
        assert durations[(first, last, True, True)] >= SHUFFLE * 0.5  # the shuffle showed
