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
import functools
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoreboard.cli import arg_types, build_parser
from scoreboard.cli.arg_types import Number, directory, input_file, output_file
from tests.cli import scoreboard


def subcommand_actions() -> Iterator[tuple[str, argparse.Action]]:
    """(subcommand, action) for every option or positional that takes a value."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, subparser in sorted(subparsers.choices.items()):
        for action in subparser._actions:
            if action.nargs != 0 and not isinstance(action, argparse._HelpAction):
                yield name, action


@functools.cache
def parser_of(command: str) -> argparse.ArgumentParser:
    """The parser ``scoreboard COMMAND ...`` builds (one command's: the same as the whole one's,
    tests/test_cli_help_is_light.py), built once: parsing leaves a parser as it was."""
    return build_parser(command)


def label(action: argparse.Action) -> str:
    return action.option_strings[-1] if action.option_strings else action.dest


def numeric(action: argparse.Action) -> bool:
    return action.type in (int, float) or isinstance(action.type, Number)


NUMERIC = [(name, action) for name, action in subcommand_actions() if numeric(action)]
FILES = [(n, a) for n, a in subcommand_actions() if a.type in (input_file, output_file)]
DIRECTORIES = [(n, a) for n, a in subcommand_actions() if a.type is directory]


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


def test_a_path_option_says_what_it_must_be() -> None:
    """A bare ``type=Path`` takes a FIFO: a file option is an input or output file, or a dir."""
    plain = [f"{n} {label(a)}" for n, a in subcommand_actions() if a.type is Path]
    assert plain == ["audit state_dir"]  # the audit refuses what is not a state dir itself
    assert {label(action) for _, action in FILES} >= {
        "--config", "--password-file", "--tls-ca", "--tls-cert", "--tls-key", "--hmac-key-file",
        "--output",
    }  # fmt: skip
    assert {name for name, _ in DIRECTORIES} == {"bridge", "demo", "run", "shoe"}


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
        parser_of(command).parse_args([command, f"{option}={value}"])
    err = capsys.readouterr().err
    assert leaving.value.code == 2, err
    assert f"argument {'/'.join(action.option_strings)}:" in err and "Traceback" not in err
    assert err.count("\n") == 1, err


#: What a command cannot be parsed without.
REQUIRED = {
    "screenshot": ("-o", "x.png"),
    "bridge": ("--shoe", "angel-eye", "--serial", "/dev/ttyUSB0"),
}


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
    argv = [command, *REQUIRED.get(command, ())]
    for value in values:
        args = parser_of(command).parse_args([*argv, f"{action.option_strings[-1]}={value}"])
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
    ("command", "action"), [pytest.param(n, a, id=f"{n} {label(a)}") for n, a in FILES]
)
def test_a_file_option_that_is_not_a_regular_file_is_refused(
    command, action, not_files, capsys
) -> None:
    for kind, path in not_files.items():
        err = refusal(capsys, [command, action.option_strings[-1], str(path)])
        assert f"argument {'/'.join(action.option_strings)}: {path}: " in err
        assert f"{path}: not a regular file but {kind}" in err, err


@pytest.mark.parametrize(
    ("command", "action"), [pytest.param(n, a, id=f"{n} {label(a)}") for n, a in DIRECTORIES]
)
def test_a_directory_option_that_is_not_a_directory_is_refused(
    command, action, not_files, tmp_path, capsys
) -> None:
    (tmp_path / "file").write_text("")
    not_files = {**not_files, "a regular file": tmp_path / "file"}
    del not_files["a directory"]
    for kind, path in not_files.items():
        err = refusal(capsys, [command, action.option_strings[-1], str(path)])
        assert f"argument {action.option_strings[-1]}: {path}: not a directory but {kind}" in err


def refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """What the parser says refusing ``argv``, in one line with exit status 2."""
    with pytest.raises(SystemExit) as leaving:
        parser_of(argv[0]).parse_args(argv)
    err = capsys.readouterr().err
    assert leaving.value.code == 2 and err.count("\n") == 1, err
    return err


def test_a_missing_input_file_is_left_to_the_reader_which_says_so(tmp_path) -> None:
    assert input_file(str(tmp_path / "nope")) == tmp_path / "nope"
    assert scoreboard("run", "--config", str(tmp_path / "nope.yaml")).stderr.strip() == (
        f"scoreboard run: {tmp_path / 'nope.yaml'}: cannot read (No such file or directory)"
    )


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["demo", "--size", "nanxnan"], "--size"),
        (["demo", "--size=-1x-1"], "--size"),
        (["demo", "--size", "99999x99999"], "--size"),
        (["demo", "--limits", "nan-inf"], "--limits"),
        (["demo", "--limits", "25-1e400"], "--limits"),
        (["demo", "--limits=-5-10"], "--limits"),
        (["shoe", "--mqtt", "127.0.0.1:99999"], "--mqtt"),
        (["shoe", "--mqtt", "127.0.0.1:-1"], "--mqtt"),
        (["screenshot", "-o", "x.png", "--clock", "99:99"], "--clock"),
        (["screenshot", "-o", "x.png", "--clock", "nan"], "--clock"),
    ],
)
def test_numbers_inside_text_options_are_checked_too(argv, option, capsys) -> None:
    """Sizes, limits, ports and the clock carry numbers in text: each is refused naming it."""
    from scoreboard.cli import main

    try:
        status = main(argv)
    except SystemExit as leaving:
        status = leaving.code
    err = capsys.readouterr().err
    assert status == 2 and option in err and err.count("\n") == 1, err


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
