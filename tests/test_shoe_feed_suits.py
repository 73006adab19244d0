"""A display reading its Angel Eye reads the cards by the config's suit order (``shoe.suits``).

The config keeps the order as its letters and the display makes the shoe's
``SuitOrder`` of them when it reads its shoe (so no other command imports the
shoe readers to read a config).  From the outside: a real ``scoreboard run
--headless --feed shoe`` on a pty, fed by the emulator numbering the suits the
site's way; the games it journals are the dealt ones, suits included.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mqtt_broker import wait_for
from shoe_cable import Cable, same_hand, steps

from scoreboard.game.events import CoupReceived
from scoreboard.game.shoe import Dealer
from scoreboard.journal import JOURNAL_NAME
from scoreboard.journal._replay import apply_lines
from scoreboard.settings.reader import Reader
from scoreboard.settings.shoe import read_shoe
from scoreboard.shoes import SuitOrder
from scoreboard.shoes.emulate import Habits, angel_eye
from scoreboard.table.state import TableState

QUIET = Habits(overdraw_kept=0, overdraw_discarded=0, noise=b"", warning=0)
SITE_ORDER = "HSCD"  # not the default DCSH: a card read by the default order changes suit


def journaled(state: Path) -> TableState:
    path = state / JOURNAL_NAME
    raw = path.read_bytes() if path.exists() else b""
    table = TableState()
    apply_lines(table, raw[: raw.rfind(b"\n") + 1], path)
    return table


def test_the_configs_suit_order_reads_the_shoes_cards(tmp_path: Path) -> None:
    cable = Cable(tmp_path, "angel-eye")
    config = tmp_path / "display.yaml"
    config.write_text(
        f"shoe: {{model: angel-eye, serial: {cable.device}, suits: {SITE_ORDER.lower()}}}\n",
        encoding="utf-8",
    )
    state = tmp_path / "state"
    argv = [sys.executable, "-m", "scoreboard", "run", "--headless", "--feed", "shoe",
            "--config", str(config), "--state-dir", str(state), "--display-id", "d1"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    log_path = tmp_path / "board.log"
    with log_path.open("wb") as log:
        cable.process = subprocess.Popen(argv, stderr=log, env=env)
    try:
        assert wait_for(lambda: "shoe line: reading" in log_path.read_text(), 20)
        order = SuitOrder(SITE_ORDER)
        dealt = angel_eye(Dealer(decks=8, seed=5), seed=5, habits=QUIET, suits=order, shoes=1)
        hands = steps(dealt)
        cable.write(b"".join(hand.data for hand in hands[:4]))
        assert wait_for(lambda: journaled(state).last_number >= 3, 20), log_path.read_text()
    finally:
        assert cable.stop() == 0
    truths = [e for hand in hands[:4] for e in hand.truth if isinstance(e, CoupReceived)]
    games = journaled(state).games
    assert len(games) == len(truths) >= 3
    for game, truth in zip(games, truths, strict=True):
        assert same_hand(game.coup, truth.game.coup), (game, truth)


@pytest.mark.parametrize(("value", "kept"), [("hscd", "HSCD"), ("DCSH", "DCSH")])
def test_the_config_keeps_a_suit_orders_letters(value: str, kept: str) -> None:
    reader = Reader("f.yaml")
    shoe = read_shoe(reader, {"model": "angel-eye", "serial": "/dev/x", "suits": value})
    assert shoe.suits == kept
    assert SuitOrder(kept).suits == kept  # what the display makes of it
