"""``scoreboard lobby`` as a user runs it: a subprocess against a real mosquitto with 3 tables."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from cli import scoreboard
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for

from scoreboard.config import Endpoint
from scoreboard.controller import start_background_controller
from scoreboard.core.limits import Limits
from scoreboard.core.shoe import Dealer
from scoreboard.core.variants import VARIANTS
from scoreboard.protocol import Topics


def controllers(broker, root: str, count: int, pace: float = 0.2):
    started = []
    for i in range(1, count + 1):
        endpoint = Endpoint(broker.settings(), Topics(f"{root}/T{i}"))
        limits = Limits.default_for(VARIANTS["commission"])
        started.append(
            start_background_controller(
                endpoint, dealer=Dealer(seed=i, table_id=f"T{i}"), limits=limits, pace=pace
            )[0]
        )
    return started


@needs_mosquitto
def test_the_lobby_shows_three_tables_and_publishes_its_status(tmp_path: Path) -> None:
    root = f"test/{uuid.uuid4().hex[:8]}"
    with running_broker(tmp_path / "broker") as broker:
        tables = controllers(broker, root, 3)
        recorder = Recorder(broker.settings(), f"{root}/lobby/L1/status").start()
        try:
            done = scoreboard(
                "lobby", "--mqtt", broker.address, "--prefix", root, "--lobby-id", "L1",
                "--windowed", "--size", "960x540", "--rotate", "90", "--duration", "3", timeout=60,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            topic = f"{root}/lobby/L1/status"
            assert wait_for(lambda: len(recorder.on(topic)) >= 2, 10)
            payloads = [json.loads(p) for p in recorder.on(topic)]
        finally:
            recorder.stop()
            for controller in tables:
                controller.stop()
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
