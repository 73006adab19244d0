"""kiosk/examples/ load as the board reads them, and hold what their headers promise."""

from __future__ import annotations

from pathlib import Path

import pytest
from install_root import REPO

from scoreboard.settings.config import load_config

EXAMPLES = REPO / "kiosk" / "examples"


def test_the_one_table_example_uses_the_local_broker_the_installer_makes() -> None:
    config = load_config(EXAMPLES / "one-table-local-broker.yaml")
    assert (config.mqtt.host, config.mqtt.port) == ("127.0.0.1", 1883)
    assert config.mqtt.username == "display-T1-a"  # the account --mosquitto creates
    assert config.mqtt.password_file == Path("/etc/scoreboard/mqtt.password")
    assert config.prefix == "baccarat/v2/T1" and config.display_id == "T1-a"
    assert config.state_dir == Path("/var/lib/scoreboard")


def test_the_floor_example_has_tls_a_password_and_the_tables_hmac_key() -> None:
    config = load_config(EXAMPLES / "floor-broker-tls-hmac.yaml")
    assert config.mqtt.tls is not None and config.mqtt.tls.ca == Path("/etc/scoreboard/ca.crt")
    assert config.mqtt.port == 8883
    assert config.mqtt.username == f"display-{config.display_id}"
    assert config.mqtt.password_file is not None
    assert config.mqtt.hmac_key_file == Path(f"/etc/scoreboard/{config.table_id}.key")
    assert config.prefix == f"baccarat/v2/{config.table_id}"


@pytest.mark.parametrize("name", ["one-table-local-broker.yaml", "floor-broker-tls-hmac.yaml"])
def test_an_example_keeps_the_journal_where_the_unit_may_write(name: str) -> None:
    assert load_config(EXAMPLES / name).state_dir == Path("/var/lib/scoreboard")
