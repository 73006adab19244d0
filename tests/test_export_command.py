"""``scoreboard export`` as a process, against a state dir the real journal wrote.

The truth is what the test fed: a seeded dealer's shoe (cards), results-only
coups, voids and corrections (reasons a spreadsheet would take for formulas
among them), each journaled at a known time.  The export is parsed back (csv,
json) and every field is compared with that truth; the archived shoe gets its
export marker, the live one none.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli import scoreboard
from dealt import dealt_shoe, run_of

from scoreboard.game.events import Correct, CoupReceived, Event, NewShoe, Void
from scoreboard.game.rules import Coup, Game, Winner, result_coup
from scoreboard.game.shoe import Dealer
from scoreboard.journal import Journal
from scoreboard.journal import records as journal_records
from scoreboard.table.state import TableState, apply_event

START = 1_764_590_400.0  # 2025-12-01T12:00:00Z; every event a quarter second after the last
ARCHIVED = dealt_shoe(11)
LIVE = "B-live"
FORMULAS = {
    5: '=HYPERLINK("http://evil.example","click")',
    9: "@SUM(A1:A9)",
    12: "-2 莊 misdeal, re-dealt",
}
CORRECTION = '+1 wrong card read, "re-read"'
COLUMNS = [
    "shoe", "game", "player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3",
    "player_total", "banker_total", "winner", "player_pair", "banker_pair", "player_natural",
    "banker_natural", "banker_six", "dragon7", "panda8", "status", "reason", "replaced",
    "changes", "first_at", "last_at",
]  # fmt: skip


@dataclass
class Truth:
    """What one game number went through, as fed: (time, coup or None for a void, reason)."""

    steps: list[tuple[float, Coup | None, str]] = field(default_factory=list)

    @property
    def coup(self) -> Coup | None:
        return self.steps[-1][1]

    @property
    def status(self) -> str:
        if self.coup is None:
            return "voided"
        return "corrected" if len(self.steps) > 1 else "dealt"

    @property
    def replaced(self) -> list[Coup]:
        return [coup for _, coup, _ in self.steps[:-1] if coup is not None]

    @property
    def reasons(self) -> list[str]:
        return [reason for _, _, reason in self.steps if reason]


@dataclass
class StateDir:
    path: Path
    truth: dict[str, dict[int, Truth]]
    missing: dict[str, list[int]]


def iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")[:-6] + "Z"


def build(path: Path, monkeypatch) -> StateDir:
    """A state dir written by the real Journal: the dealer's shoe (archived), then a live one."""
    now = [START]
    monkeypatch.setattr(journal_records.time, "time", lambda: now[0])
    truth: dict[str, dict[int, Truth]] = {ARCHIVED.shoe: {}, LIVE: {}}
    games = {game.number: game.coup for game in ARCHIVED.games}
    banker = result_coup(Winner.BANKER, banker_pair=True, natural=True)
    fed: list[Event] = [
        *ARCHIVED.events,
        CoupReceived(ARCHIVED.shoe, Game(3, games[3])),  # a redelivery: no change
        CoupReceived(ARCHIVED.shoe, Game(10, games[11])),  # a conflict: refused
        *(Void(ARCHIVED.shoe, number, reason) for number, reason in FORMULAS.items()),
        Correct(ARCHIVED.shoe, Game(7, games[8]), CORRECTION),
        NewShoe(LIVE),
        CoupReceived(LIVE, Game(1, banker)),
        CoupReceived(LIVE, Game(2, result_coup(Winner.PLAYER, player_total=7, banker_total=2))),
        CoupReceived(LIVE, Game(3, result_coup(Winner.TIE, player_pair=True))),
        Void(LIVE, 5, "voided before it arrived"),
        CoupReceived(LIVE, Game(6, result_coup(Winner.PLAYER))),
        Correct(LIVE, Game(2, banker), "keypad: Banker, not Player"),
    ]
    table = TableState()
    with Journal(path) as journal:
        for event in fed:
            now[0] += 0.25
            applied = apply_event(table, event)
            journal.keep(event, table, applied)
            if not applied.changed:
                continue
            match event:
                case CoupReceived(shoe=shoe, game=game):
                    truth[shoe].setdefault(game.number, Truth()).steps.append(
                        (now[0], game.coup, "")
                    )
                case Void(shoe=shoe, game=number, reason=reason):
                    truth[shoe].setdefault(number, Truth()).steps.append((now[0], None, reason))
                case Correct(shoe=shoe, game=game, reason=reason):
                    truth[shoe][game.number].steps.append((now[0], game.coup, reason))
    monkeypatch.undo()
    return StateDir(path, truth, {ARCHIVED.shoe: [], LIVE: [4]})


@pytest.fixture
def state(tmp_path, monkeypatch) -> StateDir:
    return build(tmp_path / "state", monkeypatch)


def archived_file(state: StateDir) -> Path:
    (path,) = sorted((state.path / "shoes").glob("*.jsonl"))
    return path


def expected_row(shoe: str, number: int, truth: Truth) -> dict[str, str]:
    row = dict.fromkeys(COLUMNS, "")
    row.update(shoe=shoe, game=str(number), status=truth.status, changes=str(len(truth.steps)))
    row.update(first_at=iso(truth.steps[0][0]), last_at=iso(truth.steps[-1][0]))
    coup = truth.coup
    if coup is not None:
        for side, hand in (("player", coup.player), ("banker", coup.banker)):
            for index, card in enumerate(hand, start=1):
                row[f"{side}_{index}"] = f"{card.rank}{card.suit}"
        for total in ("player_total", "banker_total"):
            row[total] = "" if getattr(coup, total) is None else str(getattr(coup, total))
        row["winner"] = coup.winner.value
        for flag in COLUMNS[11:18]:
            row[flag] = "1" if getattr(coup, flag) else "0"
    return row


def replaced_coup(text: str) -> tuple[str, str, tuple[int, int] | None, list[str]]:
    """A ``replaced`` cell read back: winner, flag letters, totals, cards in deal order."""
    found = re.fullmatch(r"([BPT])([bpn]*)(?: (\d)-(\d))?(?:: (.*))?", text)
    assert found, text
    winner, flags, player, banker, cards = found.groups()
    totals = None if player is None else (int(player), int(banker))
    return winner, flags, totals, cards.split() if cards else []


def check_replaced(cell: str, coups: list[Coup]) -> None:
    texts = cell.split(" | ") if cell else []
    assert len(texts) == len(coups)
    for text, coup in zip(texts, coups, strict=True):
        winner, flags, totals, cards = replaced_coup(text)
        assert winner == coup.winner.value
        if coup.has_cards:
            assert totals == (coup.player_total, coup.banker_total)
            player, banker = list(coup.player), list(coup.banker)
            dealt = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
            assert cards == [f"{card.rank}{card.suit}" for card in dealt]
        else:
            assert set(flags) == {
                letter
                for letter, on in (("b", coup.banker_pair), ("p", coup.player_pair),
                                   ("n", coup.natural))
                if on
            }  # fmt: skip


def read_csv(raw: bytes) -> list[dict[str, str]]:
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads UTF-8 as UTF-8
    text = raw.decode("utf-8-sig")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")  # RFC 4180 line ends
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == COLUMNS
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows[1:]]


def test_csv_round_trips_every_field_of_every_game(state, tmp_path):
    out = tmp_path / "out.csv"
    done = scoreboard("export", str(state.path), "--shoe", "all", "-o", str(out))
    assert done.returncode == 0, done.stderr
    rows = read_csv(out.read_bytes())
    seen = []
    for row in rows:
        shoe, number = row["shoe"], int(row["game"])
        seen.append((shoe, number))
        if number in state.missing[shoe]:
            assert row == {**dict.fromkeys(COLUMNS, ""), "shoe": shoe, "game": row["game"],
                           "status": "missing"}  # fmt: skip
            continue
        truth = state.truth[shoe][number]
        reason, replaced = row.pop("reason"), row.pop("replaced")
        expected = expected_row(shoe, number, truth)
        del expected["reason"], expected["replaced"]
        assert row == expected, (shoe, number)
        # A reason a spreadsheet would run as a formula comes with a leading quote.
        unquoted = reason[1:] if reason[:1] == "'" else reason
        assert unquoted == " | ".join(truth.reasons)
        assert (reason[:1] == "'") == (unquoted[:1] in ("=", "+", "-", "@"))
        check_replaced(replaced, truth.replaced)
    expected_order = [
        (shoe, number)
        for shoe in (ARCHIVED.shoe, LIVE)
        for number in sorted([*state.truth[shoe], *state.missing[shoe]])
    ]
    assert seen == expected_order
    assert {r["status"] for r in rows} == {"dealt", "voided", "corrected", "missing"}
    assert rows[0]["player_1"]  # the dealer's shoe has its cards ...
    assert not any(r["player_1"] for r in rows if r["shoe"] == LIVE)  # ... results-only: none


def test_json_round_trips_every_field_and_every_change(state):
    done = scoreboard("export", str(state.path), "--shoe", "all", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    archived = archived_file(state)
    marker = json.loads(archived.with_name(archived.name + ".exported").read_text())
    assert (marker["format"], marker["to"]) == ("json", "stdout")  # after stdout was flushed
    assert (document["format"], document["version"]) == ("scoreboard-export", 1)
    shoes = {shoe["shoe"]: shoe for shoe in document["shoes"]}
    assert list(shoes) == [ARCHIVED.shoe, LIVE]
    assert shoes[LIVE]["live"] and shoes[LIVE]["files"] == ["journal.jsonl"]
    assert not shoes[ARCHIVED.shoe]["live"]
    assert shoes[ARCHIVED.shoe]["files"] == [f"shoes/{archived_file(state).name}"]
    for shoe_id, shoe in shoes.items():
        assert shoe["missing"] == state.missing[shoe_id] and shoe["skipped"] == []
        truths = state.truth[shoe_id]
        assert [game["game"] for game in shoe["games"]] == sorted(truths)
        for game in shoe["games"]:
            truth = truths[game["game"]]
            coup = truth.coup
            assert game["status"] == truth.status
            assert game["coup"] == (None if coup is None else coup.as_dict())
            assert game["reasons"] == truth.reasons  # as fed: JSON needs no formula guard
            assert game["replaced"] == [c.as_dict() for c in truth.replaced]
            assert (game["first_at"], game["last_at"]) == (
                iso(truth.steps[0][0]),
                iso(truth.steps[-1][0]),
            )
            steps = [
                (c["at"], c["coup"], c["voided"], c["reason"], c["file"][:6])
                for c in game["changes"]
            ]
            assert steps == [
                (iso(at), None if coup is None else coup.as_dict(), coup is None, reason,
                 "shoes/" if shoe_id == ARCHIVED.shoe else "journa")
                for at, coup, reason in truth.steps
            ]  # fmt: skip
            kinds = [c["kind"] for c in game["changes"]]
            assert kinds[0] in ("dealt", "voided") and set(kinds[1:]) <= {"voided", "corrected"}


def test_only_the_archived_shoe_gets_its_export_marker(state, tmp_path):
    archived = archived_file(state)
    marker = archived.with_name(archived.name + ".exported")
    out = tmp_path / "live.csv"
    assert scoreboard("export", str(state.path), "-o", str(out)).returncode == 0
    assert {row["shoe"] for row in read_csv(out.read_bytes())} == {LIVE}  # the newest, by default
    assert not marker.exists()
    assert sorted(p.name for p in state.path.rglob("*.exported")) == []
    done = scoreboard(
        "export", str(state.path), "--shoe", ARCHIVED.shoe, "-o", str(tmp_path / "a.json")
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(marker.read_text()) | {"at": 0} == {
        "at": 0,
        "format": "json",  # from the name of -o
        "to": str((tmp_path / "a.json").resolve()),
    }
    assert [p.name for p in state.path.rglob("*.exported")] == [marker.name]
    assert not list(tmp_path.glob("*.tmp"))


def test_an_output_that_cannot_be_written_leaves_no_marker(state, tmp_path):
    done = scoreboard(
        "export", str(state.path), "--shoe", "all", "-o", str(tmp_path / "no" / "x.csv")
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("scoreboard export: cannot write")
    assert "\n" not in done.stderr.strip() and "Traceback" not in done.stderr
    assert not list(state.path.rglob("*.exported"))


def test_bad_state_dirs_and_shoes_are_one_line_each(state, tmp_path):
    (tmp_path / "empty").mkdir()
    gamesless = tmp_path / "gamesless"
    with Journal(gamesless) as journal:
        table = TableState()
        journal.keep(NewShoe("S0"), table, apply_event(table, NewShoe("S0")))
    cases = {
        ("export", str(gamesless)): "no shoe with games in",
        ("export", str(tmp_path / "nowhere")): "does not exist",
        ("export", str(tmp_path / "empty")): "holds no journal",
        ("export", str(state.path), "--shoe", "S9"): f"shoes there: {ARCHIVED.shoe}, {LIVE}",
    }
    for args, words in cases.items():
        done = scoreboard(*args)
        assert done.returncode == 2, args
        line = done.stderr.strip()
        assert line.startswith("scoreboard export: ") and words in line and "\n" not in line
        assert done.stdout == ""


def test_unreadable_lines_are_warned_and_listed_and_the_rest_exported(state):
    archived = archived_file(state)
    lines = archived.read_bytes().splitlines(keepends=True)
    garbage = b'{"at": 1, "kind": "coup", "data": {"v": 1, "shoe": "x", "game": -4}}\n'
    informational = b'{"at":2,"kind":"gap","data":{"from":1,"to":2},"prev":"00","mono":1.5}\n'
    archived.write_bytes(b"".join([*lines[:6], b"not json at all\n", garbage, informational,
                                   *lines[6:]]))  # fmt: skip
    out = state.path.parent / "out.csv"
    done = scoreboard("export", str(state.path), "--shoe", ARCHIVED.shoe, "-o", str(out))
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "skipped" in line]
    assert len(warned) == 2
    assert f"{archived}:7" in warned[0] and f"{archived}:8" in warned[1]
    rows = read_csv(out.read_bytes())
    unreadable = [row for row in rows if row["status"] == "unreadable"]
    assert [row["reason"][: len(f"shoes/{archived.name}:7")] for row in unreadable] == [
        f"shoes/{archived.name}:7",
        f"shoes/{archived.name}:8",
    ]
    assert len(rows) == len(state.truth[ARCHIVED.shoe]) + 2  # nothing else lost


def test_a_demo_state_dir_exports_the_dealers_shoes_and_a_void_made_after_it(tmp_path):
    state = tmp_path / "state"
    demo = scoreboard(
        "demo", "--windowed", "--size", "640x360", "--decks", "1", "--seed", "3",
        "--pace", "0.01", "--shuffle-seconds", "0.01", "--duration", "0.6",
        "--state-dir", str(state),
    )  # fmt: skip
    assert demo.returncode == 0, demo.stderr
    table = TableState()
    with Journal(state) as journal:  # a supervisor voids the live shoe's first game later
        journal.replay(table)
        live = table.shoe_id
        assert live is not None and table.game(1) is not None
        void = Void(live, 1, "=1+1 supervisor void")
        journal.keep(void, table, apply_event(table, void))
    out = tmp_path / "all.json"
    done = scoreboard("export", str(state), "--shoe", "all", "-o", str(out))
    assert done.returncode == 0, done.stderr
    shoes = json.loads(out.read_text(encoding="utf-8"))["shoes"]
    dealer = Dealer(decks=1, seed=3, run=run_of(shoes[0]["shoe"]))
    for shoe in shoes:
        dealt = [e for e in dealer.shoe() if isinstance(e, CoupReceived)]
        assert shoe["shoe"] == dealt[0].shoe
        games = shoe["games"]
        if not shoe["live"]:
            assert len(games) == len(dealt)  # an archived shoe: whole
        for game, coup in zip(games, dealt, strict=False):
            assert game["game"] == coup.game.number
            if shoe["shoe"] == live and game["game"] == 1:
                assert (game["status"], game["coup"]) == ("voided", None)
                assert game["replaced"] == [coup.game.coup.as_dict()]
                assert game["reasons"] == ["=1+1 supervisor void"]
            else:
                assert (game["status"], game["coup"]) == ("dealt", coup.game.coup.as_dict())
    assert [s["live"] for s in shoes] == [False] * (len(shoes) - 1) + [True]
    markers = sorted(p.name.removesuffix(".exported") for p in state.rglob("*.exported"))
    assert markers == sorted(p.name for p in (state / "shoes").glob("*.jsonl"))
    assert len(markers) == len(shoes) - 1  # the live journal has none


def test_a_marker_that_cannot_be_written_is_said_and_exits_1(state, tmp_path):
    archived = archived_file(state)
    (archived.parent / (archived.name + ".exported")).mkdir()  # in the marker's way
    out = tmp_path / "a.csv"
    done = scoreboard("export", str(state.path), "--shoe", ARCHIVED.shoe, "-o", str(out))
    assert done.returncode == 1
    assert f"export marker of shoes/{archived.name} could not be" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(read_csv(out.read_bytes())) == len(state.truth[ARCHIVED.shoe])  # written whole


def test_every_shoe_of_a_state_dir_without_games_is_a_header_alone(tmp_path):
    table = TableState()
    with Journal(tmp_path / "state") as journal:
        journal.keep(NewShoe("S0"), table, apply_event(table, NewShoe("S0")))
    out = tmp_path / "all.csv"
    done = scoreboard("export", str(tmp_path / "state"), "--shoe", "all", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert read_csv(out.read_bytes()) == []
