"""``scoreboard demo`` runs headless and deals shoe after shoe."""

from __future__ import annotations

import logging

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
    assert main(["demo", "--windowed", "--pace", "0", "--duration", "0.1"]) == 2
    assert "--pace must be a positive number of seconds" in capsys.readouterr().err
