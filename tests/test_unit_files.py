"""The kiosk's systemd units pass the real ``systemd-analyze verify``, and a broken one fails it.

``verify`` exits 0 on an unknown directive or a value it cannot parse (it warns and
ignores them), so a unit passes here only when it exits 0 *and* says nothing.  It
also checks that ExecStart= is an executable file, so each unit is verified as a
copy whose /opt/scoreboard is a scratch directory holding the real session script.
``systemd-analyze security --offline`` then reads back the hardening systemd will
actually apply.  CI installs systemd (``make system-deps``); nothing is started.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from install_root import REPO

ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
SYSTEM_UNIT = REPO / "kiosk" / "scoreboard.service"
USER_UNIT = REPO / "kiosk" / "scoreboard-desktop.service"


def scratch_unit(
    tmp_path: Path, unit: Path, *, text: str | None = None, session: bool = True
) -> Path:
    """``unit`` (or ``text``) with /opt/scoreboard under ``tmp_path``, the session script there."""
    opt = tmp_path / "opt" / "scoreboard"
    if session:
        (opt / "bin").mkdir(parents=True, exist_ok=True)
        script = opt / "bin" / "scoreboard-session"
        shutil.copy(REPO / "kiosk" / "scoreboard-session.sh", script)
        script.chmod(0o755)
    copy = tmp_path / "units" / unit.name
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(
        (unit.read_text() if text is None else text).replace("/opt/scoreboard", str(opt))
    )
    return copy


def verify(unit: Path, *, user: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    command = [ANALYZE]
    with tempfile.TemporaryDirectory(prefix="sbu", dir="/tmp") as runtime:
        if user:
            # The user manager's paths need one, short: socket units under it name
            # AF_UNIX paths, at most 108 bytes (a deep pytest tmp_path is too long).
            env["XDG_RUNTIME_DIR"] = runtime
            command.append("--user")
        return subprocess.run(
            [*command, "verify", "--man=no", str(unit)],
            capture_output=True, text=True, env=env, check=False, timeout=60,
        )  # fmt: skip


def assert_clean(result: subprocess.CompletedProcess) -> None:
    said = (result.stdout + result.stderr).strip()
    assert result.returncode == 0 and not said, (
        f"systemd-analyze verify: {said or result.returncode}"
    )


def test_the_tty1_unit_verifies_clean(tmp_path: Path) -> None:
    assert_clean(verify(scratch_unit(tmp_path, SYSTEM_UNIT)))


def test_the_desktop_user_unit_verifies_clean(tmp_path: Path) -> None:
    assert_clean(verify(scratch_unit(tmp_path, USER_UNIT), user=True))


BROKEN = [
    pytest.param("WatchdogSec=10", "WatchdogSek=10", id="a misspelt directive"),
    pytest.param("Type=notify", "Type=notified", id="a value systemd cannot parse"),
    pytest.param("RestartSec=2", "RestartSec=two", id="a bad time"),
    pytest.param(
        "StartLimitIntervalSec=0\n",
        "StartLimitIntervalSec=0\nUser=x\n",
        id="a [Service] key in [Unit]",
    ),
]


@pytest.mark.parametrize(("good", "bad"), BROKEN)
def test_a_broken_unit_fails_verify(tmp_path: Path, good: str, bad: str) -> None:
    text = SYSTEM_UNIT.read_text()
    assert good in text, f"the unit no longer has {good!r}: update this test"
    result = verify(scratch_unit(tmp_path, SYSTEM_UNIT, text=text.replace(good, bad, 1)))
    with pytest.raises(AssertionError):
        assert_clean(result)


def test_a_unit_whose_session_script_is_missing_fails_verify(tmp_path: Path) -> None:
    result = verify(scratch_unit(tmp_path, SYSTEM_UNIT, session=False))
    assert result.returncode != 0
    assert "scoreboard-session" in result.stderr


def effective(unit: Path) -> dict[str, bool]:
    """What ``systemd-analyze security`` says each setting does: True for a ✓."""
    result = subprocess.run([ANALYZE, "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, check=False, timeout=60)  # fmt: skip
    marks = {}
    for line in result.stdout.splitlines():
        if line[:1] in "✓✗" and len(line.split()) > 1:
            marks[line.split()[1]] = line.startswith("✓")
    assert marks, result.stdout + result.stderr
    return marks


def test_the_tty1_unit_is_hardened_as_the_display_stack_allows(tmp_path: Path) -> None:
    marks = effective(scratch_unit(tmp_path, SYSTEM_UNIT))
    for setting in ("NoNewPrivileges=", "ProtectSystem=", "ProtectHome=", "PrivateTmp=",
                    "User=/DynamicUser=", "ProtectKernelTunables=", "ProtectControlGroups=",
                    "ProtectKernelModules=", "RestrictRealtime=", "LockPersonality=",
                    "NotifyAccess="):  # fmt: skip
        assert marks.get(setting), f"{setting} is not in effect"
    # The display and input devices stay reachable (see the unit's comments).
    assert marks["PrivateDevices="] is False
    assert marks["DeviceAllow="] is False
