"""The journal keeps the shoe's health (audit lists it) and never a card dealt before its coup.

A restart mid-hand shows the hand forming again from the next deal, or nothing:
never a face, since no ``deal`` line (the only place a Bee-Tek card's face could
be) is written.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from cli import scoreboard
from dealt import dealt_shoe, journaled_table

from scoreboard.game.events import CardDealt, ControllerStatus, Origin, ShoeHealth
from scoreboard.journal import JOURNAL_NAME
from scoreboard.protocol import CoupReceived, NewShoe
from scoreboard.table.shoe_watch import deals_of

SHOE = dealt_shoe(11)
GAME = SHOE.games[0]


def deals(origin_seq: int = 0) -> list[CardDealt]:
    """Game 1's cards with their faces (a Bee-Tek), stamped from ``origin_seq`` when given."""
    cards = deals_of(SHOE.shoe, GAME, faces=True)
    if not origin_seq:
        return list(cards)
    return [replace(card, origin=Origin(9, origin_seq + n)) for n, card in enumerate(cards)]


def test_health_is_journaled_and_audit_lists_it_while_deals_leave_no_line(tmp_path: Path):
    journaled_table(
        tmp_path,
        [
            NewShoe(SHOE.shoe),
            ShoeHealth("device", "raised", "/dev/ttyUSB0 is gone"),
            ShoeHealth("device", "cleared", "back"),
            *deals(),
            ShoeHealth("error:2", "raised", "card not read", SHOE.shoe, 1),
            CoupReceived(SHOE.shoe, GAME),
        ],
    )
    text = (tmp_path / JOURNAL_NAME).read_text()
    assert '"deal"' not in text and "card_number" not in text
    done = scoreboard("audit", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.strip() for line in done.stdout.splitlines() if "shoe health" in line]
    assert [line.rsplit(" (line", 1)[0] for line in lines] == [
        "shoe health: device raised: /dev/ttyUSB0 is gone",
        "shoe health: device cleared: back",
        "shoe health: error:2 raised: card not read",
    ]
    report = json.loads(scoreboard("audit", str(tmp_path), "--json").stdout)
    assert [h["state"] for h in report["shoes"][0]["health"]] == ["raised", "cleared", "raised"]


def test_a_restart_mid_hand_shows_no_hand_and_keeps_what_is_raised(tmp_path: Path):
    before = journaled_table(
        tmp_path,
        [
            NewShoe(SHOE.shoe, origin=Origin(9, 1)),
            ControllerStatus(True, Origin(9, 2), (ShoeHealth("device", "raised", "gone"),)),
            *deals(origin_seq=3),
        ],
    )
    assert before.forming is not None and before.shoe_watch.mark == "shoe_offline"
    after = journaled_table(tmp_path, [])
    assert after.forming is None and after.shoe_watch.mark == "shoe_offline"
    assert after.position == before.position  # the deals' seqs are not news again
