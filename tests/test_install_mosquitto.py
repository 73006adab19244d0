"""install.sh --mosquitto: a local broker a real mosquitto accepts the display on, and nobody else.

The installed conf.d file, ACL and password file are loaded by a real mosquitto
under a main config like Debian's (which already sets persistence_location), with
the listener moved to a free loopback port and the absolute /etc paths pointed into
the scratch root; the display logs in with the password the installer wrote.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from install_root import Install, install, installed, shared_install, source_copy, tree
from mqtt_broker import MOSQUITTO, free_port
from paho.mqtt.enums import CallbackAPIVersion

pytestmark = pytest.mark.mosquitto


@pytest.fixture(scope="module")
def broker_install(tmp_path_factory: pytest.TempPathFactory) -> Install:
    inst = shared_install(tmp_path_factory)
    source = source_copy(tmp_path_factory.mktemp("mosquitto") / "source")
    installed(install(inst.root, "--mosquitto", source=source))
    return inst


def debian_like_broker(inst: Install, directory: Path, port: int) -> subprocess.Popen:
    """mosquitto with the installed scoreboard.conf, as Debian's mosquitto.conf includes it."""
    etc = inst.root / "etc/mosquitto"
    conf = (etc / "conf.d/scoreboard.conf").read_text()
    conf = conf.replace("/etc/mosquitto/", f"{etc}/")
    conf = re.sub(r"^listener 1883 127\.0\.0\.1$", f"listener {port} 127.0.0.1", conf, flags=re.M)
    (directory / "conf.d").mkdir()
    (directory / "conf.d/scoreboard.conf").write_text(conf)
    main = directory / "mosquitto.conf"
    main.write_text(f"persistence true\npersistence_location {directory}/\nuser root\n"
                    f"log_dest stderr\ninclude_dir {directory}/conf.d\n")  # fmt: skip
    return subprocess.Popen(
        [MOSQUITTO or "mosquitto", "-c", str(main)], stderr=subprocess.PIPE, text=True
    )


def connect(port: int, username: str | None = None, password: str | None = None) -> int:
    """The CONNACK reason code the broker answers (0: accepted)."""
    answered = threading.Event()
    codes: list[int] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"t-{uuid.uuid4().hex[:6]}",
                         protocol=mqtt.MQTTv5)  # fmt: skip
    if username is not None:
        client.username_pw_set(username, password)

    def on_connect(_client, _userdata, _flags, reason, _properties) -> None:
        codes.append(reason.value)
        answered.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", port, keepalive=5)
    client.loop_start()
    try:
        assert answered.wait(10), "the broker never answered"
    finally:
        client.disconnect()
        client.loop_stop()
    return codes[0]


@pytest.fixture
def installed_port(broker_install: Install, tmp_path: Path):
    port = free_port()
    process = debian_like_broker(broker_install, tmp_path, port)
    deadline = 50
    while deadline:
        try:
            connect(port)
            break
        except (ConnectionRefusedError, OSError):
            deadline -= 1
            if process.poll() is not None:
                pytest.fail(f"mosquitto exited: {process.stderr.read() if process.stderr else ''}")
            threading.Event().wait(0.1)
    yield port
    process.terminate()
    process.wait(10)


def test_the_display_logs_in_with_the_password_the_installer_wrote(
    broker_install: Install, installed_port: int
) -> None:
    password = (broker_install.root / "etc/scoreboard/mqtt.password").read_text().strip()
    assert len(password) >= 20
    assert connect(installed_port, "display-T1-a", password) == 0
    controller = (broker_install.root / "etc/scoreboard/controller.password").read_text().strip()
    assert connect(installed_port, "controller-T1", controller) == 0


def test_an_anonymous_client_and_a_wrong_password_are_refused(installed_port: int) -> None:
    assert connect(installed_port) != 0
    assert connect(installed_port, "display-T1-a", "not-the-password") != 0


def test_the_secrets_are_private_and_a_rerun_keeps_them(
    broker_install: Install, tmp_path: Path
) -> None:
    etc = broker_install.root / "etc"
    assert oct((etc / "scoreboard/mqtt.password").stat().st_mode & 0o777) == "0o640"
    assert oct((etc / "scoreboard/controller.password").stat().st_mode & 0o777) == "0o600"
    assert oct((etc / "mosquitto/scoreboard.passwd").stat().st_mode & 0o777) == "0o600"
    before = tree(broker_install.root)
    installed(install(broker_install.root, "--mosquitto", source=source_copy(tmp_path / "source")))
    assert tree(broker_install.root) == before


def test_the_tls_listener_waits_for_its_certificates(
    broker_install: Install, tmp_path: Path
) -> None:
    conf = broker_install.root / "etc/mosquitto/conf.d/scoreboard.conf"
    assert "#listener 8883" in conf.read_text()
    certs = broker_install.root / "etc/mosquitto/certs"
    certs.mkdir()
    try:
        for name in ("ca.crt", "broker.crt", "broker.key"):
            (certs / name).write_text("planted\n")
        installed(install(broker_install.root, "--mosquitto", source=source_copy(tmp_path / "a")))
        assert "\nlistener 8883\n" in conf.read_text()
    finally:
        for name in ("ca.crt", "broker.crt", "broker.key"):
            (certs / name).unlink()
        certs.rmdir()
        installed(install(broker_install.root, "--mosquitto", source=source_copy(tmp_path / "b")))
    assert "#listener 8883" in conf.read_text()


def test_the_one_table_example_display_goes_live_on_the_installed_broker(
    broker_install: Install, installed_port: int, tmp_path: Path
) -> None:
    """kiosk/examples/one-table-local-broker.yaml, as the installer set the broker up."""
    etc = broker_install.root / "etc/scoreboard"
    statuses: list[bytes] = []
    seen = threading.Event()
    watcher = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id="controller-T1", protocol=mqtt.MQTTv5
    )
    watcher.username_pw_set("controller-T1", (etc / "controller.password").read_text().strip())

    def on_connect(client, *_args) -> None:
        client.subscribe("baccarat/v2/T1/display/T1-a/status", qos=1)

    def on_message(_client, _userdata, message) -> None:
        statuses.append(bytes(message.payload))
        status = json.loads(message.payload) if message.payload.startswith(b"{") else {}
        if status.get("feed") == "connected":
            seen.set()  # the display is on the broker and reading its table's feed

    watcher.on_connect, watcher.on_message = on_connect, on_message
    watcher.connect("127.0.0.1", installed_port, keepalive=5)
    watcher.loop_start()
    example = Path(__file__).resolve().parent.parent / "kiosk/examples/one-table-local-broker.yaml"
    display = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "run", "--headless", "--config", str(example),
         "--mqtt", f"127.0.0.1:{installed_port}", "--password-file", str(etc / "mqtt.password"),
         "--state-dir", str(tmp_path / "state")],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert seen.wait(30), f"no status from the display; got {statuses[-3:]}"
    finally:
        display.terminate()
        _out, err = display.communicate(timeout=30)
        watcher.disconnect()
        watcher.loop_stop()
    assert "not authori" not in err.lower(), err
