"""The simulated shoe: seeds, burn, cut card and the end-of-shoe rule of rules.md."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from scoreboard.game.cards import Card
from scoreboard.game.events import Burn, CoupReceived, CutCard, NewShoe, Shuffle
from scoreboard.game.rules import deal_order
from scoreboard.game.shoe import DECK, Dealer, Shoe, burn_count


def one_shoe(**kwargs: object) -> list:
    return list(Dealer(**kwargs).shoe())  # type: ignore[arg-type]


def test_the_same_seed_deals_the_same_shoe_and_another_seed_does_not() -> None:
    assert one_shoe(seed=42) == one_shoe(seed=42)
    assert one_shoe(seed=42) != one_shoe(seed=43)


def test_no_seed_picks_a_fresh_one() -> None:
    assert Dealer().seed != Dealer().seed


def test_a_fresh_shoe_holds_every_card_of_every_deck() -> None:
    for decks in (1, 6, 8):
        shoe = Dealer(decks=decks, seed=1).new_shoe()
        assert len(shoe.codes) == 52 * decks
        assert Counter(shoe.cards) == Counter({card: decks for card in DECK})
    assert len(DECK) == 52 and all(card.suit for card in DECK)


@pytest.mark.parametrize(("first", "count"), [("A", 1), ("5", 5), ("9", 9), ("T", 10), ("K", 10)])
def test_the_burn_turns_one_card_and_burns_its_value(first: str, count: int) -> None:
    assert burn_count(Card(first)) == count


@pytest.mark.parametrize("seed", range(20))
def test_the_burn_event_holds_the_face_up_card_and_its_burned_cards(seed: int) -> None:
    events = one_shoe(seed=seed, decks=2)
    burned = next(e for e in events if isinstance(e, Burn))
    assert len(burned.cards) == 1 + burn_count(burned.cards[0])


@pytest.mark.parametrize("seed", range(30))
def test_the_shoe_is_dealt_in_order_and_ends_one_coup_after_the_cut_card(seed: int) -> None:
    """Replays the dealt stream against the shuffled cards and the cut-card position."""
    shoe = Dealer(seed=seed, decks=8).new_shoe()  # the same shuffle the dealer will use
    events = one_shoe(seed=seed, decks=8)
    assert isinstance(events[0], NewShoe) and isinstance(events[1], Burn)
    assert isinstance(events[-1], Shuffle)
    stream = list(events[1].cards)
    cut_game = None
    used_after: dict[int, int] = {}
    for event in events[2:-1]:
        if isinstance(event, CoupReceived):
            assert event.shoe == events[0].shoe
            stream += deal_order(event.game.coup.player, event.game.coup.banker)
            used_after[event.game.number] = len(stream)
        else:
            assert isinstance(event, CutCard)
            assert cut_game is None
            cut_game = max(used_after)  # it comes right after the coup it came out in
    assert stream == shoe.cards[: len(stream)]
    games = sorted(used_after)
    assert games == list(range(1, len(games) + 1))
    assert cut_game is not None and games[-1] == cut_game + 1
    # The cut card came out during the cut game (its cards reach behind the cut card)...
    assert used_after[cut_game] > shoe.cut_index
    assert cut_game == 1 or used_after[cut_game - 1] <= shoe.cut_index
    # ... and it lies 14 to 16 cards from the back.
    assert 14 <= len(shoe.codes) - shoe.cut_index <= 16


def test_about_80_coups_per_8_deck_shoe() -> None:
    dealer = Dealer(seed=7)
    lengths = [sum(1 for e in dealer.shoe() if isinstance(e, CoupReceived)) for _ in range(100)]
    assert 78 <= statistics.mean(lengths) <= 84
    assert min(lengths) >= 70 and max(lengths) <= 92


def test_shoe_after_shoe_with_new_ids_and_numbers() -> None:
    starts = []
    for event in Dealer(seed=3, decks=1, table_id="T7"):
        if isinstance(event, NewShoe):
            starts.append(event)
            if len(starts) == 4:
                break
    assert len({s.shoe for s in starts}) == 4
    assert [s.shoe.rsplit("-", 1)[1] for s in starts] == ["001", "002", "003", "004"]
    assert all(s.shoe.startswith("T7-") and 1 <= len(s.shoe) <= 64 for s in starts)


@pytest.mark.parametrize("decks", [0, 9, -1])
def test_decks_must_be_1_to_8(decks: int) -> None:
    with pytest.raises(ValueError, match="1 to 8"):
        Dealer(decks=decks)


def test_the_cut_card_must_leave_room_for_the_last_coups() -> None:
    with pytest.raises(ValueError, match="cut card"):
        Dealer(cut_card=(2, 3))
    with pytest.raises(ValueError, match="cut card"):
        Shoe([0, 1, 2], 5)


def test_a_one_deck_shoe_deals_to_its_end_many_times_over() -> None:
    dealer = Dealer(decks=1, seed=11)
    for _ in range(300):
        events = list(dealer.shoe())
        coups = [e for e in events if isinstance(e, CoupReceived)]
        assert isinstance(events[-1], Shuffle) and len(coups) >= 3


def test_a_table_deals_at_its_pace_and_shuffles_between_shoes() -> None:
    """The rhythm the demo and the simulated controller share (Dealer.timed)."""
    timed = Dealer(seed=3, decks=1).timed(pace=4.0, shuffle_seconds=12.0)
    first_two_shoes = []
    for wait, event in timed:
        first_two_shoes.append((wait, type(event)))
        if len([e for _, e in first_two_shoes if e is NewShoe]) == 2:
            break
    waits: dict[type, set[float]] = {}
    for index, (wait, kind) in enumerate(first_two_shoes):
        if index == 0:
            assert (wait, kind) == (0.0, NewShoe)  # the first shoe starts at once
            continue
        waits.setdefault(kind, set()).add(wait)
    assert waits == {
        Burn: {0.0},
        CoupReceived: {4.0},
        CutCard: {0.0},
        Shuffle: {4.0},  # the last coup stays a whole pace before the shuffle
        NewShoe: {12.0},  # the shuffle screen, then the next shoe
    }
    kinds = [kind for _, kind in first_two_shoes]
    assert kinds.index(Shuffle) == len(kinds) - 2 and kinds[-1] is NewShoe
