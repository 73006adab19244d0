"""kiosk/install.sh for real into a scratch root: a board that runs without its checkout.

One install (``scratch_install``, built from a source copy with a planted .venv and
.git that is deleted right after) serves every test here; a test that changes it puts
it back. Re-runs come from a fresh source copy, as a technician's next ``git pull``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from install_root import (
    PLANTED,
    REPO,
    Install,
    copy_root,
    files_mentioning,
    install,
    installed,
    scratch_dir,
    shared_install,
    source_copy,
    tree,
)

RELEASE_NAME = re.compile(r"0\.1\.0-\d{14}")


@pytest.fixture(scope="module")
def scratch_install(tmp_path_factory: pytest.TempPathFactory) -> Install:
    return shared_install(tmp_path_factory)


def board(inst: Install, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The installed command, from /, with nothing of this checkout on its path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    command = [str(inst.opt / "current" / "bin" / "scoreboard"), *args]
    return subprocess.run(
        command, cwd="/", capture_output=True, text=True, env=env, timeout=timeout, check=False
    )


def rerun(inst: Install, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    source = source_copy(tmp_path / "source")
    return installed(install(inst.root, *args, source=source, env=env)).stdout


def test_the_installed_board_runs_after_its_source_is_deleted(scratch_install: Install) -> None:
    assert board(scratch_install, "--help").returncode == 0
    demo = board(scratch_install, "demo", "--duration", "2", "--windowed", "--size", "640x360")
    assert demo.returncode == 0, demo.stderr
    odds = board(scratch_install, "odds")
    assert odds.returncode == 0 and "Banker" in odds.stdout
    python = str(scratch_install.opt / "current/bin/python")
    where = subprocess.run(
        [python, "-c", "import scoreboard; print(scoreboard.__file__)"],
        capture_output=True, text=True, cwd="/", check=True,
    )  # fmt: skip
    assert where.stdout.startswith(f"{scratch_install.opt}/current/lib/")


def test_the_scripts_point_into_the_release_and_nothing_of_the_checkout_was_copied(
    scratch_install: Install,
) -> None:
    release = scratch_install.opt / "releases" / Path(scratch_install.current()).name
    scripts = [
        p for p in (release / "bin").iterdir() if p.is_file() and p.read_bytes()[:2] == b"#!"
    ]
    assert scripts
    for script in scripts:
        shebang = script.read_text().splitlines()[0]
        if "python" in shebang:
            assert shebang.startswith(f"#!{release}/bin/python"), (script, shebang)
    assert files_mentioning(scratch_install.root, PLANTED) == []
    assert not [p for p in scratch_install.root.rglob("*") if p.name in (".venv", ".git")]


def test_the_layout_is_what_the_unit_and_the_technician_expect(scratch_install: Install) -> None:
    root, opt = scratch_install.root, scratch_install.opt
    assert re.fullmatch(r"releases/" + RELEASE_NAME.pattern, scratch_install.current())
    assert (
        os.readlink(root / "usr/local/bin/scoreboard") == "/opt/scoreboard/current/bin/scoreboard"
    )
    session = opt / "bin" / "scoreboard-session"
    assert os.readlink(session) == "../current/libexec/scoreboard-session"
    assert session.read_bytes() == (REPO / "kiosk/scoreboard-session.sh").read_bytes()
    assert os.access(session, os.X_OK)
    unit = root / "etc/systemd/system/scoreboard.service"
    assert unit.read_bytes() == (REPO / "kiosk/scoreboard.service").read_bytes()
    assert (root / "etc/systemd/system/multi-user.target.wants/scoreboard.service").is_symlink()
    config = root / "etc/scoreboard/scoreboard.yaml"
    assert config.read_bytes() == (REPO / "kiosk/scoreboard.yaml").read_bytes()
    assert oct(config.stat().st_mode & 0o777) == "0o640"
    assert scratch_install.environment == {"SCOREBOARD_MODE": "live", "SCOREBOARD_DISPLAY": "cage",
                                           "XDG_SESSION_TYPE": "wayland"}  # fmt: skip
    assert (root / "var/lib/scoreboard").is_dir()


def test_a_second_run_changes_nothing(scratch_install: Install, tmp_path: Path) -> None:
    before = tree(scratch_install.root)
    output = rerun(scratch_install, tmp_path)
    assert "is up to date" in output
    assert tree(scratch_install.root) == before


def test_an_edited_config_is_kept_and_the_mode_switches_both_ways(
    scratch_install: Install, tmp_path: Path
) -> None:
    config = scratch_install.root / "etc/scoreboard/scoreboard.yaml"
    original = config.read_text()
    edited = original.replace('name: "Baccarat 1"', 'name: "Baccarat 7"')
    config.write_text(edited)
    try:
        rerun(scratch_install, tmp_path / "1", "--demo", "--rotate", "90")
        assert scratch_install.environment["SCOREBOARD_MODE"] == "demo"
        assert scratch_install.environment["SCOREBOARD_ROTATE"] == "90"
        rerun(scratch_install, tmp_path / "2")  # neither: the mode and rotation stay
        assert scratch_install.environment["SCOREBOARD_MODE"] == "demo"
        assert scratch_install.environment["SCOREBOARD_ROTATE"] == "90"
        rerun(scratch_install, tmp_path / "3", "--live", "--rotate", "0")
        assert scratch_install.environment["SCOREBOARD_MODE"] == "live"
        assert "SCOREBOARD_ROTATE" not in scratch_install.environment
        assert config.read_text() == edited
    finally:
        config.write_text(original)


def wheelhouse(tmp_path: Path) -> Path:
    """What docs/deploy.md has a technician make on a machine with the internet."""
    folder = tmp_path / "wheels"
    source = source_copy(tmp_path / "source")
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet"]
    subprocess.run([*pip, "--wheel-dir", str(folder), str(source)], check=True, timeout=600)
    return folder


def offline_env() -> dict[str, str]:
    """No index, no pip configuration, no other wheel folder: only the wheelhouse can serve."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull)
    return env


def complete_release(inst: Install, name: str) -> None:
    """An older release as a past install left it (a venv, its RELEASE record)."""
    (inst.opt / "releases" / name / "bin").mkdir(parents=True)
    (inst.opt / "releases" / name / "RELEASE").write_text("key=old\nversion=0.0.9\n")


def test_an_offline_install_then_rollback_and_three_releases_kept(
    scratch_install: Install, tmp_path: Path
) -> None:
    first = scratch_install.current()
    wheels = wheelhouse(tmp_path)
    output = rerun(
        scratch_install, tmp_path / "offline", "--offline", str(wheels), env=offline_env()
    )
    assert "--no-index" in output
    second = scratch_install.current()
    assert second != first and len(scratch_install.releases()) == 2
    assert f"from={wheels}" in (scratch_install.opt / second / "RELEASE").read_text()
    assert board(scratch_install, "--help").returncode == 0

    rolled = installed(install(scratch_install.root, "--rollback"))
    assert scratch_install.current() == first
    assert "systemctl restart scoreboard.service" in rolled.stdout
    assert board(scratch_install, "--help").returncode == 0
    again = install(scratch_install.root, "--rollback")
    assert again.returncode == 1 and "no release older" in again.stderr

    complete_release(scratch_install, "0.0.9-20200101000000")
    complete_release(scratch_install, "0.0.9-20200102000000")
    rerun(scratch_install, tmp_path / "pruned")  # the same source: first stays in use
    assert scratch_install.current() == first
    assert scratch_install.releases() == sorted(
        [Path(first).name, Path(second).name, "0.0.9-20200102000000"]
    )
    shutil.rmtree(scratch_install.opt / "releases" / "0.0.9-20200102000000")


def test_uninstall_keeps_only_the_journal_and_the_config(scratch_install: Install) -> None:
    root = scratch_dir("scoreboard-uninstall-")
    try:
        subprocess.run(["cp", "-al", f"{scratch_install.root}/.", str(root)], check=True)
        journal = root / "var/lib/scoreboard/journal.jsonl"
        journal.write_text('{"planted": "journal"}\n')
        output = installed(install(root, "--uninstall")).stdout
        assert "skipped (--root): userdel scoreboard" in output
        left = {path for path, kind in tree(root).items() if not kind.startswith("dir")}
        assert left == {"var/lib/scoreboard/journal.jsonl", "etc/scoreboard/scoreboard.yaml"}
        assert installed(install(root, "--uninstall")).returncode == 0  # nothing left to do
        installed(install(root, "--uninstall", "--purge"))
        left = {path for path, kind in tree(root).items() if not kind.startswith("dir")}
        assert left == {"var/lib/scoreboard/journal.jsonl"}
        assert journal.read_text() == '{"planted": "journal"}\n'
    finally:
        shutil.rmtree(root)


def raspberry_pi_desktop(root: Path) -> list[Path]:
    """LightDM with labwc and a desktop user ``pi`` planted in ``root``; what to remove after."""
    unit = root / "lib/systemd/system/lightdm.service"
    unit.parent.mkdir(parents=True)
    unit.write_text(
        "[Service]\nExecStart=/usr/sbin/lightdm\n[Install]\nAlias=display-manager.service\n"
    )
    (unit.parent / "multi-user.target").write_text("[Unit]\nDescription=Multi-User System\n")
    (root / "etc/systemd/system/display-manager.service").symlink_to(
        "/lib/systemd/system/lightdm.service"
    )
    labwc = root / "usr/bin/labwc"
    labwc.parent.mkdir(parents=True)
    labwc.write_text("#!/bin/sh\n")
    labwc.chmod(0o755)
    (root / "etc/lightdm").mkdir()
    (root / "etc/lightdm/lightdm.conf").write_text("[Seat:*]\nautologin-user=pi\n")
    (root / "etc/passwd").write_text("pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    autostart = root / "home/pi/.config/labwc/autostart"
    autostart.parent.mkdir(parents=True)
    autostart.write_text("swayidle -w timeout 600 'wlopm --off \\*' &\nwf-panel-pi &\n")
    planted = [
        "lib",
        "usr/bin/labwc",
        "etc/lightdm",
        "etc/passwd",
        "home",
        "etc/systemd/system/display-manager.service",
        "etc/systemd/system/default.target",
    ]
    return [root / path for path in planted]  # fmt: skip


def test_the_desktop_way_and_back_to_cage(scratch_install: Install, tmp_path: Path) -> None:
    root = scratch_install.root
    planted = raspberry_pi_desktop(root)
    try:
        kept = install(root, source=source_copy(tmp_path / "kept"))  # the environment says cage
        assert kept.returncode == 1 and "lightdm.service" in kept.stderr

        rerun(scratch_install, tmp_path / "labwc", "--display", "labwc")
        rerun(scratch_install, tmp_path / "again")  # labwc is kept, the line stays one line
        autostart = (root / "home/pi/.config/labwc/autostart").read_text().splitlines()
        assert autostart[0] == "wf-panel-pi &"
        assert (
            len(autostart) == 2
            and "systemctl --user start scoreboard-desktop.service" in autostart[1]
        )
        assert (root / "etc/systemd/user/scoreboard-desktop.service").read_bytes() == (
            REPO / "kiosk/scoreboard-desktop.service"
        ).read_bytes()
        assert not (root / "etc/systemd/system/scoreboard.service").exists()
        assert not (root / "etc/systemd/system/multi-user.target.wants/scoreboard.service").exists()
        assert scratch_install.environment["SCOREBOARD_DISPLAY"] == "labwc"
        assert scratch_install.environment["SCOREBOARD_DESKTOP_USER"] == "pi"

        rerun(scratch_install, tmp_path / "cage", "--display", "cage", "--disable-desktop")
        assert not (root / "etc/systemd/system/display-manager.service").exists()
        assert os.readlink(root / "etc/systemd/system/default.target").endswith("multi-user.target")
        assert (root / "home/pi/.config/labwc/autostart").read_text() == "wf-panel-pi &\n"
        assert not (root / "etc/systemd/user/scoreboard-desktop.service").exists()
        assert (root / "etc/systemd/system/multi-user.target.wants/scoreboard.service").is_symlink()
        assert "SCOREBOARD_DESKTOP_USER" not in scratch_install.environment
    finally:
        for path in planted:
            if path.is_symlink() or path.is_file():
                path.unlink()
            elif path.exists():
                shutil.rmtree(path)
        for empty in (root / "etc/systemd/user",):
            if empty.is_dir() and not any(empty.iterdir()):
                empty.rmdir()


def test_uninstall_says_what_it_would_do_in_a_dry_run(scratch_install: Install) -> None:
    before = tree(scratch_install.root)
    output = installed(install(scratch_install.root, "--uninstall", "--dry-run")).stdout
    assert tree(scratch_install.root) == before
    assert f"+ rm -rf {scratch_install.opt}" in output.splitlines()
    assert f"+ rm -rf {scratch_install.root}/var/lib/scoreboard" not in output


def run_session(root: Path) -> subprocess.CompletedProcess:
    """The unit's ExecStart with a display way it refuses: it names itself and stops."""
    env = {"PATH": "/usr/bin:/bin", "SCOREBOARD_DISPLAY": "vnc"}
    session = root / "opt/scoreboard/bin/scoreboard-session"
    return subprocess.run([str(session)], env=env, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip


def test_a_rollback_runs_the_older_releases_session_script(
    scratch_install: Install, tmp_path: Path
) -> None:
    root = copy_root(scratch_install.root, "scoreboard-rollback-")
    try:
        inst = Install(root, scratch_install.first_run)
        first = inst.current()
        assert "release B" not in run_session(root).stderr
        source = source_copy(tmp_path / "source")
        script = source / "kiosk/scoreboard-session.sh"
        script.write_text(script.read_text().replace(
            "set -eu\n", 'set -eu\necho "scoreboard-session of release B" >&2\n', 1))  # fmt: skip
        installed(install(root, source=source))  # only the launcher changed: a new release
        newest = Path(inst.current()).name
        assert newest != Path(first).name and inst.releases()[-1] == newest
        assert "of release B" in run_session(root).stderr
        installed(install(root, "--rollback"))
        assert Path(inst.current()).name == inst.releases()[-2]  # the one before B
        older = run_session(root)
        assert older.returncode == 1 and "SCOREBOARD_DISPLAY=vnc" in older.stderr
        assert "release B" not in older.stderr
    finally:
        shutil.rmtree(root, ignore_errors=True)
