"""Protocol v2 ordering, as properties: duplicates, late copies and reordering never mislead.

A model controller publishes a stream with increasing origins (shoes, coups,
voids, corrections, a snapshot after each change stamped with the origin of the
last game event it includes, marks, limits, restarts that open a new session).
Delivered with duplicates and older copies, the table ends exactly as the clean
stream leaves it; delivered in any order with losses, the last snapshot alone
brings the right shoe; and an event no newer than what the table applied of its
kind never changes it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.events import (
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Coup, Game, Winner, result_coup
from scoreboard.roads.engine import Roads
from scoreboard.table.state import TableState, apply_event

COUPS = [result_coup(w, banker_pair=p) for w in Winner for p in (False, True)]
LIMITS = [Limits(currency, {}, {}) for currency in ("EUR", "USD", "GBP")]


class Controller:
    """What one controller publishes, over restarts; every payload gets the next origin."""

    def __init__(self) -> None:
        self.session, self.seq, self.shoes = 1, 0, 0
        self.games: dict[int, Coup] = {}
        self.voided: set[int] = set()
        self.stream: list[Event] = []
        self.last_game_origin: Origin | None = None
        self.publish(ControllerStatus(True, origin=self.stamp()))
        self.new_shoe()

    @property
    def shoe(self) -> str:
        return f"S{self.shoes}"

    def stamp(self) -> Origin:
        self.seq += 1
        return Origin(self.session, self.seq)

    def publish(self, event: Event) -> None:
        self.stream.append(event)

    def game_event(self, event: Event) -> None:
        """A change of the shoe's games, then the retained snapshot as of it."""
        self.publish(event)
        self.last_game_origin = event.origin  # type: ignore[union-attr]
        self.snapshot(self.last_game_origin)

    def snapshot(self, origin: Origin | None) -> None:
        games = tuple(Game(n, self.games[n]) for n in sorted(self.games))
        self.publish(Snapshot(self.shoe, games, tuple(sorted(self.voided)), origin=origin))

    def new_shoe(self) -> None:
        previous, count = (
            (self.shoe, max([*self.games, *self.voided, 0])) if self.shoes else (None, None)
        )
        self.shoes += 1
        self.games, self.voided = {}, set()
        self.game_event(NewShoe(self.shoe, previous, count, origin=self.stamp()))

    def deal(self, coup: Coup) -> None:
        number = max([*self.games, *self.voided, 0]) + 1
        self.games[number] = coup
        self.game_event(CoupReceived(self.shoe, Game(number, coup), origin=self.stamp()))

    def void(self, pick: int) -> None:
        if self.games:
            number = sorted(self.games)[pick % len(self.games)]
            del self.games[number]
            self.voided.add(number)
            self.game_event(Void(self.shoe, number, origin=self.stamp()))

    def redeal(self, pick: int, coup: Coup) -> None:
        """A voided game dealt again (possibly with the voided coup's very result)."""
        if self.voided:
            number = sorted(self.voided)[pick % len(self.voided)]
            self.voided.discard(number)
            self.games[number] = coup
            self.game_event(CoupReceived(self.shoe, Game(number, coup), origin=self.stamp()))

    def correct(self, pick: int, coup: Coup) -> None:
        numbers = sorted({*self.games, *self.voided})
        if numbers:
            number = numbers[pick % len(numbers)]
            self.games[number] = coup
            self.voided.discard(number)
            self.game_event(Correct(self.shoe, Game(number, coup), origin=self.stamp()))

    def restart(self) -> None:
        """A new session: its birth, then its retained snapshot restamped in the new session."""
        self.session, self.seq = self.session + 1, 0
        self.publish(ControllerStatus(True, origin=self.stamp()))
        self.last_game_origin = Origin(self.session, self.seq)
        self.snapshot(self.last_game_origin)

    def act(self, action: tuple) -> None:
        match action:
            case ("deal", coup):
                self.deal(coup)
            case ("void", pick):
                self.void(pick)
            case ("redeal", pick, coup):
                self.redeal(pick, coup)
            case ("correct", pick, coup):
                self.correct(pick, coup)
            case ("cut_card",):
                self.publish(CutCard(self.shoe, origin=self.stamp()))
            case ("shuffle",):
                self.publish(Shuffle(self.shoe, origin=self.stamp()))
            case ("limits", limits):
                self.publish(LimitsReceived(limits, origin=self.stamp()))
            case ("new_shoe",):
                self.new_shoe()
            case ("restart",):
                self.restart()

    @property
    def last_snapshot(self) -> Snapshot:
        return next(e for e in reversed(self.stream) if isinstance(e, Snapshot))


coups = st.sampled_from(COUPS)
picks = st.integers(0, 50)
actions = st.one_of(
    st.tuples(st.just("deal"), coups),
    st.tuples(st.just("deal"), coups),
    st.tuples(st.just("void"), picks),
    st.tuples(st.just("redeal"), picks, coups),
    st.tuples(st.just("correct"), picks, coups),
    st.tuples(st.just("cut_card")),
    st.tuples(st.just("shuffle")),
    st.tuples(st.just("limits"), st.sampled_from(LIMITS)),
    st.tuples(st.just("new_shoe")),
    st.tuples(st.just("restart")),
)


@st.composite
def controllers(draw) -> Controller:
    controller = Controller()
    for action in draw(st.lists(actions, min_size=1, max_size=40)):
        controller.act(action)
    return controller


def fed(events) -> TableState:
    table = TableState()
    for event in events:
        apply_event(table, event)
    return table


def board(table: TableState) -> tuple:
    """Everything a player or the status can see of the shoe."""
    return (
        table.shoe_id,
        table.games,
        table.voided,
        table.missing,
        table.roads.to_json(),
    )


def everything(table: TableState) -> tuple:
    return (
        *board(table),
        table.shoe_number,
        table.archived,
        table.shuffling,
        table.cut_card_out,
        table.limits,
        table.position,
        table.unfinished,
    )


@st.composite
def with_old_copies(draw, stream: list[Event]) -> list[Event]:
    """The stream in order, each event at least once, copies of earlier ones anywhere after."""
    delivered = list(stream)
    for _ in range(draw(st.integers(0, 12))):
        source = draw(st.integers(0, len(delivered) - 1))
        delivered.insert(draw(st.integers(source + 1, len(delivered))), delivered[source])
    return delivered


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_duplicates_and_late_copies_leave_the_table_as_the_clean_stream_does(data) -> None:
    """With or without the snapshots: every event arriving in order is enough."""
    controller = data.draw(controllers())
    stream = controller.stream
    if not data.draw(st.booleans()):
        stream = [event for event in stream if not isinstance(event, Snapshot)]
    clean = fed(stream)
    truth = tuple(Game(n, controller.games[n]) for n in sorted(controller.games))
    assert board(clean) == (
        controller.shoe,
        truth,
        tuple(sorted(controller.voided)),
        (),
        Roads.build(truth).to_json(),
    )
    delivered = data.draw(with_old_copies(stream))
    assert everything(fed(delivered)) == everything(clean)


def no_newer(origin: Origin | None, than: Origin | None, *, equal: bool = True) -> bool:
    """``origin`` is at or below ``than`` (below only, when not ``equal``); None is never old."""
    if origin is None or than is None:
        return False
    return origin <= than if equal else origin < than


def is_old_news(table: TableState, event: Event) -> bool:
    """No newer than what the table applied of its kind (the rules, stated from the outside)."""
    origin: Origin | None = getattr(event, "origin", None)
    position = table.position
    if isinstance(event, LimitsReceived):
        return no_newer(origin, table.limits_origin)
    if origin is None or position is None:
        return False
    if origin.session != position.session:
        return origin.session < position.session
    if isinstance(event, ControllerStatus):
        return False
    if isinstance(event, Snapshot):
        return no_newer(origin, table.games_origin, equal=False)
    return origin <= position


def assert_old_news_changes_nothing(table: TableState, event: Event) -> None:
    """Deliver ``event``; old news comes back stale, and stale changes nothing.

    One exception by design: a snapshot of the unfinished previous shoe is older
    than the new shoe by nature and completes it whatever its origin (the board,
    the current shoe, does not change).
    """
    old = is_old_news(table, event)
    version = table.version
    applied = apply_event(table, event)
    if old:
        assert applied.stale or applied.completed, event
    if applied.stale or applied.completed:
        assert table.version == version and not applied.changed
    if applied.stale:
        assert not applied.worth_keeping


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_in_any_order_with_losses_the_last_snapshot_brings_the_controllers_shoe(data) -> None:
    controller = data.draw(controllers())
    stream, last = controller.stream, controller.last_snapshot
    order = data.draw(st.permutations(range(len(stream))))
    kept = data.draw(st.lists(st.booleans(), min_size=len(stream), max_size=len(stream)))
    delivered = [stream[i] for i in order if kept[i] or stream[i] is last]
    delivered = data.draw(with_old_copies(delivered)) if delivered else delivered
    table = TableState()
    for event in delivered:
        assert_old_news_changes_nothing(table, event)
    assert board(table) == board(fed(controller.stream))
    limits = [(e.origin, e.limits) for e in delivered if isinstance(e, LimitsReceived) and e.origin]
    newest = max(limits, key=lambda pair: pair[0])[1] if limits else TableState().limits
    assert table.limits == newest


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_an_event_already_applied_never_changes_the_table_again(data) -> None:
    controller = data.draw(controllers())
    stream = controller.stream
    cut = data.draw(st.integers(1, len(stream)))
    table = fed(stream[:cut])
    before = everything(table)
    for event in data.draw(st.lists(st.sampled_from(stream[:cut]), max_size=10)):
        version = table.version
        applied = apply_event(table, event)
        assert not applied.changed and table.version == version
    assert everything(table) == before
