"""``scoreboard demo`` runs headless and deals shoe after shoe."""

from __future__ import annotations

import logging

import pytest

from scoreboard.cli import main


def test_the_demo_runs_headless_across_shoes(caplog):
    args = [
        "demo",
        "--windowed",
        "--size",
        "640x360",
        "--pace",
        "0.01",
        "--decks",
        "1",
        "--seed",
        "11",
        "--duration",
        "1.5",
        "--theme",
        "midnight",
    ]
    with caplog.at_level(logging.INFO, logger="scoreboard"):
        assert main(args) == 0
    assert "demo: shoe 1 " in caplog.text
    assert "demo: shoe 2 " in caplog.text


def test_the_demo_refuses_a_bad_theme(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("colors: {banker: pink}\nlayout: {}\n")
    assert main(["demo", "--windowed", "--theme", str(bad), "--duration", "0.1"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: colors.banker: expected a colour" in err


def test_the_demo_refuses_a_zero_pace(capsys):
    with pytest.raises(SystemExit) as leaving:
        main(["demo", "--windowed", "--pace", "0", "--duration", "0.1"])
    assert leaving.value.code == 2
    assert "argument --pace: expected seconds, more than 0" in capsys.readouterr().err


def test_the_demo_keeps_the_render_health_and_reads_its_journals_health():
    from scoreboard.feeds.simulated import SimulatedFeed
    from scoreboard.game.shoe import Dealer
    from scoreboard.table.health import JournalHealth, JournalState, RenderHealth

    class Keeper:
        health = JournalHealth(JournalState.FAILING, "Read-only file system")

    feed = SimulatedFeed(Dealer(decks=1, seed=1), pace=1.0)
    assert feed.journal_health() == JournalHealth()  # no --state-dir: no journal
    feed.report(RenderHealth(("limits",), failures=3, last_frame=5.0))
    assert feed.render_health == RenderHealth(("limits",), failures=3, last_frame=5.0)
    journaled = SimulatedFeed(Dealer(decks=1, seed=1), pace=1.0, journal=Keeper())
    assert journaled.journal_health() == Keeper.health
