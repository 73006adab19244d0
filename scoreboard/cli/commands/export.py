"""``scoreboard export STATE_DIR [--shoe ID|all] [--format csv|json] [-o FILE]``: a shoe's history.

For auditors and surveillance: every game number a shoe showed, its cards in
deal order, totals and outcomes (as the core settled them: nothing is worked
out again here), whether it was voided or corrected, why and what it replaced,
and when.  The history is :mod:`scoreboard.journal.history`'s; this module only
writes it out, leaving out what ``scoreboard audit`` finds off the hash chain.
An archived shoe written out whole gets its export marker
(:func:`scoreboard.journal.exports.mark_exported`), never before the output is
complete; the live shoe never gets one (it is not finished).
"""

from __future__ import annotations

import argparse
import csv
import errno
import io
import json
import logging
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scoreboard.cli import UsageError
from scoreboard.game.rules import Coup, deal_order
from scoreboard.journal.archive import ARCHIVE_DIR
from scoreboard.journal.chain import BrokenLink, NotAStateDir, verify
from scoreboard.journal.disk import replace_durably, why
from scoreboard.journal.exports import mark_exported
from scoreboard.journal.history import GameHistory, HistoryError, ShoeHistory, read_state
from scoreboard.table.visible import escaped

log = logging.getLogger(__name__)

#: The CSV header, in this order; one row per game number.
COLUMNS = (
    "shoe", "game",
    "player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3",
    "player_total", "banker_total", "winner",
    "player_pair", "banker_pair", "player_natural", "banker_natural",
    "banker_six", "dragon7", "panda8",
    "status", "reason", "replaced", "changes", "first_at", "last_at",
)  # fmt: skip
_FLAGS = (
    "player_pair", "banker_pair", "player_natural", "banker_natural",
    "banker_six", "dragon7", "panda8",
)  # fmt: skip
#: What a spreadsheet takes for the start of a formula (full-width forms too: some locales),
#: and the quote that neutralises one (so a text starting with its own quote reads back).
FORMULA_STARTS = frozenset("=+-@\t\r\n＝＋－＠'")
#: Bidirectional overrides and isolates: they make a cell read other than it is.
JSON_VERSION = 1


def run(args: argparse.Namespace) -> int:
    state_dir = Path(args.state_dir)
    left_out = off_chain(state_dir)
    try:
        shoes = read_state(state_dir, {name: (link.line, link.why) for name, link in left_out})
    except HistoryError as error:
        raise UsageError(str(error)) from None
    chosen = choose(shoes, args.shoe, state_dir)
    output = None if args.output in (None, "-") else Path(args.output)
    fmt = args.format or ("json" if output is not None and output.suffix == ".json" else "csv")
    now = time.time()
    data = to_csv(chosen) if fmt == "csv" else to_json(chosen, state_dir, now, left_out)
    if output is None:
        try:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except OSError as error:
            raise UsageError(f"cannot write the export to stdout: {why(error)}") from None
    else:
        write_output(output, data, state_dir)
    _summarise(chosen, output)
    target = "stdout" if output is None else str(output.resolve())
    for name, link in left_out:
        print(
            f"scoreboard export: {name} line {link.line}: {link.why}: no line of it from "
            "there is exported as a game (`scoreboard audit` says more)",
            file=sys.stderr,
        )
    return max(mark(chosen, state_dir, fmt, target), 1 if left_out else 0)


def off_chain(state_dir: Path) -> list[tuple[str, BrokenLink]]:
    """The journal files export would read that are not on the hash chain (whole or from a line)."""
    try:
        report = verify(state_dir)
    except NotAStateDir:
        return []  # read_state says what is wrong, in the export's words
    except OSError as error:
        raise UsageError(f"cannot read {state_dir} ({why(error)})") from None
    return [
        (link.path.relative_to(state_dir).as_posix(), link)
        for link in report.off
        if link.path.suffix == ".jsonl" and link.path.is_relative_to(state_dir)
    ]


def write_output(output: Path, data: bytes, state_dir: Path) -> None:
    """Write the export to ``output``, never into the record it was read from.

    A regular file (or a link to one) is replaced whole (a temporary file renamed
    over it, so a half-written export never stands); anything else that exists
    (a device, a pipe) is written to as it is, never replaced by a file.
    """
    target = output.resolve()
    record = state_dir.resolve()
    if target == record or record in target.parents:
        raise UsageError(
            f"will not write {output} inside the state directory {state_dir}: "
            "it holds the record the export reads; choose a file elsewhere"
        )
    try:
        if target.exists() and not target.is_file():
            write_through(target, data)
        else:
            replace_durably(target, data)
    except OSError as error:
        if error.errno == errno.ENXIO and stat.S_ISFIFO(target.stat().st_mode):
            raise UsageError(
                f"cannot write {output}: a FIFO with no reader (start the reading program "
                "first): nothing is left waiting on it"
            ) from None
        raise UsageError(f"cannot write {output}: {why(error)}") from None


def write_through(target: Path, data: bytes) -> None:
    """Write ``data`` into a device or a pipe as it is.

    Opened without waiting: a FIFO no program reads fails at once (ENXIO) instead of
    holding the export until one comes; once open, the writes wait for the reader.
    """
    fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def choose(
    shoes: tuple[ShoeHistory, ...], wanted: str | None, state_dir: Path
) -> list[ShoeHistory]:
    """The shoes ``--shoe`` names: the newest with games by default, ``all``, or one id."""
    ids = ", ".join(shoe.shoe for shoe in shoes) or "none"
    if wanted == "all":
        return list(shoes)
    if wanted is None:
        with_games = [shoe for shoe in shoes if shoe.games]
        if not with_games:
            raise UsageError(f"no shoe with games in {state_dir} (shoes there: {ids})")
        return with_games[-1:]
    found = [shoe for shoe in shoes if shoe.shoe == wanted]
    if not found:
        raise UsageError(f"no shoe {wanted!r} in {state_dir}; shoes there: {ids}")
    return found


def mark(shoes: Iterable[ShoeHistory], state_dir: Path, fmt: str, target: str) -> int:
    """Mark every archived file of the exported shoes; 1 when a marker cannot be written."""
    status = 0
    for shoe in shoes:
        for name in shoe.files:
            if not name.startswith(f"{ARCHIVE_DIR}/"):
                continue  # the live journal: its shoe is not finished
            try:
                mark_exported(state_dir / name, fmt, target)
            except OSError as error:
                print(
                    f"scoreboard export: written, but the export marker of {name} could not be "
                    f"({why(error)}): pruning that requires an export keeps the shoe",
                    file=sys.stderr,
                )
                status = 1
    return status


def _summarise(shoes: list[ShoeHistory], output: Path | None) -> None:
    skipped = sum(len(shoe.skipped) for shoe in shoes)
    log.info(
        "exported %d shoe(s), %d game(s) to %s%s",
        len(shoes),
        sum(len(shoe.games) for shoe in shoes),
        "stdout" if output is None else output,
        f"; {skipped} unreadable journal line(s) listed in it" if skipped else "",
    )


# -- CSV -------------------------------------------------------------------------


def to_csv(shoes: Iterable[ShoeHistory]) -> bytes:
    """The CSV file: a BOM, the header, one row per game number, the unreadable lines."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for shoe in shoes:
        writer.writerows([cell(value) for value in row] for row in shoe_rows(shoe))
    return ("\ufeff" + text.getvalue()).encode("utf-8", "backslashreplace")


def shoe_rows(shoe: ShoeHistory) -> Iterator[list[object]]:
    """A shoe's rows: its games and missing numbers in game order, then unreadable lines."""
    blank: list[object] = [""] * len(COLUMNS)
    rows = {game.number: game_row(shoe.shoe, game) for game in shoe.games}
    for number in shoe.missing:
        rows[number] = _with(blank, shoe=shoe.shoe, game=number, status="missing")
    yield from (rows[number] for number in sorted(rows))
    for skipped in shoe.skipped:
        yield _with(blank, shoe=shoe.shoe, status="unreadable", reason=str(skipped))


def game_row(shoe: str, game: GameHistory) -> list[object]:
    """One game's row, in :data:`COLUMNS` order (outcome cells empty when not on the board)."""
    coup = game.coup
    row: dict[str, object] = dict.fromkeys(COLUMNS, "")
    row.update(shoe=shoe, game=game.number, status=game.status, changes=len(game.changes))
    row.update(first_at=iso(game.first_at), last_at=iso(game.last_at))
    row.update(reason=" | ".join(game.reasons))
    row.update(replaced=" | ".join(coup_text(replaced) for replaced in game.replaced))
    if coup is not None:
        row.update(zip(COLUMNS[2:8], _dealt(coup), strict=True))
        row.update(player_total=_number(coup.player_total), banker_total=_number(coup.banker_total))
        row["winner"] = coup.winner.value
        row.update({flag: int(getattr(coup, flag)) for flag in _FLAGS})
    return [row[column] for column in COLUMNS]


def _dealt(coup: Coup) -> list[str]:
    """The six card cells: player 1, banker 1, player 2, banker 2, player 3, banker 3."""
    cells = ["", "", "", "", "", ""]
    for hand, offset in ((coup.player, 0), (coup.banker, 1)):
        for index, card in enumerate(hand):
            cells[2 * index + offset] = str(card)
    return cells


def _with(blank: list[object], **values: object) -> list[object]:
    row = list(blank)
    for column, value in values.items():
        row[COLUMNS.index(column)] = value
    return row


def _number(value: int | None) -> object:
    return "" if value is None else value


def coup_text(coup: Coup) -> str:
    """A coup in one cell: winner, Player-Banker totals, cards in deal order.

    >>> from scoreboard.game.cards import parse_cards
    >>> from scoreboard.game.rules import Winner, record_coup, result_coup
    >>> coup_text(record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"])))
    'P 9-7: 9S 4D KH 3C'
    >>> coup_text(result_coup(Winner.BANKER, banker_pair=True, natural=True))
    'Bbn'
    """
    text = coup.winner.value
    if not coup.has_cards:
        marks = (("b", coup.banker_pair), ("p", coup.player_pair), ("n", coup.natural))
        text += "".join(letter for letter, on in marks if on)
    if coup.player_total is not None and coup.banker_total is not None:
        text += f" {coup.player_total}-{coup.banker_total}"
    if coup.has_cards:
        text += ": " + " ".join(str(card) for card in deal_order(coup.player, coup.banker))
    return text


def cell(value: object) -> str:
    r"""A value as a cell no spreadsheet turns into a formula, with no control characters.

    >>> cell("=HYPERLINK(\"http://x\")"), cell("+1"), cell("@SUM(A1)"), cell("-2")
    ('\'=HYPERLINK("http://x")', "'+1", "'@SUM(A1)", "'-2")
    >>> cell("void\x00 game\n3"), cell(7), cell("misdeal")
    ('void\\x00 game\\x0a3', '7', 'misdeal')
    """
    text = escaped(str(value))
    return "'" + text if text[:1] in FORMULA_STARTS else text


def iso(at: float) -> str:
    """A journal time (unix seconds, 3 decimals) as ISO 8601 UTC with milliseconds.

    >>> iso(1764590400.125)
    '2025-12-01T12:00:00.125Z'
    """
    millis = round(at * 1000)
    whole = datetime.fromtimestamp(millis // 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{whole}.{millis % 1000:03d}Z"


# -- JSON ------------------------------------------------------------------------


def to_json(
    shoes: Iterable[ShoeHistory],
    state_dir: Path,
    now: float,
    left_out: Iterable[tuple[str, BrokenLink]] = (),
) -> bytes:
    """The JSON document: one object, its ``shoes`` one object each (keys always present)."""
    document = {
        "format": "scoreboard-export",
        "version": JSON_VERSION,
        "exported_at": iso(now),
        "state_dir": str(state_dir.resolve()),
        "shoes": [shoe_json(shoe) for shoe in shoes],
        "left_out": [{"file": name, "line": link.line, "why": link.why} for name, link in left_out],
    }
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    return text.encode("utf-8", "backslashreplace")


def shoe_json(shoe: ShoeHistory) -> dict[str, Any]:
    return {
        "shoe": shoe.shoe,
        "live": shoe.live,
        "files": list(shoe.files),
        "games": [game_json(game) for game in shoe.games],
        "missing": list(shoe.missing),
        "skipped": [{"file": s.file, "line": s.line, "why": s.why} for s in shoe.skipped],
    }


def game_json(game: GameHistory) -> dict[str, Any]:
    return {
        "game": game.number,
        "status": game.status,
        "coup": _coup_json(game.coup),
        "reasons": list(game.reasons),
        "replaced": [_coup_json(coup) for coup in game.replaced],
        "first_at": iso(game.first_at),
        "last_at": iso(game.last_at),
        "changes": [
            {
                "at": iso(change.at),
                "kind": change.kind.value,
                "source": change.source,
                "coup": _coup_json(change.coup),
                "voided": change.voided,
                "replaced": _coup_json(change.replaced),
                "reason": change.reason,
                "file": change.file,
                "line": change.line,
            }
            for change in game.changes
        ],
    }


def _coup_json(coup: Coup | None) -> dict[str, object] | None:
    return None if coup is None else coup.as_dict()
