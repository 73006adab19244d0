"""How events become table state, whatever order, duplicates and stale snapshots the feed brings.

Each property deals a real shoe, turns what a controller publishes into wire
payloads and back (``encode`` then ``parse_dict``), delivers them to a fresh
display in an adversarial order and checks that once everything has arrived the
display shows exactly the controller's shoe.
"""

from __future__ import annotations

import pytest
from dealt import dealt_shoe
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.rules import Game
from scoreboard.protocol import (
    Correct,
    CoupReceived,
    NewShoe,
    Snapshot,
    Void,
    apply_event,
    display_status,
    encode,
    parse_dict,
)
from scoreboard.roads.engine import Roads
from scoreboard.table.state import TableState


def dealt(seed: int) -> tuple[str, list[Game]]:
    """One small (one-deck) shoe: its id and games."""
    shoe = dealt_shoe(seed, decks=1, short=True)
    return shoe.shoe, list(shoe.games)


def wire(event):
    """What the display receives: the event as a payload, validated again."""
    kind, data = encode(event)
    return parse_dict(kind, data, kind)


def deliver(table: TableState, event) -> int:
    """Apply one event as the feed does; returns 1 for a counted conflict."""
    return 1 if apply_event(table, wire(event)).conflicts else 0


def other_coup(games: list[Game], number: int, salt: int = 0) -> Game:
    """A different, valid coup for game ``number`` (as a correction would bring)."""
    coups = [g.coup for g in games if g.coup != games[number - 1].coup]
    return Game(number, coups[(number + salt) % len(coups)])


def assert_shows(table: TableState, shoe: str, games, voided=()) -> None:
    games = tuple(games)
    assert table.shoe_id == shoe
    assert table.games == games
    assert table.voided == tuple(sorted(voided))
    assert table.missing == ()
    assert table.roads.to_json() == Roads.build(games).to_json()
    assert table.last_game == (games[-1] if games else None)


# -- the controller's side: what it publishes --------------------------------------------------
class ControllerModel:
    """A controller's shoe as it evolves and all it publishes (a snapshot after each change)."""

    def __init__(self, shoe: str) -> None:
        self.shoe = shoe
        self.games: dict[int, Game] = {}
        self.voided: set[int] = set()
        self.coups: list[CoupReceived] = []
        self.events: list = []  # void / correct, in publish order
        self.snapshots: list[Snapshot] = []
        self.publish_snapshot()

    def publish_snapshot(self) -> None:
        games = tuple(self.games[n] for n in sorted(self.games))
        self.snapshots.append(Snapshot(self.shoe, games, tuple(sorted(self.voided))))

    def deal(self, game: Game) -> None:
        self.games[game.number] = game
        self.coups.append(CoupReceived(self.shoe, game))
        self.publish_snapshot()

    def void(self, number: int) -> None:
        if number in self.games:
            del self.games[number]
            self.voided.add(number)
            self.events.append(Void(self.shoe, number, "misdeal"))
            self.publish_snapshot()

    def correct(self, game: Game) -> None:
        self.games[game.number] = game
        self.voided.discard(game.number)
        self.events.append(Correct(self.shoe, game, "wrong card"))
        self.publish_snapshot()

    @property
    def final(self) -> tuple[Game, ...]:
        return tuple(self.games[n] for n in sorted(self.games))


@st.composite
def controller_runs(draw, *, amendments: bool):
    shoe, games = dealt(draw(st.integers(0, 40)))
    controller = ControllerModel(shoe)
    count = draw(st.integers(1, len(games)))
    for game in games[:count]:
        controller.deal(game)
        if amendments and draw(st.integers(0, 3)) == 0:
            number = draw(st.integers(1, game.number))
            if draw(st.booleans()):
                controller.void(number)
            else:
                controller.correct(other_coup(games, number, draw(st.integers(0, 9))))
    return controller


@st.composite
def deliveries(draw, controller: ControllerModel):
    """Everything the controller published, in an adversarial but MQTT-possible order.

    Coups arrive in any order, each at least once, duplicates anywhere.  Void and
    correct events keep their publish order (one topic, QoS 1) and a redelivery
    follows its original at once.  Retained snapshots of any moment of the shoe
    arrive at random points; the last thing may be a stale one.

    One limit: a coup is not delivered after a void of its game.  A display
    that has voided game n cannot tell that coup, arriving for the first time,
    from a redeal of n (see ``TableState.add_game``).
    """
    coups = draw(st.permutations(controller.coups))
    repeats = draw(st.lists(st.sampled_from(controller.coups), max_size=8))
    stream = list(coups)
    for coup in repeats:
        stream.insert(draw(st.integers(0, len(stream))), coup)
    position = 0
    for event in controller.events:
        position = draw(st.integers(position, len(stream)))
        stream.insert(position, event)
        position += 1
        if draw(st.integers(0, 4)) == 0:
            stream.insert(position, event)
            position += 1
    for event in controller.events:
        if isinstance(event, Void):
            at = stream.index(event)
            late = [
                e
                for e in stream[at:]
                if isinstance(e, CoupReceived) and e.game.number == event.game
            ]
            stream = [e for e in stream if not any(e is x for x in late)]
            for coup in late:
                stream.insert(draw(st.integers(0, stream.index(event))), coup)
    snapshots = draw(st.lists(st.sampled_from(controller.snapshots), max_size=6))
    for snapshot in snapshots:
        stream.insert(draw(st.integers(0, len(stream))), snapshot)
    return stream


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_coups_and_snapshots_in_any_order_show_the_shoe_in_game_order(data):
    controller = data.draw(controller_runs(amendments=False))
    stream = data.draw(deliveries(controller))
    table = TableState()
    conflicts = sum(deliver(table, event) for event in [NewShoe(controller.shoe), *stream])
    assert conflicts == 0
    assert_shows(table, controller.shoe, controller.final)


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(st.data())
def test_voids_and_corrections_in_any_order_show_the_corrected_shoe(data):
    controller = data.draw(controller_runs(amendments=True))
    stream = data.draw(deliveries(controller))
    table = TableState()
    for event in [NewShoe(controller.shoe), *stream]:
        deliver(table, event)
    assert_shows(table, controller.shoe, controller.final, controller.voided)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_the_retained_snapshot_alone_catches_a_display_up(data):
    controller = data.draw(controller_runs(amendments=True))
    seen = data.draw(st.integers(0, len(controller.coups)))
    table = TableState()
    for event in [NewShoe(controller.shoe), *controller.coups[:seen]]:
        deliver(table, event)
    deliver(table, controller.snapshots[-1])
    assert_shows(table, controller.shoe, controller.final, controller.voided)


# -- snapshots against what the display already knows -------------------------------------------
SHOE, GAMES = dealt(7)


def table_with(numbers) -> TableState:
    table = TableState()
    table.new_shoe(SHOE)
    for n in numbers:
        table.add_game(GAMES[n - 1])
    return table


def test_a_snapshot_lacking_a_game_the_display_has_does_not_drop_it():
    table = table_with([1, 2, 3, 4])
    assert deliver(table, Snapshot(SHOE, tuple(GAMES[:3]))) == 0
    assert_shows(table, SHOE, GAMES[:4])


def test_a_stale_snapshot_does_not_resurrect_a_voided_game():
    table = table_with([1, 2, 3, 4])
    apply_event(table, Void(SHOE, 2, "misdeal"))
    assert deliver(table, Snapshot(SHOE, tuple(GAMES[:4]))) == 0
    assert_shows(table, SHOE, [GAMES[0], *GAMES[2:4]], voided=[2])


def test_a_stale_snapshot_does_not_resurrect_a_game_voided_before_it_arrived():
    table = table_with([1, 3, 4])
    apply_event(table, Void(SHOE, 2, "misdeal"))
    assert deliver(table, Snapshot(SHOE, tuple(GAMES[:4]))) == 0
    assert_shows(table, SHOE, [GAMES[0], *GAMES[2:4]], voided=[2])


def test_a_stale_snapshot_does_not_undo_a_correction_and_the_conflict_is_counted():
    table = table_with([1, 2, 3])
    fixed = other_coup(GAMES, 2)
    apply_event(table, Correct(SHOE, fixed, "wrong card"))
    assert apply_event(table, wire(Snapshot(SHOE, tuple(GAMES[:4])))).conflicts == (2,)
    assert_shows(table, SHOE, [GAMES[0], fixed, GAMES[2], GAMES[3]])


def test_a_newer_snapshot_brings_a_correction_the_display_missed():
    table = table_with([1, 2, 3])
    fixed = other_coup(GAMES, 2)
    applied = apply_event(table, wire(Snapshot(SHOE, (GAMES[0], fixed, GAMES[2], GAMES[3]))))
    assert applied.conflicts == () and applied.overrides == (2,)
    assert_shows(table, SHOE, [GAMES[0], fixed, GAMES[2], GAMES[3]])
    # the correct event itself, arriving afterwards, changes nothing and is no conflict
    assert deliver(table, Correct(SHOE, fixed)) == 0
    assert deliver(table, Snapshot(SHOE, tuple(GAMES[:4]))) == 1  # the stale one now
    assert table.game(2) == fixed


def test_a_newer_snapshot_brings_a_void_the_display_missed():
    table = table_with([1, 2, 3])
    assert deliver(table, Snapshot(SHOE, (GAMES[0], GAMES[2]), voided=(2,))) == 0
    assert_shows(table, SHOE, [GAMES[0], GAMES[2]], voided=[2])


def test_a_stale_snapshot_disagreeing_with_a_coup_is_a_counted_conflict():
    table = table_with([1, 2, 3])
    older = (GAMES[0], other_coup(GAMES, 2))  # lacks game 3: older than the display's view
    assert deliver(table, Snapshot(SHOE, older)) == 1
    assert_shows(table, SHOE, GAMES[:3])


# -- shoes -------------------------------------------------------------------------------------
NEXT, NEXT_GAMES = dealt(8)


def test_a_coup_of_the_next_shoe_before_its_new_shoe_event_starts_it_once():
    table = table_with([1, 2, 3])
    number = table.shoe_number
    deliver(table, CoupReceived(NEXT, NEXT_GAMES[0]))
    deliver(table, NewShoe(NEXT))
    deliver(table, CoupReceived(NEXT, NEXT_GAMES[1]))
    assert table.shoe_number == number + 1
    assert_shows(table, NEXT, NEXT_GAMES[:2])


def test_nothing_of_the_previous_shoe_arriving_late_overwrites_the_current_one():
    table = table_with([1, 2, 3])
    deliver(table, NewShoe(NEXT))
    deliver(table, CoupReceived(NEXT, NEXT_GAMES[0]))
    late = [
        CoupReceived(SHOE, GAMES[3]),
        CoupReceived(SHOE, GAMES[2]),
        Snapshot(SHOE, tuple(GAMES[:5])),
        NewShoe(SHOE),
        Void(SHOE, 1),
        Correct(SHOE, other_coup(GAMES, 1)),
    ]
    for event in late:
        assert deliver(table, event) == 0
    assert_shows(table, NEXT, NEXT_GAMES[:1])


# -- the status payload --------------------------------------------------------------------------
def test_the_status_has_exactly_the_keys_and_types_of_protocol_md():
    table = table_with([1, 2, 4])
    status = display_status("d1", table, rejected=0, feed="connected")
    example = {
        "v": 1, "online": True, "display": "d1", "shoe": SHOE, "games": 3, "last_game": 4,
        "counts": {"B": 0, "P": 0, "T": 0}, "missing": [3], "rejected": 0, "feed": "connected",
        "render": {"ok": True, "failing": [], "failures": 0, "last_frame": None},
        "journal": {"state": "off", "reason": ""}, "position": None, "unfinished": None,
        "ignored": {}, "limits": {"currency": "", "bets": {}, "from": "none"},
        "corrections": 0, "alerts": [],
        "shoe_health": {"mark": None, "raised": [], "seen": {}}, "dealing": None,
    }  # fmt: skip
    assert status.keys() == example.keys()
    assert {k: type(v) for k, v in status.items()} == {k: type(v) for k, v in example.items()}
    assert status["render"] == example["render"] and status["journal"] == example["journal"]
    assert status["limits"] == example["limits"]
    assert sum(status["counts"].values()) == status["games"]


@pytest.mark.parametrize("numbers", [[], [1, 2, 3]])
def test_the_status_counts_what_the_roads_count(numbers):
    table = table_with(numbers)
    status = display_status("d1", table, rejected=0, feed="connected")
    counts = table.roads.counts
    assert status["counts"] == {"B": counts.banker, "P": counts.player, "T": counts.tie}


def test_an_empty_snapshot_of_a_new_shoe_starts_it_and_says_so():
    # the controller publishes it right after new_shoe; a display that missed that
    # event must start the shoe and report the change (so the journal keeps it)
    table = table_with([1, 2, 3])
    assert apply_event(table, Snapshot(NEXT, ())).changed is True
    assert_shows(table, NEXT, ())
