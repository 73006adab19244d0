"""The export's CSV cells: no formula, no control character, nothing lost.

Whatever text a feed (or a hand-edited journal) puts in a reason or a shoe id,
the cell a spreadsheet opens never starts a formula and carries no control
character or bidirectional override, and the text can be read back from it.
"""

from __future__ import annotations

import csv
import io
import re

from hypothesis import given
from hypothesis import strategies as st

from scoreboard.cli.commands.export import cell, to_csv
from scoreboard.game.rules import Winner, result_coup
from scoreboard.journal.history import Change, ChangeKind, GameHistory, ShoeHistory

FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
ESCAPE = re.compile(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})")


def unescape(text: str) -> str:
    return ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


def hostile(draw_text: str) -> bool:
    return any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in BIDI for c in draw_text)


# Lists joined, not st.text: text() leaves out surrogates and format characters.
texts = st.lists(
    st.characters(codec="utf-8") | st.sampled_from([*FORMULA, *BIDI, "\x00", "\ud800", "'"]),
    max_size=30,
).map("".join)


@given(texts)
def test_a_cell_never_starts_a_formula_and_holds_no_control_character(text):
    shown = cell(text)
    assert not shown.startswith(FORMULA)
    assert not hostile(shown)
    if "\\" not in text:  # a backslash of its own would read as an escape
        body = shown[1:] if shown.startswith("'") and shown[1:2] in (*FORMULA, "'") else shown
        assert unescape(body) == text


def test_the_classic_injections_are_quoted():
    for attack in ('=HYPERLINK("http://evil")', "+1", "-1+2", "@SUM(A1)", "=cmd|' /C calc'!A0"):
        assert cell(attack) == "'" + attack
    assert cell("\t=1") == "\\x09=1"  # the tab is escaped: the cell cannot start with it
    assert cell("misdeal 3") == "misdeal 3" and cell(12) == "12"
    assert cell("'=1") == "''=1"  # a quote of its own stays readable: one is always added


@given(texts, texts)
def test_a_whole_csv_reads_back_one_row_per_game_whatever_the_text(reason, shoe_id):
    coup = result_coup(Winner.BANKER)
    changes = (
        Change(1.0, ChangeKind.DEALT, coup, False, None, "", "coup"),
        Change(2.0, ChangeKind.VOIDED, None, True, coup, reason, "void"),
    )
    shoe = ShoeHistory(shoe_id, ("shoes/x.jsonl",), (GameHistory(1, changes),))
    raw = to_csv([shoe])
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert len(rows) == 2 and len(rows[1]) == len(rows[0])
    assert rows[1][rows[0].index("reason")] == cell(reason)
    assert rows[1][0] == cell(shoe_id)
    assert all(not value.startswith(FORMULA) and not hostile(value) for value in rows[1])
