"""A config, theme, key, font or logo that is not a regular file: refused in words, not waited on.

The paths come from flags (see ``test_cli_arg_types.py``) and from inside the
config and theme files; a FIFO's ``open`` blocks until a writer comes and
``/dev/zero`` never ends, so the real commands run with a timeout: a hang fails.
"""

from __future__ import annotations

import doctest
import os
import socket
import threading
from pathlib import Path

import pytest

from scoreboard import regular_file
from scoreboard.regular_file import NotRegularFileError, check_regular, open_regular
from scoreboard.screen.theme.loading import load_theme, themes_dir
from scoreboard.screen.theme.values import ThemeError
from scoreboard.settings.config import config_from_mapping
from scoreboard.settings.endpoint import load_endpoint, read_secret
from scoreboard.settings.reader import ConfigError
from tests.cli import scoreboard

#: What a hung process gets before the test calls it a hang.
PROMPT = 20


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_the_examples_hold() -> None:
    assert doctest.testmod(regular_file).failed == 0


def test_each_kind_that_is_not_a_regular_file_is_named(tmp_path, fifo) -> None:
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(tmp_path / "sock"))
    try:
        for path, kind in [
            (fifo, "a FIFO"),
            (Path("/dev/zero"), "a character device"),
            (tmp_path, "a directory"),
            (tmp_path / "sock", "a socket"),
        ]:
            with pytest.raises(NotRegularFileError) as refused:
                open_regular(path)
            assert refused.value.strerror == f"not a regular file but {kind}"
            assert refused.value.filename == str(path)
    finally:
        listening.close()


def test_a_regular_file_or_a_link_to_one_is_read_and_a_missing_one_says_so(tmp_path) -> None:
    (tmp_path / "key").write_bytes(b"secret\n")
    (tmp_path / "link").symlink_to(tmp_path / "key")
    with open_regular(tmp_path / "link") as handle:
        assert handle.read() == b"secret\n"
    assert check_regular(tmp_path / "key").st_size == 7
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "nope")


def test_a_secret_that_is_a_device_is_refused_not_read_for_ever() -> None:
    with pytest.raises(ConfigError) as refused:
        read_secret("/dev/zero", "HMAC key")
    assert str(refused.value) == (
        "/dev/zero: cannot read the HMAC key (not a regular file but a character device)"
    )


def test_a_tls_file_that_is_a_fifo_says_so_not_that_it_is_missing(fifo) -> None:
    config = config_from_mapping({"mqtt": {"tls": {"ca": str(fifo)}}}, source="s.yaml")
    with pytest.raises(ConfigError) as refused:
        load_endpoint(config)
    assert str(refused.value) == f"--tls-ca: {fifo}: not a regular file but a FIFO"


@pytest.mark.parametrize("name", ["/dev/zero", "/"])
def test_a_theme_path_that_is_not_a_file_says_what_it_is(name) -> None:
    with pytest.raises(ThemeError) as refused:
        load_theme(name)
    assert "not a regular file but a" in str(refused.value)


def test_the_config_as_a_fifo_in_the_lobby_is_refused_at_once(fifo) -> None:
    done = scoreboard("lobby", "--config", str(fifo), "--duration", "0", timeout=PROMPT)
    assert done.returncode == 2 and "not a regular file but a FIFO" in done.stderr


@pytest.mark.parametrize(
    ("section", "words"),
    [
        ("mqtt:\n  username: u\n  password_file: {fifo}\n", "cannot read the MQTT password"),
        ("mqtt:\n  hmac_key_file: {fifo}\n", "cannot read the HMAC key"),
        ("mqtt:\n  hmac_key_file: /dev/zero\n", "cannot read the HMAC key"),
        ("display:\n  theme: {fifo}\n", "fifo: not a regular file"),
    ],
    ids=["password_file", "hmac_key_file", "hmac_key_file /dev/zero", "display.theme"],
)
def test_a_path_in_the_config_that_is_not_a_file_is_refused_at_once(
    tmp_path, fifo, section, words
) -> None:
    config = tmp_path / "scoreboard.yaml"
    config.write_text(section.format(fifo=fifo))
    state = tmp_path / "state"
    done = scoreboard(
        "run", "--config", str(config), "--headless", "--state-dir", str(state), timeout=PROMPT
    )
    assert done.returncode == 2, done.stderr
    assert "not a regular file but a" in done.stderr and "Traceback" not in done.stderr
    assert words in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_a_theme_file_that_is_a_fifo_is_refused_by_check_theme(fifo) -> None:
    done = scoreboard("check-theme", str(fifo), timeout=PROMPT)
    assert done.returncode == 1
    assert done.stdout == f"{fifo}: not a regular file but a FIFO\n"


@pytest.mark.parametrize("key", ["fonts:\n  bold", "style:\n  logo"])
def test_a_font_or_logo_that_is_a_fifo_is_named_as_one(tmp_path, key) -> None:
    theme = tmp_path / "mine.yaml"
    theme.write_text((themes_dir() / "classic.yaml").read_text() + f"\n{key}: odd.bin\n")
    os.mkfifo(tmp_path / "odd.bin")
    done = scoreboard("check-theme", str(theme), timeout=PROMPT)
    assert done.returncode == 1
    assert "odd.bin" in done.stdout and "not a regular file but a FIFO" in done.stdout


def test_a_fifo_as_the_live_journal_is_set_aside_as_unreadable_not_waited_on(tmp_path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    os.mkfifo(state / "journal.jsonl")
    done = scoreboard(
        "demo", "--windowed", "--duration", "0.5", "--state-dir", str(state), timeout=PROMPT
    )
    assert done.returncode == 0, done.stderr
    assert "journal.jsonl: unreadable (not a regular file but a FIFO)" in done.stderr
    assert len(list(state.glob("journal.jsonl.aside-*"))) == 1
    assert (state / "journal.jsonl").is_file()


def test_a_fifo_among_the_archives_is_named_by_the_audit_and_left_out_by_the_board(
    tmp_path,
) -> None:
    state = tmp_path / "state"
    (state / "shoes").mkdir(parents=True)
    os.mkfifo(state / "shoes" / "T1-1-001.jsonl")
    done = scoreboard(
        "demo", "--windowed", "--duration", "0.5", "--state-dir", str(state), timeout=PROMPT
    )
    assert done.returncode == 0, done.stderr
    audit = scoreboard("audit", str(state), timeout=PROMPT)
    assert audit.returncode == 1
    assert "shoes/T1-1-001.jsonl line 1: unreadable (not a regular file but a FIFO)" in audit.stdout
    exported = scoreboard("export", str(state), "--shoe", "all", timeout=PROMPT)
    assert exported.returncode == 0 and "not a regular file but a FIFO" in exported.stderr


def test_a_controllers_state_file_that_is_a_fifo_is_passed_over_not_waited_on(tmp_path) -> None:
    from scoreboard.controller.sessions import STATE_NAME, SessionStore

    os.mkfifo(tmp_path / STATE_NAME)
    stores: list[SessionStore] = []
    reading = threading.Thread(target=lambda: stores.append(SessionStore(tmp_path)), daemon=True)
    reading.start()
    reading.join(PROMPT)
    assert stores and stores[0].last_shoe is None  # a hang leaves the list empty
