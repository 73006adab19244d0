"""The lobby's pure state: tile states and ages, sorting, filtering, pages, message order."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.events import (
    ControllerStatus,
    CutCard,
    LimitsReceived,
    Origin,
    Shuffle,
    Snapshot,
)
from scoreboard.game.limits import Limits
from scoreboard.game.notation import result_games
from scoreboard.lobby import Floor, Listing, LobbyTable, SortKey, TileState, arrange, paged
from scoreboard.lobby.arrange import page_at
from scoreboard.lobby.floor import MAX_TABLES, TableRefused
from scoreboard.lobby.sample import dealt_games
from scoreboard.roads.good_roads import GoodRoadRules, Pattern

NOW = 1_800_000_000.0
SHOE, GAMES = dealt_games(2, 30)


def live(table_id: str = "T1", *, pit: str = "", games=GAMES, low: int | None = None):
    entry = LobbyTable(Listing(table_id, pit=pit))
    entry.take(ControllerStatus(True, Origin(4, 1)), NOW)
    if low is not None:
        limits = Limits("USD", {"banker": (low, low * 100), "player": (low, low * 100)})
        entry.take(LimitsReceived(limits, Origin(4, 2)), NOW)
    entry.take(Snapshot(SHOE, tuple(games), origin=Origin(4, 3)), NOW)
    return entry


def test_a_table_heard_of_lately_is_live_and_shows_its_shoe() -> None:
    view = live().view(NOW + 10, 60)
    assert view.state is TileState.LIVE and view.age is None
    assert view.shoe == SHOE and view.game == 30 and sum(view.counts) == 30
    assert view.bets is None  # no limits yet: "Limits —", never invented


def test_stale_after_stale_seconds_saying_how_long_rounded_up() -> None:
    entry = live()
    assert entry.view(NOW + 60, 60).state is TileState.LIVE
    stale = entry.view(NOW + 61, 60)
    assert stale.state is TileState.STALE and stale.age == (2, "min")
    assert entry.next_change(NOW + 10, 60) == pytest.approx(NOW + 60, abs=0.01)
    assert entry.next_change(NOW + 61, 60) == pytest.approx(NOW + 120, abs=0.01)


def test_a_snapshot_is_as_old_as_its_ts_says_never_newer_than_its_arrival() -> None:
    an_hour_before = "2027-01-15T07:00:00Z"  # NOW is 2027-01-15T08:00:00Z
    entry = LobbyTable(Listing("T1"))
    entry.take(Snapshot(SHOE, GAMES, ts=an_hour_before, origin=Origin(4, 3)), NOW)
    assert entry.heard == NOW - 3600
    assert entry.view(NOW, 300).age == (60, "min")
    ahead = LobbyTable(Listing("T3"))
    ahead.take(Snapshot(SHOE, GAMES, ts="2099-01-01T00:00:00Z", origin=Origin(4, 3)), NOW)
    assert ahead.heard == NOW  # a clock ahead never makes data look newer than its arrival
    untimed = LobbyTable(Listing("T4"))
    untimed.take(Snapshot(SHOE, GAMES, ts="soon", origin=Origin(4, 3)), NOW)
    assert untimed.heard == NOW


def test_limits_and_a_retained_birth_never_make_a_table_look_fresh() -> None:
    entry = live()
    entry.take(ControllerStatus(True, Origin(5, 1)), NOW + 500)
    entry.take(LimitsReceived(Limits("USD", {"banker": (5, 50)}), Origin(5, 2)), NOW + 500)
    assert entry.view(NOW + 500, 60).state is TileState.STALE


def test_shuffling_and_final_hand_from_the_controller_events() -> None:
    entry = live()
    entry.take(CutCard(SHOE, Origin(4, 4)), NOW + 1)
    assert entry.view(NOW + 2, 60).state is TileState.FINAL_HAND
    entry.take(Shuffle(SHOE, Origin(4, 5)), NOW + 3)
    assert entry.view(NOW + 4, 60).state is TileState.SHUFFLING


def test_offline_by_the_will_of_the_session_it_follows_not_an_older_one() -> None:
    entry = live()
    entry.take(ControllerStatus(False, Origin(3, 0)), NOW + 1)  # an older session's will
    assert entry.view(NOW + 2, 60).state is TileState.LIVE
    entry.take(ControllerStatus(False, Origin(4, 0)), NOW + 3)
    assert entry.view(NOW + 4, 60).state is TileState.OFFLINE
    entry.take(ControllerStatus(True, Origin(6, 1)), NOW + 5)  # back, a new session
    assert entry.view(NOW + 6, 60).state is TileState.LIVE


def test_good_roads_follow_the_configured_thresholds() -> None:
    games = result_games("PBBBBBBB")
    assert [g.pattern for g in live(games=games).view(NOW, 60).good] == [Pattern.LONG_BANKER]
    strict = LobbyTable(Listing("T1"), GoodRoadRules(streak=8))
    strict.take(Snapshot("S9", games, origin=Origin(1, 1)), NOW)
    assert strict.view(NOW, 60).good == ()


def test_sort_by_pit_minimum_bet_and_good_road_and_filter_by_pit() -> None:
    views = [
        live("T10", pit="B", low=100).view(NOW, 60),
        live("T2", pit="A", low=25, games=result_games("BBBBBBB")).view(NOW, 60),
        live("T1", pit="B", low=10).view(NOW, 60),
        LobbyTable(Listing("T3", pit="A")).view(NOW, 60),  # waiting, limits unknown
    ]
    order = {key: [v.table_id for v in arrange(views, key)] for key in SortKey}
    assert order[SortKey.PIT] == ["T2", "T3", "T1", "T10"]
    assert order[SortKey.NAME] == ["T1", "T2", "T3", "T10"]
    assert order[SortKey.MIN_BET] == ["T1", "T2", "T10", "T3"]
    assert order[SortKey.GOOD_ROAD][0] == "T2"
    assert [v.table_id for v in arrange(views, SortKey.NAME, pits=("A",))] == ["T2", "T3"]


def test_pages_cover_every_table_once_and_rotate() -> None:
    pages = paged(list(range(200)), 48)
    assert [len(p) for p in pages] == [48, 48, 48, 48, 8]
    assert sorted(x for p in pages for x in p) == list(range(200))
    assert [page_at(t, 15, 5) for t in (0, 14.9, 15, 74.9, 75)] == [0, 0, 1, 4, 0]


def test_the_floor_refuses_the_lobby_id_unlisted_tables_and_a_flood() -> None:
    with pytest.raises(TableRefused, match="reserved"):
        Floor().entry("lobby")
    with pytest.raises(TableRefused, match="not listed"):
        Floor([Listing("T1")], discover=False).entry("T2")
    with pytest.raises(TableRefused, match="letters"):
        Floor().entry("T\u202e1")
    small = Floor(max_tables=2)
    small.entry("A"), small.entry("B")
    with pytest.raises(TableRefused, match="already shows 2"):
        small.entry("C")
    assert MAX_TABLES >= 200


@st.composite
def retained_streams(draw):
    """Each table's retained topics as successive controller publications, delivered shuffled."""
    messages = []
    for t in range(draw(st.integers(1, 3))):
        table = f"T{t + 1}"
        session = draw(st.integers(1, 3))
        seq = 1
        messages.append((table, ControllerStatus(True, Origin(session, seq))))
        for _ in range(draw(st.integers(1, 4))):
            seq += 1
            low = draw(st.sampled_from([5, 10, 25]))
            limits = Limits("USD", {"banker": (low, 1000)})
            messages.append((table, LimitsReceived(limits, Origin(session, seq))))
            seq += 1
            n = draw(st.integers(0, 30))
            messages.append((table, Snapshot(SHOE, GAMES[:n], origin=Origin(session, seq))))
    order = draw(st.permutations(range(len(messages))))
    return messages, [messages[i] for i in order]


def newest_of_each(messages):
    newest = {}
    for table, event in messages:
        newest[(table, type(event))] = (table, event)
    return list(newest.values())


@settings(max_examples=60, deadline=None)
@given(retained_streams())
def test_any_order_of_retained_messages_ends_as_the_newest_of_each(streams) -> None:
    published, delivered = streams
    shuffled, newest = Floor(), Floor()
    for table, event in delivered:
        shuffled.entry(table).take(event, NOW)
    for table, event in newest_of_each(published):
        newest.entry(table).take(event, NOW)
    assert seen(shuffled) == seen(newest)


def seen(floor: Floor) -> dict[str, tuple]:
    """What each tile shows: its view less the bookkeeping, and its road's cells."""
    return {
        view.table_id: (dataclasses.replace(view, road_key=(None, 0)), view.road)
        for view in floor.views(NOW, 60)
    }


def test_a_table_holds_one_shoe_however_many_it_dealt() -> None:
    """Memory per table is bounded: the current shoe and a bounded list of finished ids."""
    entry = LobbyTable(Listing("T1"))
    for number in range(1, 301):
        entry.take(Snapshot(f"S{number}", GAMES[: 10 + number % 20], origin=Origin(1, number)), NOW)
    view = entry.view(NOW, 60)
    assert view.shoe == "S300" and view.game == 10 + 300 % 20
    assert len(entry.table.games) == view.game
    assert len(entry.table.archived) <= 64
