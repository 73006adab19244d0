"""The example ACL lets only pit (and controller) accounts send pit commands.

A real mosquitto with the example ``acl`` and client-id settings, a real
``scoreboard shoe`` logged in as ``controller-T1``, and ``scoreboard pit`` run
as a display account (refused by the broker: the controller never hears it) and
as ``pit-T1`` (answered).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from mqtt_broker import MOSQUITTO_PASSWD, Recorder, running_broker, wait_for
from test_broker_acl import KIOSK, PREFIX, example_lines

from scoreboard.protocol import Topics

pytestmark = [pytest.mark.mosquitto, pytest.mark.slow]

USERS = {
    "controller-T1": "c-secret",
    "pit-T1": "p-secret",
    "display-T1-a": "a-secret",
    "display-T1-b": "b-secret",  # the test's recorder: client ids are bound to accounts
}


@pytest.fixture
def acl_broker(tmp_path):
    """mosquitto with the kiosk's accounts and ACL (kiosk/mosquitto), as a pit's broker runs."""
    passwd = tmp_path / "passwd"
    for number, (user, password) in enumerate(USERS.items()):
        flags = ["-b", "-c"] if number == 0 else ["-b"]
        subprocess.run([MOSQUITTO_PASSWD, *flags, str(passwd), user, password], check=True)
        (tmp_path / f"{user}.password").write_text(password)
    passwd.chmod(0o600)
    options = {
        "allow_anonymous": False,
        "password_file": passwd,
        "acl_file": KIOSK / "acl",
        "extra": example_lines(),
    }
    with running_broker(tmp_path / "broker", **options) as broker:
        yield broker


def login(tmp_path, user: str) -> list[str]:
    return ["--username", user, "--password-file", str(tmp_path / f"{user}.password")]


def test_only_a_pit_account_reaches_the_controller(tmp_path, acl_broker):
    shoe_log = tmp_path / "shoe.log"
    with open(shoe_log, "wb") as log:
        shoe = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", acl_broker.address,
             "--prefix", PREFIX, "--pace", "0.3", "--seed", "3",
             *login(tmp_path, "controller-T1")],
            stderr=log,
        )  # fmt: skip
    recorder = Recorder(acl_broker.settings(), f"{PREFIX}/#")
    recorder.client.username_pw_set("display-T1-b", USERS["display-T1-b"])
    recorder.start()
    topics = Topics(PREFIX)
    try:
        assert wait_for(lambda: len(recorder.on(topics.coup)) >= 2, 30), shoe_log.read_text()

        def pit(user: str) -> subprocess.CompletedProcess:
            return subprocess.run(
                [sys.executable, "-m", "scoreboard", "pit", "void", "--mqtt", acl_broker.address,
                 "--prefix", PREFIX, "--game", "1", "--reason", "misdeal", "--timeout", "5",
                 *login(tmp_path, user)],
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip

        intruder = pit("display-T1-a")
        assert intruder.returncode == 1, intruder.stderr
        assert "the broker refused the command" in intruder.stderr
        assert recorder.on(topics.pit) == []  # the broker passed it to nobody
        assert "pit:" not in shoe_log.read_text()  # the controller never heard it

        staff = pit("pit-T1")
        assert staff.returncode == 0, staff.stderr + shoe_log.read_text()
        assert "applied: game 1 of shoe" in staff.stdout
        assert len(recorder.on(topics.pit)) == 1
        assert wait_for(lambda: "pit: void by" in shoe_log.read_text())
    finally:
        shoe.terminate()
        shoe.wait(20)
        recorder.stop()
