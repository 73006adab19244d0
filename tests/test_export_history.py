"""journal/history.py: a shoe's history agrees with the table, change by change.

The history replays events through the table's own rules and notes how each
game number moved on the board; hypothesis deals random streams (coups in and
out of order, duplicates, voids, corrections, snapshots newer and older, two
shoes, v1 and v2 origins) and checks that after every prefix the history's
final games are exactly what :class:`TableState` shows.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import Correct, CoupReceived, Event, NewShoe, Origin, Snapshot, Void
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.journal.history import ChangeKind, ShoeHistory, histories
from scoreboard.table.state import TableState, apply_event

CARDED = [
    record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"])),  # Player natural 9
    record_coup(parse_cards(["2S", "3H", "TD"]), parse_cards(["6C", "KD"])),  # Banker 6
    record_coup(parse_cards(["TS", "5H", "TD"]), parse_cards(["3C", "TH", "4S"])),  # Dragon 7
]
RESULTS = [result_coup(w, player_pair=p) for w in Winner for p in (False, True)]
COUPS = CARDED + RESULTS
SHOES = ["S1", "S2"]

numbers = st.integers(1, 6)
coups = st.sampled_from(COUPS)
origins = st.none() | st.builds(Origin, st.integers(1, 2), st.integers(1, 40))
reasons = st.sampled_from(["", "misdeal", "=HYPERLINK(1)", "wrong card read"])


def _games(draw_numbers: list[int], draw_coups: list) -> tuple[Game, ...]:
    return tuple(Game(n, c) for n, c in zip(draw_numbers, draw_coups, strict=False))


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    held = sorted(draw(st.sets(numbers, max_size=6)))
    voided = tuple(n for n in held if draw(st.booleans()))
    games = tuple(Game(n, draw(coups)) for n in held if n not in voided)
    return Snapshot(draw(st.sampled_from(SHOES)), games, voided, origin=draw(origins))


events = st.one_of(
    st.builds(NewShoe, st.sampled_from(SHOES), origin=origins),
    st.builds(
        lambda shoe, n, coup, origin: CoupReceived(shoe, Game(n, coup), origin=origin),
        st.sampled_from(SHOES),
        numbers,
        coups,
        origins,
    ),
    st.builds(Void, st.sampled_from(SHOES), numbers, reasons, origin=origins),
    st.builds(
        lambda shoe, n, coup, reason, origin: Correct(shoe, Game(n, coup), reason, origin),
        st.sampled_from(SHOES),
        numbers,
        coups,
        reasons,
        origins,
    ),
    snapshots(),
)


@st.composite
def streams(draw: st.DrawFn) -> list[Event]:
    """Random events, some of them repeated later (a redelivery)."""
    stream: list[Event] = [NewShoe("S1")]
    for event in draw(st.lists(events, max_size=30)):
        stream.append(event)
        if draw(st.integers(0, 4)) == 0:
            stream.append(draw(st.sampled_from(stream)))
    return stream


def final_state(shoe: ShoeHistory) -> tuple[dict, set, tuple]:
    on_board = {g.number: g.coup for g in shoe.games if g.coup is not None}
    return on_board, {g.number for g in shoe.games if g.voided}, shoe.missing


def table_state(table: TableState) -> tuple[dict, set, tuple]:
    return {g.number: g.coup for g in table.games}, set(table.voided), table.missing


@settings(max_examples=300, deadline=None)
@given(streams())
def test_after_every_event_the_history_shows_what_the_table_shows(stream):
    table = TableState()
    timed = []
    for at, event in enumerate(stream):
        apply_event(table, event)
        timed.append((float(at), event))
        shoes = histories(timed)
        assert shoes[-1].shoe == table.shoe_id
        on_board, voided, missing = final_state(shoes[-1])
        assert (on_board, voided) == table_state(table)[:2]
        # Every number below the highest game is either in the history or missing.
        known = {g.number for g in shoes[-1].games}
        assert set(missing) == set(table.missing) - known


@settings(max_examples=200, deadline=None)
@given(streams())
def test_each_change_replaces_what_the_one_before_it_left(stream):
    for shoe in histories([(float(at), event) for at, event in enumerate(stream)]):
        for game in shoe.games:
            previous = None
            for change in game.changes:
                assert change.replaced == previous
                previous = change.coup
                if change.kind is ChangeKind.DEALT:
                    assert change.coup is not None
            assert game.first_at <= game.last_at


def test_a_correction_names_its_reason_and_what_it_replaced():
    banker, player = CARDED[1], CARDED[0]
    shoe, = histories([
        (10.0, NewShoe("S1")),
        (11.0, CoupReceived("S1", Game(1, banker))),
        (12.0, CoupReceived("S1", Game(1, banker))),  # a duplicate: no change
        (13.0, Correct("S1", Game(1, player), "wrong card read")),
    ])  # fmt: skip
    (game,) = shoe.games
    assert game.status == "corrected" and game.coup == player
    assert game.replaced == (banker,) and game.reasons == ("wrong card read",)
    assert (game.first_at, game.last_at) == (11.0, 13.0)
    assert [(c.at, c.kind, c.source) for c in game.changes] == [
        (11.0, ChangeKind.DEALT, "coup"),
        (13.0, ChangeKind.CORRECTED, "correct"),
    ]


def test_a_newer_snapshot_restates_a_void_the_display_missed():
    banker = CARDED[1]
    shoe, = histories([
        (1.0, NewShoe("S1")),
        (2.0, CoupReceived("S1", Game(1, banker))),
        (3.0, CoupReceived("S1", Game(2, banker))),
        (4.0, Snapshot("S1", (Game(2, banker),), (1,))),
    ])  # fmt: skip
    first, second = shoe.games
    assert first.status == "voided" and first.changes[-1].kind is ChangeKind.RESTATED
    assert first.replaced == (banker,) and second.status == "dealt"


def test_a_gap_is_missing_and_a_void_before_the_coup_is_voided():
    banker = RESULTS[0]
    shoe, = histories([
        (1.0, NewShoe("S1")),
        (2.0, CoupReceived("S1", Game(3, banker))),
        (3.0, Void("S1", 1, "misdeal")),
    ])  # fmt: skip
    assert shoe.missing == (2,)
    assert [(g.number, g.status) for g in shoe.games] == [(1, "voided"), (3, "dealt")]
    voided = shoe.games[0].changes[0]
    assert (voided.kind, voided.source, voided.reason) == (ChangeKind.VOIDED, "void", "misdeal")


def test_each_new_shoe_is_its_own_history():
    banker = RESULTS[0]
    shoes = histories([
        (1.0, NewShoe("S1")),
        (2.0, CoupReceived("S1", Game(1, banker))),
        (3.0, CoupReceived("S2", Game(1, banker))),  # starts S2
        (4.0, CoupReceived("S1", Game(2, banker))),  # a late copy of a finished shoe: ignored
    ])  # fmt: skip
    assert [(s.shoe, len(s.games)) for s in shoes] == [("S1", 1), ("S2", 1)]
    assert [s.live for s in shoes] == [False, False]  # only read_state knows the live journal


def test_a_shoe_ended_by_the_next_keeps_the_gap_it_had_and_pairs_name_no_file() -> None:
    """The missing games are taken before the next shoe's event replaces the table's shoe."""
    s1 = histories(
        [
            (1.0, NewShoe("S1")),
            (2.0, CoupReceived("S1", Game(1, COUPS[0]))),
            (3.0, CoupReceived("S1", Game(3, COUPS[1]))),
            (4.0, CoupReceived("S2", Game(1, COUPS[2]))),
        ]
    )[0]
    assert (s1.shoe, s1.missing, s1.files) == ("S1", (2,), ())
    change = s1.games[0].changes[0]
    assert (change.reason, change.source, change.file, change.line) == ("", "coup", "", 0)


def test_a_game_a_newer_snapshot_leaves_out_is_removed() -> None:
    (shoe,) = histories(
        [
            (1.0, NewShoe("S1", origin=Origin(1, 1))),
            (2.0, CoupReceived("S1", Game(1, COUPS[0]), origin=Origin(1, 2))),
            (3.0, CoupReceived("S1", Game(2, COUPS[1]), origin=Origin(1, 3))),
            (4.0, Snapshot("S1", (Game(2, COUPS[1]),), origin=Origin(1, 4))),
        ]
    )
    assert [(g.number, g.status) for g in shoe.games] == [(1, "removed"), (2, "dealt")]
