"""The arguments of ``scoreboard pit`` (run by :mod:`scoreboard.cli.commands.pit`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DAY, seconds, whole
from scoreboard.cli.options import SIDE_BETS_HELP, add_mqtt_arguments
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol.contract import MAX_GAME

DEFAULT_TIMEOUT = 10.0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pit",
        help="the pit's tools: void or correct a game, start a new shoe, change the limits",
        description=(
            "Send one command to the table's controller (the shoe bridge, the keypad display "
            "or the simulated shoe) over MQTT on PREFIX/cmd/pit, signed with --hmac-key-file "
            "when the table has a key, and print its answer. Exit status: 0 applied, "
            "1 refused (the answer says why), 2 no answer within --timeout."
        ),
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    void = _action(actions, "void", "remove a game entered by mistake (a misdeal)")
    _game_arguments(void)
    correct = _action(actions, "correct", "replace a game's result or cards")
    _game_arguments(correct)
    what = correct.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--result",
        metavar="COUP",
        help="the result in the notation: B, P or T, then b (banker pair), p (player pair), "
        "n (natural): e.g. Bp",
    )
    what.add_argument("--player", nargs="+", metavar="CARD", help="Player's cards, e.g. 9H KD")
    correct.add_argument(
        "--banker", nargs="+", metavar="CARD", help="Banker's cards, with --player"
    )
    shoe = _action(actions, "new-shoe", "end the current shoe and start a new one")
    shoe.add_argument("--shoe", metavar="ID", help="the new shoe's id (default: table and time)")
    shoe.add_argument("--reason", default="", help="why (kept in the audit)")
    limits = _action(actions, "limits", "change the table's limits, now or at a time")
    limits.add_argument(
        "--variant", choices=sorted(VARIANTS), default="commission", help="pay table shown"
    )
    limits.add_argument("--currency", required=True, metavar="CODE", help="e.g. EUR")
    limits.add_argument(
        "--limits",
        required=True,
        metavar="SPEC",
        help="MIN-MAX for Player/Banker (tie and pairs derived), or bet=MIN-MAX,... "
        "(player, banker, tie, player_pair, banker_pair, dragon7/panda8 with --variant ez)",
    )
    limits.add_argument("--side-bets", metavar="BETS", help=SIDE_BETS_HELP)
    limits.add_argument(
        "--at",
        metavar="TIME",
        help="from this time: HH:MM (the next one, this computer's time zone) or "
        "2026-12-01T22:00:00Z (default: now)",
    )


def _action(actions: argparse._SubParsersAction, name: str, text: str) -> argparse.ArgumentParser:
    parser = actions.add_parser(name, help=text, description=text)
    add_mqtt_arguments(parser)
    parser.add_argument("--by", metavar="NAME", help="who asks (default: your login name)")
    parser.add_argument(
        "--id", metavar="ID", help="the command's id (default: a new random one); "
        "a command sent again with the same id is refused, never applied twice"
    )  # fmt: skip
    parser.add_argument(
        "--timeout",
        type=seconds(0, DAY, above=True),
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for the controller's answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.set_defaults(runs="scoreboard.cli.commands.pit")
    return parser


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", type=whole(1, MAX_GAME), required=True, metavar="N")
    parser.add_argument("--shoe", metavar="ID", help="the shoe (default: the current one)")
    parser.add_argument("--reason", required=True, help="why (kept in the audit)")
