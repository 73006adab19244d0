"""A real mosquitto for the feed tests, and a headless display to drive against it.

Each test gets its own broker on a free loopback port with a generated config in
``tmp_path`` (no persistence, so a restart forgets everything, as a power-cycled
broker would), and its own topic prefix.  Nothing here mocks the broker.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from scoreboard.feeds.mqtt import MqttFeed
from scoreboard.protocol import Topics
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.state import TableState

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None
)

MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "mosquitto_passwd"

# A missing broker fails these tests loudly (never a skip that hides it): `make test`
# and .ci/run install Debian's mosquitto.
needs_mosquitto = pytest.mark.mosquitto


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Broker:
    """One mosquitto process; ``stop()`` and ``start()`` keep the same port."""

    directory: Path
    allow_anonymous: bool = True
    password_file: Path | None = None
    acl_file: Path | None = None
    tls: dict[str, Path] | None = None  # cafile, certfile, keyfile; requires client certs
    extra: tuple[str, ...] = ()  # more mosquitto.conf lines, e.g. from the example config
    host: str = "127.0.0.1"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    def config_text(self) -> str:
        lines = [
            f"listener {self.port} {self.host}",
            "persistence false",
            f"allow_anonymous {'true' if self.allow_anonymous else 'false'}",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
        ]
        if os.geteuid() == 0:
            lines.append("user root")
        if self.password_file is not None:
            lines.append(f"password_file {self.password_file}")
        if self.acl_file is not None:
            lines.append(f"acl_file {self.acl_file}")
        if self.tls is not None:
            lines += [
                f"cafile {self.tls['cafile']}",
                f"certfile {self.tls['certfile']}",
                f"keyfile {self.tls['keyfile']}",
                "require_certificate true",
            ]
        lines += self.extra
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        if MOSQUITTO is None:
            pytest.fail("mosquitto is missing: run `make test` (or apt-get install mosquitto)")
        conf = self.directory / "mosquitto.conf"
        conf.write_text(self.config_text())
        self.log = open(self.directory / "mosquitto.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(conf)], stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log_text()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if getattr(self, "log", None) is not None:
            self.log.close()

    def log_text(self) -> str:
        path = self.directory / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def settings(self, **changes) -> MqttConfig:
        return MqttConfig(host=self.host, port=self.port, keepalive=1, **changes)

    def endpoint(
        self,
        prefix: str,
        *,
        password: str | None = None,
        hmac_key: bytes | None = None,
        **changes,
    ) -> Endpoint:
        """This broker, the topics under ``prefix`` and the secrets, as the link takes them."""
        return Endpoint(self.settings(**changes), Topics(prefix), password, hmac_key)


@contextlib.contextmanager
def running_broker(directory: Path, **options) -> Iterator[Broker]:
    directory.mkdir(parents=True, exist_ok=True)
    broker = Broker(directory, **options)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


_counter = itertools.count()


def unique_prefix() -> str:
    return f"test/{uuid.uuid4().hex[:8]}-{next(_counter)}/T1"


def wait_for(predicate: Callable[[], bool], timeout: float = 20.0, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


class Display:
    """A headless display: an :class:`MqttFeed` polled by the test's own thread.

    ``clock`` is the display's monotonic clock (the feed's, and the time each poll
    and status is given); a test can run it ahead of the real one, as
    :class:`AheadClock` does, instead of sleeping while the display's time passes.
    """

    def __init__(
        self,
        settings: MqttConfig,
        prefix: str,
        display_id: str = "d1",
        *,
        password: str | None = None,
        hmac_key: bytes | None = None,
        journal=None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.table = TableState()
        self.topics = Topics(prefix)
        self.wake = threading.Event()
        self.clock = clock
        self.feed = MqttFeed(
            Endpoint(settings, self.topics, password, hmac_key),
            display_id=display_id,
            journal=journal,
            client_id=f"display-{display_id}-{uuid.uuid4().hex[:6]}",
            clock=clock,
        )
        self.session = self.feed.session

    def start(self) -> Display:
        self.feed.start(self.wake.set)
        return self

    def poll(self) -> None:
        self.feed.poll(self.table, self.clock())

    def until(self, predicate: Callable[[], bool], timeout: float = 20.0) -> bool:
        """Poll as the app loop would (on wake or deadline) until ``predicate`` holds
        (``timeout``: real seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            self.poll()
            if predicate():
                return True
            if time.monotonic() >= deadline:
                return False
            now = self.clock()
            due = self.feed.next_deadline(now)
            wait = 0.05 if due is None else max(0.0, min(0.05, due - now))
            self.wake.wait(wait)
            self.wake.clear()

    def status(self):
        return self.feed.status(self.clock())

    def handled(self) -> int:
        """The payloads the session has counted: those that changed the board, ignored, rejected."""
        session = self.session
        return session.applied + sum(session.ignored.values()) + session.rejected

    def stop(self) -> None:
        self.feed.stop()


class AheadClock:
    """The real monotonic clock plus ``ahead`` seconds, which a test moves forward."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


class Recorder:
    """A plain paho client that records every message under a topic filter."""

    def __init__(self, settings: MqttConfig, topic_filter: str, **client_options) -> None:
        self.messages: list[mqtt.MQTTMessage] = []
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"rec-{uuid.uuid4().hex[:8]}",
            protocol=mqtt.MQTTv5,
            **client_options,
        )
        self.topic_filter = topic_filter

        def on_connect(client, *_):
            client.subscribe(self.topic_filter, qos=1)

        def on_subscribe(*_):
            self.connected.set()

        def on_message(_client, _userdata, message):
            with self.lock:
                self.messages.append(message)

        self.client.on_connect = on_connect
        self.client.on_subscribe = on_subscribe
        self.client.on_message = on_message
        self.settings = settings

    def start(self) -> Recorder:
        self.client.connect(self.settings.host, self.settings.port, keepalive=5)
        self.client.loop_start()
        assert self.connected.wait(10), "recorder did not subscribe"
        return self

    def on(self, topic: str) -> list[bytes]:
        with self.lock:
            return [bytes(m.payload) for m in self.messages if m.topic == topic]

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def publisher(settings: MqttConfig, **credentials) -> mqtt.Client:
    """A connected raw client for publishing test payloads (QoS 1)."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=f"pub-{uuid.uuid4().hex[:8]}", protocol=mqtt.MQTTv5
    )
    if credentials:
        client.username_pw_set(credentials["username"], credentials["password"])
    client.connect(settings.host, settings.port, keepalive=5)
    client.loop_start()
    return client


class DisplayProcess:
    """``scoreboard run --headless`` as a subprocess, its log in ``directory/display-N.log``.

    ``status()`` is the display's last retained status as a ``Recorder`` on the
    broker saw it; ``kill()`` is a power cut (SIGKILL), ``start()`` the next boot.
    """

    def __init__(self, directory: Path, broker: Broker, prefix: str, *flags: str) -> None:
        self.directory = directory
        self.argv = [
            sys.executable, "-m", "scoreboard", "run", "--headless", "--mqtt", broker.address,
            "--prefix", prefix, "--display-id", "d1", "--state-dir", str(directory / "state"),
            *flags,
        ]  # fmt: skip
        self.status_topic = Topics(prefix).display_status("d1")
        self.recorder = Recorder(broker.settings(), self.status_topic).start()
        self.process: subprocess.Popen | None = None
        self.boots = 0

    def start(self) -> DisplayProcess:
        self.boots += 1
        self.log_path = self.directory / f"display-{self.boots}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(self.argv, stderr=log)
        return self

    def status(self) -> dict:
        payloads = [p for p in self.recorder.on(self.status_topic) if p.startswith(b"{")]
        return json.loads(payloads[-1]) if payloads else {}

    def statuses(self) -> int:
        return len(self.recorder.on(self.status_topic))

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(20)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.recorder.stop()

    def log_text(self) -> str:
        return "".join(
            path.read_text(errors="replace")
            for path in sorted(self.directory.glob("display-*.log"))
        )
