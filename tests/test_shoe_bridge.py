"""``scoreboard bridge``, from the outside: a real process reading a pseudo-terminal, a real broker.

The test holds the pty's master and writes a shoe's bytes into it (the emulator's
chunks, or frames built with the writer); the bridge opens a symlink to the slave
with pyserial as it would a ``/dev/serial/by-id`` name.  A recorder subscribed to
the table's topics decodes everything published with the project's protocol.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from install_root import NotifySocket
from mqtt_broker import (
    Broker,
    Display,
    Recorder,
    needs_mosquitto,
    publisher,
    unique_prefix,
    wait_for,
)
from shoe_cable import Cable, Hand, audited, same_hand, steps
from shoes_md import SESSION_WIRE

from scoreboard.game.cards import Card, parse_cards
from scoreboard.game.events import (
    Burn,
    CardDealt,
    ControllerStatus,
    CoupReceived,
    LimitsReceived,
    NewShoe,
    ResyncRequest,
    ShoeHealth,
    Snapshot,
)
from scoreboard.game.rules import Winner, deal_order
from scoreboard.game.seats import DEAL_ORDER, Seat, Side, seats_of
from scoreboard.game.shoe import Dealer
from scoreboard.protocol import ProtocolError, Topics, parse_message, wire
from scoreboard.shoes._angel_eye_writer import Transmitter, frame
from scoreboard.shoes.angel_eye import Drawn, Identity, Position, PowerOn, Result
from scoreboard.shoes.emulate import Habits, angel_eye, bee_tek

pytestmark = [needs_mosquitto, pytest.mark.slow]


class Bridged(Cable):
    """A ``scoreboard bridge`` process on a pty, and a recorder on its table's topics."""

    def __init__(
        self,
        tmp_path: Path,
        broker: Broker,
        shoe: str = "angel-eye",
        *flags: str,
        key: bytes | None = None,
    ) -> None:
        super().__init__(tmp_path, shoe)
        self.tmp_path, self.key = tmp_path, key
        self.prefix = unique_prefix()
        self.topics = Topics(self.prefix)
        self.recorder = Recorder(broker.settings(), f"{self.prefix}/#").start()
        self.argv = [
            sys.executable, "-m", "scoreboard", "bridge", "--shoe", shoe,
            "--serial", str(self.device), "--mqtt", broker.address, "--prefix", self.prefix,
            "--state-dir", str(tmp_path / "state"), *flags,
        ]  # fmt: skip
        self.boots = 0
        self.env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
        self._events: list = []
        self._read = 0

    def start(self) -> Bridged:
        """A boot; back once its session is online (its port opened before that)."""
        online = self.onlines()
        self.boots += 1
        with open(self.tmp_path / f"bridge-{self.boots}.log", "wb") as log:
            self.process = subprocess.Popen(self.argv, stderr=log, env=self.env)
        assert wait_for(lambda: self.onlines() > online, 20), self.log_text()
        return self

    def log_text(self) -> str:
        return "".join(
            path.read_text(errors="replace") for path in sorted(self.tmp_path.glob("bridge-*.log"))
        )

    def events(self) -> list:
        """Everything published so far, decoded (each message once: the list only grows)."""
        messages = list(self.recorder.messages)
        for message in messages[self._read :]:
            try:
                payload = bytes(message.payload)
                self._events.append(
                    parse_message(self.topics, message.topic, payload, key=self.key)
                )
            except ProtocolError:
                continue
        self._read = len(messages)
        return list(self._events)

    def health(self, condition: str) -> list[ShoeHealth]:
        return [e for e in self.events() if isinstance(e, ShoeHealth) and e.condition == condition]

    def deals(self, game: int) -> list[CardDealt]:
        return [e for e in self.events() if isinstance(e, CardDealt) and e.game == game]

    def raised(self) -> list[str]:
        """The conditions the last retained controller status says are raised."""
        statuses = [e for e in self.events() if isinstance(e, ControllerStatus)]
        return [health.condition for health in statuses[-1].raised]

    def onlines(self) -> int:
        return sum(isinstance(e, ControllerStatus) and e.online for e in self.events())

    def coups(self) -> list[CoupReceived]:
        return [event for event in self.events() if isinstance(event, CoupReceived)]

    def snapshot(self) -> Snapshot:
        return [event for event in self.events() if isinstance(event, Snapshot)][-1]

    def until_coups(self, count: int, timeout: float = 20) -> list[CoupReceived]:
        assert wait_for(lambda: len(self.coups()) >= count, timeout), self.log_text()
        return self.coups()

    def stop(self) -> int | None:
        code = super().stop()
        self.recorder.stop()
        return code


@pytest.fixture
def bridges(broker: Broker) -> Iterator[list[Bridged]]:  # noqa: ARG001 - stopped before it
    made: list[Bridged] = []
    yield made
    for bridge in made:
        bridge.stop()


def bridge_on(
    bridges: list[Bridged],
    tmp_path: Path,
    broker: Broker,
    shoe: str,
    *flags: str,
    key: bytes | None = None,
) -> Bridged:
    bridge = Bridged(tmp_path, broker, shoe, *flags, key=key)
    bridges.append(bridge)
    return bridge.start()


def check_shoe(bridge: Bridged, hands: list[Hand]) -> None:
    """Every truth of ``hands`` was published: one new shoe, its burn, each coup once in order."""
    truths = [event for hand in hands for event in hand.truth]
    coups = [event for event in truths if isinstance(event, CoupReceived)]
    published = bridge.until_coups(len(coups))
    assert [coup.game.number for coup in published] == list(range(1, len(coups) + 1))
    for mine, truth in zip(published, coups, strict=True):
        assert same_hand(mine.game.coup, truth.game.coup), (mine, truth)
    events = bridge.events()
    shoes = [event for event in events if isinstance(event, NewShoe)]
    burns = [event for event in events if isinstance(event, Burn)]
    assert len(shoes) == 1 and {coup.shoe for coup in published} == {shoes[0].shoe}
    truth_burn = next(event for event in truths if isinstance(event, Burn))
    assert [burn.cards for burn in burns] == [truth_burn.cards]
    assert wait_for(lambda: len(bridge.snapshot().games) == len(coups))


def test_a_whole_angel_eye_shoe_with_over_draws_both_ways_and_power_cuts(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    habits = Habits(overdraw_kept=0.1, overdraw_discarded=0.1, power_cut=0.05)
    hands = steps(angel_eye(Dealer(decks=8, seed=11), seed=11, habits=habits, shoes=1))
    wire = b"".join(hand.data for hand in hands)
    assert b"R" in wire and b"i" in wire  # the seed deals both kinds of over-draw
    bridge = bridge_on(bridges, tmp_path, broker, "angel-eye")
    bridge.write(wire)
    check_shoe(bridge, hands)
    abandoned = bridge.health("hand_abandoned")  # the power cuts' hands: told, never coups
    assert abandoned and all("the shoe powered on" in each.detail for each in abandoned)
    assert "abandoned" in bridge.log_text()
    for coup in bridge.coups():  # each card face down as it left the shoe, withheld
        deals = bridge.deals(coup.game.number)
        assert len(deals) >= len(coup.game.coup.player) + len(coup.game.coup.banker)
        assert all(deal.card is None for deal in deals)
    errors = bridge.health("error:2")  # each over-draw raised and cleared its error
    assert errors and errors[0].state == "raised" and errors[-1].state == "cleared"
    assert errors[0].detail == "over-draw" and bridge.raised() == []
    extra = bridge.health("extra_card")
    assert {each.state for each in extra} == {"raised", "cleared"}
    assert {each.detail for each in extra if each.state == "cleared"} == {"used", "discarded"}
    assert bridge.stop() == 0


def test_a_whole_bee_tek_shoe_dealt_by_the_tableau(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    hands = steps(bee_tek(Dealer(decks=8, seed=5), seed=5, habits=Habits(warning=0.1), shoes=1))
    bridge = bridge_on(bridges, tmp_path, broker, "bee-tek")
    display = Display(broker.settings(), bridge.prefix).start()
    bridge.write(b"".join(hand.data for hand in hands))
    check_shoe(bridge, hands)
    games = len(bridge.coups())
    try:  # a board follows the bridge as it follows any controller: every game, in order
        assert display.until(lambda: display.table.last_number == games)
        assert [game.number for game in display.table.games] == list(range(1, games + 1))
        assert display.table.shoe_id == bridge.coups()[0].shoe
    finally:
        display.stop()
    for coup in bridge.coups():  # dealt by the tableau: each card to its seat as it came
        deals = bridge.deals(coup.game.number)
        assert [(str(deal.seat), deal.card) for deal in deals] == list(
            zip(
                map(str, seats_of(coup.game.coup)),
                deal_order(coup.game.coup.player, coup.game.coup.banker),
                strict=True,
            )
        )
    assert bridge.health("error:W0x01")  # the warnings the seed put on the line
    assert bridge.stop() == 0


def opening(wire: Transmitter) -> bytes:
    """Power-on, the face-up 3 of clubs, three burned cards."""
    burned = parse_cards(["9S", "2D", "KH"])
    data = wire.send(PowerOn(), Drawn(Position(Seat(Side.PLAYER, 0), burn=True), Card("3", "C")))
    for left, card in zip((2, 1, 0), burned, strict=True):
        data += wire.send(Drawn(Position(Seat(Side.BANKER, left), burn=True), card))
    return data


def dealt(wire: Transmitter, cards: list[Card], result: Result) -> tuple[bytes, bytes]:
    """A four-card hand's draws, and its reveal with ``result``."""
    seats = DEAL_ORDER[: len(cards)]
    draws = wire.send(*(Drawn(Position(seat), None) for seat in seats))
    shown = (Identity(Position(seat), card) for seat, card in zip(seats, cards, strict=True))
    return draws, wire.send(*shown, result)


def test_a_result_that_disagrees_with_its_cards_is_the_shoe_s_result_alone(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    wire = Transmitter()
    bridge = bridge_on(bridges, tmp_path, broker, "angel-eye")
    cards = parse_cards(["9H", "2C", "KD", "3S"])  # Player 9 natural, Banker 5
    draws, reveal = dealt(wire, cards, Result(Winner.BANKER, False, False, False))
    bridge.write(opening(wire) + draws + reveal)
    (coup,) = bridge.until_coups(1)
    assert coup.game.coup.winner is Winner.BANKER and coup.game.coup.player == ()
    assert wait_for(lambda: bridge.health("cards_disagree"))
    (alert,) = bridge.health("cards_disagree")
    assert (alert.shoe, alert.game) == (coup.shoe, 1)
    assert "Player 9H KD, Banker 2C 3S" in alert.detail and "cards_disagree" in bridge.log_text()


def test_garbage_is_counted_never_a_crash_and_the_next_hand_still_comes(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    wire = Transmitter()
    bridge = bridge_on(bridges, tmp_path, broker, "angel-eye")
    assert bridge.process is not None
    rss = _rss_kib(bridge.process.pid)
    bad_bcc = frame(4, "P")[:-1] + b"0"
    bridge.write(bad_bcc * 3 + frame(5, "L", b"\x81") * 3)
    assert wait_for(lambda: bridge.health("unknown_message"))
    (bcc,) = bridge.health("bad_bytes")
    assert bcc.detail.startswith("BCC mismatch") and "05 34 50 03" in bcc.detail
    assert "'L': 81" in bridge.health("unknown_message")[0].detail
    noise = random.Random(3).randbytes(10 * 2**20)
    bridge.write(opening(wire) + noise)
    draws, reveal = dealt(
        wire, parse_cards(["9H", "2C", "KD", "3S"]), Result(Winner.PLAYER, False, False, False)
    )
    bridge.write(draws + reveal)
    (coup,) = bridge.until_coups(1, timeout=60)
    assert coup.game.coup.winner is Winner.PLAYER
    assert bridge.process.poll() is None
    assert _rss_kib(bridge.process.pid) - rss < 10 * 1024  # 10 MB through it cost less than 10 MB
    reports = bridge.health("bad_bytes")
    assert 1 <= len(reports) < 100 and "bad_bytes" in bridge.log_text()
    assert bridge.stop() == 0


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.parametrize("cut", ["between-hands", "mid-hand", "mid-burn"])
@pytest.mark.parametrize("shoe", ["angel-eye", "bee-tek"])
def test_killed_and_restarted_it_goes_on_with_the_same_shoe(
    tmp_path: Path, broker: Broker, bridges: list[Bridged], shoe: str, cut: str
) -> None:
    deal = angel_eye if shoe == "angel-eye" else bee_tek
    habits = Habits(overdraw_kept=0, overdraw_discarded=0, noise=b"", warning=0)
    hands = steps(deal(Dealer(decks=8, seed=21), seed=21, habits=habits, shoes=1))
    bridge = bridge_on(bridges, tmp_path, broker, shoe)
    cut_in = hands[0] if cut == "mid-burn" else hands[4]  # the opening, or the fourth hand
    before = hands[: hands.index(cut_in)]
    bridge.write(b"".join(hand.data for hand in before))
    bridge.until_coups(len(before) - 1)
    if cut != "between-hands":
        assert cut_in.draws
        bridge.write(cut_in.draws)
        time.sleep(0.5)  # the bridge has read them
        rest = cut_in.data[len(cut_in.draws) :]
    else:
        rest = cut_in.data
    bridge.kill()
    bridge.start()
    bridge.write(rest + b"".join(hand.data for hand in hands[hands.index(cut_in) + 1 : 6]))
    coups = bridge.until_coups(5)
    assert [coup.game.number for coup in coups] == [1, 2, 3, 4, 5]
    assert len({coup.shoe for coup in coups}) == 1
    truths = [event for hand in hands[1:6] for event in hand.truth]
    for mine, truth in zip(coups, truths, strict=True):
        assert same_hand(mine.game.coup, truth.game.coup)
    events = bridge.events()
    assert sum(isinstance(event, NewShoe) for event in events) == 1
    (burn,) = [event for event in events if isinstance(event, Burn)]
    assert burn.cards == next(e for e in hands[0].truth if isinstance(e, Burn)).cards
    assert wait_for(lambda: [game.number for game in bridge.snapshot().games] == [1, 2, 3, 4, 5])
    audited(tmp_path / "state")  # a kill -9 left the journal's chain whole


def test_the_cable_pulled_and_put_back_reading_resumes_by_itself(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    habits = Habits(overdraw_kept=0, overdraw_discarded=0, noise=b"")
    hands = steps(angel_eye(Dealer(decks=8, seed=4), seed=4, habits=habits, shoes=1))
    bridge = bridge_on(bridges, tmp_path, broker, "angel-eye")
    bridge.write(b"".join(hand.data for hand in hands[:3]))
    bridge.until_coups(2)
    bridge.pull()
    assert wait_for(lambda: bridge.raised() == ["device"], 10), bridge.log_text()
    (down,) = bridge.health("device")
    assert down.state == "raised" and str(bridge.device) in down.detail
    time.sleep(1.0)  # a few reopening attempts fail meanwhile
    bridge.plug()
    assert wait_for(lambda: bridge.raised() == [], 10), bridge.log_text()
    assert [each.state for each in bridge.health("device")] == ["raised", "cleared"]
    bridge.write(b"".join(hand.data for hand in hands[3:5]))
    coups = bridge.until_coups(4)
    assert [coup.game.number for coup in coups] == [1, 2, 3, 4]
    assert bridge.stop() == 0
    audit = audited(tmp_path / "state")  # the device's going and coming is on the record
    assert "device" in audit


def test_systemd_hears_ready_and_the_watchdog_and_sigterm_says_offline_and_exits_0(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    systemd = NotifySocket(tmp_path)
    bridge = Bridged(tmp_path, broker, "bee-tek")
    bridges.append(bridge)
    bridge.env.update(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="600000")
    bridge.start()
    assert bridge.process is not None
    ready = systemd.wait_for("READY=1", 10)
    assert ready.pid == bridge.process.pid
    pings = len([n for n in systemd.received if n.has("WATCHDOG=1")])
    time.sleep(0.6)
    systemd.drain()
    assert len([n for n in systemd.received if n.has("WATCHDOG=1")]) > pings + 1
    bridge.pull()

    def offline_said() -> bool:  # systemctl status says the shoe is gone
        systemd.drain()
        fields = [field for note in systemd.received for field in note.fields]
        return any(field.startswith("STATUS=SHOE OFFLINE") for field in fields)

    assert wait_for(offline_said, 10)
    bridge.process.send_signal(signal.SIGTERM)
    assert bridge.process.wait(10) == 0
    systemd.wait_for("STOPPING=1", 5)
    systemd.close()

    def last_status() -> bool:
        return [e for e in bridge.events() if isinstance(e, ControllerStatus)][-1].online

    assert wait_for(lambda: not last_status())


def test_no_limits_are_invented(tmp_path: Path, broker: Broker, bridges: list[Bridged]) -> None:
    hands = steps(bee_tek(Dealer(decks=8, seed=2), seed=2, shoes=1))
    bridge = bridge_on(bridges, tmp_path, broker, "bee-tek")
    bridge.write(b"".join(hand.data for hand in hands[:2]))
    bridge.until_coups(1)
    assert bridge.recorder.on(bridge.topics.limits) == []


def test_configured_limits_signed_and_resyncs_answered(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    key = b"a table key of enough bytes, 32+"
    (tmp_path / "key").write_bytes(key)
    config = tmp_path / "bridge.yaml"
    config.write_text("table:\n  limits:\n    currency: EUR\n    bets: 50-20000\n")
    flags = ("--config", str(config), "--hmac-key-file", str(tmp_path / "key"))
    bridge = bridge_on(bridges, tmp_path, broker, "bee-tek", *flags, key=key)
    hands = steps(bee_tek(Dealer(decks=8, seed=2), seed=2, shoes=1))
    bridge.write(b"".join(hand.data for hand in hands[:3]))
    bridge.until_coups(2)
    (limits,) = [event for event in bridge.events() if isinstance(event, LimitsReceived)]
    assert limits.limits.currency == "EUR" and limits.limits.bets["player"] == (50, 20000)
    coups = [json.loads(payload) for payload in bridge.recorder.on(bridge.topics.coup)]
    assert coups and all("sig" in coup for coup in coups)  # and the key checked them above
    before = sum(isinstance(event, Snapshot) for event in bridge.events())
    topic, payload = wire(bridge.topics, ResyncRequest("d9", missing=(2,)), key)
    client = publisher(broker.settings())
    client.publish(topic, payload, qos=1).wait_for_publish(5)
    client.disconnect()
    assert wait_for(lambda: sum(isinstance(e, Snapshot) for e in bridge.events()) > before)
    assert [game.number for game in bridge.snapshot().games] == [1, 2]


def test_a_device_absent_at_start_is_offline_until_it_appears(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    bridge = Bridged(tmp_path, broker, "bee-tek")
    bridges.append(bridge)
    bridge.pull()
    bridge.start()
    assert wait_for(lambda: bridge.raised() == ["device"], 10), bridge.log_text()
    bridge.plug()
    assert wait_for(lambda: bridge.raised() == [], 10), bridge.log_text()
    hands = steps(bee_tek(Dealer(decks=8, seed=2), seed=2, shoes=1))
    bridge.write(b"".join(hand.data for hand in hands[:2]))
    assert [coup.game.number for coup in bridge.until_coups(1)] == [1]


def dealt_into(
    bridges: list[Bridged], tmp_path: Path, broker: Broker, *, seed: int, count: int
) -> tuple[Bridged, list[Hand]]:
    """A Bee-Tek bridge that published the opening and ``count`` hands of a seeded shoe."""
    hands = steps(bee_tek(Dealer(decks=8, seed=seed), seed=seed, habits=Habits(warning=0), shoes=1))
    bridge = bridge_on(bridges, tmp_path, broker, "bee-tek")
    bridge.write(b"".join(hand.data for hand in hands[: count + 1]))
    bridge.until_coups(count)
    return bridge, hands


def test_the_broker_away_loses_no_coup(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    bridge, hands = dealt_into(bridges, tmp_path, broker, seed=8, count=2)
    broker.stop()
    bridge.write(b"".join(hand.data for hand in hands[3:6]))  # three coups while it is away
    time.sleep(1.0)
    broker.start()
    assert bridge.recorder.connected.wait(10)

    def numbers() -> list[int]:
        return [game.number for game in bridge.snapshot().games]

    assert wait_for(lambda: numbers() == [1, 2, 3, 4, 5], 30), bridge.log_text()
    coups = bridge.until_coups(2)
    assert len({coup.game.number for coup in coups}) == len(coups)  # never sent twice


def pit(broker: Broker, prefix: str, *argv: str) -> subprocess.CompletedProcess:
    """``scoreboard pit ...`` as the pit's own process."""
    action, *rest = argv
    command = [
        sys.executable, "-m", "scoreboard", "pit", action, "--mqtt", broker.address,
        "--prefix", prefix, "--by", "tester", *rest,
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_the_pit_voids_and_starts_a_shoe_the_bridge_keeps_across_a_restart(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    bridge, hands = dealt_into(bridges, tmp_path, broker, seed=9, count=3)
    shoe = bridge.coups()[0].shoe
    void = pit(broker, bridge.prefix, "void", "--game", "2", "--reason", "misdeal")
    assert void.returncode == 0 and f"game 2 of shoe {shoe} voided" in void.stdout, void.stderr
    assert wait_for(lambda: bridge.snapshot().voided == (2,))
    again = pit(broker, bridge.prefix, "void", "--game", "2", "--reason", "again")
    assert again.returncode == 1 and "already voided" in again.stderr
    new = pit(broker, bridge.prefix, "new-shoe", "--shoe", "PIT-2")
    assert new.returncode == 0, new.stderr
    bridge.write(hands[4].data)
    (coup,) = bridge.until_coups(4)[3:]
    assert (coup.shoe, coup.game.number) == ("PIT-2", 1)
    bridge.kill()
    bridge.start()
    bridge.write(hands[5].data)
    (coup,) = bridge.until_coups(5)[4:]
    assert (coup.shoe, coup.game.number) == ("PIT-2", 2)
    assert "void" in audited(tmp_path / "state")


def test_the_session_of_shoes_md_byte_for_byte(
    tmp_path: Path, broker: Broker, bridges: list[Bridged]
) -> None:
    bridge = bridge_on(bridges, tmp_path, broker, "angel-eye")
    bridge.write(SESSION_WIRE)
    (coup,) = bridge.until_coups(1)
    assert coup.game.number == 1 and coup.game.coup.winner is Winner.BANKER
    assert coup.game.coup.player == tuple(parse_cards(["4C", "AH", "5S"]))
    assert coup.game.coup.banker == tuple(parse_cards(["7S", "7D", "4C"]))
    assert coup.game.coup.banker_pair and not coup.game.coup.player_pair
    (burn,) = [event for event in bridge.events() if isinstance(event, Burn)]
    assert burn.cards == tuple(parse_cards(["3C", "9S", "KD", "4H"]))
    assert [deal.seat for deal in bridge.deals(1)] == list(seats_of(coup.game.coup))
    assert [each.state for each in bridge.health("powered_on")] == ["seen"]
