"""The private broker of ``scoreboard bench``: a real mosquitto, a port race, a broken binary.

mosquitto cannot take port 0, so a free port is picked before it starts; when
another process takes that port first, a new one is tried, and the stranger
on the old port is never mistaken for the broker.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoreboard.bench import broker
from scoreboard.bench.broker import BrokerError, find_mosquitto, private_broker

pytestmark = pytest.mark.mosquitto


@pytest.fixture
def stranger() -> Iterator[int]:
    """A listening socket on a loopback port: someone else got there first."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_a_port_taken_meanwhile_is_given_up_for_another(
    tmp_path: Path, stranger: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    picked: list[int] = []
    real = broker.free_port

    def first_the_taken_one() -> int:
        picked.append(real() if picked else stranger)
        return picked[-1]

    monkeypatch.setattr(broker, "free_port", first_the_taken_one)
    with private_broker(tmp_path) as running:
        assert running.port != stranger and picked == [stranger, running.port]
        assert running.process is not None and running.process.poll() is None
        with socket.create_connection(("127.0.0.1", running.port), timeout=2):
            pass
        process = running.process
    assert process.poll() is not None, "the broker outlived its block"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["mosquitto.conf", "mosquitto.log"]


def test_a_broker_that_cannot_start_says_why_and_leaves_nothing_running(tmp_path: Path) -> None:
    with (
        pytest.raises(BrokerError, match="mosquitto exited at start"),
        private_broker(tmp_path, binary="/bin/false"),
    ):
        pass


def test_mosquitto_is_found_here() -> None:
    """Installed here and in CI (``make system-deps``): the bench measures publish -> flip."""
    found = find_mosquitto()
    assert found is not None and Path(found).name == "mosquitto"
