"""A reason with a direction override cannot reverse a line staff read (log, audit, export).

The lab sent a void whose reason held U+202E (RIGHT-TO-LEFT OVERRIDE): the wire
accepts it (it is not a control character), and the log and audit printed it
raw, so the rest of the line read backwards.
"""

from __future__ import annotations

from cli import scoreboard

from scoreboard.feeds.repeats import Announcements
from scoreboard.game.events import CoupReceived, NewShoe, Void
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.journal import Journal
from scoreboard.table.state import TableState, apply_event

REASON = "misdeal \u202e(detacol) \u200bzero\u2028width"


def test_audit_and_export_write_the_reason_with_its_hidden_characters_as_codes(tmp_path):
    state = tmp_path / "state"
    table = TableState()
    with Journal(state) as journal:
        for event in (
            NewShoe("S1"),
            CoupReceived("S1", Game(1, result_coup(Winner.BANKER))),
            CoupReceived("S1", Game(2, result_coup(Winner.PLAYER))),
            Void("S1", 2, REASON),
        ):
            journal.keep(event, table, apply_event(table, event))
    audit = scoreboard("audit", str(state))
    assert audit.returncode == 0, audit.stderr
    assert "misdeal \\u202e(detacol) \\u200bzero\\u2028width" in audit.stdout
    export = scoreboard("export", str(state))
    assert export.returncode == 0, export.stderr
    for hidden in "\u202e\u200b\u2028":
        assert hidden not in audit.stdout and hidden not in export.stdout


def test_the_log_line_of_a_void_writes_the_override_as_a_code():
    table = TableState()
    for event in (NewShoe("S1"), CoupReceived("S1", Game(1, result_coup(Winner.TIE)))):
        apply_event(table, event)
    applied = apply_event(table, Void("S1", 1, REASON))
    lines: list[str] = []
    Announcements(lambda _level, line: lines.append(line))(applied, 0.0)
    (line,) = lines
    assert "game 1 voided" in line and "\\u202e" in line and "\u202e" not in line
