"""``scoreboard roads``: the command-line contract other tools rely on."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from scoreboard.cli import main
from scoreboard.game.notation import ResultsSyntaxError, parse_results
from scoreboard.game.side_bets import TIERS


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["roads", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_h1_as_json_with_the_contract_keys(capsys, monkeypatch) -> None:
    """H1 BBBPPBPPPP: the big road and derived roads as worked out in roads.md."""
    status, out, _ = run(capsys, monkeypatch, "BBBPPBPPPP")
    assert status == 0
    shoe = json.loads(out)
    assert {"bead_plate", "big_road", "predictions", "counts", "streaks"} <= set(shoe)
    assert [(c["col"], c["row"], c["result"], c["ties"]) for c in shoe["big_road"]] == [
        (0, 0, "B", 0),
        (0, 1, "B", 0),
        (0, 2, "B", 0),
        (1, 0, "P", 0),
        (1, 1, "P", 0),
        (2, 0, "B", 0),
        (3, 0, "P", 0),
        (3, 1, "P", 0),
        (3, 2, "P", 0),
        (3, 3, "P", 0),
    ]
    assert [c["color"][0] for c in shoe["big_eye_boy"]] == list("rbbbrr")
    assert [(c["col"], c["row"]) for c in shoe["small_road"]] == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert [c["color"] for c in shoe["cockroach_pig"]] == ["red", "red", "blue"]
    assert shoe["predictions"] == {
        "B": {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "blue"},
        "P": {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "red"},
    }
    assert [(c["col"], c["row"], c["result"]) for c in shoe["bead_plate"][5:8]] == [
        (0, 5, "B"),
        (1, 0, "P"),
        (1, 1, "P"),
    ]
    assert (shoe["counts"]["B"], shoe["counts"]["P"], shoe["counts"]["T"]) == (4, 6, 0)
    assert shoe["counts"]["total"] == 10 and shoe["counts"]["percent"]["P"] == 60.0
    assert shoe["streaks"] == {"current": {"side": "P", "length": 4}, "longest": {"B": 3, "P": 4}}


def test_only_ties_give_one_cell_without_result(capsys, monkeypatch) -> None:
    _, out, _ = run(capsys, monkeypatch, "ttt")
    shoe = json.loads(out)
    assert shoe["big_road"] == [
        {
            "col": 0,
            "row": 0,
            "result": None,
            "ties": 3,
            "game": None,
            "banker_pair": False,
            "player_pair": False,
            "natural": False,
        }
    ]
    assert shoe["streaks"]["current"] == {"side": None, "length": 0}


def test_flags_follow_a_capital_letter() -> None:
    coups = parse_results("Bbn P Tp")
    assert [(c.winner.value, c.banker_pair, c.player_pair, c.natural) for c in coups] == [
        ("B", True, False, True),
        ("P", False, False, False),
        ("T", False, True, False),
    ]
    assert [(c.winner.value, c.banker_pair) for c in parse_results("BbP")] == [
        ("B", True),
        ("P", False),
    ]
    assert [(c.winner.value, c.player_pair) for c in parse_results("PpBb,Tbp")] == [
        ("P", True),
        ("B", False),
        ("T", True),
    ]


def test_lowercase_tokens_are_coups_and_separators_are_ignored() -> None:
    letters = [c.winner.value for c in parse_results("bbp t-P,b  B")]
    assert letters == ["B", "B", "P", "T", "P", "B", "B"]
    assert not any(c.banker_pair or c.player_pair for c in parse_results("bp pb"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("BBX", "bad character 'X' at position 3"),
        ("B B 9", "bad character '9' at position 5"),
        ("bbn", "bad character 'n' at position 3: .* after a capital coup letter"),
        ("Bt", "bad character 't' at position 2"),
        ("B bB", "flag 'b' at position 3 has no coup letter before it"),
        ("BN", "bad character 'N' at position 2"),
    ],
)
def test_a_bad_character_is_named_with_its_position(text: str, message: str) -> None:
    with pytest.raises(ResultsSyntaxError, match=message):
        parse_results(text)


def test_bad_results_exit_2_naming_the_character(capsys, monkeypatch) -> None:
    status, out, err = run(capsys, monkeypatch, "BPQ")
    assert status == 2 and out == ""
    assert "'Q'" in err and "position 3" in err


def test_several_arguments_are_joined_like_one_string(capsys, monkeypatch) -> None:
    _, joined, _ = run(capsys, monkeypatch, "Bbn P Tp")
    _, separate, _ = run(capsys, monkeypatch, "Bbn", "P", "Tp")
    assert joined == separate


def test_rows_parameter_reaches_every_road(capsys, monkeypatch) -> None:
    """rows=4, B x6: down rows 0-3, then the tail (1,3),(2,3); bead plate wraps at 4."""
    _, out, _ = run(capsys, monkeypatch, "BBBBBB", "--rows", "4")
    shoe = json.loads(out)
    assert shoe["rows"] == 4
    assert [(c["col"], c["row"]) for c in shoe["big_road"]] == [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 3),
        (2, 3),
    ]
    assert [(c["col"], c["row"]) for c in shoe["bead_plate"]][3:5] == [(0, 3), (1, 0)]


def test_rows_below_one_exit_2(capsys, monkeypatch) -> None:
    with pytest.raises(SystemExit) as leaving:
        run(capsys, monkeypatch, "BP", "--rows", "0")
    err = capsys.readouterr().err
    assert leaving.value.code == 2 and "argument --rows: expected a whole number, 1 to 100" in err


def test_stdin_one_shoe_per_line_errors_inline_and_exit_1(capsys, monkeypatch) -> None:
    status, out, _ = run(capsys, monkeypatch, stdin="BBP\nB?P\n\nTTBTBPT\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(lines) == 4
    assert len(lines[0]["big_road"]) == 3
    assert lines[1]["error"].startswith("line 2: bad character '?' at position 2: expected B, P")
    assert lines[2]["bead_plate"] == [] and lines[2]["big_road"] == []
    assert [(c["col"], c["row"], c["ties"]) for c in lines[3]["big_road"]] == [
        (0, 0, 3),
        (0, 1, 0),
        (1, 0, 1),
    ]


def test_stdin_without_errors_exits_0(capsys, monkeypatch) -> None:
    status, out, _ = run(capsys, monkeypatch, stdin="BP\r\nPB\n")
    assert status == 0 and len(out.splitlines()) == 2


def test_help_documents_the_results_syntax(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["roads", "--help"])
    assert exit_info.value.code == 0
    help_text = capsys.readouterr().out
    assert "b banker pair, p player pair, n natural" in help_text
    assert '"bbp" = Banker, Banker, Player' in help_text


def test_the_installed_command_end_to_end() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "scoreboard", "roads"]
    ok = subprocess.run(
        [*command, "BPBPBPBP"], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert ok.returncode == 0
    assert [c["color"] for c in json.loads(ok.stdout)["cockroach_pig"]] == ["red"] * 4
    bad = subprocess.run(
        [*command, "BPZ"], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert bad.returncode == 2 and "'Z' at position 3" in bad.stderr
    piped = subprocess.run(
        command, input="B\nZ\n", capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert piped.returncode == 1 and len(piped.stdout.splitlines()) == 2


def test_the_json_keeps_every_pair_and_natural_counter(capsys, monkeypatch) -> None:
    """Each counter gets its own value so that a dropped or swapped one shows."""
    _, out, _ = run(capsys, monkeypatch, "Bbn Bb Bb Pp Pp Pn Pn Pn Tbpn T")
    counts = json.loads(out)["counts"]
    assert {name: value for name, value in counts.items() if name != "percent"} == {
        "B": 3,
        "P": 5,
        "T": 2,
        "total": 10,
        "banker_pairs": 4,
        "player_pairs": 3,
        "naturals": 5,
        "player_naturals": 4,
        "banker_naturals": 2,
        "banker_six": 0,
        "dragon7": 0,
        "panda8": 0,
        **dict.fromkeys(TIERS, 0),  # results only: no card counts, no side-bet tier counted
    }
    assert counts["percent"]["naturals"] == 50.0 and counts["percent"]["banker_pairs"] == 40.0
    assert set(counts["percent"]) == set(counts) - {"total", "percent"}


def test_screenshot_results_read_the_same_notation_and_name_the_option() -> None:
    from scoreboard.cli import UsageError
    from scoreboard.cli.commands.screenshot import results_games

    games = results_games("Bbn P")
    assert [(g.number, g.coup.winner.value, g.coup.banker_pair) for g in games] == [
        (1, "B", True),
        (2, "P", False),
    ]
    with pytest.raises(UsageError, match=r"^--results: bad character 'X' at position 3"):
        results_games("BPX")
