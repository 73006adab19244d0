"""``scoreboard shoe --tables N``: a simulated floor through a real mosquitto."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from cli import scoreboard
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for

pytestmark = needs_mosquitto


def floor(broker, *flags: str) -> list[str]:
    return [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address, *flags]


def by_table(recorder: Recorder, kind: str) -> dict[str, list[dict]]:
    """Payloads of ``baccarat/v2/<table>/<kind>`` by table, oldest first."""
    found: dict[str, list[dict]] = {}
    with recorder.lock:
        messages = list(recorder.messages)
    for message in messages:
        parts = message.topic.split("/", 3)
        if len(parts) == 4 and parts[3] == kind:
            found.setdefault(parts[2], []).append(json.loads(message.payload))
    return found


def offline(recorder: Recorder) -> bool:
    statuses = by_table(recorder, "controller/status").values()
    return all(s[-1]["online"] is False for s in statuses)


def test_a_floor_of_three_tables_deals_each_its_own_shoe(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), "baccarat/v2/#").start()
        try:
            flags = ("--tables", "3", "--pace", "0.02", "--shoes", "1", "--decks", "1")
            flags += ("--limit-tiers", "--currency", "USD")
            done = subprocess.run(
                floor(broker, *flags, "--seed", "11"), capture_output=True, text=True, timeout=90
            )
            assert done.returncode == 0, done.stderr
            assert "Traceback" not in done.stderr
            assert wait_for(lambda: len(by_table(recorder, "controller/status")) == 3)
            assert wait_for(lambda: offline(recorder))
        finally:
            recorder.stop()
        coups = by_table(recorder, "coup")
        limits = by_table(recorder, "limits")
        assert sorted(coups) == ["T1", "T2", "T3"]
        assert all(len(c) >= 5 for c in coups.values())
        minimums = {t: got[-1]["bets"]["player"][0] for t, got in limits.items()}
        assert minimums == {"T1": 10, "T2": 25, "T3": 50}  # one limits tier each
        shoes = {t: {c["shoe"] for c in cs} for t, cs in coups.items()}
        assert all(len(s) == 1 for s in shoes.values())
        assert len(set().union(*shoes.values())) == 3  # three shoes, one per table
        sessions = {t: c[0]["session"] for t, c in coups.items()}
        assert len(set(sessions.values())) >= 1
        first_cards = {t: c[0]["cards"] for t, c in coups.items()}
        assert len({json.dumps(v) for v in first_cards.values()}) == 3, first_cards


def test_the_same_seed_deals_the_same_floor(tmp_path):
    dealt = []
    for run in range(2):
        with running_broker(tmp_path / f"broker{run}") as broker:
            recorder = Recorder(broker.settings(), "baccarat/v2/+/coup").start()
            try:
                flags = ("--tables", "2", "--pace", "0", "--shoes", "1", "--decks", "1")
                done = subprocess.run(
                    floor(broker, *flags, "--seed", "3"), capture_output=True, text=True, timeout=90
                )
                assert done.returncode == 0, done.stderr
                time.sleep(0.3)
            finally:
                recorder.stop()
            coups = by_table(recorder, "coup")
            dealt.append({t: [c["cards"] for c in cs] for t, cs in coups.items()})
    assert dealt[0] == dealt[1]
    assert sorted(dealt[0]) == ["T1", "T2"]


def test_sigterm_takes_every_table_offline(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), "baccarat/v2/+/controller/status").start()
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
        process = subprocess.Popen(
            floor(broker, "--tables", "4", "--pace", "0.2", "--table", "PIT1-"),
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:

            def online() -> list[str]:
                statuses = by_table(recorder, "controller/status").items()
                return [table for table, said in statuses if said[-1]["online"]]

            assert wait_for(lambda: len(online()) == 4, 30)
            assert sorted(online()) == ["PIT1-1", "PIT1-2", "PIT1-3", "PIT1-4"]
            process.send_signal(signal.SIGTERM)
            _, err = process.communicate(timeout=30)
            assert process.returncode == 0, err  # a stop asked for, done in order
            assert "Traceback" not in err
            assert wait_for(lambda: online() == [])
        finally:
            if process.poll() is None:
                process.kill()
            recorder.stop()


def test_bad_floor_arguments_say_what_is_wrong():
    zero = scoreboard("shoe", "--tables", "0", "--mqtt", "127.0.0.1:1")
    assert zero.returncode == 2
    assert "argument --tables: expected a whole number, 1 to 500, got '0'" in zero.stderr
    prefix = scoreboard("shoe", "--tables", "2", "--prefix", "x/y", "--mqtt", "127.0.0.1:1")
    assert prefix.returncode == 2
    assert "--prefix names one table's topics" in prefix.stderr
    assert "Traceback" not in zero.stderr + prefix.stderr


def published_limits(directory, *given: str) -> dict[str, list[dict]]:
    """The limits a two-table floor dealing one shoe with the ``given`` flags published."""
    with running_broker(directory) as broker:
        recorder = Recorder(broker.settings(), "baccarat/v2/#").start()
        try:
            flags = ("--tables", "2", "--pace", "0", "--shoes", "1", "--decks", "1", *given)
            done = subprocess.run(floor(broker, *flags), capture_output=True, text=True, timeout=90)
            assert done.returncode == 0, done.stderr
            assert wait_for(lambda: len(by_table(recorder, "controller/status")) == 2)
            assert wait_for(lambda: offline(recorder))
        finally:
            recorder.stop()
    assert sorted(by_table(recorder, "coup")) == ["T1", "T2"]
    return by_table(recorder, "limits")


def test_a_floor_publishes_the_limits_it_is_given_or_none(tmp_path):
    """No tier is invented: a floor without --limits or --limit-tiers publishes no limits."""
    assert published_limits(tmp_path / "none") == {}
    given = published_limits(tmp_path / "eur", "--limits", "50-20000", "--currency", "EUR")
    assert sorted(given) == ["T1", "T2"]
    for said in given.values():
        assert (said[-1]["currency"], said[-1]["bets"]["player"]) == ("EUR", [50, 20000])


def test_limit_tiers_are_asked_for_in_a_currency():
    for flags, said in (
        (("--tables", "2", "--limit-tiers"), "--limit-tiers needs --currency"),
        (("--tables", "2", "--limit-tiers", "--currency", "USD", "--limits", "5-10"), "give one"),
        (("--limit-tiers", "--currency", "USD"), "only with --tables"),
        (("--tables", "2", "--limit-tiers", "--currency", "usd"), "--currency"),
    ):
        done = scoreboard("shoe", "--mqtt", "127.0.0.1:1", *flags)
        assert done.returncode == 2, (flags, done.stderr)
        assert said in done.stderr, (flags, done.stderr)
        assert "Traceback" not in done.stderr
