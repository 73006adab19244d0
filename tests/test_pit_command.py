"""``scoreboard pit`` from the outside: a real broker, a real ``scoreboard shoe`` controller,
a real headless display, and the pit tool run as its own process.

The controller applies a void, a correction, a new shoe and limits and the display
shows them (its retained status); refusals (an unknown game, a bad signature, a
replayed id, cards the tableau would not deal) are answered with why.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mqtt_broker import DisplayProcess, Recorder, publisher, running_broker, unique_prefix, wait_for

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import record_coup
from scoreboard.protocol import Topics, canonical_json, sign
from scoreboard.protocol.encoding import utc_text

pytestmark = [pytest.mark.mosquitto, pytest.mark.slow]

KEY = b"pit-test-key-0123456789"


def scoreboard(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoreboard", *argv], capture_output=True, text=True, timeout=timeout
    )


class Table:
    """A broker, a simulated shoe dealing a game every 0.4 s, a display, a recorder."""

    def __init__(self, directory: Path, broker, prefix: str) -> None:
        self.directory, self.broker, self.prefix = directory, broker, prefix
        self.topics = Topics(prefix)
        self.key_file = directory / "hmac.key"
        self.key_file.write_bytes(KEY)
        self.shoe_log = directory / "shoe.log"
        with open(self.shoe_log, "wb") as log:
            self.shoe = subprocess.Popen(
                [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
                 "--prefix", prefix, "--pace", "0.4", "--seed", "7", "--hmac-key-file",
                 str(self.key_file)],
                stderr=log,
            )  # fmt: skip
        self.recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        self.display = DisplayProcess(
            directory, broker, prefix, "--hmac-key-file", str(self.key_file)
        ).start()

    def pit(self, *argv: str, key_file: Path | None = None) -> subprocess.CompletedProcess:
        action, *rest = argv
        return scoreboard(
            "pit", action, "--mqtt", self.broker.address, "--prefix", self.prefix,
            "--hmac-key-file", str(key_file or self.key_file), "--by", "tester", *rest,
        )  # fmt: skip

    def snapshot(self) -> dict:
        payloads = self.recorder.on(self.topics.snapshot)
        return json.loads(payloads[-1]) if payloads else {}

    def answers(self) -> list[dict]:
        return [json.loads(p) for p in self.recorder.on(self.topics.pit_answer)]

    def stop(self) -> None:
        self.display.stop()
        self.shoe.terminate()
        self.shoe.wait(20)
        self.recorder.stop()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    directory = tmp_path_factory.mktemp("pit")
    with running_broker(directory / "broker") as broker:
        table = Table(directory, broker, unique_prefix())
        try:
            assert wait_for(lambda: table.display.status().get("games", 0) >= 4, 60), (
                table.display.log_text()
            )
            yield table
        finally:
            table.stop()


def test_a_void_is_applied_by_the_controller_and_shown_by_the_display(table):
    shoe = table.snapshot()["shoe"]
    before = table.display.status()["corrections"]
    done = table.pit("void", "--game", "2", "--reason", "misdeal")
    assert done.returncode == 0, done.stderr
    assert f"applied: game 2 of shoe {shoe} voided" in done.stdout
    assert wait_for(lambda: table.display.status()["corrections"] == before + 1)
    # The controller's snapshot and the display's status come from two clients: either may
    # reach the recorder first.
    assert wait_for(lambda: 2 in table.snapshot()["voided"]), table.snapshot()
    assert all(coup["game"] != 2 for coup in table.snapshot()["coups"])
    # The display's record names the reason and who asked.
    journal = (table.directory / "state" / "journal.jsonl").read_text()
    assert "misdeal (pit: tester)" in journal


def test_a_correction_replaces_the_result_on_the_display(table):
    game3 = next(c for c in table.snapshot()["coups"] if c["game"] == 3)
    was = record_winner(game3)
    new = "T" if was != "T" else "B"
    before = table.display.status()["corrections"]
    done = table.pit("correct", "--game", "3", "--result", new, "--reason", "misread")
    assert done.returncode == 0, done.stderr
    assert "applied: game 3" in done.stdout and "corrected" in done.stdout
    assert wait_for(lambda: table.display.status()["corrections"] == before + 1)
    assert wait_for(lambda: coup_of(table.snapshot(), 3).get("result") == new), table.snapshot()


def coup_of(snapshot: dict, game: int) -> dict:
    return next(c for c in snapshot["coups"] if c["game"] == game)


def record_winner(coup: dict) -> str:
    if "result" in coup:
        return coup["result"]
    cards = coup["cards"]
    return record_coup(parse_cards(cards["player"]), parse_cards(cards["banker"])).winner.value


def test_an_unknown_game_is_refused_with_why(table):
    done = table.pit("void", "--game", "900", "--reason", "misdeal")
    assert done.returncode == 1
    assert "refused: game 900 does not exist in shoe" in done.stderr


def test_a_command_signed_with_another_key_is_refused_as_a_bad_signature(table, tmp_path):
    wrong = tmp_path / "wrong.key"
    wrong.write_bytes(b"not the table's key")
    done = table.pit("void", "--game", "1", "--reason", "misdeal", key_file=wrong)
    # Its answer is signed with the table's key, which this tool does not hold either.
    assert done.returncode == 1, done.stderr
    assert "not signed with this --hmac-key-file" in done.stderr
    assert "unverified, it says 'refused: signature: " in done.stderr
    refusal = [a for a in table.answers() if not a["applied"] and "signature" in a["detail"]]
    assert refusal, table.answers()
    assert 1 not in table.snapshot()["voided"]


def test_a_replayed_command_id_is_refused(table):
    first = table.pit("void", "--game", "4", "--reason", "misdeal", "--id", "replay-1")
    assert first.returncode == 0, first.stderr
    again = table.pit("void", "--game", "5", "--reason", "misdeal", "--id", "replay-1")
    assert again.returncode == 1
    assert "command replay-1 was already received: not applied again" in again.stderr
    assert 5 not in table.snapshot()["voided"]


def test_cards_the_tableau_would_not_deal_are_refused_by_the_controller(table):
    """The tool refuses them itself; a payload another tool sends is refused naming the cards."""
    local = table.pit("correct", "--game", "1", "--player", "2H", "3D", "--banker", "4S", "2C",
                      "--reason", "misread")  # fmt: skip
    assert local.returncode == 2 and "--player/--banker" in local.stderr
    data = {"v": 2, "id": "bad-cards-1", "by": "tester", "at": utc_text(time.time()),
            "action": "correct", "game": 1, "reason": "misread",
            "coup": {"cards": {"player": ["2H", "3D"], "banker": ["4S", "2C"]}}}  # fmt: skip
    client = publisher(table.broker.settings())
    try:
        client.publish(table.topics.pit, canonical_json(sign(data, KEY, table.topics.pit)), qos=1)
        assert wait_for(lambda: any(a["id"] == "bad-cards-1" for a in table.answers()))
    finally:
        client.disconnect()
        client.loop_stop()
    answer = next(a for a in table.answers() if a["id"] == "bad-cards-1")
    assert answer["applied"] is False and "cards" in answer["detail"], answer


def test_a_new_shoe_starts_on_the_display(table):
    done = table.pit("new-shoe", "--shoe", "PIT-SHOE-1", "--reason", "cards damaged")
    assert done.returncode == 0, done.stderr
    assert "shoe PIT-SHOE-1 started" in done.stdout
    assert wait_for(lambda: table.display.status().get("shoe") == "PIT-SHOE-1")
    assert wait_for(lambda: table.display.status().get("games", 0) >= 1)
    assert wait_for(lambda: table.snapshot()["shoe"] == "PIT-SHOE-1" and table.snapshot()["coups"])
    assert table.snapshot()["coups"][0]["game"] == 1  # the dealer goes on, numbered from 1


def test_limits_now_and_scheduled_go_out_retained(table):
    done = table.pit("limits", "--currency", "EUR", "--limits", "50-20000")
    assert done.returncode == 0, done.stderr
    assert "limits changed" in done.stdout
    limits = [json.loads(p) for p in table.recorder.on(table.topics.limits)]
    assert limits[-1]["currency"] == "EUR" and limits[-1]["bets"]["banker"] == [50, 20000]
    later = table.pit("limits", "--currency", "EUR", "--limits", "100-50000",
                      "--at", "2099-01-01T22:00:00Z")  # fmt: skip
    assert later.returncode == 0, later.stderr
    assert "limits scheduled" in later.stdout
    assert wait_for(
        lambda: "effective_at" in json.loads(table.recorder.on(table.topics.limits)[-1])
    )
    now, scheduled = [json.loads(p) for p in table.recorder.on(table.topics.limits)[-2:]]
    assert now["bets"]["banker"] == [50, 20000] and "effective_at" not in now
    assert scheduled["bets"]["banker"] == [100, 50000]


def test_the_pit_changes_the_side_bets_with_the_limits(table):
    done = table.pit(
        "limits", "--currency", "EUR", "--limits", "50-20000", "--side-bets", "lucky_7=10-500"
    )
    assert done.returncode == 0, done.stderr
    sent = [json.loads(p) for p in table.recorder.on(table.topics.limits)]
    published = [p for p in sent if "effective_at" not in p][-1]  # not a schedule sent again
    assert published["side_bets"] == {"lucky_7": {"lucky_7_2": 6, "lucky_7_3": 15}}
    assert published["bets"]["lucky_7"] == [10, 500]


def test_a_schedule_the_pit_set_is_sent_again_after_the_limits_now(table):
    """A resync (or a reconnect) sends the limits now, then the schedule still to come,
    so the retained message late displays get is the schedule."""
    later = table.pit("limits", "--currency", "EUR", "--limits", "100-50000",
                      "--at", "2099-01-01T22:00:00Z")  # fmt: skip
    assert later.returncode == 0, later.stderr
    seen = len(table.recorder.on(table.topics.limits))
    client = publisher(table.broker.settings())
    try:
        resync = sign({"v": 2, "missing": []}, KEY, table.topics.resync)
        client.publish(table.topics.resync, canonical_json(resync), qos=1)
        assert wait_for(lambda: len(table.recorder.on(table.topics.limits)) >= seen + 2)
    finally:
        client.disconnect()
        client.loop_stop()
    resent = [json.loads(p) for p in table.recorder.on(table.topics.limits)[seen:]]
    assert "effective_at" not in resent[0] and "effective_at" in resent[-1]


def test_no_controller_no_answer_exit_2(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        done = scoreboard("pit", "void", "--mqtt", broker.address, "--prefix", unique_prefix(),
                          "--game", "1", "--reason", "misdeal", "--timeout", "1")  # fmt: skip
    assert done.returncode == 2
    assert "no answer from the table's controller within 1 s" in done.stderr


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["void", "--game", "1", "--reason", "x" * 201], "key reason: longer than 200"),
        (["void", "--game", "1", "--reason", "x", "--id", "i" * 65], "key id: longer than 64"),
        (["void", "--game", "1", "--reason", "   "], "--reason: say why"),
        (["correct", "--game", "1", "--result", "BP", "--reason", "x"], "--result: one coup"),
        (["new-shoe", "--shoe", "S\x07"], "key shoe: U+0007"),
        (["limits", "--currency", "eur", "--limits", "10-500"], "--currency"),
        (["limits", "--currency", "EUR", "--limits", "10-500", "--at", "2001-01-01T00:00:00Z"],
         "--at: 2001-01-01T00:00:00Z is past"),
    ],
)  # fmt: skip
def test_a_command_the_controller_would_refuse_is_not_sent(argv, words):
    """Nothing to connect to: a usage error comes before any connection (exit 2)."""
    action, *rest = argv
    done = scoreboard("pit", action, "--mqtt", "127.0.0.1:9", *rest, "--timeout", "1")
    assert done.returncode == 2
    assert words in done.stderr and "no answer" not in done.stderr, done.stderr
