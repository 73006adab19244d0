"""``scoreboard odds``: exact probabilities and house edges by enumeration."""

from __future__ import annotations

import argparse
import json

from scoreboard.commands.arg_types import DECKS
from scoreboard.core.odds import EVENTS, exact_odds
from scoreboard.core.rules import Winner
from scoreboard.core.shoe import MAX_DECKS
from scoreboard.core.side_bets import SIDE_BETS
from scoreboard.core.variants import VARIANTS, Variant

LABELS = {
    Winner.BANKER.value: "Banker wins",
    Winner.PLAYER.value: "Player wins",
    Winner.TIE.value: "Tie",
    "player_pair": "Player pair",
    "banker_pair": "Banker pair",
    "natural": "Natural (either hand)",
    "banker_six": "Banker wins with 6",
    "dragon7": "Dragon 7",
    "panda8": "Panda 8",
    "small_6": "Banker wins with 6, 2 cards",
    "big_6": "Banker wins with 6, 3 cards",
    "lucky_7_2": "Player wins with 7, 2 cards",
    "lucky_7_3": "Player wins with 7, 3 cards",
    **{
        f"super_lucky_7_{p}{b}": f"Player's 7 over Banker's 6, {p} + {b} cards"
        for p in (2, 3)
        for b in (2, 3)
    },
}


def tier_cards(tier: str) -> str:
    """A tier by its card counts alone, for a pay table's line: "2 cards", "3 + 2 cards".

    >>> tier_cards("big_6"), tier_cards("super_lucky_7_32")
    ('3 cards', '3 + 2 cards')
    """
    return LABELS[tier].split(", ")[1]


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", choices=sorted(VARIANTS), default="commission", help="table variant"
    )
    parser.add_argument("--tie-pays", type=int, choices=(8, 9), help="tie pays 8:1 or 9:1")
    parser.add_argument("--pair-pays", type=int, choices=(10, 11), help="pairs pay 11:1 or 10:1")


def variant_from(args: argparse.Namespace) -> Variant:
    return VARIANTS[args.variant].with_options(tie_pays=args.tie_pays, pair_pays=args.pair_pays)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="exact probabilities and house edges by full enumeration",
        description="Exact probabilities of a fresh shoe by full enumeration (card removal "
        "included), and the house edge of each bet for the chosen pay table.",
    )
    parser.add_argument(
        "--decks", type=DECKS, default=MAX_DECKS, help=f"1 to {MAX_DECKS} (default 8)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_from(args)
    odds = {key: float(value) for key, value in exact_odds(args.decks).items()}
    edges = variant.house_edges(odds)
    side_bets = {
        key: {"pays": dict(bet.pays), "house_edge": bet.house_edge(odds)}
        for key, bet in SIDE_BETS.items()
    }
    if args.json:
        print(
            json.dumps(
                {
                    "decks": args.decks,
                    **odds,
                    "variant": variant.name,
                    "pays": variant.pays(),
                    "house_edge": edges,
                    "side_bets": side_bets,
                }
            )
        )
        return 0
    print(f"Exact odds, {args.decks} deck{'s' if args.decks > 1 else ''}, {variant.title}")
    width = max(len(label) for label in LABELS.values())
    for key in EVENTS:
        print(f"  {LABELS[key]:<{width}} {odds[key]:.6f}")
    print("House edge")
    pays = variant.pays()
    for bet, edge in edges.items():
        print(f"  {bet:<12} pays {pays[bet]:<20} {edge * 100:6.2f} %")
    print("Side bets paid by card counts (usual pay tables)")
    for side_bet in SIDE_BETS.values():
        tiers = side_bet.pays.items()
        table = ", ".join(f"{tier_cards(tier)} {pay}:1" for tier, pay in tiers)
        edge = side_bet.house_edge(odds)
        print(f"  {side_bet.title:<14} {edge * 100:6.2f} %  {table}")
    return 0
