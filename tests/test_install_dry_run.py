"""kiosk/install.sh's plan: --dry-run prints every step and changes nothing; options are checked.

Every run here is the real script (bash) on a scratch ``--root`` built to look like
the machine in question (no desktop, a Raspberry Pi OS desktop, a GNOME box).
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from install_root import PLANTED, REPO, install, source_copy, tree

INSTALL = str(REPO / "kiosk" / "install.sh")


def dry(root: Path, source: Path, *args: str) -> subprocess.CompletedProcess:
    """A dry run; the root and the source must be exactly as they were after it."""
    before, source_before = tree(root), tree(source)
    result = install(root, "--dry-run", *args, source=source, timeout=120)
    assert tree(root) == before, "--dry-run changed the install root"
    assert tree(source) == source_before, "--dry-run changed the source"
    return result


def planned(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, f"install.sh failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def step(output: str, *words: str) -> str:
    """The one line of the plan with all these words (fails naming them when there is none)."""
    lines = [line for line in output.splitlines() if all(word in line for word in words)]
    assert lines, f"no step with {words} in:\n{output}"
    return lines[0]


def refused(result: subprocess.CompletedProcess, code: int) -> str:
    assert result.returncode == code, result.stdout + result.stderr
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr


def link(path: Path, target: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


def raspberry_pi_desktop(root: Path) -> None:
    """LightDM logging ``pi`` in to labwc, as Raspberry Pi OS desktop ships."""
    link(root / "etc/systemd/system/display-manager.service", "/lib/systemd/system/lightdm.service")
    labwc = root / "usr/bin/labwc"
    labwc.parent.mkdir(parents=True)
    labwc.write_text("#!/bin/sh\n")
    labwc.chmod(0o755)
    (root / "etc/lightdm").mkdir(parents=True)
    (root / "etc/lightdm/lightdm.conf").write_text("[Seat:*]\nautologin-user=pi\n")
    (root / "etc/passwd").write_text("pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    autostart = root / "home/pi/.config/labwc/autostart"
    autostart.parent.mkdir(parents=True)
    autostart.write_text("swayidle -w timeout 600 'wlopm --off \\*' resume 'wlopm --on \\*' &\n")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One checkout copy for the module: a dry run never changes it (``dry`` checks)."""
    return source_copy(tmp_path_factory.mktemp("dry") / "source")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "root"
    path.mkdir()
    return path


@pytest.fixture(scope="module")
def live_plan(tmp_path_factory: pytest.TempPathFactory, source: Path) -> tuple[Path, str]:
    """The plain dry run on an empty root, read by every test of a first install's plan."""
    root = tmp_path_factory.mktemp("live") / "root"
    root.mkdir()
    return root, planned(dry(root, source))


def test_help_names_every_option_and_exits_0() -> None:
    result = subprocess.run(
        ["bash", INSTALL, "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    for option in ("--dry-run", "--demo", "--live", "--lobby", "--lobby-args", "--display",
                   "--rotate", "--mosquitto", "--offline", "--rollback", "--uninstall", "--root",
                   "/etc/scoreboard/lobby.yaml"):  # fmt: skip
        assert option in result.stdout


def test_an_unknown_option_is_refused_in_one_line(root: Path) -> None:
    message = refused(install(root, "--bogus"), 2)
    assert "'--bogus'" in message
    assert not any(root.iterdir())


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--rotate", "45"], "--rotate"),
        (["--display", "wayland"], "--display"),
        (["--offline", "/no/such/wheels"], "--offline"),
        (["--offline", "/"], "no scoreboard-*.whl"),
        (["--run-args", '--theme "midnight"'], "--run-args"),
        (["--purge"], "--purge"),
        (["--desktop-user"], "--desktop-user"),
        (["--demo", "--live"], "--demo and --live contradict each other"),
        (["--lobby", "--demo"], "--lobby and --demo contradict each other"),
        (["--live", "--lobby"], "--live and --lobby contradict each other"),
        (["--lobby-args", "--sort `name`"], "--lobby-args"),
        (["--lobby-args"], "--lobby-args needs a value"),
        (["--rollback", "--uninstall"], "--rollback and --uninstall: one action at a time"),
    ],
)
def test_a_bad_value_is_refused_naming_the_option(root: Path, args: list[str], named: str) -> None:
    assert named in refused(install(root, *args), 2)


def test_a_live_dry_run_lists_every_step_of_the_install(live_plan: tuple[Path, str]) -> None:
    root, output = live_plan
    assert "cage" in step(output, "apt-get install")
    assert "xwayland" in step(output, "apt-get install")
    assert "--system" in step(output, "useradd", "scoreboard")
    assert "video,render,input,dialout scoreboard" in step(output, "usermod")  # feed: shoe
    release = step(output, "-m venv", f"{root}/opt/scoreboard/releases/0.1.0-")
    assert release.startswith("+ ")
    assert "--no-deps" in step(output, "pip wheel")
    step(output, "pip install", "scoreboard-0.1.0-py3-none-any.whl")
    step(output, "ln -sfn releases/0.1.0-", "current.new")
    step(output, "mv -T", f"{root}/opt/scoreboard/current")
    step(
        output, "install -m 640", "kiosk/scoreboard.yaml", f"{root}/etc/scoreboard/scoreboard.yaml"
    )
    step(output, "write", f"{root}/etc/scoreboard/environment", "SCOREBOARD_MODE=live")
    step(output, "install -D -m 644", "kiosk/scoreboard.service",
         f"{root}/etc/systemd/system/scoreboard.service")  # fmt: skip
    step(output, "install -D -m 755", "kiosk/scoreboard-session.sh",
         f"{root}/opt/scoreboard/releases/0.1.0-", "/libexec/scoreboard-session")  # fmt: skip
    step(output, "ln -sfn ../current/libexec/scoreboard-session", "bin/scoreboard-session")
    step(output, f"systemctl --root={root} enable scoreboard.service")
    assert step(output, "systemctl restart scoreboard.service").startswith("- skipped (--root)")


def test_a_demo_dry_run_writes_the_demo_mode(root: Path, source: Path) -> None:
    output = planned(dry(root, source, "--demo", "--rotate", "90"))
    line = step(output, "write", "etc/scoreboard/environment")
    assert "SCOREBOARD_MODE=demo" in line
    assert "SCOREBOARD_ROTATE=90" in line


def test_a_lobby_dry_run_shows_its_config_mode_and_account(root: Path, source: Path) -> None:
    output = planned(dry(root, source, "--lobby", "--lobby-args", "--sort name", "--mosquitto"))
    etc = f"{root}/etc/scoreboard"
    step(output, "install -m 640", "kiosk/lobby.yaml", f"{etc}/lobby.yaml")
    step(output, "sed -i", "username", f"{etc}/lobby.yaml")  # the local broker's account on
    step(output, "skipped (--root): chown root:scoreboard", f"{etc}/lobby.yaml")
    line = step(output, "write", f"{etc}/environment")
    assert "SCOREBOARD_MODE=lobby" in line
    step(output, "write", f"{root}/etc/mosquitto/scoreboard.acl", "lobby-hall")
    step(output, "write", f"{etc}/lobby.password", "lobby-hall")
    step(output, "mosquitto_passwd", "lobby-hall")
    step(output, "install -D -m 644", "kiosk/scoreboard.service")
    live = planned(dry(root, source, "--live"))
    assert "lobby.yaml" not in live and "lobby.password" not in live


def test_a_dry_run_never_mentions_the_checkouts_venv_or_git(
    live_plan: tuple[Path, str], source: Path
) -> None:
    _root, output = live_plan
    assert PLANTED not in output
    assert ".venv" not in output
    assert "/.git" not in output
    copied = step(output, "cp -R").split()[3:-1]
    wheel_sources = ("pyproject.toml", "README.md", "LICENSE", "scoreboard", "themes")
    assert copied == [str(source / name) for name in wheel_sources]


def test_the_wheel_is_built_from_everything_pyproject_packages(
    live_plan: tuple[Path, str],
) -> None:
    """The installer copies an allow-list: it must hold every root pyproject.toml builds from."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    setuptools = project["tool"]["setuptools"]
    mapped = setuptools.get("package-dir", {})
    roots = {mapped.get(package, package.replace(".", "/")).split("/")[0]
             for package in setuptools["packages"]}  # fmt: skip
    roots |= {path.split("/")[0] for path in project["project"]["license-files"]}
    roots |= {project["project"]["readme"], "pyproject.toml"}
    _root, output = live_plan
    copied = {Path(path).name for path in step(output, "cp -R").split()[3:-1]}
    assert roots <= copied, f"install.sh does not copy {sorted(roots - copied)}"


def test_an_existing_config_and_mode_are_kept(root: Path, source: Path) -> None:
    etc = root / "etc/scoreboard"
    etc.mkdir(parents=True)
    (etc / "scoreboard.yaml").write_text("table: {id: T7}\n")
    (etc / "environment").write_text("SCOREBOARD_MODE=demo\nSCOREBOARD_DISPLAY=cage\n")
    output = planned(dry(root, source))
    step(output, "= ", "scoreboard.yaml kept")
    assert not [line for line in output.splitlines() if "kiosk/scoreboard.yaml" in line]
    assert "SCOREBOARD_MODE=demo" in step(output, "write", "environment")
    assert "SCOREBOARD_MODE=live" in step(
        planned(dry(root, source, "--live")), "write", "environment"
    )


def test_a_bare_x_dry_run_installs_x_and_its_wrapper(root: Path, source: Path) -> None:
    output = planned(dry(root, source, "--display", "x11"))
    packages = step(output, "apt-get install").split()
    for package in ("xserver-xorg-core", "xserver-xorg-legacy", "xinit", "x11-xserver-utils"):
        assert package in packages
    assert "cage" not in packages
    assert "video,render,input,dialout,tty scoreboard" in step(output, "usermod")
    step(output, "write", f"{root}/etc/X11/Xwrapper.config")
    assert "SCOREBOARD_DISPLAY=x11" in step(output, "write", "environment")


@pytest.mark.parametrize("display", [[], ["--display", "cage"], ["--display", "labwc"]])
def test_another_desktop_is_refused_naming_it_and_the_choices(
    root: Path, source: Path, display: list[str]
) -> None:
    link(root / "etc/systemd/system/display-manager.service", "/lib/systemd/system/gdm3.service")
    message = refused(dry(root, source, *display), 1)
    assert "gdm3.service" in message
    if not display or display[1] == "cage":
        assert "--disable-desktop" in message
    assert "--display labwc" in message


def test_disable_desktop_turns_it_off_and_uses_cage(root: Path, source: Path) -> None:
    link(root / "etc/systemd/system/display-manager.service", "/lib/systemd/system/gdm3.service")
    output = planned(dry(root, source, "--disable-desktop"))
    step(output, f"systemctl --root={root} disable gdm3.service")
    step(output, f"systemctl --root={root} set-default multi-user.target")
    assert "SCOREBOARD_DISPLAY=cage" in step(output, "write", "environment")


def test_a_raspberry_pi_os_desktop_gets_the_labwc_user_unit(root: Path, source: Path) -> None:
    raspberry_pi_desktop(root)
    output = planned(dry(root, source))
    step(output, "install -D -m 644", "kiosk/scoreboard-desktop.service",
         f"{root}/etc/systemd/user/scoreboard-desktop.service")  # fmt: skip
    step(output, "write", f"{root}/home/pi/.config/labwc/autostart", "scoreboard-desktop.service")
    step(output, "screen blanking off", "swayidle")
    step(output, "usermod --append --groups scoreboard pi")
    assert "SCOREBOARD_DISPLAY=labwc" in step(output, "write", "environment")
    assert "etc/systemd/system/scoreboard.service" not in output
    assert "cage" not in step(output, "apt-get install")


def test_labwc_without_the_desktop_is_refused(root: Path, source: Path) -> None:
    message = refused(dry(root, source, "--display", "labwc"), 1)
    assert "LightDM" in message
    assert "--display cage" in message


def test_a_dry_run_on_this_machine_changes_nothing_outside_either() -> None:
    watched = [
        Path(path)
        for path in ("/opt/scoreboard", "/etc/scoreboard", "/usr/local/bin/scoreboard",
                     "/etc/systemd/system/scoreboard.service", "/var/lib/scoreboard")
    ]  # fmt: skip
    before = [path.exists() for path in watched]
    result = subprocess.run(["bash", INSTALL, "--dry-run"], capture_output=True, text=True,
                            check=False, env={**os.environ, "SUDO_USER": ""})  # fmt: skip
    assert [path.exists() for path in watched] == before
    output = planned(result)
    assert step(output, "systemctl enable scoreboard.service").startswith("+ ")
    assert "skipped" not in output


def test_the_kiosk_scripts_are_shellcheck_clean() -> None:
    """Bash for the installer, POSIX sh for the session (dash runs it on Debian)."""
    scripts = [str(REPO / "kiosk" / name) for name in ("install.sh", "scoreboard-session.sh")]
    result = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
