"""``scoreboard shoe --table-name``: the controller says the table's name in its birth.

A display given no name of its own (config ``table.name``, ``--table-name``)
shows the controller's; one given a name keeps it.  Over a real mosquitto with a
real ``scoreboard shoe`` process.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from mqtt_broker import Display, needs_mosquitto, running_broker, unique_prefix

from scoreboard.game.events import ControllerStatus, Origin
from scoreboard.protocol import encode
from scoreboard.protocol.messages import parse_dict
from scoreboard.table.state import TableState, apply_event


def test_the_name_goes_over_the_wire_only_when_said():
    kind, data = encode(ControllerStatus(True, Origin(4, 1), name="Salon Privé 8"))
    assert data["name"] == "Salon Privé 8"
    assert parse_dict(kind, data, "here").name == "Salon Privé 8"
    assert "name" not in encode(ControllerStatus(True, Origin(4, 1)))[1]


def test_a_display_named_by_its_own_config_keeps_its_name():
    named, unnamed = TableState(table_name="VIP 1"), TableState()
    for table in (named, unnamed):
        apply_event(table, ControllerStatus(True, Origin(4, 1), name="Salon 8"))
    assert (named.table_name, unnamed.table_name) == ("VIP 1", "Salon 8")
    apply_event(unnamed, ControllerStatus(True, Origin(5, 1)))  # a birth that says none
    assert unnamed.table_name == "Salon 8"


def test_a_birth_that_names_the_table_changes_it_once():
    """The name alone is a change the journal keeps; the same birth again changes nothing."""
    table = TableState()
    first = apply_event(table, ControllerStatus(True, Origin(4, 1), name="Salon 8"))
    again = apply_event(table, ControllerStatus(True, Origin(4, 2), name="Salon 8"))
    assert (first.changed, first.worth_keeping, again.changed) == (True, True, False)


@needs_mosquitto
@pytest.mark.mosquitto
def test_shoe_table_name_reaches_a_display_that_has_none(tmp_path):
    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        display = Display(broker.settings(), prefix).start()
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            command = [
                sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
                "--prefix", prefix, "--pace", "0", "--seed", "3", "--shoes", "1",
                "--table-name", "Salon Privé 8",
            ]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            assert display.until(lambda: display.table.table_name == "Salon Privé 8", 20)
        finally:
            display.stop()
