"""A floor's controllers ride out a busy moment; ``--keepalive`` is the one knob.

Hundreds of tables in one ``shoe --tables`` process share its CPU.  With a 1 s
keepalive a pause of 1.5 s made the broker send every table's last will: a
display mark flapping to controller offline, and a new session per table when
the process came back.  The floor now uses 5 s unless ``--keepalive`` says
otherwise.  Frozen here for 6 s with SIGSTOP (as a starved process is, for a moment)
against a real mosquitto, watched by a plain subscriber of the status topics; the
floor with the default keepalive and one with a 1 s keepalive are frozen side by side.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from cli import scoreboard
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for

pytestmark = needs_mosquitto

FROZEN = 6.0  # over 1.5 x 1 s, under 1.5 x 5 s (mosquitto looks at keepalives every few s)


def wills(recorder: Recorder, floor: str) -> list[dict]:
    """The controller status payloads of ``floor``'s tables saying offline: the wills (nothing
    else says it here)."""
    with recorder.lock:
        messages = list(recorder.messages)
    found = []
    for message in messages:
        table = message.topic.split("/")[2]
        if (
            message.topic.endswith("/controller/status")
            and message.payload
            and table.startswith(floor)
        ):
            payload = json.loads(message.payload)
            if payload["online"] is False:
                found.append(payload)
    return found


def online_tables(recorder: Recorder) -> set[str]:
    with recorder.lock:
        messages = list(recorder.messages)
    return {
        m.topic.split("/")[2]
        for m in messages
        if m.topic.endswith("/controller/status") and m.payload and json.loads(m.payload)["online"]
    }


#: Two floors of three tables each, by their tables' prefix: the default keepalive's and
#: a 1 s keepalive's; they run side by side on one broker and are frozen together.
FLOORS = {"D-": (), "K1-": ("--keepalive", "1")}


@pytest.fixture(scope="module")
def frozen_floors(tmp_path_factory) -> dict[str, tuple[list[dict], str]]:
    """Start both floors, freeze them for FROZEN s, thaw them; each floor's wills seen, its log."""
    tmp_path = tmp_path_factory.mktemp("floors")
    tables = {f"{floor}{n}" for floor in FLOORS for n in (1, 2, 3)}
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), "baccarat/v2/+/controller/status").start()
        shoes = {}
        try:
            for floor, flags in FLOORS.items():
                with open(tmp_path / f"{floor}shoe.log", "w") as log:
                    command = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address]
                    command += ["--tables", "3", "--table", floor, "--pace", "0.5", "--seed", "5"]
                    shoes[floor] = subprocess.Popen([*command, *flags], stderr=log)
            assert wait_for(lambda: online_tables(recorder) == tables, timeout=30)
            for shoe in shoes.values():
                os.kill(shoe.pid, signal.SIGSTOP)
            time.sleep(FROZEN)
            for shoe in shoes.values():
                os.kill(shoe.pid, signal.SIGCONT)
            time.sleep(1.0)
            seen = {floor: wills(recorder, floor) for floor in FLOORS}
        finally:
            for shoe in shoes.values():
                os.kill(shoe.pid, signal.SIGCONT)
                shoe.terminate()
                shoe.wait(30)
            recorder.stop()
    return {floor: (seen[floor], (tmp_path / f"{floor}shoe.log").read_text()) for floor in FLOORS}


def test_a_floor_frozen_for_six_seconds_sends_no_will(frozen_floors):
    seen, log = frozen_floors["D-"]
    assert seen == [], seen
    assert "keepalive 5 s" in log
    assert "new session" not in log


def test_with_a_one_second_keepalive_the_same_freeze_sends_every_table_s_will(frozen_floors):
    seen, log = frozen_floors["K1-"]
    assert len({(w["session"]) for w in seen}) == 3, seen  # one will per table's session
    assert "keepalive 1 s" in log


def test_a_keepalive_out_of_range_is_refused_in_one_line():
    for value in ("0", "3601", "two"):
        done = scoreboard("shoe", "--keepalive", value, "--tables", "2")
        assert done.returncode == 2
        assert "--keepalive" in done.stderr
        assert "Traceback" not in done.stderr
