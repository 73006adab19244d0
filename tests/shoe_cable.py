"""A shoe's cable for the tests: a pseudo-terminal behind a ``/dev/serial/by-id``-like name.

The test holds the pty's master and writes a shoe's bytes into it (the
emulator's chunks, or frames built with the writer); the process under test
opens the symlink to the slave with pyserial as it would a USB adapter.  Pulled,
the pty closes and the name goes; plugged, a new pty appears at the same name.
Shared by the bridge's tests and the shoe feed's.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scoreboard.controller.emulated_shoe import BAUDS, PseudoTerminal
from scoreboard.game.rules import Coup
from scoreboard.shoes.emulate import Chunk


@dataclass(frozen=True)
class Hand:
    """The bytes of one step of a shoe (its opening, or one hand) and what they complete."""

    data: bytes
    truth: tuple
    draws: bytes = b""  # the hand's cards leaving the shoe, before its reveal


def steps(chunks: Iterator[Chunk]) -> list[Hand]:
    """The emulator's chunks grouped into the opening and the hands, each ending in its truth."""
    out, data, draws = [], b"", b""
    for chunk in chunks:
        data += chunk.data
        if not chunk.truth:
            draws = data
            continue
        out.append(Hand(data, chunk.truth, draws if draws != data else b""))
        data = draws = b""
    return out


class Cable:
    """A shoe's line at ``tmp_path/shoe``: write into it, pull it, plug it back; and the
    process reading it, killed (a power cut) or stopped (SIGTERM, its exit code)."""

    def __init__(self, tmp_path: Path, shoe: str = "angel-eye") -> None:
        self.shoe = shoe
        self.pty: PseudoTerminal | None = PseudoTerminal(BAUDS[shoe])
        self.device = tmp_path / "shoe"
        self.device.symlink_to(self.pty.path)
        #: The process reading the line (the subclass starts it).
        self.process: subprocess.Popen | None = None

    def write(self, data: bytes) -> None:
        """All of ``data`` into the line, as fast as the reader takes it."""
        assert self.pty is not None
        while data:
            written = self.pty.write(data)
            data = data[written:]
            if data:
                time.sleep(0.005)

    def pull(self) -> None:
        """The cable pulled: the line's pty closed, the device's name gone."""
        self.unplug()
        self.device.unlink()

    def plug(self) -> None:
        """A new line at the same name, as a USB adapter plugged back."""
        self.pty = PseudoTerminal(BAUDS[self.shoe])
        self.device.symlink_to(self.pty.path)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(20)

    def stop(self) -> int | None:
        """SIGTERM to the process (its exit code, None if it had ended), then the pty closed."""
        code = None
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                code = self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.unplug()
        return code

    def unplug(self) -> None:
        """The pty closed (the name left dangling): at the end of a test."""
        if self.pty is not None:
            self.pty.close()
            self.pty = None


def same_hand(published: Coup, truth: Coup) -> bool:
    return (published.player, published.banker, published.winner) == (
        truth.player,
        truth.banker,
        truth.winner,
    )


def audited(state: Path) -> str:
    """``scoreboard audit`` of a state dir: it must find the chain whole."""
    command = [sys.executable, "-m", "scoreboard", "audit", str(state)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout
