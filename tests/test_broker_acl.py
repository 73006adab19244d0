"""The example broker config binds client ids to accounts (item 11).

A broker runs with the example ``mosquitto.conf``'s session and client-id lines
(its listener, paths and persistence adapted to the test) and the example ``acl``;
a display account that connects with the controller's client id must not push
the controller off the broker.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from mqtt_broker import MOSQUITTO_PASSWD, needs_mosquitto, running_broker
from test_link import Collector

from scoreboard.link.client import (
    Connected,
    Disconnected,
    Link,
    Message,
    Publish,
    Refused,
    default_client_id,
)
from scoreboard.protocol import Topics

pytestmark = [needs_mosquitto, pytest.mark.slow]

KIOSK = Path(__file__).resolve().parent.parent / "kiosk" / "mosquitto"
PREFIX = "baccarat/v2/T1"  # the prefix of the example ACL
#: Lines of the example config a test broker takes as they are: the rest names the
#: listeners, the files and persistence, which the test broker sets its own way.
TAKEN = {
    "use_username_as_clientid", "persistent_client_expiration", "max_queued_messages",
    "max_queued_bytes", "message_size_limit",
}  # fmt: skip


def example_lines() -> tuple[str, ...]:
    """The example's settings in ``TAKEN``, once each (it repeats listener settings)."""
    lines = (line.strip() for line in (KIOSK / "mosquitto.conf").read_text().splitlines())
    taken = [line for line in lines if line.split(" ")[0] in TAKEN]
    return tuple(dict.fromkeys(taken))


def test_the_example_config_binds_client_ids_and_keeps_sessions():
    keys = {line.split(" ")[0] for line in example_lines()}
    assert {"use_username_as_clientid", "persistent_client_expiration"} <= keys
    assert "use_username_as_clientid true" in example_lines()


def test_the_example_acl_is_written_for_protocol_v2():
    acl = (KIOSK / "acl").read_text().splitlines()
    active = [line for line in acl if line.startswith("topic ")]
    assert active and all(f" {PREFIX}/" in line for line in active)
    assert any(line.startswith("# topic ") and "baccarat/v1/T1/" in line for line in acl)


@pytest.fixture
def accounts(tmp_path):
    passwd = tmp_path / "passwd"
    users = {"controller-T1": "c-secret", "display-T1-a": "a-secret"}
    for number, (user, password) in enumerate(users.items()):
        flags = ["-b", "-c"] if number == 0 else ["-b"]
        subprocess.run([MOSQUITTO_PASSWD, *flags, str(passwd), user, password], check=True)
    passwd.chmod(0o600)
    return passwd


def start(broker, username: str, password: str, client_id: str, **options) -> Collector:
    link = Link(
        broker.endpoint(PREFIX, password=password, username=username),
        client_id=client_id,
        **options,
    )
    collector = Collector(link)
    link.start(collector.wake)
    return collector


def test_a_display_account_cannot_take_the_controllers_client_id(tmp_path, accounts):
    topics = Topics(PREFIX)
    controller_id = default_client_id("controller", topics)
    options = {
        "allow_anonymous": False,
        "password_file": accounts,
        "acl_file": KIOSK / "acl",
        "extra": example_lines(),
    }
    with running_broker(tmp_path / "broker", **options) as broker:
        controller = start(
            broker, "controller-T1", "c-secret", controller_id, subscriptions=(topics.resync,)
        )
        intruder = None
        try:
            assert controller.until(lambda: bool(controller.of(Connected)), 15)
            intruder = start(broker, "display-T1-a", "a-secret", controller_id)
            assert intruder.until(lambda: bool(intruder.of(Connected) or intruder.of(Refused)))
            time.sleep(1.5)  # a takeover ends the old connection at once; give it time
            controller.until(lambda: False, 0.2)
            assert controller.of(Disconnected) == [], broker.log_text()
            assert controller.link.connected
            # Still the controller's session: the display's resync request reaches it.
            intruder.link.publish(Publish(topics.resync, b"{}", qos=1)).wait_for_publish(5)
            assert controller.until(
                lambda: any(m.topic == topics.resync for m in controller.of(Message))
            )
            assert len(controller.of(Connected)) == 1
        finally:
            if intruder is not None:
                intruder.link.stop()
            controller.link.stop()
