"""The relied-on command-line contract of ``coup``, ``odds`` and ``simulate``."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from tests.cli import scoreboard

CARD = re.compile(r"(?:10|[2-9TJQKA])[SHDC]")

COUP_KEYS = {
    "player",
    "banker",
    "player_total",
    "banker_total",
    "winner",
    "player_natural",
    "banker_natural",
    "natural",
    "player_pair",
    "banker_pair",
    "banker_six",
    "dragon7",
    "panda8",
}


def test_coup_prints_one_json_object_with_the_contract_keys() -> None:
    result = scoreboard("coup", "2S", "4D", "3H", "10C", "6S", "AH")
    assert result.returncode == 0, result.stderr
    coup = json.loads(result.stdout)
    assert set(coup) == COUP_KEYS
    assert coup["player"] == ["2S", "3H", "6S"] and coup["banker"] == ["4D", "TC", "AH"]
    assert (coup["player_total"], coup["banker_total"], coup["winner"]) == (1, 5, "B")


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["9S", "KH", "KD", "3C", "AS"], "the tableau deals 4 cards"),
        (["2S", "4D", "3H", "TC", "6S"], "needs more"),
        (["2S", "4D", "3H"], "at least 4"),
        (["2S", "4D", "3H", "ZZ"], "'ZZ'"),
    ],
)
def test_coup_with_wrong_cards_exits_2_with_one_line_and_no_traceback(
    cards: list[str], message: str
) -> None:
    result = scoreboard("coup", *cards)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_coup_reads_stdin_one_coup_per_line_and_goes_on_after_a_bad_line() -> None:
    result = scoreboard("coup", stdin="8S 2H KD KC\nXX 1 2 3\n\n9S KH KD 3C\n")
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["winner"] == "P" and lines[0]["natural"]
    assert "XX" in lines[1]["error"]
    assert lines[2]["winner"] == "P" and lines[2]["player_total"] == 9
    assert "Traceback" not in result.stderr


def test_coup_stdin_with_only_good_lines_exits_0() -> None:
    result = scoreboard("coup", stdin="8S 2H KD KC\n")
    assert result.returncode == 0 and json.loads(result.stdout)["winner"] == "P"


def test_odds_json_carries_every_probability_and_the_house_edges() -> None:
    result = scoreboard("odds", "--json")
    assert result.returncode == 0, result.stderr
    odds = json.loads(result.stdout)
    for key in ("B", "P", "T", "player_pair", "banker_pair", "natural", "banker_six"):
        assert 0 < odds[key] < 1
    assert round(odds["B"], 6) == 0.458597 and round(odds["dragon7"], 6) == 0.022534
    assert round(odds["house_edge"]["banker"] * 100, 2) == 1.06


def test_odds_follow_decks_and_pay_table_options() -> None:
    odds = json.loads(scoreboard("odds", "--decks", "6", "--json", "--tie-pays", "9").stdout)
    assert round(odds["T"], 6) == 0.095069
    assert odds["pays"]["tie"] == "9:1" and odds["house_edge"]["tie"] < 0.05
    text = scoreboard("odds").stdout
    assert "0.458597" in text and "1.06 %" in text


def test_odds_refuses_a_bad_deck_count_in_one_line() -> None:
    result = scoreboard("odds", "--decks", "0")
    assert result.returncode == 2 and "1 to 8" in result.stderr and "Traceback" not in result.stderr


def test_simulate_json_shape_and_repeatability() -> None:
    first = scoreboard("simulate", "--shoes", "20", "--seed", "9", "--json")
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["shoes"] == 20 and 1400 < report["coups"] < 1800
    assert set(report["frequencies"]) == set(report["exact"])
    assert {"B", "P", "T", "player_pair", "banker_pair", "natural"} <= set(report["exact"])
    again = json.loads(scoreboard("simulate", "--shoes", "20", "--seed", "9", "--json").stdout)
    assert again == report


def test_simulate_prints_a_readable_table() -> None:
    result = scoreboard("simulate", "--shoes", "5", "--seed", "1", "--decks", "6")
    assert result.returncode == 0
    assert "5 shoes of 6 decks" in result.stdout and "Banker wins" in result.stdout


@pytest.mark.parametrize(
    "args",
    [["odds", "--decks", "0"], ["simulate", "--shoes", "x"], ["nosuch"], ["roads", "--rows"]],
)
def test_argument_mistakes_are_one_line_without_the_usage_block(args: list[str]) -> None:
    result = scoreboard(*args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "usage:" not in result.stderr and "(see --help)" in result.stderr


def test_every_example_in_coup_help_runs() -> None:
    """A reader copies the help's examples first: each must work as printed."""
    text = scoreboard("coup", "--help").stdout
    examples = [
        line.split()[2:] for line in text.splitlines() if line.startswith("  scoreboard coup ")
    ]
    examples = [list(itertools.takewhile(CARD.fullmatch, example)) for example in examples]
    examples.append(text.split("e.g.")[1].split("\n")[0].split())
    assert len(examples) == 4
    for cards in examples:
        result = scoreboard("coup", *cards)
        assert result.returncode == 0, (cards, result.stderr)
        assert json.loads(result.stdout)["player"]
