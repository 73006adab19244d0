"""The arguments of ``scoreboard audit`` (run by :mod:`scoreboard.cli.commands.audit`)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path


def tip_hash(text: str) -> str:
    """A tip as audit prints it: 64 hexadecimal digits (a SHA-256)."""
    if re.fullmatch(r"[0-9a-fA-F]{64}", text) is None:
        raise argparse.ArgumentTypeError(
            f"{text[:80]!r} is not a tip: audit prints it as 64 hexadecimal digits"
        )
    return text.lower()


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "audit",
        help="verify a display's journal hash chain and list the shoes, games and gaps it holds",
        description=(
            "Verify the hash chain of a display's state dir (archived shoes, then the live "
            "journal) and list the shoes and games it holds with voids, corrections, refused "
            "messages, alerts and the gaps the display recorded, and print the chain's tip "
            "(its last line's hash). Exit 0 when intact, 1 naming the file and line of the "
            "first broken link (or a file not on the chain), 2 when STATE_DIR is not a state dir."
        ),
    )
    parser.add_argument("state_dir", metavar="STATE_DIR", type=Path, help="the display's state dir")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--expect-tip",
        metavar="HASH",
        type=tip_hash,
        help="a tip printed by an earlier audit and kept off the box: exit 1 when that line "
        "is no longer on the chain (its end cut, or rewritten)",
    )
    parser.set_defaults(runs="scoreboard.cli.commands.audit")
