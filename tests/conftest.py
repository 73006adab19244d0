"""Shared test setup: real rendering without a display or a sound card."""

from __future__ import annotations

import gc
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Hypothesis explores new examples on every developer run; CI runs a fixed set
# (derandomize), so a red build always means a change broke something, and the
# failing example can be replayed from the printed blob.
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# Shared material (tests/dealt.py): seeded dealt shoes and raw controller messages.
import pytest  # noqa: E402 - after the environment above is set
from dealt import dealt_shoe as _dealt_shoe  # noqa: E402
from dealt import raw_message as _raw_message  # noqa: E402


@pytest.fixture
def dealt_shoe():
    """``dealt_shoe(seed, decks=8, short=False)`` -> DealtShoe (id, events, games)."""
    return _dealt_shoe


@pytest.fixture
def raw_message():
    """``raw_message(topics, event, key=None)`` -> (topic, payload bytes) as published."""
    return _raw_message


@pytest.fixture(scope="module")
def pygame_display():
    """pygame's display and font modules, up for one test module (the dummy video driver).

    A render test module takes it with ``pytestmark = pytest.mark.usefixtures("pygame_display")``.
    """
    import pygame

    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


@pytest.fixture
def utc(monkeypatch):
    """The kiosk's local time is UTC while the test runs (the scheduled limits' times)."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto of the test's own on a free loopback port (tests/mqtt_broker.py).

    A test that needs another broker (accounts, an installed config) builds it with
    ``running_broker`` under a name of its own.
    """
    from mqtt_broker import running_broker

    with running_broker(tmp_path / "broker") as running:
        yield running


@pytest.fixture(scope="session")
def classic():
    """The shipped classic theme, loaded once per worker (a Theme is frozen)."""
    from scoreboard.screen.theme.loading import load_theme

    return load_theme("classic")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile``: the installer's files as one unit, the long files first."""
    if config.getvalue("dist") != "loadfile":
        return None
    from scheduling import make_scheduler

    return make_scheduler(config, log)


def pytest_configure():
    """No cyclic garbage collection while the tests are collected (see the next hook)."""
    gc.disable()


def pytest_collection_finish():
    """What the collection made lives for the whole session: frozen, no collection scans it.

    Each worker holds some 320,000 objects after collecting 400 files; every full
    collection afterwards walked them all (~0.5 s each, a few dozen times per worker).
    Objects the tests make are collected as before (test_renderer_release.py finds a
    renderer's cycles among them).
    """
    gc.freeze()
    gc.enable()


#: How the Makefile finds the files of its serial run (``grep -l``): a test marked serial
#: in a file without this text would run in neither of ``make test``'s two runs.
SERIAL_MARK = "mark.serial"


def pytest_collection_modifyitems(items):
    """Refuse a serial test that the Makefile's serial run would not collect."""
    unseen = sorted(
        {
            str(item.path)
            for item in items
            if item.get_closest_marker("serial") and SERIAL_MARK not in item.path.read_text()
        }
    )
    if unseen:
        raise pytest.UsageError(
            f"marked serial without the text {SERIAL_MARK!r} (the Makefile's serial run "
            f"collects only files containing it): {', '.join(unseen)}"
        )
