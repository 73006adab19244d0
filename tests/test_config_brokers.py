"""A list of brokers (a cluster's nodes, a bridged pair): in the config and on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mqtt_broker import (
    Recorder,
    free_port,
    needs_mosquitto,
    running_broker,
    unique_prefix,
    wait_for,
)

from scoreboard.protocol import Topics
from scoreboard.settings.config import config_from_mapping, load_config
from scoreboard.settings.reader import ConfigError
from tests.cli import scoreboard


def brokers_of(value: object) -> tuple[tuple[str, int], ...]:
    return config_from_mapping({"mqtt": {"broker": value}}).mqtt.brokers


def test_a_list_of_brokers_keeps_its_order_first_one_first() -> None:
    config = config_from_mapping({"mqtt": {"broker": ["10.0.0.2:1883", "[::1]:1884", "pit-b"]}})
    assert (config.mqtt.host, config.mqtt.port) == ("10.0.0.2", 1883)
    assert config.mqtt.brokers == (("10.0.0.2", 1883), ("::1", 1884), ("pit-b", 1883))


def test_one_broker_is_still_written_as_one_host_port() -> None:
    assert brokers_of("10.0.0.2:8883") == (("10.0.0.2", 8883),)
    assert brokers_of(["10.0.0.2:8883"]) == (("10.0.0.2", 8883),)


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ([], "mqtt.broker: expected HOST:PORT or a list of them, got []"),
        (["a:1", "b:99999"], "mqtt.broker[1]: expected HOST:PORT (port 99999 out of range"),
        (["a:1", ["b:2"]], "mqtt.broker[1]: expected text, got ['b:2']"),
        (["a:1", "b:2", "a:1"], "mqtt.broker: expected a list of distinct brokers (broker a:1"),
        ([f"h{n}:1" for n in range(17)], "mqtt.broker: expected a list of distinct brokers (at"),
    ],
)
def test_a_bad_broker_list_names_the_file_and_the_item(
    tmp_path: Path, value: object, names: str
) -> None:
    path = tmp_path / "scoreboard.yaml"
    path.write_text(json.dumps({"mqtt": {"broker": value}}))  # JSON is YAML
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: {names}")


@pytest.mark.parametrize("command", ["run", "shoe"])
@pytest.mark.parametrize(
    ("flag", "says"),
    [
        ("127.0.0.1:1,x:99999", "--mqtt: port 99999 out of range 1-65535"),
        ("a:1,b:2,a:1", "--mqtt: broker a:1 listed twice"),
        ("127.0.0.1:1,", "--mqtt: expected HOST:PORT, got ''"),
    ],
)
def test_a_bad_broker_list_on_the_command_line_is_one_line_and_exit_2(
    command: str, flag: str, says: str
) -> None:
    extra = ["--headless"] if command == "run" else ["--shoes", "1"]
    result = scoreboard(command, *extra, "--mqtt", flag, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"scoreboard {command}: {says}"


@needs_mosquitto
def test_a_display_given_a_dead_broker_first_moves_to_the_next_and_says_which(
    tmp_path: Path,
) -> None:
    dead = f"127.0.0.1:{free_port()}"  # nothing listens there
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        status_topic = Topics(prefix).display_status("d1")
        recorder = Recorder(broker.settings(), status_topic).start()
        log_path = tmp_path / "display.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [
                    sys.executable, "-m", "scoreboard", "run", "--headless",
                    "--mqtt", f"{dead},{broker.address}", "--prefix", prefix,
                    "--display-id", "d1", "--state-dir", str(tmp_path / "state"),
                ],
                stderr=log,
            )  # fmt: skip
        try:

            def status() -> dict:
                payloads = [p for p in recorder.on(status_topic) if p.startswith(b"{")]
                return json.loads(payloads[-1]) if payloads else {}

            assert wait_for(lambda: status().get("online") is True, 40), log_path.read_text()
            assert status()["broker"] == broker.address
        finally:
            process.terminate()
            process.wait(20)
            recorder.stop()
        text = log_path.read_text()
        assert f"mqtt: broker {dead} unreachable (connection refused); trying the next" in text
        assert f"mqtt: connected to {broker.address}" in text
