"""A shoe's messages -> what the table must hear: every flow of docs/shoes.md."""

from __future__ import annotations

import pytest
from shoes_md import EXAMPLES, SESSION_WIRE

from scoreboard.game.cards import Card, parse_cards
from scoreboard.game.events import Burn, CardDealt, CoupReceived, NewShoe
from scoreboard.game.rules import Game, Winner, deal_coup, record_coup
from scoreboard.game.seats import DEAL_ORDER, Seat, Side, seats_of
from scoreboard.shoes._angel_eye_writer import Transmitter, frame
from scoreboard.shoes.angel_eye import (
    AngelEyeReader,
    Drawn,
    ErrorCleared,
    ErrorRaised,
    ExtraDiscarded,
    ExtraDrawn,
    ExtraUsed,
    Identity,
    Message,
    Position,
    PowerOn,
    Result,
    Standby,
)
from scoreboard.shoes.angel_eye_hands import LONGEST_BURN, AngelEyeHands
from scoreboard.shoes.bee_tek import BeeTekReader
from scoreboard.shoes.bee_tek_hands import BeeTekHands
from scoreboard.shoes.discards import BadBytes
from scoreboard.shoes.news import (
    CardsDisagree,
    ExtraCard,
    ExtraFate,
    HandAbandoned,
    LineFaults,
    MessagesLost,
    PoweredOn,
    ShoeAlarm,
    ShoeBook,
    UnknownMessage,
)

P1, B1, P2, B2 = DEAL_ORDER
P3, B3 = Seat(Side.PLAYER, 3), Seat(Side.BANKER, 3)
EXTRA = Position(Seat(Side.PLAYER, 0), extra=True)


def names() -> object:
    return iter(f"S{n}" for n in range(1, 100)).__next__


def heard(wire: bytes, hands: AngelEyeHands | None = None) -> list:
    hands = hands or AngelEyeHands(ShoeBook(names()))
    return hands.hear_all(AngelEyeReader().feed(wire))


def coups(news: list) -> list:
    return [item.game for item in news if isinstance(item, CoupReceived)]


def of(news: list, kind: type) -> list:
    return [item for item in news if isinstance(item, kind)]


def hand(cards: str, result: Result, *, first: Message | None = None) -> list[Message]:
    """A hand's messages: draws withheld (or ``first`` for P1), the reveal, the result."""
    dealt = parse_cards(cards.split())
    seats = seats_of(deal_coup(dealt))
    assert len(seats) == len(dealt), "a hand of the tableau"
    draws: list[Message] = [Drawn(Position(seat), None) for seat in seats]
    if first is not None:
        draws[0] = first
    reveal = [Identity(Position(seat), card) for seat, card in zip(seats, dealt, strict=True)]
    return [*draws, *reveal, result]


def wire(*messages: Message) -> bytes:
    return Transmitter().send(*messages)


BANKER = Result(Winner.BANKER, False, False, False)
PLAYER = Result(Winner.PLAYER, False, False, False)
NEW_SHOE = [PowerOn(), Drawn(Position(Seat(Side.PLAYER, 0), burn=True), Card("A", "S"))]
BURNED = Drawn(Position(Seat(Side.BANKER, 0), burn=True), Card("9", "H"))


def test_the_whole_session_is_a_new_shoe_a_burn_and_one_coup() -> None:
    news = heard(SESSION_WIRE)
    assert news[:3] == [
        PoweredOn(),
        NewShoe("S1"),
        Burn(tuple(parse_cards(["3C", "9S", "KD", "4H"])), "S1"),
    ]
    dealt = of(news, CardDealt)
    assert [(d.shoe, d.game, str(d.seat), d.card) for d in dealt] == [
        ("S1", 1, seat, None) for seat in ["P1", "B1", "P2", "B2", "P3", "B3"]
    ]
    player, banker = parse_cards(["4C", "AH", "5S"]), parse_cards(["7S", "7D", "4C"])
    (game,) = coups(news)
    assert game == Game(1, record_coup(player, banker))
    assert (game.coup.winner, game.coup.banker_pair, game.coup.banker_total) == (
        Winner.BANKER,
        True,
        8,
    )
    assert of(news, CardsDisagree) == [] and of(news, HandAbandoned) == []


@pytest.mark.parametrize(("raw", "message"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_of_the_table_means_something_to_the_table(raw: str, message) -> None:
    news = heard(bytes.fromhex(raw) * 3, AngelEyeHands(ShoeBook(names(), shoe="S9", games=4)))
    expected = {
        PowerOn: [PoweredOn()],
        Standby: [],
        Identity: [],
        ErrorRaised: [ShoeAlarm("1", "card not read", True)],
        ErrorCleared: [ShoeAlarm("1", "card not read", False)],
        ExtraDrawn: [ExtraCard(ExtraFate.HELD)],
        ExtraUsed: [ExtraCard(ExtraFate.USED), CardDealt("S9", 5, P1, None)],
        ExtraDiscarded: [ExtraCard(ExtraFate.DISCARDED, Card("4", "C"))],
    }
    if isinstance(message, Drawn) and message.position.burn:
        assert news == [NewShoe("S1", previous="S9", previous_games=4)]
    elif isinstance(message, Drawn):
        assert news == [CardDealt("S9", 5, P1, None)]
    elif isinstance(message, Result):
        alert, coup = news  # a result with no cards revealed: the shoe's result alone
        assert alert.detail == "no cards were revealed" and alert.winner is message.winner
        assert coup.game.number == 5 and not coup.game.coup.has_cards
        assert coup.game.coup.banker_six is message.banker_six
        assert coup.game.coup.player_pair is message.player_pair
    else:
        assert news == expected[type(message)]


def test_a_burn_counts_down_and_the_shoe_deals_on() -> None:
    first = Drawn(Position(Seat(Side.PLAYER, 0), burn=True), Card("3", "D"))
    burned = [
        Drawn(Position(Seat(Side.BANKER, left), burn=True), Card(rank, "S"))
        for left, rank in ((2, "K"), (1, "Q"), (0, "J"))
    ]
    news = heard(wire(PowerOn(), first, *burned, *hand("9S 2H KD 3C", PLAYER)))
    assert of(news, Burn) == [Burn(tuple(parse_cards(["3D", "KS", "QS", "JS"])), "S1")]
    assert [g.number for g in coups(news)] == [1]


def test_a_reader_started_mid_burn_still_starts_a_shoe() -> None:
    burned = [
        Drawn(Position(Seat(Side.BANKER, left), burn=True), Card(rank, "S"))
        for left, rank in ((1, "Q"), (0, "J"))
    ]
    news = heard(wire(*burned), AngelEyeHands(ShoeBook(names(), shoe="S0", games=60)))
    assert news == [
        NewShoe("S1", previous="S0", previous_games=60),
        Burn(tuple(parse_cards(["QS", "JS"])), "S1"),
    ]


def test_a_burn_that_never_counts_down_to_0_stays_bounded() -> None:
    hands = AngelEyeHands()
    stuck = Drawn(Position(Seat(Side.BANKER, 5), burn=True), Card("2", "S"))
    reader, transmitter = AngelEyeReader(), Transmitter()
    for _ in range(2000):
        news = hands.hear_all(reader.feed(transmitter.send(stuck)))
        assert len(hands.burn or ()) < LONGEST_BURN
        assert all(len(burn.cards) == 11 == LONGEST_BURN for burn in of(news, Burn))


def test_an_extra_card_kept_is_the_next_hands_player_1() -> None:
    """E 82, d A0 80, e 82, the reveal and G; the next hand starts R 81 80, no D 81."""
    messages = [
        *hand("9S 2H KD 3C", PLAYER)[:4],
        ErrorRaised(2),
        ExtraDrawn(EXTRA),
        ErrorCleared(2),
        *hand("9S 2H KD 3C", PLAYER)[4:],
        *hand("8D 2C KH 3S", PLAYER, first=ExtraUsed(Position(P1))),
    ]
    hands = AngelEyeHands()
    held = hands.hear_all(AngelEyeReader().feed(wire(*NEW_SHOE, BURNED, *messages[:6])))
    assert hands.extra_held and held[-1] == ExtraCard(ExtraFate.HELD)
    news = held + heard(wire(*messages[6:]), hands)
    assert not hands.extra_held
    games = coups(news)
    assert [str(g.coup.player[0]) for g in games] == ["9S", "8D"]
    assert of(news, ExtraCard) == [ExtraCard(ExtraFate.HELD), ExtraCard(ExtraFate.USED)]
    second = [d for d in of(news, CardDealt) if d.game == 2]
    assert [str(d.seat) for d in second] == ["P1", "B1", "P2", "B2"]
    assert of(news, CardsDisagree) == []


def test_an_extra_card_discarded_is_disclosed_and_leaves_the_hand_alone() -> None:
    messages = [
        *hand("2S 3H 3D 2C 4H KS", PLAYER)[:6],
        ErrorRaised(2),
        ErrorRaised(7, bit6=True),
        ExtraDrawn(EXTRA),
        ExtraDiscarded(Position(P1), Card("4", "C")),
        ErrorCleared(2),
        *hand("2S 3H 3D 2C 4H KS", PLAYER)[6:],
    ]
    hands = AngelEyeHands()
    news = heard(wire(*NEW_SHOE, BURNED, *messages), hands)
    assert not hands.extra_held
    (game,) = coups(news)
    assert [str(card) for card in game.coup.player] == ["2S", "3D", "4H"]
    assert of(news, ExtraCard)[-1] == ExtraCard(ExtraFate.DISCARDED, Card("4", "C"))
    assert [alarm.code for alarm in of(news, ShoeAlarm)] == ["2", "7", "2"]
    assert [alarm.raised for alarm in of(news, ShoeAlarm)] == [True, True, False]
    assert [alarm.once for alarm in of(news, ShoeAlarm)] == [False, True, False]


def test_the_extra_cards_fates_are_words_for_the_wire() -> None:
    assert [fate.value for fate in ExtraFate] == ["held", "used", "discarded"]


def test_a_draw_marked_extra_is_held_outside_the_hand() -> None:
    hands = AngelEyeHands()
    assert not hands.extra_held
    messages = hand("9S 2H KD 3C", PLAYER)
    messages.insert(2, Drawn(EXTRA, None))
    news = heard(wire(*NEW_SHOE, BURNED, *messages), hands)
    assert ExtraCard(ExtraFate.HELD) in news and hands.extra_held
    assert [str(d.seat) for d in of(news, CardDealt)] == ["P1", "B1", "P2", "B2"]
    assert len(coups(news)) == 1 and of(news, CardsDisagree) == []


def test_a_new_shoe_abandons_the_hand_left_open() -> None:
    messages = [Drawn(Position(P1), None), Drawn(Position(B1), None), *NEW_SHOE[1:], BURNED]
    news = heard(wire(*NEW_SHOE, BURNED, *messages))
    assert of(news, HandAbandoned) == [HandAbandoned("S1", 1, (None, None), "a new shoe started")]
    assert [shoe.shoe for shoe in of(news, NewShoe)] == ["S1", "S2"]


def test_a_power_on_mid_hand_abandons_it_and_the_shoe_goes_on() -> None:
    messages = [
        *hand("9S 2H KD 3C", PLAYER),
        Drawn(Position(P1), None),
        Drawn(Position(B1), None),
        PowerOn(),
        *hand("8D 2C KH 3S", PLAYER),
    ]
    news = heard(wire(*NEW_SHOE, BURNED, *messages))
    assert of(news, NewShoe) == [NewShoe("S1")]  # the power-on did not start a shoe
    assert of(news, HandAbandoned) == [HandAbandoned("S1", 2, (None, None), "the shoe powered on")]
    assert PoweredOn(mid_hand=True) in news
    assert [(g.number, str(g.coup.player[0])) for g in coups(news)] == [(1, "9S"), (2, "8D")]


def test_a_result_that_disagrees_with_its_cards_is_the_shoes_result_with_an_alert() -> None:
    news = heard(wire(*NEW_SHOE, BURNED, *hand("9S 2H KD 3C", BANKER)))
    (alert,) = of(news, CardsDisagree)
    assert alert.detail == "the shoe says B; its cards say P"
    assert [str(c) for c in alert.player + alert.banker] == ["9S", "KD", "2H", "3C"]
    (game,) = coups(news)
    assert game.coup.winner is Winner.BANKER and not game.coup.has_cards


def test_cards_the_tableau_would_not_deal_are_an_alert() -> None:
    messages = hand("9S 2H KD 3C", PLAYER)
    messages.insert(8, Identity(Position(P3), Card("5", "H")))
    news = heard(wire(*NEW_SHOE, BURNED, *messages))
    (alert,) = of(news, CardsDisagree)
    assert "natural" in alert.detail
    assert coups(news)[0].coup.winner is Winner.PLAYER


def test_a_card_dealt_without_its_identity_is_an_alert() -> None:
    messages = hand("9S 2H KD 3C", PLAYER)
    del messages[7]  # B2's identity
    (alert,) = of(heard(wire(*NEW_SHOE, BURNED, *messages)), CardsDisagree)
    assert alert.detail == "no identity for B2"


def test_a_hand_left_without_its_result_is_abandoned_at_the_next_hand() -> None:
    refused = hand("9S 2H KD 3C", PLAYER)[:-1]
    raw = wire(*NEW_SHOE, BURNED, *refused)
    raw += frame(5, "G", b"\xb0") * 3  # an unknown winner code: refused by the reader
    raw += Transmitter().send(*hand("8D 2C KH 3S", PLAYER))
    news = heard(raw)
    assert of(news, BadBytes)[0].reason.endswith("unknown winner code 3, hand refused")
    (abandoned,) = of(news, HandAbandoned)
    assert abandoned.reason == "the hand ended without a result"
    assert [str(card) for card in abandoned.cards] == ["9S", "2H", "KD", "3C"]
    assert [(g.number, str(g.coup.player[0])) for g in coups(news)] == [(1, "8D")]


def test_a_hand_revealed_without_its_result_is_abandoned_when_the_next_is_dealt() -> None:
    """The reader came in at the reveal and the result was lost: no draw of the new hand repeats."""
    revealed = hand("9S 2H KD 3C", PLAYER)[4:8]
    news = heard(
        wire(*revealed, *hand("8D 2C KH 3S", PLAYER)), AngelEyeHands(ShoeBook(names(), shoe="S4"))
    )
    (abandoned,) = of(news, HandAbandoned)
    assert [str(card) for card in abandoned.cards] == ["9S", "2H", "KD", "3C"]
    assert [str(g.coup.player[0]) for g in coups(news)] == ["8D"]


def test_a_seat_drawn_twice_means_the_hand_before_was_lost() -> None:
    """Draws without a reveal (the burst and result lost): P1 again is a new hand."""
    draws = hand("9S 2H KD 3C", PLAYER)[:4]
    news = heard(wire(*NEW_SHOE, BURNED, *draws, *hand("8D 2C KH 3S", PLAYER)))
    (abandoned,) = of(news, HandAbandoned)
    assert (abandoned.cards, abandoned.reason) == ((None,) * 4, "the hand ended without a result")
    assert [(g.number, str(g.coup.player[0])) for g in coups(news)] == [(1, "8D")]


def test_unknown_letters_are_reported_never_acted_on() -> None:
    hands = AngelEyeHands()
    raw = frame(1, "L", b"\x81") * 3 + frame(2, "M") * 3 + frame(3, "Q", b"\x80\x80") * 3
    assert heard(raw, hands) == [
        UnknownMessage("L", b"\x81"),
        UnknownMessage("M", b""),
        UnknownMessage("Q", b"\x80\x80"),
    ]
    assert hands.tally == LineFaults(unknown=3)


def test_lost_messages_bad_bytes_and_abandoned_hands_are_tallied() -> None:
    hands = AngelEyeHands()
    raw = b"\xff\xff" + frame(1, "D", b"\x81\x80") + frame(3, "D", b"\x91\x80") + frame(0, "S")
    news = heard(raw + b"\x05\x31", hands)
    assert MessagesLost(2, 3) in news
    assert hands.tally == LineFaults(bad_runs=1, bad_bytes=2, lost=1, abandoned=1)


def test_a_reader_started_mid_hand_still_gets_the_whole_reveal() -> None:
    raw = wire(*NEW_SHOE, BURNED, *hand("2S 3H 3D 2C 4H KS", PLAYER))
    cut = raw.index(b"D\x82\x80") + 1  # in the middle of P2's first copy
    news = heard(raw[cut:], AngelEyeHands(ShoeBook(names(), shoe="S7", games=12)))
    (game,) = coups(news)
    assert (game.number, [str(c) for c in game.coup.banker]) == (13, ["3H", "2C", "KS"])
    assert of(news, NewShoe) == [] and of(news, CardsDisagree) == []
    fresh = heard(raw[cut:])
    assert of(fresh, NewShoe) == [NewShoe("S1")] and len(coups(fresh)) == 1


def test_bad_bytes_come_through_as_news() -> None:
    news = heard(b"\xff\xff\xc5\xfc" + wire(PowerOn()))
    assert news == [BadBytes(b"\xff\xff\xc5\xfc", "outside a frame", 4), PoweredOn()]


# Bee-Tek: the host deals by the tableau.


def bee(text: str, hands: BeeTekHands | None = None) -> list:
    hands = hands or BeeTekHands(ShoeBook(names()))
    lines = "".join(line.strip() + "\r\n" for line in text.strip().splitlines())
    return hands.hear_all(BeeTekReader().feed(lines.encode()))


def game_lines(cards: str) -> str:
    return "\n".join(f"[Game]<Card:{card}>" for card in cards.split())


@pytest.mark.parametrize(
    ("cards", "seats"),
    [
        ("9S 2H KD 3C", "P1 B1 P2 B2"),
        ("2S 3H 3D 2C 4H KS", "P1 B1 P2 B2 P3 B3"),
        ("2S 3H 3D 4C 8H", "P1 B1 P2 B2 P3"),
        ("3S 2H 4D 2C 9H", "P1 B1 P2 B2 B3"),
        ("3S 2H 4D 5C", "P1 B1 P2 B2"),
    ],
)
def test_bee_tek_cards_go_where_the_tableau_deals_them(cards: str, seats: str) -> None:
    news = bee(game_lines(cards) + "\n" + game_lines("9S 2H KD 3C"))
    first = [d for d in of(news, CardDealt) if d.game == 1]
    assert " ".join(str(d.seat) for d in first) == seats
    dealt = parse_cards(cards.split())
    player = tuple(d.card for d in first if d.seat.side is Side.PLAYER)
    banker = tuple(d.card for d in first if d.seat.side is Side.BANKER)
    assert coups(news)[0].coup == record_coup(player, banker)
    assert [d.card for d in first] == list(dealt)
    assert [g.number for g in coups(news)] == [1, 2]


def test_bee_tek_burn_lines_make_a_new_shoe_and_its_burn() -> None:
    news = bee(
        """
        [Manual Burn Cards]<Card:3D>
        [Manual Burn Cards]<Card:KS>
        [Manual Burn Cards]<Card:QS>
        [Manual Burn Cards]<Card:JS>
        """
        + game_lines("9S 2H KD 3C")
        + "\n[Manual Burn Cards]<Card:2D>\n[Manual Burn Cards]<Card:5S>\n"
        + "[Manual Burn Cards]<Card:6S>\n"
        + game_lines("9S 2H KD 3C"),
        BeeTekHands(ShoeBook(names(), shoe="S0", games=70)),
    )
    assert of(news, NewShoe) == [
        NewShoe("S1", previous="S0", previous_games=70),
        NewShoe("S2", previous="S1", previous_games=1),
    ]
    assert [[str(c) for c in b.cards] for b in of(news, Burn)] == [
        ["3D", "KS", "QS", "JS"],
        ["2D", "5S", "6S"],
    ]
    assert [(g.number) for g in coups(news)] == [1, 1]


def test_bee_tek_a_burn_is_announced_with_its_last_card() -> None:
    burn = "[Manual Burn Cards]<Card:2D>\n[Manual Burn Cards]<Card:5S>\n"
    assert of(bee(burn), Burn) == []
    news = bee(burn + "[Manual Burn Cards]<Card:6S>")
    assert news[-1] == Burn(tuple(parse_cards(["2D", "5S", "6S"])), "S1")


def test_bee_tek_burn_lines_in_the_middle_of_a_hand_abandon_it() -> None:
    news = bee(game_lines("9S 2H") + "\n[Manual Burn Cards]<Card:AD>\n[Manual Burn Cards]<Card:5S>")
    assert of(news, HandAbandoned) == [
        HandAbandoned(
            "S1", 1, tuple(parse_cards(["9S", "2H"])), "burn cards came in the middle of a hand"
        )
    ]
    assert [n.shoe for n in of(news, NewShoe)] == ["S1", "S2"]
    assert of(news, Burn) == [Burn(tuple(parse_cards(["AD", "5S"])), "S2")]


def test_bee_tek_an_unread_card_spoils_its_hand_and_the_next_stays_in_step() -> None:
    news = bee(
        "[Game]<Card:9S>\n[Game]<Game>\n" + game_lines("KD 3C") + "\n" + game_lines("8D 2C KH 3S")
    )
    (abandoned,) = of(news, HandAbandoned)
    assert abandoned.reason == "a card was not read"
    assert [str(c) for c in abandoned.cards] == ["9S", "None", "KD", "3C"]
    assert [(g.number, str(g.coup.player[0])) for g in coups(news)] == [(1, "8D")]


def test_bee_tek_an_unread_card_that_hides_the_hands_end_is_said() -> None:
    news = bee("[Game]<Game>\n" + game_lines("3D 4H 2C 7S") + "\n" + game_lines("8D 2C KH 3S"))
    reasons = [a.reason for a in of(news, HandAbandoned)]
    assert reasons[0] == "a card was not read: where that hand ended is unknown"


def test_bee_tek_alarms_warnings_and_bad_lines_are_health_never_results() -> None:
    news = bee(
        """
        [Game]<Alarm:E3 Card Not Read>
        [GameAlarm]<Alarm:door open>
        [GameAlarm]<Alarm:Emergency stop>
        <W0x01>
        garbage
        """
    )
    assert news == [
        ShoeAlarm("E3", "Card Not Read"),
        ShoeAlarm("", "door open"),
        ShoeAlarm("", "Emergency stop"),
        ShoeAlarm("W0x01", "warning (meaning unknown)"),
        BadBytes(b"garbage\r\n", "not a Bee-Tek line", 9),
    ]
