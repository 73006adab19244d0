"""``scoreboard demo --state-dir``: the demo journals its deal like a display, when asked."""

from __future__ import annotations

from scoreboard.cli import main
from scoreboard.journal import JOURNAL_NAME, Journal
from scoreboard.table.state import TableState

DEMO = ["demo", "--windowed", "--size", "640x360", "--decks", "1", "--seed", "3"]
FAST = ["--pace", "0.01", "--shuffle-seconds", "0.01", "--duration", "0.6"]


def test_the_demo_journals_its_deal_in_the_state_dir_and_replays_it(tmp_path):
    state = tmp_path / "state"
    assert main([*DEMO, *FAST, "--state-dir", str(state)]) == 0
    table = TableState()
    with Journal(state) as journal:
        assert journal.replay(table) > 0
    # The dealer names its shoes table-seed-run-number: the journal kept the shoe it was on.
    assert table.shoe_number >= 1 and table.shoe_id is not None
    assert table.shoe_id.startswith("T1-3-") and table.shoe_id.endswith(f"-{table.shoe_number:03d}")
    # A second run starts from what the first one showed (and journals on).
    assert main([*DEMO, *FAST, "--state-dir", str(state)]) == 0
    assert (state / JOURNAL_NAME).stat().st_size > 0


def test_without_a_state_dir_the_demo_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert main([*DEMO, *FAST]) == 0
    assert list(tmp_path.iterdir()) == []


def test_a_state_dir_is_for_the_demos_own_deal_not_with_mqtt(capsys):
    assert main([*DEMO, "--mqtt", "127.0.0.1:1", "--state-dir", "x"]) == 2
    assert "--state-dir" in capsys.readouterr().err


def test_an_unusable_state_dir_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main([*DEMO, *FAST, "--state-dir", str(blocker / "state")]) == 2  # a file in the way
    err = capsys.readouterr().err.strip()
    assert err.startswith("scoreboard demo: state dir") and "\n" not in err
