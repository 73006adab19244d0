"""Static limits, rotation and motion in the config; a board without limits says so.

``table.limits`` is what a display shows until the controller's limits message
replaces it; without it, the limits are unknown (never a made-up default).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mqtt_broker import Display, needs_mosquitto, publisher, running_broker, unique_prefix

from scoreboard.cli.commands._shared import use_static_limits
from scoreboard.game.events import CoupReceived, LimitsReceived, NewShoe, Origin
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal
from scoreboard.protocol import Topics, wire
from scoreboard.settings.config import config_from_mapping, load_config
from scoreboard.settings.reader import ConfigError
from scoreboard.table.state import TableState, apply_event

ROOT = Path(__file__).resolve().parents[1]
STATIC = {
    "currency": "USD",
    "bets": {
        "player": [25, 10000],
        "banker": [25, 10000],
        "tie": [5, 1000],
        "player_pair": [5, 500],
        "banker_pair": [5, 500],
    },
}


def test_static_limits_are_read_with_the_variants_pays():
    config = config_from_mapping({"table": {"variant": "ez", "limits": STATIC}})
    assert config.limits == Limits(
        "USD", {name: tuple(span) for name, span in STATIC["bets"].items()}, VARIANTS["ez"].pays()
    )
    assert config.limits.known


def test_one_span_for_the_bets_derives_the_side_bets():
    config = config_from_mapping({"table": {"limits": {"currency": "EUR", "bets": "100-5000"}}})
    assert config.limits.currency == "EUR"
    assert config.limits.bets["banker"] == (100, 5000) and config.limits.bets["tie"] == (20, 500)


def test_a_span_may_be_written_as_text():
    config = config_from_mapping({"table": {"limits": {"bets": {"tie": "5-1000"}}}})
    assert config.limits.bets == {"tie": (5, 1000)} and config.limits.currency == "USD"


def test_without_table_limits_they_are_unknown():
    assert config_from_mapping({}).limits is None
    assert not TableState().limits.known


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ("25-10000", "table.limits: expected a mapping"),
        ({"currency": "USD"}, "table.limits.bets: expected each bet's [minimum, maximum]"),
        ({"bets": {}}, "table.limits.bets: expected at least one bet"),
        ({"bets": {"player": [25]}}, "table.limits.bets.player: expected [minimum, maximum]"),
        ({"bets": {"player": [50, 25]}}, "table.limits.bets.player: expected [minimum, maximum]"),
        ({"bets": {"player": [True, 5]}}, "table.limits.bets.player: expected [minimum, maximum]"),
        ({"bets": {"dragon7": [1, 5]}}, "table.limits.bets.dragon7: expected one of the keys"),
        ({"bets": "lots"}, "table.limits.bets: expected MIN-MAX such as 25-10000"),
        ({"currency": "dollars", "bets": "1-2"}, "table.limits.currency: expected a code"),
        ({"bets": "1-2", "min": 5}, "table.limits.min: expected one of the keys bets, currency"),
    ],
)
def test_a_bad_limits_entry_names_the_file_and_the_key(limits, message):
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"table": {"limits": limits}}, source="kiosk.yaml")
    assert str(caught.value).startswith(f"kiosk.yaml: {message}"), caught.value


def test_rotation_and_motion_are_display_settings():
    config = config_from_mapping({"display": {"rotate": 270, "motion": False}})
    assert (config.rotate, config.motion) == (270, False)
    assert (config_from_mapping({}).rotate, config_from_mapping({}).motion) == (0, True)


@pytest.mark.parametrize(
    ("display", "message"),
    [
        ({"rotate": 45}, "display.rotate: expected one of 0, 90, 180, 270, got 45"),
        ({"rotate": True}, "display.rotate: expected one of 0, 90, 180, 270, got True"),
        ({"motion": "no"}, "display.motion: expected true or false, got 'no'"),
    ],
)
def test_a_bad_rotation_or_motion_is_named(display, message):
    with pytest.raises(ConfigError, match=message):
        config_from_mapping({"display": display}, source="kiosk.yaml")


def test_the_example_config_documents_static_limits_rotation_and_motion():
    example = load_config(ROOT / "kiosk" / "scoreboard.yaml")
    assert example.limits is None  # commented out: a copied example makes up no limits
    assert (example.rotate, example.motion) == (0, True)
    lines = (ROOT / "kiosk" / "scoreboard.yaml").read_text(encoding="utf-8").splitlines()
    start = lines.index("  # limits:")
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("  #   "):
            break
        block.append(line)
    uncommented = [line.replace("# ", "", 1) for line in block]
    document = "\n".join(["table:", *uncommented])
    import yaml

    limits = config_from_mapping(yaml.safe_load(document), source="example").limits
    assert limits is not None and limits.bets == {
        name: tuple(span) for name, span in STATIC["bets"].items()
    }


EUR = Limits("EUR", {"player": (5, 500)}, {"player": "1:1"})


def test_static_limits_show_until_the_journal_or_the_controller_says_otherwise(tmp_path):
    config = config_from_mapping({"table": {"limits": STATIC}})
    # A fresh display: the static limits.
    table = TableState(limits=config.limits)
    with Journal(tmp_path / "fresh") as journal:
        journal.replay(table)
    use_static_limits(table, config)
    assert table.limits == config.limits
    # A v2 controller's limits, journaled with their origin, win after a restart.
    state = tmp_path / "told"
    with Journal(state) as journal:
        told = TableState()
        for event in (NewShoe("S1", origin=Origin(1, 1)), LimitsReceived(EUR, origin=Origin(1, 2))):
            journal.keep(event, told, apply_event(told, event))
    table = TableState(limits=config.limits)
    with Journal(state) as journal:
        journal.replay(table)
    use_static_limits(table, config)
    assert table.limits == EUR
    # A v1 controller's limits carry no origin: the static ones show until its retained
    # limits arrive again on connect.
    state = tmp_path / "v1"
    with Journal(state) as journal:
        told = TableState()
        for event in (NewShoe("S1"), LimitsReceived(EUR)):
            journal.keep(event, told, apply_event(told, event))
    table = TableState(limits=config.limits)
    with Journal(state) as journal:
        journal.replay(table)
    assert table.limits == EUR  # the journal brought them back...
    use_static_limits(table, config)
    assert table.limits == config.limits  # ...and the config's stand until the controller's


@needs_mosquitto
def test_a_live_board_with_no_limits_message_shows_unknown_limits(tmp_path):
    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        display = Display(broker.settings(), prefix).start()
        try:
            # A first connection has no session yet: what is published before it
            # subscribed is not for it (a controller's retained snapshot covers that).
            assert display.until(lambda: display.session.subscribed)
            client = publisher(broker.settings())
            topics = Topics(prefix)
            game = Game(1, result_coup(Winner.BANKER))
            for event in (NewShoe("S1"), CoupReceived("S1", game)):
                client.publish(*wire(topics, event), qos=1).wait_for_publish(20)
            assert display.until(lambda: display.table.last_number == 1)
            assert not display.table.limits.known
            assert display.table.limits == TableState().limits
            client.publish(*wire(topics, LimitsReceived(EUR)), qos=1).wait_for_publish(20)
            assert display.until(lambda: display.table.limits == EUR)
            client.loop_stop()
            client.disconnect()
        finally:
            display.stop()


def test_run_flags_override_the_configs_rotation_and_motion(tmp_path):
    from scoreboard.cli import build_parser
    from scoreboard.cli.commands.run import settings_from_args

    path = tmp_path / "kiosk.yaml"
    path.write_text("display: {rotate: 90, motion: true}\ntable: {limits: {bets: 10-100}}\n")
    parse = build_parser().parse_args
    config = settings_from_args(parse(["run", "--config", str(path)]))
    assert (config.rotate, config.motion, config.limits.bets["player"]) == (90, True, (10, 100))
    config = settings_from_args(
        parse(["run", "--config", str(path), "--rotate", "270", "--no-motion"])
    )
    assert (config.rotate, config.motion) == (270, False)
