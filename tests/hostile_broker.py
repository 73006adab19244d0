"""Brokers that hang, as a stopping or starved node does: real TCP peers on loopback.

A :class:`HangingBroker` is a listener on its own thread.  It accepts every
connection and then either says nothing at all (``silent``: a node that
accepts TCP and never sends a CONNACK) or answers the CONNECT and the pings and
never the SUBSCRIBE (``connack-only``: a node whose session queue lives on a
dead node); ``connack_delay`` makes it a slow node instead, whose CONNACK takes
that long.  :meth:`HangingBroker.close_listener` stops accepting while the
connections it holds stay open, so a real broker can take the port over while
the hung connection still looks alive to the client.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator

from mqtt_broker import free_port

CONNECT, SUBSCRIBE, PINGREQ = 1, 8, 12
PINGRESP = b"\xd0\x00"
#: CONNACK "accepted", no session present: MQTT 3.1.1 (flags, code), MQTT 5 (+ no properties).
CONNACK = {4: b"\x20\x02\x00\x00", 5: b"\x20\x03\x00\x00\x00"}


def packets(buffer: bytearray) -> Iterator[tuple[int, bytes]]:
    """Take every whole MQTT packet off the front of ``buffer``: (packet type, body)."""
    while len(buffer) >= 2:
        length, multiplier, at = 0, 1, 1
        while True:
            if at >= len(buffer):
                return
            byte = buffer[at]
            length += (byte & 0x7F) * multiplier
            multiplier, at = multiplier * 128, at + 1
            if not byte & 0x80:
                break
        if len(buffer) < at + length:
            return
        kind, body = buffer[0] >> 4, bytes(buffer[at : at + length])
        del buffer[: at + length]
        yield kind, body


class HangingBroker:
    """A TCP peer that accepts MQTT clients and hangs them (``silent`` or ``connack-only``)."""

    def __init__(self, mode: str, port: int | None = None, *, connack_delay: float = 0.0) -> None:
        assert mode in ("silent", "connack-only")
        self.mode = mode
        self.connack_delay = connack_delay
        self.host = "127.0.0.1"
        self.port = port or free_port()
        self.accepted = threading.Event()
        self.connects = 0
        self.subscribes = 0
        self.pings = 0
        self._listener: socket.socket | None = None
        self._clients: dict[socket.socket, bytearray] = {}
        self._stopping = threading.Event()
        self._closing = threading.Event()  # close the listener (on the serving thread)
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"hanging-{mode}", daemon=True)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> HangingBroker:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(16)
        self._listener = listener
        self._thread.start()
        return self

    def close_listener(self) -> None:
        """Accept no more; the connections already accepted stay open (and hung).

        The serving thread closes it and this waits: a listener closed under a
        select() still waiting on it keeps listening until that select returns,
        long enough for a broker starting on the port to fail to bind.
        """
        self._closing.set()
        if self._thread.is_alive():
            assert self._closed.wait(5), "the listener did not close"
        elif self._listener is not None:
            self._listener.close()
            self._listener = None

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(5)
        self.close_listener()
        for client in list(self._clients):
            client.close()
        self._clients.clear()

    def _serve(self) -> None:
        while not self._stopping.is_set():
            if self._closing.is_set() and self._listener is not None:
                self._listener.close()
                self._listener = None
                self._closed.set()
            listener = self._listener
            sockets = [*self._clients, *([listener] if listener is not None else [])]
            if not sockets:  # nobody left to hang: idle until stopped
                self._stopping.wait(0.05)
                continue
            try:
                readable = select.select(sockets, [], [], 0.05)[0]
            except (OSError, ValueError):  # a client socket closed meanwhile
                continue
            for sock in readable:
                if sock is listener:
                    with contextlib.suppress(OSError):
                        client, _ = listener.accept()
                        self._clients[client] = bytearray()
                        self.accepted.set()
                    continue
                self._read(sock)

    def _read(self, client: socket.socket) -> None:
        try:
            data = client.recv(65536)
        except OSError:
            data = b""
        if not data:  # the client gave up on us
            client.close()
            self._clients.pop(client, None)
            return
        if self.mode == "silent":
            return  # read and forget: the client's writes never block, it hears nothing
        buffer = self._clients[client]
        buffer += data
        for kind, body in packets(buffer):
            if kind == CONNECT:
                self.connects += 1
                level = body[6]  # after the protocol name b"\x00\x04MQTT"
                self._later(client, CONNACK[5 if level == 5 else 4])
            elif kind == PINGREQ:
                self.pings += 1
                client.sendall(PINGRESP)
            elif kind == SUBSCRIBE:
                self.subscribes += 1  # never answered

    def _later(self, client: socket.socket, packet: bytes) -> None:
        """Send ``packet`` after ``connack_delay`` (at once without one)."""
        if not self.connack_delay:
            client.sendall(packet)
            return

        def send() -> None:
            with contextlib.suppress(OSError):  # the client gave up first
                client.sendall(packet)

        timer = threading.Timer(self.connack_delay, send)
        timer.daemon = True
        timer.start()


@contextlib.contextmanager
def hanging_broker(
    mode: str, port: int | None = None, *, connack_delay: float = 0.0
) -> Iterator[HangingBroker]:
    peer = HangingBroker(mode, port, connack_delay=connack_delay).start()
    try:
        yield peer
    finally:
        peer.stop()
