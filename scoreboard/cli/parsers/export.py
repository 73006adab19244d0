"""The arguments of ``scoreboard export`` (run by :mod:`scoreboard.cli.commands.export`)."""

from __future__ import annotations

import argparse

FORMATS = ("csv", "json")


EPILOG = """\
Output (stdout unless -o; -o FILE is written to FILE.tmp and renamed when complete):
  --shoe   default: the newest shoe with games; ID: that shoe; all: every shoe.
  --format default: json when -o ends in .json, else csv.

CSV: UTF-8 with a byte-order mark (so Excel reads accents and 莊 right), CRLF
  line ends, RFC 4180 quoting, one header row, then one row per game number in
  game order.  Columns:
    shoe, game; player_1 banker_1 player_2 banker_2 player_3 banker_3 (the cards
    in deal order as the protocol writes them: AS, TD = ten of diamonds, KH; empty
    for a results-only feed or a third card not drawn); player_total banker_total
    winner (B, P, T); player_pair banker_pair player_natural banker_natural
    banker_six dragon7 panda8 (1 or 0); status; reason (the void's or
    correction's, several joined by " | "); replaced (what the board showed before,
    "B 5-7: AS 7H 4D KC" = winner, Player-Banker totals, cards in deal order; a
    results-only coup as "Bbn" = Banker with banker pair and natural, notation of
    `scoreboard roads`); changes (how many); first_at last_at (ISO 8601 UTC).
  status: dealt; corrected (by a correct event or a controller snapshot);
    voided (cards and outcome empty, the voided coup under replaced); removed (a
    snapshot said the shoe has no such game); missing (below the shoe's highest
    game, never received); unreadable (a journal line that could not be read:
    game empty, reason = file:line: why; warned on stderr too).
  A cell a spreadsheet would take for a formula (starting = + - @, or a quote)
  is prefixed with one ' (a spreadsheet hides it); control characters and
  bidirectional overrides are written as \\xNN / \\uNNNN.

JSON: one object {"format": "scoreboard-export", "version": 1, "exported_at",
  "state_dir", "shoes": [...], "left_out": [...]}; each shoe {"shoe", "live",
  "files", "games", "missing", "skipped"}; each left out {"file", "line",
  "why"}; each game {"game", "status", "coup", "reasons", "replaced",
  "first_at", "last_at", "changes"}; "coup" (null when voided or
  removed) has the keys of `scoreboard coup` (player, banker, player_total,
  banker_total, winner, player_natural, banker_natural, natural, player_pair,
  banker_pair, banker_six, dragon7, panda8); each change {"at", "kind" (dealt,
  voided, corrected, restated), "source" (coup, void, correct, snapshot),
  "coup", "voided", "replaced", "reason", "file", "line"}; each skipped line
  {"file", "line", "why"}.  Every key is always present (null when unknown).

An archived shoe exported gets the marker shoes/<file>.jsonl.exported (after
the output is complete), which journal.require_export asks before pruning.
Nothing that is not on the journal's hash chain is written as a game: a file
off the chain is left out, an archive's lines from where it left the chain are
unreadable rows; each is named on stderr and under "left_out".
Exit status: 0 written; 1 written but a marker could not be, or something off
the chain was left out; 2 a bad state dir, shoe or -o (one line on stderr).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a shoe's history (games, cards, outcomes, voids, corrections) as CSV or JSON",
        description=(
            "Write the history of a shoe kept in a display's state directory: every\n"
            "game, its cards in deal order, totals and outcomes, voids and corrections\n"
            "with their reason and what they replaced, and when."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("state_dir", metavar="STATE_DIR", help="the display's state directory")
    parser.add_argument(
        "--shoe", metavar="ID|all", help="the shoe to export (default: the newest with games)"
    )
    parser.add_argument("--format", choices=FORMATS, help="csv or json (see below)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default stdout)")
    parser.set_defaults(runs="scoreboard.cli.commands.export")
