"""The emulated shoe is the readers' inverse: emulate -> read -> assemble gives back the shoe."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shoes_md import SESSION_WIRE

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import Burn, CoupReceived, NewShoe
from scoreboard.game.rules import Game, record_coup
from scoreboard.game.shoe import Dealer
from scoreboard.shoes.angel_eye import AngelEyeReader, SuitOrder
from scoreboard.shoes.angel_eye_hands import AngelEyeHands
from scoreboard.shoes.bee_tek import BeeTekReader
from scoreboard.shoes.bee_tek_hands import BeeTekHands
from scoreboard.shoes.discards import BadBytes
from scoreboard.shoes.emulate import (
    SHUFFLE,
    SPEC,
    AngelEyeEmulator,
    Chunk,
    Habits,
    angel_eye,
    bee_tek,
)
from scoreboard.shoes.news import CardsDisagree, ExtraCard, ExtraFate, HandAbandoned, PoweredOn

#: Over-draws far more often than a dealer makes them, to see many of both kinds.
CLUMSY = Habits(overdraw_kept=0.08, overdraw_discarded=0.08, power_cut=0.03)


def truth(chunks: list[Chunk]) -> tuple[list, list]:
    events = [event for chunk in chunks for event in chunk.truth]
    return _games_and_burns(events)


def _games_and_burns(events: list) -> tuple[list, list]:
    games = [event.game for event in events if isinstance(event, CoupReceived)]
    burns = [event.cards for event in events if isinstance(event, Burn)]
    return games, burns


def test_the_emulator_writes_the_golden_session_byte_for_byte() -> None:
    emulator = AngelEyeEmulator(SPEC, random.Random(0), SuitOrder())
    burned = parse_cards(["3C", "9S", "KD", "4H"])
    coup = record_coup(parse_cards(["4C", "AH", "5S"]), parse_cards(["7S", "7D", "4C"]))
    chunks = emulator.new_shoe(burned, ())
    chunks += emulator.hand(coup, CoupReceived("S", Game(1, coup)), last=True, draw=list().pop)
    assert b"".join(chunk.data for chunk in chunks) == SESSION_WIRE


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["DCSH", "SHDC", "HCDS"]))
def test_angel_eye_emulated_read_and_assembled_is_the_dealt_shoe(seed: int, order: str) -> None:
    suits = SuitOrder(order)
    chunks = list(angel_eye(Dealer(seed=seed), seed=seed, habits=CLUMSY, suits=suits, shoes=2))
    reader, hands = AngelEyeReader(suits), AngelEyeHands()
    news = [n for chunk in chunks for n in hands.hear_all(reader.feed(chunk.data))]
    assert _games_and_burns(news) == truth(chunks)
    assert [n for n in news if isinstance(n, CardsDisagree)] == []
    cuts = sum(chunk.data.count(b"\x050S") for chunk in chunks) // 3 - 2  # not each shoe's
    abandoned = [n.reason for n in news if isinstance(n, HandAbandoned)]
    assert abandoned == ["the shoe powered on"] * cuts
    assert [n.reason for n in news if isinstance(n, BadBytes)] == ["outside a frame"] * (2 + cuts)
    assert sum(isinstance(n, NewShoe) for n in news) == 2
    assert hands.tally.lost == hands.tally.disagreements == 0
    assert reader.repeats == 2 * sum(chunk.data.count(b"\x05") // 3 for chunk in chunks)


def test_over_draws_both_ways_and_power_cuts_happen_and_are_read() -> None:
    chunks = list(angel_eye(Dealer(seed=5), seed=5, habits=CLUMSY, shoes=1))
    news = AngelEyeHands().hear_all(AngelEyeReader().feed(b"".join(c.data for c in chunks)))
    fates = {n.fate for n in news if isinstance(n, ExtraCard)}
    assert fates == {ExtraFate.HELD, ExtraFate.USED, ExtraFate.DISCARDED}
    assert any(isinstance(n, PoweredOn) and n.mid_hand for n in news)
    assert _games_and_burns(news) == truth(chunks)


def test_each_shoe_has_the_dealers_name() -> None:
    shoes = [
        event.shoe
        for chunk in angel_eye(Dealer(decks=1, seed=9), seed=9, shoes=2)
        for event in chunk.truth
        if isinstance(event, NewShoe)
    ]
    assert shoes == ["T1-9-001", "T1-9-002"]


def test_without_discards_the_cards_are_the_simulated_dealers() -> None:
    habits = Habits(overdraw_kept=0.2, overdraw_discarded=0.0)
    chunks = list(angel_eye(Dealer(decks=8, seed=11), seed=1, habits=habits, shoes=1))
    dealt = [e.game for e in Dealer(decks=8, seed=11).shoe() if isinstance(e, CoupReceived)]
    assert truth(chunks)[0] == dealt


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bee_tek_emulated_read_and_assembled_is_the_dealt_shoe(seed: int) -> None:
    habits = Habits(warning=0.2)
    chunks = list(bee_tek(Dealer(seed=seed), seed=seed, habits=habits, shoes=2))
    reader, hands = BeeTekReader(), BeeTekHands()
    news = [n for chunk in chunks for n in hands.hear_all(reader.feed(chunk.data))]
    assert _games_and_burns(news) == truth(chunks)
    assert [n for n in news if isinstance(n, BadBytes | HandAbandoned)] == []
    wire = b"".join(chunk.data for chunk in chunks)
    for spelling in (b"<Card:10", b"<Card:T", b"< Card : ", b"<Card:"):
        assert spelling in wire
    assert any(line[-2:-1].islower() for line in wire.split(b"\r\n") if line)  # a suit


def test_shoes_follow_one_another_after_a_shuffle() -> None:
    for deal in (angel_eye, bee_tek):
        chunks = list(deal(Dealer(seed=4), seed=4, shoes=3))
        shuffles = [index for index, chunk in enumerate(chunks) if chunk.after == SHUFFLE]
        assert len(shuffles) == 2 and all(chunks[index].data == b"" for index in shuffles)
        assert chunks[0].after < SHUFFLE
        longer = list(deal(Dealer(seed=4), seed=4, shoes=2, habits=Habits(shuffle=7.5)))
        assert [chunk.after for chunk in longer].count(7.5) == 1


def test_a_shoe_starts_with_power_on_noise_and_every_frame_three_times() -> None:
    chunks = list(angel_eye(Dealer(seed=2), seed=2, shoes=1))
    assert chunks[0].data.startswith(bytes.fromhex("FF FF C5 FC 05 30 53 03 36 30"))
    for chunk in chunks[1:]:
        frames = chunk.data.split(b"\x05")[1:]
        assert len(frames) % 3 == 0
        assert all(frames[i] == frames[i + 1] == frames[i + 2] for i in range(0, len(frames), 3))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 1000), st.lists(st.integers(1, 40), min_size=1, max_size=50))
def test_a_whole_shoe_read_in_reads_of_any_size_is_the_same(seed: int, sizes: list[int]) -> None:
    wire = b"".join(c.data for c in angel_eye(Dealer(decks=1, seed=seed), seed=seed, shoes=1))
    reader, hands, at, news = AngelEyeReader(), AngelEyeHands(), 0, []
    for size in itertools.cycle(sizes):
        if at >= len(wire):
            break
        news += hands.hear_all(reader.feed(wire[at : at + size]))
        at += size
    whole = AngelEyeHands().hear_all(AngelEyeReader().feed(wire))
    assert [n for n in news if not isinstance(n, BadBytes)] == [
        n for n in whole if not isinstance(n, BadBytes)
    ]
