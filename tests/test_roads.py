"""The road engine against the worked examples of roads.md and examples worked by hand.

Every expected position and colour below was worked out from the rules of
roads.md by hand (the reasoning is in each docstring), not copied from a run.
"""

from __future__ import annotations

import pytest

from scoreboard.game.cards import parse_cards
from scoreboard.game.notation import result_games
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.game.side_bets import TIERS
from scoreboard.roads.engine import (
    BLUE,
    DERIVED_ROADS,
    RED,
    BigRoadCell,
    Color,
    DerivedRoad,
    GameOrderError,
    Roads,
)

B, P = Winner.BANKER, Winner.PLAYER


def big(roads: Roads) -> list[tuple[int, int, str]]:
    return [(c.col, c.row, c.winner.value if c.winner else "-") for c in roads.big_road]


def colors(roads: Roads, k: int) -> str:
    return "".join(cell.color.value[0] for cell in roads.derived(k))


def cells(roads: Roads, k: int) -> list[tuple[int, int]]:
    return [(cell.col, cell.row) for cell in roads.derived(k)]


def column(col: int, rows: range, winner: str) -> list[tuple[int, int, str]]:
    return [(col, row, winner) for row in rows]


def tail(row: int, cols: range, winner: str) -> list[tuple[int, int, str]]:
    return [(col, row, winner) for col in cols]


def predicted(roads: Roads, winner: Winner) -> str:
    letters = {RED: "r", BLUE: "b", None: "-"}
    return "".join(letters[roads.predictions[winner][name]] for name in ROAD_NAMES)


ROAD_NAMES = ("big_eye_boy", "small_road", "cockroach_pig")


def test_h1_columns_derived_roads_and_predictions() -> None:
    """H1 BBBPPBPPPP: columns 3,2,1,4.

    Big eye boy runs r | bbb | rr go down columns 0, 1, 2; small road b r b r are
    four one-entry columns; cockroach pig r r | b.
    """
    roads = Roads.build(result_games("BBBPPBPPPP"))
    assert big(roads) == (
        column(0, range(3), "B") + column(1, range(2), "P") + [(2, 0, "B")]
    ) + column(3, range(4), "P")
    assert roads.column_lengths == (3, 2, 1, 4)
    assert [(c.col, c.row, c.game) for c in roads.bead_plate] == [
        (i // 6, i % 6, i + 1) for i in range(10)
    ]
    assert colors(roads, 1) == "rbbbrr"
    assert cells(roads, 1) == [(0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]
    assert colors(roads, 2) == "brbr"
    assert cells(roads, 2) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert colors(roads, 3) == "rrb"
    assert cells(roads, 3) == [(0, 0), (0, 1), (1, 0)]
    assert predicted(roads, B) == "bbb"
    assert predicted(roads, P) == "rrr"


def test_h2_streaks_of_nine_and_ten_turn_right() -> None:
    """H2 B x9 P x10: the B tail runs on row 5, so the P streak turns at row 4.

    Big eye boy: the P cells of rows 1-8 sit beside B cells (red), row 9 is
    just below the end of the B column (blue): 8 reds down column 0 and along
    row 5, then the blue head at (1, 0).
    """
    roads = Roads.build(result_games("B" * 9 + "P" * 10))
    assert big(roads) == (
        column(0, range(6), "B")
        + tail(5, range(1, 4), "B")
        + column(1, range(5), "P")
        + tail(4, range(2, 7), "P")
    )
    assert colors(roads, 1) == "r" * 8 + "b"
    assert cells(roads, 1) == [(0, r) for r in range(6)] + [(1, 5), (2, 5), (1, 0)]
    assert roads.small_road == () and roads.cockroach_pig == ()


def test_h3_leading_ties_share_the_first_cell() -> None:
    """H3 TTBTBPT: 2 leading ties + 1 on (0, 0) B, then (0, 1) B, (1, 0) P with 1 tie.

    No derived entries: big eye boy needs column 1's second cell or column 2.
    Next B opens column 2: len(1)=1 != len(0)=2, blue; next P is (1, 1) beside
    the filled (0, 1): red.
    """
    roads = Roads.build(result_games("TTBTBPT"))
    assert [(c.col, c.row, c.winner, c.ties, c.game) for c in roads.big_road] == [
        (0, 0, B, 3, 3),
        (0, 1, B, 0, 5),
        (1, 0, P, 1, 6),
    ]
    assert all(roads.derived(k) == () for k in (1, 2, 3))
    assert predicted(roads, B) == "b--"
    assert predicted(roads, P) == "r--"


def test_h4_only_ties_draws_one_cell_without_winner() -> None:
    """H4 TTT: cell (0, 0) with 3 ties, no winner, no game; nothing else."""
    roads = Roads.build(result_games("TTT"))
    assert [(c.col, c.row, c.winner, c.ties, c.game) for c in roads.big_road] == [
        (0, 0, None, 3, None)
    ]
    assert [(c.col, c.row) for c in roads.bead_plate] == [(0, 0), (0, 1), (0, 2)]
    assert all(roads.derived(k) == () for k in (1, 2, 3))
    assert predicted(roads, B) == predicted(roads, P) == "---"
    assert roads.streaks.current_side is None and roads.streaks.current_length == 0


def test_h5_single_banker_then_three_players() -> None:
    """H5 BPPPB: columns 1,3,1; big eye boy b r b, each colour change a new column."""
    roads = Roads.build(result_games("BPPPB"))
    assert big(roads) == [(0, 0, "B"), *column(1, range(3), "P"), (2, 0, "B")]
    assert colors(roads, 1) == "brb"
    assert cells(roads, 1) == [(0, 0), (1, 0), (2, 0)]


def test_h6_chop_makes_every_derived_road_red() -> None:
    """H6 BPBPBPBP: all columns have length 1, so every new column is red.

    Big eye boy starts at column 2 (6 entries), small road at 3 (5), cockroach
    pig at 4 (4), each a single red column.
    """
    roads = Roads.build(result_games("BPBPBPBP"))
    assert big(roads) == [(col, 0, "BP"[col % 2]) for col in range(8)]
    for k, count in ((1, 6), (2, 5), (3, 4)):
        assert colors(roads, k) == "r" * count
        assert cells(roads, k) == [(0, row) for row in range(count)]


def test_h7_nested_l_turns_one_row_higher() -> None:
    """H7 B x8 P x7 B x6: B tail on row 5, P turns at row 4, B turns at row 3.

    Big eye boy: P rows 1-6 beside B cells (6 r), B opens column 2 with
    len 7 != 8 (b), B rows 1-5 beside P cells (5 r).  Small road: B rows 1-5
    beside column 0 (5 r).  Cockroach pig needs column 3: nothing.
    """
    roads = Roads.build(result_games("B" * 8 + "P" * 7 + "B" * 6))
    assert big(roads) == (
        column(0, range(6), "B")
        + tail(5, range(1, 3), "B")
        + column(1, range(5), "P")
        + tail(4, range(2, 4), "P")
        + column(2, range(4), "B")
        + tail(3, range(3, 5), "B")
    )
    assert colors(roads, 1) == "r" * 6 + "b" + "r" * 5
    assert cells(roads, 1) == (
        [(0, row) for row in range(6)] + [(1, 0)] + [(2, row) for row in range(5)]
    )
    assert colors(roads, 2) == "r" * 5
    assert cells(roads, 2) == [(0, row) for row in range(5)]
    assert roads.cockroach_pig == ()


def test_h8_derived_road_with_its_own_dragon_tail() -> None:
    """H8 B x8 P x8 B x8 P x2: all derived entries red.

    Big eye boy: 7 + 1 + 7 + 1 + 1 = 17 reds, one streak: down column 0 then
    along row 5 to column 11.  Small road: 7 + 1 + 1 = 9 reds.  Cockroach pig:
    only (3, 1), beside column 0: 1 red.
    """
    roads = Roads.build(result_games("B" * 8 + "P" * 8 + "B" * 8 + "P" * 2))
    assert big(roads) == (
        column(0, range(6), "B")
        + tail(5, range(1, 3), "B")
        + column(1, range(5), "P")
        + tail(4, range(2, 5), "P")
        + column(2, range(4), "B")
        + tail(3, range(3, 7), "B")
        + column(3, range(2), "P")
    )
    assert colors(roads, 1) == "r" * 17
    assert cells(roads, 1) == [(0, row) for row in range(6)] + [(col, 5) for col in range(1, 12)]
    assert colors(roads, 2) == "r" * 9
    assert cells(roads, 2) == [(0, row) for row in range(6)] + [(col, 5) for col in range(1, 4)]
    assert colors(roads, 3) == "r"
    assert cells(roads, 3) == [(0, 0)]


def test_h9_tail_along_row_zero_pushes_the_next_heads() -> None:
    """H9 B8 P7 B6 P5 B4 P3 B1 P1.

    P5 turns at row 2 ((3, 3) taken), B4 at row 1 ((4, 2) taken), P3 at row 0
    ((5, 1) taken): (5,0),(6,0),(7,0).  The B head skips to (8, 0), P to (9, 0).
    Lengths 8,7,6,5,4,3,1,1 give big eye boy r6 b r5 b r4 b r3 b r2 b b, small
    road r5 b r4 b r3 b r2 b b, cockroach pig r4 b r3 b r2 b b; no run is long
    enough to turn.  Next B (8, 0): 1 == len 1 red, 1 != 3 blue, 1 != 4 blue;
    next P (7, 1): p = 1 blue, p = 3 red, p = 4 red.
    """
    results = "B" * 8 + "P" * 7 + "B" * 6 + "P" * 5 + "B" * 4 + "P" * 3 + "B" + "P"
    roads = Roads.build(result_games(results))
    assert big(roads) == (
        column(0, range(6), "B")
        + tail(5, range(1, 3), "B")
        + column(1, range(5), "P")
        + tail(4, range(2, 4), "P")
        + column(2, range(4), "B")
        + tail(3, range(3, 5), "B")
        + column(3, range(3), "P")
        + tail(2, range(4, 6), "P")
        + column(4, range(2), "B")
        + tail(1, range(5, 7), "B")
        + tail(0, range(5, 8), "P")
        + [(8, 0, "B"), (9, 0, "P")]
    )
    assert colors(roads, 1) == "rrrrrrbrrrrrbrrrrbrrrbrrbb"
    assert cells(roads, 1) == (
        [(0, r) for r in range(6)]
        + [(1, 0)]
        + [(2, r) for r in range(5)]
        + [(3, 0)]
        + [(4, r) for r in range(4)]
        + [(5, 0)]
        + [(6, r) for r in range(3)]
        + [(7, 0)]
        + [(8, 0), (8, 1)]
        + [(9, 0), (9, 1)]
    )
    assert colors(roads, 2) == "rrrrrbrrrrbrrrbrrbb"
    assert cells(roads, 2) == (
        [(0, r) for r in range(5)]
        + [(1, 0)]
        + [(2, r) for r in range(4)]
        + [(3, 0)]
        + [(4, r) for r in range(3)]
        + [(5, 0)]
        + [(6, 0), (6, 1)]
        + [(7, 0), (7, 1)]
    )
    assert colors(roads, 3) == "rrrrbrrrbrrbb"
    assert cells(roads, 3) == (
        [(0, r) for r in range(4)]
        + [(1, 0)]
        + [(2, r) for r in range(3)]
        + [(3, 0)]
        + [(4, 0), (4, 1)]
        + [(5, 0), (5, 1)]
    )
    assert predicted(roads, B) == "rbb"
    assert predicted(roads, P) == "brr"


def flagged(number: int, winner: Winner, **flags: bool) -> Game:
    return Game(number, result_coup(winner, **flags))


def test_tie_after_a_pair_keeps_the_pair_on_the_cell() -> None:
    """B with a banker pair, then a tie: the tie is counted on the B cell, which
    keeps its own banker pair; the bead plate holds both coups in column 0."""
    roads = Roads.build([flagged(1, B, banker_pair=True), flagged(2, Winner.TIE)])
    (cell,) = roads.big_road
    assert (cell.col, cell.row, cell.winner, cell.ties, cell.banker_pair, cell.game) == (
        0,
        0,
        B,
        1,
        True,
        1,
    )
    assert [(c.col, c.row, c.coup.winner, c.coup.banker_pair) for c in roads.bead_plate] == [
        (0, 0, B, True),
        (0, 1, Winner.TIE, False),
    ]


def test_pairs_on_a_tie_coup_show_only_on_the_bead_plate() -> None:
    """Leading tie with a banker pair, a tie, then P with a player pair: the big
    road has one cell (0, 0), P with 2 ties and only the player pair (the banker
    pair belongs to a tie coup, which takes no big-road cell); the bead plate
    keeps the banker pair on (0, 0)."""
    roads = Roads.build(
        [
            flagged(1, Winner.TIE, banker_pair=True),
            flagged(2, Winner.TIE),
            flagged(3, P, player_pair=True, natural=True),
        ]
    )
    (cell,) = roads.big_road
    assert (cell.winner, cell.ties, cell.banker_pair, cell.player_pair, cell.natural) == (
        P,
        2,
        False,
        True,
        True,
    )
    assert (cell.col, cell.row, cell.game) == (0, 0, 3)
    assert [c.coup.banker_pair for c in roads.bead_plate] == [True, False, False]


def test_four_rows_turn_earlier_in_every_road() -> None:
    """rows=4, B x6 P x7 B: B down rows 0-3 then (1,3),(2,3); P down rows 0-2,
    (1,3) taken, so it turns at row 2: (2,2)..(5,2); B head at (2, 0).

    Big eye boy: P rows 1-5 beside B (5 r), P row 6 just below B's end (b), B
    opens column 2 with 7 != 6 (b).  Reds down (0,0)-(0,3) then (1,3); blues
    head at (1, 0) and go down to (1, 1).  Small road: B (2, 0) needs column -1:
    nothing.  Bead plate: coup i at (i // 4, i % 4).
    Next B (2, 1): beside P (red), beside B (red); next P (3, 0): 1 != 7 blue,
    1 != 6 blue; cockroach pig needs column 3 or column 3's second cell: nothing.
    """
    roads = Roads.build(result_games("B" * 6 + "P" * 7 + "B"), rows=4)
    assert big(roads) == (
        column(0, range(4), "B")
        + tail(3, range(1, 3), "B")
        + column(1, range(3), "P")
        + tail(2, range(2, 6), "P")
        + [(2, 0, "B")]
    )
    assert colors(roads, 1) == "rrrrrbb"
    assert cells(roads, 1) == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (1, 0), (1, 1)]
    assert roads.small_road == ()
    assert [(c.col, c.row) for c in roads.bead_plate] == [(i // 4, i % 4) for i in range(14)]
    assert predicted(roads, B) == "rr-"
    assert predicted(roads, P) == "bb-"


def test_two_rows_tail_along_row_zero_pushes_the_next_head() -> None:
    """rows=2, BBBPPB: B (0,0),(0,1),(1,1); P head (1,0), (1,1) is taken so its
    tail runs along row 0 to (2,0); the B head skips the taken (2,0) to (3,0)."""
    roads = Roads.build(result_games("BBBPPB"), rows=2)
    expected = [(0, 0, "B"), (0, 1, "B"), (1, 1, "B"), (1, 0, "P"), (2, 0, "P"), (3, 0, "B")]
    assert big(roads) == expected


def test_streaks_ignore_ties_and_counts_include_them() -> None:
    """BTBBPPPTB: the tie does not break the B streak (3), P has 3, the last B
    starts a new streak of 1; of 9 coups 4 B, 3 P, 2 T."""
    roads = Roads.build(result_games("BTBBPPPTB"))
    streaks = roads.streaks
    assert (streaks.current_side, streaks.current_length) == (B, 1)
    assert (streaks.longest_banker, streaks.longest_player) == (3, 3)
    counts = roads.counts
    assert (counts.banker, counts.player, counts.tie, counts.games) == (4, 3, 2, 9)
    assert counts.percent("tie") == pytest.approx(200 / 9)


def test_predictions_leave_the_roads_untouched() -> None:
    roads = Roads.build(result_games("BBPBP"))
    before = (roads.big_road, roads.big_eye_boy, roads.small_road, roads.column_lengths)
    assert roads.predictions[B]["big_eye_boy"] in (Color.RED, Color.BLUE)
    roads.predict(P)
    assert (roads.big_road, roads.big_eye_boy, roads.small_road, roads.column_lengths) == before


def test_an_empty_shoe_has_nothing_to_show() -> None:
    roads = Roads()
    assert repr(roads) == "Roads(rows=6, coups=0, columns=0)"
    assert roads.bead_plate == () and roads.big_road == ()
    assert roads.counts.games == 0 and roads.counts.percent("banker") == 0.0
    assert predicted(roads, B) == "---"


def test_a_game_out_of_order_is_refused() -> None:
    roads = Roads.build(result_games("BP"))
    with pytest.raises(GameOrderError, match="game 2 arrives after game 2"):
        roads.append(Game(2, result_coup(B)))


def test_unknown_cycle_and_zero_rows_are_refused() -> None:
    with pytest.raises(ValueError, match="cycle 4"):
        Roads().derived(4)
    with pytest.raises(ValueError, match="at least 1 row"):
        Roads(rows=0)
    with pytest.raises(ValueError, match="ask for B or P"):
        Roads().predict(Winner.TIE)


def test_each_derived_road_property_returns_its_own_road() -> None:
    """H1 again: the three derived roads differ, so a property reading another road shows."""
    roads = Roads.build(result_games("BBBPPBPPPP"))
    expected = {
        DerivedRoad.BIG_EYE_BOY: "rbbbrr",
        DerivedRoad.SMALL_ROAD: "brbr",
        DerivedRoad.COCKROACH_PIG: "rrb",
    }
    by_property = {
        DerivedRoad.BIG_EYE_BOY: roads.big_eye_boy,
        DerivedRoad.SMALL_ROAD: roads.small_road,
        DerivedRoad.COCKROACH_PIG: roads.cockroach_pig,
    }
    for road, letters in expected.items():
        for cells_of_road in (by_property[road], roads.road(road), roads.road(road.value)):
            assert "".join(cell.color.value[0] for cell in cells_of_road) == letters, road
        assert roads.derived(road.k) == by_property[road]
    assert roads.road("bead_plate") == roads.bead_plate
    assert roads.road("big_road") == roads.big_road


def test_derived_roads_are_an_enum_of_strings_with_their_cycles() -> None:
    assert [(road.value, road.k) for road in DerivedRoad] == [
        ("big_eye_boy", 1),
        ("small_road", 2),
        ("cockroach_pig", 3),
    ]
    assert [DerivedRoad.of_cycle(k) for k in (1, 2, 3)] == list(DerivedRoad)
    assert DERIVED_ROADS == {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}
    assert DerivedRoad("small_road") is DerivedRoad.SMALL_ROAD
    with pytest.raises(ValueError, match="no derived road with cycle 0"):
        DerivedRoad.of_cycle(0)


def test_predictions_are_keyed_by_derived_road() -> None:
    roads = Roads.build(result_games("BBBPPBPPPP"))
    for winner in (B, P):
        assert list(roads.predictions[winner]) == list(DerivedRoad)
        assert roads.predict(winner) == roads.predictions[winner]
    assert roads.predictions[B][DerivedRoad.SMALL_ROAD] is BLUE
    assert roads.predictions[P]["cockroach_pig"] is RED


def test_an_unknown_road_name_is_refused_naming_the_roads() -> None:
    with pytest.raises(
        ValueError, match="no road 'big_eye'; roads are bead_plate, big_road, big_eye_boy"
    ):
        Roads().road("big_eye")


def test_result_games_read_the_results_notation() -> None:
    games = result_games("Bbn P,Tp")
    assert [game.number for game in games] == [1, 2, 3]
    assert [(g.coup.winner, g.coup.banker_pair, g.coup.natural) for g in games] == [
        (B, True, True),
        (P, False, False),
        (Winner.TIE, False, False),
    ]
    assert games[2].coup.player_pair


def test_to_json_keeps_every_pair_natural_and_side_bet_counter() -> None:
    """Coups dealt from cards, each counter given a different value."""
    dealt = {
        # Banker 6 (4+2) beats Player 5 (2+3+K); Banker stands against a third card 0.
        "banker_six": record_coup(parse_cards(["2S", "3D", "KH"]), parse_cards(["4C", "2H"])),
        # Banker draws on 3 (A+2) to a three-card 7 and beats Player 5.
        "dragon7": record_coup(parse_cards(["2S", "3D", "KH"]), parse_cards(["AC", "2H", "4S"])),
        # Player 2+3+3 = 8 beats Banker 5, who stands against a third card 3.
        "panda8": record_coup(parse_cards(["2S", "3D", "3H"]), parse_cards(["KC", "5H"])),
        # Player natural 9 (9+K) beats Banker's pair of twos (4): both stop on two cards.
        "natural": record_coup(parse_cards(["9S", "KH"]), parse_cards(["2D", "2C"])),
    }
    coups = (
        [dealt["banker_six"]] * 1
        + [dealt["dragon7"]] * 2
        + [dealt["panda8"]] * 3
        + [dealt["natural"]] * 4
        + [result_coup(B, player_pair=True, natural=True)] * 5
    )
    roads = Roads.build(Game(n, coup) for n, coup in enumerate(coups, start=1))
    counts = roads.to_json()["counts"]
    assert {name: counts[name] for name in counts if name != "percent"} == {
        "B": 8,
        "P": 7,
        "T": 0,
        "total": 15,
        "banker_pairs": 4,
        "player_pairs": 5,
        "naturals": 9,
        "player_naturals": 4,
        "banker_naturals": 5,
        "banker_six": 1,
        "dragon7": 2,
        "panda8": 3,
        # the side-bet tiers: the two-card Banker 6 over Player 5 is a Small 6
        **dict.fromkeys(TIERS, 0),
        "small_6": 1,
    }
    assert counts["percent"]["dragon7"] == round(100 * 2 / 15, 2)
    assert roads.to_json()["counts"] == roads.counts.to_json()


def test_to_json_writes_each_cell_with_its_game_and_flags() -> None:
    roads = Roads.build(result_games("Bbn Pp T"))
    shoe = roads.to_json()
    assert shoe["rows"] == 6
    assert shoe["bead_plate"] == [
        {
            "col": 0,
            "row": 0,
            "result": "B",
            "game": 1,
            "banker_pair": True,
            "player_pair": False,
            "natural": True,
        },
        {
            "col": 0,
            "row": 1,
            "result": "P",
            "game": 2,
            "banker_pair": False,
            "player_pair": True,
            "natural": False,
        },
        {
            "col": 0,
            "row": 2,
            "result": "T",
            "game": 3,
            "banker_pair": False,
            "player_pair": False,
            "natural": False,
        },
    ]
    assert shoe["big_road"] == [
        {
            "col": 0,
            "row": 0,
            "result": "B",
            "ties": 0,
            "game": 1,
            "banker_pair": True,
            "player_pair": False,
            "natural": True,
        },
        {
            "col": 1,
            "row": 0,
            "result": "P",
            "ties": 1,
            "game": 2,
            "banker_pair": False,
            "player_pair": True,
            "natural": False,
        },
    ]
    assert shoe["streaks"] == roads.streaks.to_json()


def test_leading_ties_sit_on_a_cell_of_their_own_at_the_origin() -> None:
    assert Roads.build(result_games("TT")).big_road == (
        BigRoadCell(0, 0, None, 2, False, False, False, None, 0, 0),
    )


def test_the_roads_refuse_zero_rows_themselves() -> None:
    with pytest.raises(ValueError, match="roads need at least 1 row, got 0"):
        Roads(rows=0)
    assert Roads(rows=1).rows == 1


def test_to_json_writes_the_derived_roads_and_the_ask_road() -> None:
    """H1 BBBPPBPPPP, worked from roads.md: big eye boy r | bbb | rr, small road b | r | b | r,
    cockroach pig rr | b, each run in its own column from row 0; next B -> b, b, b and
    next P -> r, r, r."""
    shoe = Roads.build(result_games("BBBPPBPPPP")).to_json()

    def entries(*runs: str) -> list[dict[str, object]]:
        color = {"r": "red", "b": "blue"}
        return [
            {"col": col, "row": row, "color": color[letter]}
            for col, run in enumerate(runs)
            for row, letter in enumerate(run)
        ]

    assert shoe["big_eye_boy"] == entries("r", "bbb", "rr")
    assert shoe["small_road"] == entries("b", "r", "b", "r")
    assert shoe["cockroach_pig"] == entries("rr", "b")
    blues = dict.fromkeys(ROAD_NAMES, "blue")
    assert shoe["predictions"] == {"B": blues, "P": dict.fromkeys(ROAD_NAMES, "red")}


def test_entries_and_their_games_start_at_the_first_entry_by_default() -> None:
    roads = Roads.build(result_games("BPPT"))
    assert [(c.col, c.row, c.game) for c in roads.entries("bead_plate")] == [
        (0, 0, 1),
        (0, 1, 2),
        (0, 2, 3),
        (0, 3, 4),
    ]
    assert [(c.col, c.row, c.ties) for c in roads.entries("big_road")] == [
        (0, 0, 0),
        (1, 0, 0),
        (1, 1, 1),
    ]
    assert roads.entry_games("bead_plate") == (1, 2, 3, 4)
    assert roads.entry_games("big_road") == (1, 2, 3)


@pytest.mark.parametrize("kept", [1, 2])
def test_the_shared_answers_are_bounded(monkeypatch: pytest.MonkeyPatch, kept: int) -> None:
    """The ask road and the streaks are shared between shoes, by key, at most ``_KEPT`` of
    each: a kiosk that runs for months must not grow them without end.  Once full, they
    start again, and every answer is still the rule's."""
    from scoreboard.roads import engine

    asked: dict[object, object] = {}
    streaks: dict[object, object] = {}
    monkeypatch.setattr(engine, "_ASKED", asked)
    monkeypatch.setattr(engine, "_STREAKS", streaks)
    monkeypatch.setattr(engine, "_KEPT", kept)
    # Five shoes, each with its own last side or column lengths, so five keys of each.
    # B, BB, BBB: no column before the next cell's, so no road answers.  BP, columns 1, 1:
    # next B starts column 2, len(1) == len(0): big eye boy red; next P takes (1, 1) where
    # len(0) == 1 == row: blue.  BPB, columns 1, 1, 1: next B at (2, 1), p == 1 == row for
    # k = 1 and 2: blue, blue; next P starts column 3 beside equal lengths: red, red.
    for results, side, current, next_b, next_p in [
        ("B", B, 1, "---", "---"),
        ("BB", B, 2, "---", "---"),
        ("BBB", B, 3, "---", "---"),
        ("BP", P, 1, "r--", "b--"),
        ("BPB", B, 1, "bb-", "rr-"),
    ]:
        roads = Roads.build(result_games(results))
        assert (roads.streaks.current_side, roads.streaks.current_length) == (side, current)
        assert (predicted(roads, B), predicted(roads, P)) == (next_b, next_p)
        assert 1 <= len(asked) <= kept
        assert 1 <= len(streaks) <= kept
