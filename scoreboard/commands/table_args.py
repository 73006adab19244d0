"""The table's flags, declared once: ``--variant``, ``--currency``, ``--limits``,
``--side-bets``, ``--table-name``.

``demo`` and ``screenshot`` show a sample table, so their limits default to the
sample USD 25-10,000.  A controller (``shoe``) has no default: limits it was not
given are limits it does not know, and it publishes none, so a display keeps
the limits its own config gives (docs/protocol.md, *Limits*).
"""

from __future__ import annotations

import argparse

from scoreboard.cli import UsageError
from scoreboard.core.limits import (
    Limits,
    LimitsSpecError,
    check_currency,
    limits_from_spec,
    offer_side_bets,
    side_bets_from_spec,
)
from scoreboard.core.side_bets import SIDE_BETS
from scoreboard.core.variants import VARIANTS

#: The sample table's limits (demo, screenshot): Player/Banker 25-10,000, side bets derived.
SAMPLE_LIMITS = "25-10000"
SAMPLE_CURRENCY = "USD"

SPEC_HELP = (
    "table limits: MIN-MAX for Player/Banker (tie and pairs derived), or "
    "bet=MIN-MAX,... (player, banker, tie, player_pair, banker_pair, and dragon7/panda8 "
    "with --variant ez)"
)


SIDE_BETS_HELP = (
    "side bets paid by card counts the table offers, at their usual pays: "
    f"{','.join(SIDE_BETS)}; each may name its limits (lucky_7=10-1000), else the pairs'"
)


def add_table_arguments(parser: argparse.ArgumentParser, *, sample: bool) -> None:
    """``--variant``, ``--currency``, ``--limits`` and ``--side-bets``; ``sample``: the
    sample table's defaults (the side bets: none, as a table offers none unless it says)."""
    parser.add_argument(
        "--variant", choices=sorted(VARIANTS), default="commission", help="pay table"
    )
    parser.add_argument("--side-bets", metavar="BETS", help=SIDE_BETS_HELP)
    if sample:
        parser.add_argument(
            "--currency",
            default=SAMPLE_CURRENCY,
            metavar="CODE",
            help=f"currency of the limits (default {SAMPLE_CURRENCY})",
        )
        parser.add_argument(
            "--limits",
            default=SAMPLE_LIMITS,
            metavar="SPEC",
            help=f"{SPEC_HELP}; default {SAMPLE_LIMITS}",
        )
        return
    parser.add_argument(
        "--currency", metavar="CODE", help="currency of --limits (EUR, USD...; needed with it)"
    )
    parser.add_argument(
        "--limits",
        metavar="SPEC",
        help=f"{SPEC_HELP}; default none: no limits are published, displays keep their config's",
    )


def add_table_name(parser: argparse.ArgumentParser) -> None:
    """``--table-name``: the header's name of the table shown."""
    parser.add_argument("--table-name", default="", help="table name for the header")


def limits_from_args(args: argparse.Namespace) -> Limits | None:
    """The limits ``--limits``, ``--currency`` and ``--variant`` say (None: none given).

    Anything else is a one-line usage error naming the flag.
    """
    if args.limits is None and args.currency is None:
        if args.side_bets is not None:
            raise UsageError("--side-bets needs --limits and --currency (they are the table's)")
        return None
    if args.currency is None:
        raise UsageError("--limits needs --currency (the table's, such as EUR): none is assumed")
    if args.limits is None:
        raise UsageError("--currency needs --limits (the table's bets, such as 25-10000)")
    return spec_limits(args.limits, args)


def spec_limits(spec: str, args: argparse.Namespace, flag: str = "--limits") -> Limits:
    """``spec`` in ``--currency`` for ``--variant``, or a usage error naming ``flag``."""
    try:
        check_currency(args.currency)
    except LimitsSpecError as error:
        raise UsageError(f"--currency: {error}") from None
    try:
        limits = limits_from_spec(spec, VARIANTS[args.variant], currency=args.currency)
    except LimitsSpecError as error:
        raise UsageError(f"{flag}: {error}") from None
    side_bets = getattr(args, "side_bets", None)
    if side_bets is None:
        return limits
    try:
        return offer_side_bets(limits, *side_bets_from_spec(side_bets))
    except LimitsSpecError as error:
        raise UsageError(f"--side-bets: {error}") from None


def register(_subparsers: argparse._SubParsersAction) -> None:
    """No subcommand of its own (``cli`` asks every module of ``commands``): flags only."""
