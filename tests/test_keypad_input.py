"""The keypad's state machine alone: invariants over any sequence of key events."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoreboard.keypad._keys import (
    DESTRUCTIVE,
    WINNERS,
    Ask,
    Cancel,
    Confirm,
    Enter,
    KeypadInput,
    Toggle,
)
from scoreboard.settings.keypad import KeypadConfig

CONFIG = KeypadConfig()
ACTIONS = CONFIG.action_of()
KEYS = ["[1]", "[2]", "[3]", "[4]", "[5]", "[6]", "[-]", "[*]", "[0]", "end", "x"]

key_events = st.lists(
    st.tuples(st.sampled_from(KEYS), st.booleans(), st.floats(0.0, 5.0)), max_size=60
)


def run(events) -> tuple[list, list[tuple[str, bool]]]:
    """Feed the events (each followed by a tick); the commands, and each press's freshness."""
    keys = KeypadInput(CONFIG)
    commands: list = []
    presses: list[tuple[str, bool]] = []
    down: set[str] = set()
    now = 0.0
    for key, is_down, wait in events:
        now += wait
        if is_down:
            presses.append((key, key not in down))
            down.add(key)
            commands += keys.press(key, now)
        else:
            down.discard(key)
            commands += keys.release(key, now)
        commands += keys.due(now)
    return commands, presses


@given(key_events)
def test_each_fresh_press_of_a_result_key_enters_exactly_one_coup(events):
    commands, presses = run(events)
    fresh = [key for key, new in presses if new and ACTIONS.get(key) in WINNERS]
    entered = [command.winner for command in commands if isinstance(command, Enter)]
    assert entered == [WINNERS[ACTIONS[key]] for key in fresh]


@given(key_events)
def test_a_destructive_action_is_confirmed_only_after_it_was_asked(events):
    commands, _ = run(events)
    open_question = None
    for command in commands:
        if isinstance(command, Ask):
            assert command.action in DESTRUCTIVE
            open_question = command.action
        elif isinstance(command, Confirm) or (
            isinstance(command, Cancel) and command.action is not None
        ):
            assert command.action == open_question
            open_question = None
        elif isinstance(command, Enter | Toggle):
            assert open_question is None  # any other key closed the question first


@given(key_events)
def test_a_coup_carries_only_the_modifiers_switched_on_since_the_last_one(events):
    commands, _ = run(events)
    on: set = set()
    for command in commands:
        if isinstance(command, Toggle):
            (on.add if command.on else on.discard)(command.modifier)
        elif isinstance(command, Cancel):
            assert command.modifiers <= on
            on -= command.modifiers
        elif isinstance(command, Enter):
            assert command.modifiers == on
            on = set()
