"""The board's health as its retained status says it: the words monitoring matches on."""

from __future__ import annotations

from typing import Any

from scoreboard.protocol import display_status
from scoreboard.table.health import JournalHealth, JournalState, RenderHealth
from scoreboard.table.state import TableState


def status(**health: Any) -> dict[str, Any]:
    return display_status("T1-a", TableState(), rejected=0, feed="connected", **health)


def test_a_board_that_never_failed_reports_no_drawing_failures() -> None:
    assert RenderHealth().failures == 0
    assert status(render=RenderHealth())["render"] == {
        "ok": True,
        "failing": [],
        "failures": 0,
        "last_frame": None,
    }


def test_each_journal_state_has_its_wire_word() -> None:
    assert status(journal=JournalHealth(JournalState.OK))["journal"] == {
        "state": "ok",
        "reason": "",
    }
    assert status(journal=JournalHealth())["journal"] == {"state": "off", "reason": ""}
    failing = JournalHealth(JournalState.FAILING, "No space left on device")
    assert status(journal=failing)["journal"] == {
        "state": "failing",
        "reason": "No space left on device",
    }
