"""``scoreboard coup CARD...``: resolve hands and print them as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from scoreboard.cli import UsageError
from scoreboard.game.cards import UnknownCardError, parse_cards
from scoreboard.game.rules import Coup, ImpossibleHandError, ShortShoeError, deal_coup


def coup_from_tokens(tokens: list[str]) -> Coup:
    """Resolve tokens in deal order, insisting the tableau uses every card and no more."""
    cards = parse_cards(tokens)
    if len(cards) < 4:
        raise ImpossibleHandError(f"{len(cards)} cards given; a coup needs at least 4")
    try:
        coup = deal_coup(cards)
    except ShortShoeError as error:
        raise ImpossibleHandError(
            f"the tableau needs more than the {len(cards)} cards given"
        ) from error
    used = len(coup.player) + len(coup.banker)
    if used != len(cards):
        raise ImpossibleHandError(
            f"the tableau deals {used} cards here (Player {coup.player_total}, Banker "
            f"{coup.banker_total}) but {len(cards)} were given"
        )
    return coup


def run(args: argparse.Namespace) -> int:
    if args.cards:
        try:
            coup = coup_from_tokens(args.cards)
        except (UnknownCardError, ImpossibleHandError) as error:
            raise UsageError(str(error)) from None
        print(json.dumps(coup.as_dict()))
        return 0
    status = 0
    for line_number, line in enumerate(sys.stdin, start=1):
        tokens = line.split()
        if not tokens:
            continue
        try:
            print(json.dumps(coup_from_tokens(tokens).as_dict()), flush=True)
        except (UnknownCardError, ImpossibleHandError) as error:
            print(json.dumps({"error": f"line {line_number}: {error}"}), flush=True)
            status = 1
    return status
