"""The keypad display as the table's controller takes the pit's commands.

The real kiosk with the keypad feed publishing to a real mosquitto, another MQTT
display following it, and ``scoreboard pit`` as its own process: the keypad's own
table changes (and its journal keeps it), the other display follows, and a refusal
is answered with why.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from keypad_kiosk import keypad_kiosk
from mqtt_broker import running_broker, unique_prefix
from test_keypad_mqtt import Table, keypad_feed, same_board, until_live

from scoreboard.journal import Journal

pytestmark = [pytest.mark.mosquitto, pytest.mark.slow]


def run_pit(pad, broker, prefix: str, *argv: str) -> subprocess.CompletedProcess:
    """``scoreboard pit ...`` while the kiosk turns (the keypad answers from its loop)."""
    action, *rest = argv
    process = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "pit", action, "--mqtt", broker.address,
         "--prefix", prefix, "--by", "tester", *rest],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while process.poll() is None:
        assert time.monotonic() < deadline, "scoreboard pit never ended"
        time.sleep(0.05)
        pad.at(pad.clock.now + 0.05)
    out, err = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_the_keypad_applies_pit_commands_and_the_other_displays_follow(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        net = Table(broker, unique_prefix())
        other = net.display("d2")
        journal = Journal(tmp_path / "keypad-journal")
        try:
            feed = keypad_feed(broker, net.prefix, tmp_path / "keypad", journal=journal)
            with keypad_kiosk(feed) as pad:
                until_live(pad)
                pad.type("[3] [1] [1] [2]", pad.clock.now)  # B P P T
                assert other.until(same_board(other, pad.table), 15)
                shoe = pad.table.shoe_id

                void = run_pit(
                    pad, broker, net.prefix, "void", "--game", "2", "--reason", "misdeal"
                )
                assert void.returncode == 0, void.stderr
                assert f"applied: game 2 of shoe {shoe} voided" in void.stdout
                assert pad.table.voided == (2,)
                assert other.until(same_board(other, pad.table), 15)

                fix = run_pit(pad, broker, net.prefix, "correct", "--game", "3", "--result", "Bb",
                              "--reason", "keyed wrong")  # fmt: skip
                assert fix.returncode == 0, fix.stderr
                assert "corrected: Player -> Banker B pair" in fix.stdout
                game3 = pad.table.game(3)
                assert game3 is not None and game3.coup.banker_pair
                assert other.until(same_board(other, pad.table), 15)

                gone = run_pit(pad, broker, net.prefix, "void", "--game", "2", "--reason", "again")
                assert gone.returncode == 1
                assert f"refused: game 2 of shoe {shoe} is already voided" in gone.stderr

                new = run_pit(pad, broker, net.prefix, "new-shoe", "--shoe", "PIT-2")
                assert new.returncode == 0, new.stderr
                assert pad.table.shoe_id == "PIT-2" and pad.table.is_archived(shoe)
                assert other.until(same_board(other, pad.table), 15)

                limits = run_pit(pad, broker, net.prefix, "limits", "--currency", "EUR",
                                 "--limits", "50-20000")  # fmt: skip
                assert limits.returncode == 0, limits.stderr
                assert pad.table.limits.currency == "EUR"
                assert other.until(lambda: other.table.limits.currency == "EUR", 15)
        finally:
            journal.close()
            for display in net.displays:
                display.stop()
    # The finished shoe's lines went to the journal's archive with the new shoe.
    journal_text = "".join(p.read_text() for p in (tmp_path / "keypad-journal").rglob("*.jsonl"))
    assert '"type":"void"' in journal_text and '"type":"correct"' in journal_text
