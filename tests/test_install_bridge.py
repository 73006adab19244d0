"""install.sh --bridge: the shoe's bridge as a service, under the board's watchdog policy.

The installer runs for real into a full copy of the shared scratch install (its
--mosquitto, chmod and chown steps must not touch the shared one); the unit is
checked as text, by the real ``systemd-analyze verify``, and by expanding its
ExecStart= with the environment file the installer wrote into the command line
CONTRACT23 fixes.  The bridge itself is not run here (tests/test_bridge*.py do).
"""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import install_root
import pytest
from install_root import REPO, Install, install, installed, shared_install, source_copy
from test_install_dry_run import dry, planned, refused, step
from test_unit_files import assert_clean, effective, verify

UNIT = REPO / "kiosk" / "scoreboard-bridge.service"
SERIAL = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
#: The command CONTRACT23 fixes for the installer's unit.
COMMAND = [
    "/opt/scoreboard/current/bin/scoreboard", "bridge", "--shoe", "angel-eye", "--serial", SERIAL,
    "--config", "/etc/scoreboard/bridge.yaml", "--state-dir", "/var/lib/scoreboard-bridge",
]  # fmt: skip


@pytest.fixture(scope="module")
def bridged(tmp_path_factory: pytest.TempPathFactory):
    """A copy of the shared install, then ``--bridge angel-eye --serial ... --mosquitto``."""
    shared = shared_install(tmp_path_factory)
    root = install_root.copy_root(shared.root, "scoreboard-bridge-")
    try:
        source = source_copy(tmp_path_factory.mktemp("bridge") / "source")
        run = installed(install(root, "--bridge", "angel-eye", "--serial", SERIAL, "--mosquitto",
                                source=source))  # fmt: skip
        yield Install(root, run), source
    finally:
        shutil.rmtree(root)


def environment(root: Path) -> dict[str, str]:
    return Install(root, None).environment  # type: ignore[arg-type]


def exec_start(unit_text: str, env: dict[str, str]) -> list[str]:
    """ExecStart= as systemd runs it: ``${VAR}`` one word, ``$VAR`` split at whitespace."""
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(unit_text)
    argv = []
    for word in shlex.split(parser["Service"]["ExecStart"]):
        if word.startswith("${") and word.endswith("}"):
            argv.append(env.get(word[2:-1], ""))
        elif word.startswith("$"):
            argv += env.get(word[1:], "").split()
        else:
            argv.append(word)
    return argv


def test_the_unit_runs_the_contracts_command_with_what_the_installer_wrote(bridged) -> None:
    inst, _source = bridged
    root = inst.root
    unit = root / "etc/systemd/system/scoreboard-bridge.service"
    assert unit.read_bytes() == UNIT.read_bytes()
    assert (
        root / "etc/systemd/system/multi-user.target.wants/scoreboard-bridge.service"
    ).is_symlink()
    env = environment(root)
    assert env["SCOREBOARD_BRIDGE_SHOE"] == "angel-eye"
    assert env["SCOREBOARD_BRIDGE_SERIAL"] == SERIAL
    assert exec_start(unit.read_text(), env) == COMMAND
    assert os.access(root / COMMAND[0].lstrip("/"), os.X_OK)
    with_baud = exec_start(unit.read_text(), {**env, "SCOREBOARD_BRIDGE_ARGS": "--baud 9600"})
    assert with_baud == [*COMMAND, "--baud", "9600"]


def test_the_bridge_has_its_own_user_in_dialout_and_the_local_broker_first(bridged) -> None:
    inst, _source = bridged
    output = inst.first_run.stdout
    assert "--system" in step(output, "skipped (--root): useradd", "scoreboard-bridge")
    assert step(output, "skipped (--root): usermod", "scoreboard-bridge").endswith(
        "--groups dialout,scoreboard scoreboard-bridge"
    )
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string(UNIT.read_text())
    service = unit["Service"]
    assert (service["User"], service["Group"]) == ("scoreboard-bridge", "scoreboard-bridge")
    assert "dialout" in service["SupplementaryGroups"].split()
    assert (service["Type"], service["WatchdogSec"], service["Restart"]) == (
        "notify",
        "10",
        "always",
    )
    dropin = inst.root / "etc/systemd/system/scoreboard-bridge.service.d/broker.conf"
    assert "Wants=mosquitto.service" in dropin.read_text()
    assert "mosquitto.service" in unit["Unit"]["After"]


def test_the_bridge_config_logs_in_as_the_tables_controller(bridged) -> None:
    inst, _source = bridged
    etc = inst.root / "etc/scoreboard"
    python = str(inst.opt / "current/bin/python")
    code = ("import sys; from scoreboard.settings.config import load_config; "
            "c = load_config(sys.argv[1]); "
            "print(c.table_id, c.mqtt.username, c.mqtt.password_file, c.limits)")  # fmt: skip
    read = subprocess.run([python, "-c", code, str(etc / "bridge.yaml")], capture_output=True,
                          text=True, cwd="/", check=True)  # fmt: skip
    assert read.stdout.split() == [
        "T1",
        "controller-T1",
        "/etc/scoreboard/controller.password",
        "None",
    ]
    assert oct((etc / "bridge.yaml").stat().st_mode & 0o777) == "0o640"
    # Readable by the bridge's group only, no longer root's alone.
    assert oct((etc / "controller.password").stat().st_mode & 0o777) == "0o640"
    step(
        inst.first_run.stdout,
        "skipped (--root): chown root:scoreboard-bridge",
        "controller.password",
    )


def test_the_unit_verifies_clean_and_is_hardened(tmp_path: Path) -> None:
    opt = tmp_path / "opt" / "scoreboard"
    command = opt / "current" / "bin" / "scoreboard"
    command.parent.mkdir(parents=True)
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    copy = tmp_path / "scoreboard-bridge.service"
    copy.write_text(UNIT.read_text().replace("/opt/scoreboard", str(opt)))
    assert_clean(verify(copy))
    marks = effective(copy)
    for setting in ("NoNewPrivileges=", "ProtectSystem=", "ProtectHome=", "PrivateTmp=",
                    "User=/DynamicUser=", "ProtectKernelTunables=", "ProtectControlGroups=",
                    "RestrictRealtime=", "NotifyAccess="):  # fmt: skip
        assert marks.get(setting), f"{setting} is not in effect"
    assert marks["DeviceAllow="] is False  # the serial adapters' devices stay reachable
    command.unlink()
    assert verify(copy).returncode != 0  # verify does look at the command


def test_a_rerun_keeps_the_bridge_and_changes_nothing(bridged) -> None:
    inst, source = bridged
    before = install_root.tree(inst.root)
    output = installed(install(inst.root, source=source)).stdout
    assert "the angel-eye bridge reads" in output
    assert install_root.tree(inst.root) == before


def test_no_bridge_removes_the_service_and_keeps_its_config(bridged) -> None:
    inst, source = bridged
    root = inst.root
    try:
        installed(install(root, "--no-bridge", source=source))
        assert not (root / "etc/systemd/system/scoreboard-bridge.service").exists()
        assert not (root / "etc/systemd/system/scoreboard-bridge.service.d").exists()
        assert not (
            root / "etc/systemd/system/multi-user.target.wants/scoreboard-bridge.service"
        ).is_symlink()
        assert (root / "etc/scoreboard/bridge.yaml").is_file()
        assert not any(key.startswith("SCOREBOARD_BRIDGE") for key in environment(root))
        assert oct((root / "etc/scoreboard/controller.password").stat().st_mode & 0o777) == "0o600"
    finally:
        installed(install(root, "--bridge", "angel-eye", "--serial", SERIAL, source=source))
    assert (root / "etc/systemd/system/scoreboard-bridge.service").is_file()


def test_serial_alone_moves_the_installed_bridge_to_another_device(bridged) -> None:
    inst, source = bridged
    other = SERIAL.replace("A50285BI", "B61396CJ")
    try:
        installed(
            install(inst.root, "--serial", other, "--bridge-args", "--baud 9600", source=source)
        )
        env = environment(inst.root)
        assert (env["SCOREBOARD_BRIDGE_SHOE"], env["SCOREBOARD_BRIDGE_SERIAL"]) == (
            "angel-eye",
            other,
        )
        assert env["SCOREBOARD_BRIDGE_ARGS"] == "--baud 9600"
    finally:
        installed(install(inst.root, "--serial", SERIAL, "--bridge-args", "", source=source))
    assert "SCOREBOARD_BRIDGE_ARGS" not in environment(inst.root)


def test_uninstall_removes_the_bridge_and_its_user_keeps_its_config(bridged) -> None:
    inst, _source = bridged
    root = install_root.copy_root(inst.root, "scoreboard-bridge-uninstall-")
    try:
        output = installed(install(root, "--uninstall")).stdout
        assert "skipped (--root): userdel scoreboard-bridge" in output
        listing = install_root.tree(root).items()
        left = {path for path, kind in listing if not kind.startswith("dir")}
        assert "etc/scoreboard/bridge.yaml" in left
        assert not [path for path in left if "scoreboard-bridge.service" in path]
        installed(install(root, "--uninstall", "--purge"))
        assert not (root / "etc/scoreboard").exists()
    finally:
        shutil.rmtree(root)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "root"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (
            ["--bridge", "shuffle-master", "--serial", SERIAL],
            "--bridge: expected angel-eye or bee-tek",
        ),
        (["--bridge", "bee-tek"], "--bridge bee-tek needs --serial PATH"),
        (
            ["--bridge", "bee-tek", "--serial", "ttyUSB0"],
            "--serial: expected the device's absolute path",
        ),
        (["--serial", SERIAL], "--serial and --bridge-args go with --bridge SHOE"),
        (["--bridge", "angel-eye", "--serial", SERIAL, "--no-bridge"], "contradict"),
        (["--bridge", "angel-eye", "--serial", "/dev/x'y"], "--serial: quotes"),
    ],
)
def test_a_bad_bridge_option_is_refused_naming_it(root: Path, args: list[str], named: str) -> None:
    assert named in refused(install(root, "--dry-run", *args), 2)


def test_a_ttyusb_name_is_taken_with_advice(root: Path, tmp_path: Path) -> None:
    source = source_copy(tmp_path / "source")
    output = planned(dry(root, source, "--bridge", "bee-tek", "--serial", "/dev/ttyUSB0"))
    assert "/dev/serial/by-id" in step(output, "/dev/ttyUSB0 is named by the order")
    assert "SCOREBOARD_BRIDGE_SHOE=bee-tek" in step(output, "write", "etc/scoreboard/environment")
    step(output, f"systemctl --root={root} enable scoreboard-bridge.service")
    assert "broker.conf" not in output  # no local broker: nothing to wait for
