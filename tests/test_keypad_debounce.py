"""The keypad's debounce alone: contact bounce merged into one press, at exact timing edges.

A cheap keypad's contacts chatter: one press can arrive as down/up/down a few
milliseconds apart.  :class:`KeyDebounce` holds each release back for the
debounce time; a press of the same key within it is the same press.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoreboard.keypad._debounce import KeyDebounce, KeyStroke

DEBOUNCE = 0.05


def down(key: str, at: float) -> KeyStroke:
    return KeyStroke(key, True, at)


def up(key: str, at: float) -> KeyStroke:
    return KeyStroke(key, False, at)


def run(strokes: list[KeyStroke], until: float | None = None) -> list[KeyStroke]:
    """The clean strokes of ``strokes``, each followed by a poll at its time, then ``until``."""
    debounce = KeyDebounce(DEBOUNCE)
    clean: list[KeyStroke] = []
    for stroke in strokes:
        clean += debounce.stroke(stroke)
        clean += debounce.due(stroke.at)
    if until is not None:
        clean += debounce.due(until)
    return clean


def test_a_press_passes_at_once_and_its_release_after_the_debounce():
    debounce = KeyDebounce(DEBOUNCE)
    assert debounce.stroke(down("[3]", 1.0)) == [down("[3]", 1.0)]
    assert debounce.stroke(up("[3]", 1.1)) == []
    assert debounce.due(1.149) == []
    assert debounce.due(1.15) == [up("[3]", 1.1)]  # with its own time
    assert debounce.due(2.0) == []


def test_a_press_8_ms_after_the_release_is_the_same_press():
    strokes = [down("[3]", 0.0), up("[3]", 0.008), down("[3]", 0.016), up("[3]", 0.1)]
    assert run(strokes, until=1.0) == [down("[3]", 0.0), up("[3]", 0.1)]


def test_49_ms_after_the_release_is_the_same_press_51_ms_is_a_new_one():
    same = run([down("[3]", 0.0), up("[3]", 0.1), down("[3]", 0.149)], until=1.0)
    assert same == [down("[3]", 0.0)]  # still down: no release was ever confirmed
    new = run([down("[3]", 0.0), up("[3]", 0.1), down("[3]", 0.151)], until=1.0)
    assert new == [down("[3]", 0.0), up("[3]", 0.1), down("[3]", 0.151)]


def test_exactly_the_debounce_after_the_release_is_a_new_press():
    strokes = [down("[3]", 0.0), up("[3]", 0.1), down("[3]", 0.1 + DEBOUNCE)]
    assert [s.down for s in run(strokes)] == [True, False, True]


def test_two_real_presses_120_ms_apart_are_two():
    strokes = [down("[3]", 0.0), up("[3]", 0.06), down("[3]", 0.12), up("[3]", 0.18)]
    assert run(strokes, until=1.0) == strokes


def test_a_bouncing_release_is_one_release_at_its_last_contact():
    strokes = [down("[-]", 0.0), up("[-]", 0.1), down("[-]", 0.104), up("[-]", 0.109)]
    assert run(strokes, until=1.0) == [down("[-]", 0.0), up("[-]", 0.109)]


def test_another_key_is_never_merged_with_the_bouncing_one():
    strokes = [down("[3]", 0.0), up("[3]", 0.05), down("[1]", 0.06), down("[3]", 0.07)]
    assert run(strokes) == [down("[3]", 0.0), down("[1]", 0.06)]
    # a later key's time confirms an earlier release: delivered first, in order
    strokes = [down("[3]", 0.0), up("[3]", 0.05), down("[1]", 0.2)]
    debounce = KeyDebounce(DEBOUNCE)
    clean = [c for s in strokes for c in debounce.stroke(s)]
    assert clean == [down("[3]", 0.0), up("[3]", 0.05), down("[1]", 0.2)]


def test_key_repeat_without_a_release_is_one_press():
    strokes = [down("[3]", 0.0), down("[3]", 0.5), down("[3]", 0.533), up("[3]", 0.6)]
    assert run(strokes, until=1.0) == [down("[3]", 0.0), up("[3]", 0.6)]


def test_repeat_sent_as_release_and_press_pairs_stays_one_hold():
    """Some X servers and remote desktops repeat a held key as KEYUP + KEYDOWN at once."""
    strokes = [down("[-]", 0.0)]
    for n in range(40):
        at = 0.5 + n * 0.033
        strokes += [up("[-]", at), down("[-]", at)]
    assert run(strokes, until=2.0) == [down("[-]", 0.0)]


def test_a_release_never_seen_pressed_passes_at_once():
    assert run([up("[3]", 0.0)]) == [up("[3]", 0.0)]


def test_a_stroke_stamped_before_the_last_one_counts_at_the_last_time():
    strokes = [down("[3]", 1.0), up("[3]", 1.1), down("[3]", 0.5)]  # 0.5: counted at 1.1
    assert run(strokes, until=2.0) == [down("[3]", 1.0)]


def test_losing_the_keyboard_forgets_every_key():
    debounce = KeyDebounce(DEBOUNCE)
    debounce.stroke(down("[3]", 0.0))
    debounce.stroke(up("[3]", 0.1))
    debounce.stroke(down("[1]", 0.1))
    debounce.release_all()
    assert debounce.due(1.0) == []
    assert debounce.stroke(down("[3]", 0.12)) == [down("[3]", 0.12)]


def test_a_key_is_in_play_while_down_or_while_its_release_is_in_doubt():
    debounce = KeyDebounce(DEBOUNCE)
    assert not debounce.watching(0.0)
    debounce.stroke(down("[3]", 0.0))
    assert debounce.watching(0.1)
    debounce.stroke(up("[3]", 0.2))
    assert debounce.watching(0.21)
    debounce.due(0.25)
    assert not debounce.watching(0.25)
    debounce.stroke(down("[1]", 1.0))  # a stuck key is watched a while, not for ever
    assert debounce.watching(1.0 + KeyDebounce.WATCH_SECONDS - 0.01)
    assert not debounce.watching(1.0 + KeyDebounce.WATCH_SECONDS)
    debounce.release_all()
    assert not debounce.watching(1.0)


def test_the_keys_are_settled_until_the_oldest_release_in_doubt():
    debounce = KeyDebounce(DEBOUNCE)
    assert debounce.settled(1.0) == 1.0
    debounce.stroke(down("[-]", 0.0))
    assert debounce.settled(1.0) == 1.0  # held: known to be down
    debounce.stroke(up("[-]", 1.97))
    debounce.stroke(down("[3]", 1.98))
    debounce.stroke(up("[3]", 1.99))
    assert debounce.settled(2.0) == 1.97
    debounce.due(2.02)
    assert debounce.settled(2.02) == 1.99
    debounce.due(2.04)
    assert debounce.settled(2.04) == 2.04


# -- chatter added to clean presses changes nothing -------------------------
clean_presses = st.lists(
    st.tuples(
        st.sampled_from(["[1]", "[3]", "[-]"]),
        st.floats(0.03, 0.5),  # held
        st.floats(DEBOUNCE + 0.001, 0.5),  # then released this long before its next press
        st.integers(0, 4),  # bounces on the press
        st.integers(0, 4),  # bounces on the release
    ),
    max_size=20,
)


@given(clean_presses)
def test_contact_bounce_shorter_than_the_debounce_changes_no_press(presses):
    clean: list[KeyStroke] = []
    bouncing: list[KeyStroke] = []
    t = 0.0
    for key, held, rest, on_press, on_release in presses:
        clean += [down(key, t), up(key, t + held)]
        bouncing.append(down(key, t))
        for n in range(on_press):  # 2 ms apart, all within the press
            bouncing += [up(key, t + 0.002 * (2 * n + 1)), down(key, t + 0.002 * (2 * n + 2))]
        bouncing.append(up(key, t + held))
        for n in range(on_release):
            at = t + held + 0.002 * (2 * n + 1)
            bouncing += [down(key, at), up(key, at + 0.002)]
        t += held + 0.02 + rest  # past the last bounce, then the rest
    got = run(bouncing, until=t + 1.0)
    want = run(clean, until=t + 1.0)
    assert [(s.key, s.down) for s in got] == [(s.key, s.down) for s in want]
    assert [s for s in got if s.down] == [s for s in want if s.down]  # presses keep their time
