"""Every number of every subcommand is checked by argparse, and no input path is a FIFO.

The options are found by walking the real parser, so a numeric option added
without a checked type (``type=float`` takes NaN, ``type=int`` takes -1) fails
here.  The sweep parses in-process (fast, nothing runs); a handful of real
``python -m scoreboard`` processes, with a timeout so a hang fails instead of
blocking, check the cases an operator met.
"""

from __future__ import annotations

import argparse
import doctest
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoreboard.cli import build_parser
from scoreboard.commands import arg_types
from scoreboard.commands.arg_types import Number, input_file
from tests.cli import scoreboard

#: Options that take a path but not a file to read: directories and outputs.
NOT_READ = {"state_dir", "output"}


def subcommand_actions() -> Iterator[tuple[str, argparse.Action]]:
    """(subcommand, action) for every option or positional that takes a value."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, subparser in sorted(subparsers.choices.items()):
        for action in subparser._actions:
            if action.nargs != 0 and not isinstance(action, argparse._HelpAction):
                yield name, action


def label(action: argparse.Action) -> str:
    return action.option_strings[-1] if action.option_strings else action.dest


def numeric(action: argparse.Action) -> bool:
    return action.type in (int, float) or isinstance(action.type, Number)


NUMERIC = [(name, action) for name, action in subcommand_actions() if numeric(action)]
READ_PATHS = [
    (name, action)
    for name, action in subcommand_actions()
    if action.type is input_file or (action.type is Path and action.dest not in NOT_READ)
]


def out_of_range(action: argparse.Action) -> list[str]:
    """NaN, both infinities, -1, 1e400, and a value just past each end of the option's range."""
    values = ["nan", "inf", "-inf", "-1", "1e400"]
    kind = action.type
    if isinstance(kind, Number):
        below = kind.low if kind.above else kind.low - 1
        values += [shown(kind, below), shown(kind, kind.high + 1)]
        if kind.integral:
            values.append("2.5")
    return values


def shown(kind: Number, value: float) -> str:
    return str(int(value)) if kind.integral else repr(float(value))


def test_every_numeric_option_takes_a_checked_type() -> None:
    """A bare ``int`` or ``float`` takes NaN or -1: only :class:`Number` or a list of choices."""
    bare = [
        f"{name} {label(action)}"
        for name, action in NUMERIC
        if not isinstance(action.type, Number) and action.choices is None
    ]
    assert bare == []
    assert len(NUMERIC) > 30  # the walk found the options (demo, shoe, lobby, ...)


def test_a_path_to_read_takes_the_input_file_type() -> None:
    """A ``type=Path`` is for directories and outputs; a file to read is an ``input_file``."""
    plain = [f"{name} {label(action)}" for name, action in READ_PATHS if action.type is Path]
    assert plain == []
    assert {label(action) for _, action in READ_PATHS} >= {
        "--config", "--password-file", "--tls-ca", "--tls-cert", "--tls-key", "--hmac-key-file",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("command", "action", "value"),
    [
        pytest.param(name, action, value, id=f"{name} {label(action)} {value}")
        for name, action in NUMERIC
        for value in out_of_range(action)
    ],
)
def test_a_hostile_number_exits_2_naming_its_option(command, action, value, capsys) -> None:
    option = action.option_strings[-1]
    with pytest.raises(SystemExit) as leaving:
        build_parser().parse_args([command, f"{option}={value}"])
    err = capsys.readouterr().err
    assert leaving.value.code == 2, err
    assert f"argument {'/'.join(action.option_strings)}:" in err and "Traceback" not in err
    assert err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("command", "action"), [pytest.param(n, a, id=f"{n} {label(a)}") for n, a in NUMERIC]
)
def test_the_ends_of_each_range_are_taken(command, action) -> None:
    """The checks refuse only what is out of range: each end itself is a good value."""
    kind = action.type
    if isinstance(kind, Number):
        ends = [kind.high] if kind.above else [kind.low, kind.high]
        values = [shown(kind, end) for end in ends]
    else:
        values = [str(choice) for choice in action.choices]
    argv = ["screenshot", "-o", "x.png"] if command == "screenshot" else [command]
    for value in values:
        args = build_parser().parse_args([*argv, f"{action.option_strings[-1]}={value}"])
        assert getattr(args, action.dest) == kind(value)


@pytest.fixture
def not_files(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """A FIFO, a device, a directory and a socket, each where a file is expected."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(tmp_path / "sock"))
    try:
        yield {
            "a FIFO": fifo,
            "a character device": Path("/dev/zero"),
            "a directory": tmp_path,
            "a socket": tmp_path / "sock",
        }
    finally:
        listening.close()


@pytest.mark.parametrize(
    ("command", "action"), [pytest.param(n, a, id=f"{n} {label(a)}") for n, a in READ_PATHS]
)
def test_a_path_to_read_that_is_not_a_regular_file_is_refused(
    command, action, not_files, capsys
) -> None:
    for kind, path in not_files.items():
        with pytest.raises(SystemExit) as leaving:
            build_parser().parse_args([command, action.option_strings[-1], str(path)])
        err = capsys.readouterr().err
        assert leaving.value.code == 2 and f"argument {action.option_strings[-1]}" in err
        assert f"{path}: not a regular file but {kind}" in err, err


def test_a_missing_input_file_is_left_to_the_reader_which_says_so(tmp_path) -> None:
    assert input_file(str(tmp_path / "nope")) == tmp_path / "nope"
    assert scoreboard("run", "--config", str(tmp_path / "nope.yaml")).stderr.strip() == (
        f"scoreboard run: {tmp_path / 'nope.yaml'}: cannot read (No such file or directory)"
    )


def test_the_examples_hold() -> None:
    assert doctest.testmod(arg_types).failed == 0


# -- from the outside: what an operator met ----------------------------------
@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["demo", "--windowed", "--pace", "nan"], "--pace"),
        (["demo", "--windowed", "--duration", "nan"], "--duration"),
        (["demo", "--windowed", "--duration", "-1"], "--duration"),
        (["demo", "--windowed", "--shuffle-seconds", "-3", "--duration", "1"], "--shuffle-seconds"),
        (["demo", "--windowed", "--pace", "inf"], "--pace"),
        (["shoe", "--pace", "nan", "--mqtt", "127.0.0.1:1", "--shoes", "1"], "--pace"),
        (["lobby", "--windowed", "--page-seconds", "nan", "--duration", "1"], "--page-seconds"),
        (["simulate", "--shoes", "-1"], "--shoes"),
    ],
)
def test_a_hostile_number_is_refused_before_anything_runs(argv, option) -> None:
    done = scoreboard(*argv, timeout=20)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"scoreboard {argv[0]}: argument {option}: expected ")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_a_fifo_as_the_config_is_refused_at_once(tmp_path) -> None:
    fifo = tmp_path / "scoreboard.yaml"
    os.mkfifo(fifo)
    done = scoreboard("run", "--config", str(fifo), "--headless", timeout=20)
    assert done.returncode == 2
    assert done.stderr == (
        f"scoreboard run: argument --config: {fifo}: not a regular file but a FIFO (see --help)\n"
    )


@pytest.mark.parametrize("path", ["/dev/zero", "/"])
def test_a_theme_that_is_not_a_file_says_so(path) -> None:
    done = scoreboard("demo", "--windowed", "--theme", path, "--duration", "0", timeout=20)
    assert done.returncode == 2
    assert "not a regular file but a" in done.stderr and "no such" not in done.stderr
