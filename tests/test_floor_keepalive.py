"""A floor's controllers ride out a busy moment; ``--keepalive`` is the one knob.

Hundreds of tables in one ``shoe --tables`` process share its CPU.  With a 1 s
keepalive a pause of 1.5 s made the broker send every table's last will: a
display mark flapping to controller offline, and a new session per table when
the process came back.  The floor now uses 5 s unless ``--keepalive`` says
otherwise.  Frozen here for 6 s with SIGSTOP (as a starved process is, for a moment)
against a real mosquitto, watched by a plain subscriber of the status topics.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from cli import scoreboard
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for

pytestmark = needs_mosquitto

FROZEN = 6.0  # over 1.5 x 1 s, under 1.5 x 5 s (mosquitto looks at keepalives every few s)


def wills(recorder: Recorder) -> list[dict]:
    """The controller status payloads saying offline: the wills (nothing else says it here)."""
    with recorder.lock:
        messages = list(recorder.messages)
    found = []
    for message in messages:
        if message.topic.endswith("/controller/status") and message.payload:
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


def freeze_a_floor(tmp_path, *flags: str) -> tuple[list[dict], str]:
    """Start a 3-table floor, freeze it for FROZEN s, thaw it; the wills seen, its log."""
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), "baccarat/v2/+/controller/status").start()
        log_path = tmp_path / "shoe.log"
        with open(log_path, "w") as log:
            command = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address]
            command += ["--tables", "3", "--pace", "0.5", "--seed", "5", *flags]
            shoe = subprocess.Popen(command, stderr=log)
        try:
            assert wait_for(lambda: online_tables(recorder) == {"T1", "T2", "T3"}, timeout=30)
            os.kill(shoe.pid, signal.SIGSTOP)
            time.sleep(FROZEN)
            os.kill(shoe.pid, signal.SIGCONT)
            time.sleep(1.0)
            seen = wills(recorder)
        finally:
            os.kill(shoe.pid, signal.SIGCONT)
            shoe.terminate()
            shoe.wait(30)
            recorder.stop()
        return seen, log_path.read_text()


def test_a_floor_frozen_for_six_seconds_sends_no_will(tmp_path):
    seen, log = freeze_a_floor(tmp_path)
    assert seen == [], seen
    assert "keepalive 5 s" in log
    assert "new session" not in log


def test_with_a_one_second_keepalive_the_same_freeze_sends_every_table_s_will(tmp_path):
    seen, log = freeze_a_floor(tmp_path, "--keepalive", "1")
    assert len({(w["session"]) for w in seen}) == 3, seen  # one will per table's session
    assert "keepalive 1 s" in log


def test_a_keepalive_out_of_range_is_refused_in_one_line():
    for value in ("0", "3601", "two"):
        done = scoreboard("shoe", "--keepalive", value, "--tables", "2")
        assert done.returncode == 2
        assert "--keepalive" in done.stderr
        assert "Traceback" not in done.stderr
