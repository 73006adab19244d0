"""``scoreboard lobby`` as a user runs it: a subprocess against a real mosquitto with 3 tables."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cli import scoreboard
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for


@needs_mosquitto
def test_the_lobby_shows_three_tables_and_publishes_its_status(tmp_path: Path) -> None:
    """A floor of 3 tables (``scoreboard shoe --tables 3``) under the default root."""
    topic = "baccarat/v2/lobby/L1/status"
    with running_broker(tmp_path / "broker") as broker:
        floor_argv = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
                      "--tables", "3", "--pace", "0.3", "--seed", "4"]  # fmt: skip
        with open(tmp_path / "floor.log", "wb") as log:
            floor = subprocess.Popen(floor_argv, stderr=log)
        recorder = Recorder(broker.settings(), topic).start()
        try:
            done = scoreboard(
                "lobby", "--mqtt", broker.address, "--lobby-id", "L1", "--windowed",
                "--size", "960x540", "--rotate", "90", "--duration", "3", timeout=60,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert "Traceback" not in done.stderr
            assert wait_for(lambda: recorder.on(topic)[-1:] == [b'{"online": false}'], 10)
            payloads = [json.loads(p) for p in recorder.on(topic)]
        finally:
            recorder.stop()
            floor.terminate()
            floor.wait(20)
    online = [p for p in payloads if p.get("online")]
    assert online, payloads
    last = online[-1]
    assert last["lobby"] == "L1"
    shown = {t["table"]: t for t in last["tables"]}
    assert set(shown) == {"T1", "T2", "T3"}
    for table in shown.values():
        assert table["state"] in ("live", "shuffling", "final hand")
        assert table["shoe"] and table["games"] >= 1 and 0 <= table["age"] < 10
    assert payloads[-1] == {"online": False}  # the goodbye, as the will says


def test_a_table_id_is_not_a_lobby_flag() -> None:
    done = scoreboard("lobby", "--table", "T1", "--duration", "0")
    assert done.returncode == 2
    assert "lobby.tables" in done.stderr and "Traceback" not in done.stderr


def test_a_bad_lobby_config_names_the_file_and_key(tmp_path: Path) -> None:
    config = tmp_path / "lobby.yaml"
    config.write_text("lobby:\n  tables:\n    - {id: lobby, name: Hall}\n")
    done = scoreboard("lobby", "--config", str(config), "--duration", "0")
    assert done.returncode == 2
    assert f"{config}: lobby.tables[0].id" in done.stderr and "reserved" in done.stderr
    config.write_text("lobby:\n  per_page: 100\n")
    done = scoreboard("lobby", "--config", str(config), "--duration", "0")
    assert done.returncode == 2 and "lobby.per_page" in done.stderr
    assert "Traceback" not in done.stderr
