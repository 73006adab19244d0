"""A demo restarted with the same seed and state dir deals on: its board is not left frozen.

Found by the session's review: shoe ids followed from the seed alone
(``T1-3-001``...), so a demo (or a simulated controller) started again with the
same ``--seed`` named shoes its board had already finished; the board ignores
those as late redeliveries and stayed on its old shoe while the dealer dealt.
From the outside: ``scoreboard demo`` twice on one state dir, then ``scoreboard
audit``, which lists the shoes the board recorded.
"""

from __future__ import annotations

import json
import re

from cli import scoreboard

DEMO = ["demo", "--windowed", "--size", "640x360", "--decks", "1", "--seed", "3"]
FAST = ["--pace", "0.005", "--shuffle-seconds", "0.01", "--duration", "1.2"]


def recorded_shoes(state) -> list[tuple[str, int]]:
    done = scoreboard("audit", str(state), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    return [(shoe["shoe"], shoe["games"]) for shoe in json.loads(done.stdout)["shoes"]]


def test_the_second_run_records_shoes_of_its_own(tmp_path):
    state = tmp_path / "state"
    for _run in range(2):
        done = scoreboard(*DEMO, *FAST, "--state-dir", str(state))
        assert done.returncode == 0, done.stderr
    shoes = recorded_shoes(state)
    tags = [re.fullmatch(r"T1-3-([0-9a-z]+)-\d{3}", shoe).group(1) for shoe, _ in shoes]
    first, second = tags[0], tags[-1]
    assert first != second, shoes  # each run deals under its own tag
    again = [(shoe, games) for (shoe, games), tag in zip(shoes, tags, strict=True) if tag == second]
    assert len(again) >= 3, shoes  # the restarted demo's shoes reached the board
    assert all(games > 0 for _shoe, games in again[:-1]), again
