"""The arguments of ``scoreboard coup`` (run by :mod:`scoreboard.cli.commands.coup`)."""

from __future__ import annotations

import argparse

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
    parser.set_defaults(runs="scoreboard.cli.commands.coup")
