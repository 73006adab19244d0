"""``scoreboard odds``: exact probabilities and house edges by enumeration."""

from __future__ import annotations

import argparse
import json

from scoreboard.cli.commands._shared import LABELS
from scoreboard.game.odds import EVENTS, exact_odds
from scoreboard.game.side_bets import SIDE_BETS
from scoreboard.game.variants import VARIANTS, Variant


def tier_cards(tier: str) -> str:
    """A tier by its card counts alone, for a pay table's line: "2 cards", "3 + 2 cards".

    >>> tier_cards("big_6"), tier_cards("super_lucky_7_32")
    ('3 cards', '3 + 2 cards')
    """
    return LABELS[tier].split(", ")[1]


def variant_from(args: argparse.Namespace) -> Variant:
    return VARIANTS[args.variant].with_options(tie_pays=args.tie_pays, pair_pays=args.pair_pays)


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
