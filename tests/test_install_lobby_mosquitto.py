"""install.sh --lobby --mosquitto: on a real mosquitto a lobby reads every table, writes its status.

A copy of the shared install gets ``--lobby --mosquitto``; a real mosquitto loads
the installed conf.d file, ACL and password file (as test_install_mosquitto does,
under a Debian-like main config on a free loopback port).  The lobby account must
subscribe to the whole tree and publish its own status, and must not publish a
coup or a command; the installed lobby.yaml logs the real ``scoreboard lobby`` in.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from install_root import Install, install, installed, shared_install, source_copy
from mqtt_broker import free_port, wait_for
from paho.mqtt.enums import CallbackAPIVersion
from test_install_lobby import own_copy
from test_install_mosquitto import connect, debian_like_broker

pytestmark = pytest.mark.mosquitto

ROOT = "baccarat/v2"
NOT_AUTHORIZED = 0x87


@pytest.fixture(scope="module")
def lobby_broker_install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    inst = own_copy(shared_install(tmp_path_factory), "scoreboard-lobby-mosq-")
    for name in ("lobby.yaml", "lobby.password"):  # as on a box that never was a lobby
        (inst.root / "etc/scoreboard" / name).unlink(missing_ok=True)
    source = source_copy(tmp_path_factory.mktemp("lobby-mosquitto") / "source")
    installed(install(inst.root, "--lobby", "--mosquitto", source=source))
    yield inst
    shutil.rmtree(inst.root, ignore_errors=True)


@pytest.fixture
def installed_port(lobby_broker_install: Install, tmp_path: Path) -> Iterator[int]:
    port = free_port()
    process = debian_like_broker(lobby_broker_install, tmp_path, port)

    def up() -> bool:
        if process.poll() is not None:
            pytest.fail(f"mosquitto exited: {process.stderr.read() if process.stderr else ''}")
        try:
            connect(port)
        except OSError:
            return False
        return True

    assert wait_for(up, 10, 0.1), "mosquitto did not listen"
    yield port
    process.terminate()
    process.wait(10)


def secret(inst: Install, name: str) -> str:
    return (inst.root / "etc/scoreboard" / name).read_text().strip()


class Client:
    """A paho client that records what it receives and the broker's PUBACK reason codes."""

    def __init__(self, port: int, username: str, password: str) -> None:
        self.received: list[tuple[str, bytes]] = []
        self.acks: dict[int, int] = {}
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=uuid.uuid4().hex[:8],
                                  protocol=mqtt.MQTTv5)  # fmt: skip
        self.client.username_pw_set(username, password)
        self.client.on_message = lambda _c, _u, m: self.received.append((m.topic, m.payload))
        self.client.on_subscribe = lambda *_args: self.subscribed.set()
        self.client.on_publish = self._acked
        self.client.connect("127.0.0.1", port, keepalive=5)
        self.client.loop_start()

    def _acked(self, _client, _userdata, mid, reason, _properties) -> None:
        self.acks[mid] = reason.value

    def subscribe(self, topic: str) -> None:
        self.client.subscribe(topic, qos=1)
        assert self.subscribed.wait(10), f"no SUBACK for {topic}"

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> int:
        """The broker's PUBACK reason code (0: accepted, 0x87: not authorized)."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        assert wait_for(lambda: info.mid in self.acks, 10), f"no PUBACK for {topic}"
        return self.acks[info.mid]

    def got(self, topic: str) -> list[bytes]:
        return [payload for seen, payload in self.received if seen == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_the_lobby_account_reads_every_table_and_writes_only_its_status(
    lobby_broker_install: Install, installed_port: int
) -> None:
    inst = lobby_broker_install
    assert oct((inst.root / "etc/scoreboard/lobby.password").stat().st_mode & 0o777) == "0o640"
    lobby = Client(installed_port, "lobby-hall", secret(inst, "lobby.password"))
    controller = Client(installed_port, "controller-T1", secret(inst, "controller.password"))
    try:
        lobby.subscribe(f"{ROOT}/#")
        controller.subscribe(f"{ROOT}/T1/#")
        assert controller.publish(f"{ROOT}/T1/snapshot", b'{"planted": 1}', retain=True) == 0
        assert wait_for(lambda: lobby.got(f"{ROOT}/T1/snapshot") == [b'{"planted": 1}'], 10)
        status = f"{ROOT}/lobby/hall/status"
        assert lobby.publish(status, b'{"online": true}', retain=True) == 0
        assert wait_for(lambda: lobby.got(status) == [b'{"online": true}'], 10)
        for topic in (f"{ROOT}/T1/coup", f"{ROOT}/T1/cmd/resync", f"{ROOT}/lobby/other/status",
                      f"{ROOT}/T1/display/T1-a/status"):  # fmt: skip
            assert lobby.publish(topic, b"{}") == NOT_AUTHORIZED, topic
        controller.publish(f"{ROOT}/T1/limits", b"{}")  # after the refused ones: a marker
        assert wait_for(lambda: lobby.got(f"{ROOT}/T1/limits") == [b"{}"], 10)
        refused = {f"{ROOT}/T1/coup", f"{ROOT}/T1/cmd/resync"}
        assert not [topic for topic, _ in controller.received if topic in refused]
        assert not lobby.got(f"{ROOT}/lobby/other/status")
    finally:
        lobby.close()
        controller.close()


def test_the_installed_lobby_config_logs_the_lobby_in(
    lobby_broker_install: Install, installed_port: int, tmp_path: Path
) -> None:
    """The sample as --mosquitto wrote it (account on), only the broker's port moved."""
    etc = lobby_broker_install.root / "etc/scoreboard"
    config = (etc / "lobby.yaml").read_text()
    assert "\n  username: lobby-hall\n" in config
    assert "\n  password_file: /etc/scoreboard/lobby.password\n" in config
    local = tmp_path / "lobby.yaml"
    local.write_text(config.replace("/etc/scoreboard/", f"{etc}/"))
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "lobby", "--config", str(local), "--windowed",
         "--size", "640x360", "--mqtt", f"127.0.0.1:{installed_port}", "--duration", "3"],
        capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "not authori" not in done.stderr.lower(), done.stderr
    reader = Client(installed_port, "lobby-hall", secret(lobby_broker_install, "lobby.password"))
    try:
        reader.subscribe(f"{ROOT}/lobby/hall/status")  # the lobby's goodbye, retained
        assert wait_for(lambda: reader.got(f"{ROOT}/lobby/hall/status") != [], 10)
        assert json.loads(reader.got(f"{ROOT}/lobby/hall/status")[0]) == {"online": False}
    finally:
        reader.close()


def test_the_lobby_account_follows_lobby_id(lobby_broker_install: Install, tmp_path: Path) -> None:
    etc = lobby_broker_install.root / "etc"
    config = etc / "scoreboard/lobby.yaml"
    original, acl = config.read_text(), (etc / "mosquitto/scoreboard.acl").read_text()
    config.write_text(original.replace("id: hall", "id: east.1"))
    try:
        installed(install(lobby_broker_install.root, "--mosquitto",
                          source=source_copy(tmp_path / "source")))  # fmt: skip
        renamed = (etc / "mosquitto/scoreboard.acl").read_text().splitlines()
        assert "user lobby-east.1" in renamed and "user lobby-hall" not in renamed
        assert f"topic write {ROOT}/lobby/east.1/status" in renamed
        assert f"topic read {ROOT}/#" in renamed
        users = [line.split(":")[0] for line in (etc / "mosquitto/scoreboard.passwd").open()]
        assert "lobby-east.1" in users
        config.write_text(original.replace("id: hall", "id: '#'"))
        bad = install(lobby_broker_install.root, "--mosquitto",
                      source=source_copy(tmp_path / "bad"))  # fmt: skip
        assert bad.returncode == 1 and "lobby.id" in bad.stderr and "Traceback" not in bad.stderr
    finally:
        config.write_text(original)
        (etc / "mosquitto/scoreboard.acl").write_text(acl)
