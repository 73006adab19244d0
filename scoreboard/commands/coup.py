"""``scoreboard coup CARD...``: resolve hands and print them as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from scoreboard.cli import UsageError
from scoreboard.core.cards import UnknownCardError, parse_cards
from scoreboard.core.rules import Coup, ImpossibleHandError, ShortShoeError, deal_coup

#: Each line that starts with ``scoreboard coup`` is run by the tests: it must work.
EXAMPLES = """\
examples:
  scoreboard coup 9S KH KD 3C          Player's natural 9 against Banker's 3
  scoreboard coup 2S 4D 3H TC 5H 6C    both sides draw a third card: a tie at 0
  scoreboard coup 2S 7D 3H TC 4H       Player draws to 9, Banker stands on 7
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "coup",
        help="resolve a coup from its cards in deal order",
        description=(
            "Resolve a coup from its cards in deal order (P B P B, then the third cards). "
            "The cards must be exactly those the tableau deals. With no CARD, read one "
            "coup per line from stdin."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="e.g. 9S KH KD 3C")
    parser.set_defaults(func=run)


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
