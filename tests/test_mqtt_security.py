"""Passwords and the example ACL, TLS with generated certificates, HMAC signatures."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from dealt import run_of
from mqtt_broker import (
    MOSQUITTO_PASSWD,
    Broker,
    Display,
    Recorder,
    needs_mosquitto,
    publisher,
    running_broker,
    unique_prefix,
    wait_for,
)

from scoreboard.controller import Controller
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import CoupReceived, canonical_json, encode, encode_payload
from scoreboard.settings.config import TlsConfig

pytestmark = needs_mosquitto

KIOSK = Path(__file__).resolve().parent.parent / "kiosk" / "mosquitto"
PREFIX = "baccarat/v2/T1"  # the prefix of the example ACL


def games(seed: int, count: int) -> tuple[str, list[Game]]:
    events = list(Dealer(seed=seed).shoe())
    dealt = [e for e in events if isinstance(e, CoupReceived)][:count]
    return dealt[0].shoe, [e.game for e in dealt]


def deal(controller: Controller, seed: int, count: int) -> None:
    events = list(Dealer(seed=seed).shoe())
    last = [i for i, e in enumerate(events) if isinstance(e, CoupReceived)][count - 1]
    controller.start()
    controller.deal(timed(events[: last + 1], 0.0, 0.0))
    assert controller.flush(10)


# -- password file and ACL --------------------------------------------------------
def test_the_example_acl_stops_a_display_from_publishing_a_coup(tmp_path):
    passwd = tmp_path / "passwd"
    users = {"controller-T1": "c-secret", "display-T1-a": "a-secret"}
    for number, (user, password) in enumerate(users.items()):
        flags = ["-b", "-c"] if number == 0 else ["-b"]
        subprocess.run([MOSQUITTO_PASSWD, *flags, str(passwd), user, password], check=True)
    passwd.chmod(0o600)
    options = {"allow_anonymous": False, "password_file": passwd, "acl_file": KIOSK / "acl"}
    with running_broker(tmp_path / "broker", **options) as broker:
        password_file = tmp_path / "display.password"
        password_file.write_text("a-secret\n")
        display = Display(
            broker.settings(username="display-T1-a", password_file=password_file),
            PREFIX,
            display_id="T1-a",
            password="a-secret",
        ).start()
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            watcher = Recorder(broker.settings(), f"{PREFIX}/#")
            watcher.client.username_pw_set("controller-T1", "c-secret")
            watcher.start()
            shoe_id, dealt = games(21, 2)
            intruder = publisher(broker.settings(), username="display-T1-a", password="a-secret")
            forged = encode_payload(encode(CoupReceived(shoe_id, dealt[0]))[1])
            intruder.publish(f"{PREFIX}/coup", forged, qos=1).wait_for_publish(5)
            intruder.publish(f"{PREFIX}/snapshot", b"{}", qos=1, retain=True).wait_for_publish(5)
            intruder.publish(f"{PREFIX}/display/T1-b/status", b"{}", qos=1).wait_for_publish(5)
            # What the display user may write arrives; published after the denied ones,
            # so once it is here the denied ones would have been too.
            intruder.publish(f"{PREFIX}/cmd/resync", b'{"v":1}', qos=1).wait_for_publish(5)
            assert wait_for(lambda: watcher.on(f"{PREFIX}/cmd/resync"), 10)
            assert watcher.on(f"{PREFIX}/coup") == []
            assert watcher.on(f"{PREFIX}/snapshot") == []
            assert watcher.on(f"{PREFIX}/display/T1-b/status") == []
            # The display's own status got through, and it saw no coup.
            assert wait_for(lambda: watcher.on(f"{PREFIX}/display/T1-a/status"), 10)
            display.poll()
            assert display.table.games == ()
            # The controller user may publish, and the display user may read it.
            controller = Controller(
                broker.endpoint(PREFIX, password="c-secret", username="controller-T1"),
                limits=Limits.default_for(VARIANTS["commission"]),
            )
            deal(controller, 21, 2)
            assert display.until(lambda: display.table.games == tuple(dealt))
            controller.stop()
            intruder.loop_stop()
            watcher.stop()
        finally:
            display.stop()


def test_a_wrong_password_never_connects(tmp_path):
    passwd = tmp_path / "passwd"
    subprocess.run([MOSQUITTO_PASSWD, "-b", "-c", str(passwd), "display-T1-a", "right"], check=True)
    with running_broker(tmp_path / "broker", allow_anonymous=False, password_file=passwd) as broker:
        display = Display(
            broker.settings(username="display-T1-a"), PREFIX, password="wrong"
        ).start()
        try:
            refused_twice(display, broker, "disconnected, not authorised")
            assert display.status().value == "connecting"
        finally:
            display.stop()


def refused_twice(display: Display, broker: Broker, refusal: str) -> None:
    """The broker refused two of the display's attempts (its log says so) and none got in.

    Waits on the refusals themselves, not on a fixed time: the first attempt and the
    retry after it both refused, the display never connected in between.
    """

    def refusals() -> int:
        return broker.log_text().count(refusal)

    display.until(lambda: display.session.ever_connected or refusals() >= 2, 20)
    assert not display.session.ever_connected
    assert refusals() >= 2, broker.log_text()


# -- TLS ------------------------------------------------------------------------------
def make_certificates(directory: Path) -> dict[str, Path]:
    """A throwaway CA, a broker certificate for 127.0.0.1 and a display certificate."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("the openssl command is missing: run `make test` (or apt-get install openssl)")
    directory.mkdir()
    files = {name: directory / name for name in (
        "ca.key", "ca.crt", "server.key", "server.csr", "server.crt",
        "client.key", "client.csr", "client.crt", "san.ext",
    )}  # fmt: skip
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args):
        subprocess.run([openssl, *args], check=True, capture_output=True)

    run("req", "-x509", *ec, "-keyout", files["ca.key"], "-out", files["ca.crt"],
        "-days", "2", "-subj", "/CN=scoreboard test CA")  # fmt: skip
    files["san.ext"].write_text("subjectAltName=IP:127.0.0.1\n")
    for name, subject in (("server", "/CN=127.0.0.1"), ("client", "/CN=display-T1-a")):
        run("req", *ec, "-keyout", files[f"{name}.key"], "-out", files[f"{name}.csr"],
            "-subj", subject)  # fmt: skip
        run("x509", "-req", "-in", files[f"{name}.csr"], "-CA", files["ca.crt"],
            "-CAkey", files["ca.key"], "-CAcreateserial", "-out", files[f"{name}.crt"],
            "-days", "2", "-extfile", files["san.ext"])  # fmt: skip
    for path in directory.iterdir():
        path.chmod(0o644)
    return files


def test_tls_with_a_client_certificate_carries_the_feed(tmp_path):
    certs = make_certificates(tmp_path / "certs")
    tls_files = {
        "cafile": certs["ca.crt"], "certfile": certs["server.crt"], "keyfile": certs["server.key"]
    }  # fmt: skip
    with running_broker(tmp_path / "broker", tls=tls_files) as broker:
        tls = TlsConfig(certs["ca.crt"], certs["client.crt"], certs["client.key"])
        prefix = unique_prefix()
        display = Display(broker.settings(tls=tls), prefix).start()
        try:
            assert display.until(lambda: display.session.subscribed, 15), broker.log_text()
            controller = Controller(
                broker.endpoint(prefix, tls=tls),
                limits=Limits.default_for(VARIANTS["commission"]),
            )
            deal(controller, 31, 5)
            _, dealt = games(31, 5)
            assert display.until(lambda: display.table.games == tuple(dealt))
            controller.stop()
        finally:
            display.stop()
        # Without a client certificate the broker refuses the handshake.
        anonymous = Display(broker.settings(tls=TlsConfig(certs["ca.crt"])), prefix).start()
        try:
            refused_twice(anonymous, broker, "peer did not return a certificate")
        finally:
            anonymous.stop()


# -- HMAC signatures -------------------------------------------------------------------
def test_a_forged_signature_is_rejected_and_signed_coups_accepted(tmp_path):
    key = b"table-T1-shared-key"
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        display = Display(broker.settings(), prefix, hmac_key=key).start()
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            controller = Controller(
                broker.endpoint(prefix, hmac_key=key),
                limits=Limits.default_for(VARIANTS["commission"]),
            )
            deal(controller, 41, 5)
            shoe_id, dealt = games(41, 7)
            assert display.until(lambda: display.table.games == tuple(dealt[:5]))
            assert display.session.controller_online is True  # the signed status was accepted
            version = display.table.version
            forger = publisher(broker.settings())
            data = encode(CoupReceived(shoe_id, dealt[5]))[1]
            tampered = json.loads(encode_payload(data, key))
            tampered["game"] = 7  # signed as game 6
            attempts = [
                encode_payload(data, b"wrong key"),
                encode_payload(data),  # unsigned
                json.dumps(tampered).encode(),
                canonical_json({**data, "sig": "00" * 32}),
            ]
            for payload in attempts:
                forger.publish(f"{prefix}/coup", payload, qos=1).wait_for_publish(5)
            forger.publish(f"{prefix}/controller/status", b"offline", qos=1).wait_for_publish(5)
            assert display.until(lambda: display.session.rejected == 5)
            # Four forged coups and one unsigned controller status (not JSON either).
            assert display.session.rejected_by_reason["signature"] == 4
            assert display.table.version == version
            assert display.session.controller_online is True
            forger.loop_stop()
            controller.stop()
        finally:
            display.stop()


def test_an_exception_in_a_callback_does_not_kill_the_network_thread(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        display = Display(broker.settings(), prefix)
        calls = []

        def failing_wake():
            calls.append(1)
            if len(calls) == 2:
                raise RuntimeError("wake failed")

        display.feed.start(failing_wake)
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            shoe_id, dealt = games(51, 3)
            client = publisher(broker.settings())
            for game in dealt:
                payload = encode_payload(encode(CoupReceived(shoe_id, game))[1])
                client.publish(f"{prefix}/coup", payload, qos=1).wait_for_publish(5)
                time.sleep(0.05)
            assert display.until(lambda: len(display.table.games) == 3)
            assert display.feed.link.connected
            client.loop_stop()
        finally:
            display.stop()


def test_the_commands_with_passwords_acl_and_signatures_end_to_end(tmp_path):
    import sys

    passwd = tmp_path / "passwd"
    secrets = {"controller-T1": "c-secret", "display-T1-a": "a-secret"}
    for number, (user, password) in enumerate(secrets.items()):
        flags = ["-b", "-c"] if number == 0 else ["-b"]
        subprocess.run([MOSQUITTO_PASSWD, *flags, str(passwd), user, password], check=True)
    for user, password in secrets.items():
        (tmp_path / f"{user}.password").write_text(password + "\n")
    key_file = tmp_path / "T1.key"
    key_file.write_text("0123456789abcdef\n")
    options = {"allow_anonymous": False, "password_file": passwd, "acl_file": KIOSK / "acl"}
    with running_broker(tmp_path / "broker", **options) as broker:
        watcher = Recorder(broker.settings(), f"{PREFIX}/display/T1-a/status")
        watcher.client.username_pw_set("controller-T1", "c-secret")
        watcher.start()
        common = ["--mqtt", broker.address, "--table", "T1", "--prefix", PREFIX,
                  "--hmac-key-file", str(key_file)]  # fmt: skip
        display = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "run", "--headless", *common,
             "--display-id", "T1-a", "--state-dir", str(tmp_path / "state"),
             "--username", "display-T1-a",
             "--password-file", str(tmp_path / "display-T1-a.password")],
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:

            def status():
                payloads = watcher.on(f"{PREFIX}/display/T1-a/status")
                return json.loads(payloads[-1]) if payloads else {}

            assert wait_for(lambda: status().get("online") is True, 20)
            shoe = subprocess.run(
                [sys.executable, "-m", "scoreboard", "shoe", *common, "--pace", "0",
                 "--seed", "5", "--decks", "1", "--shoes", "1", "--username", "controller-T1",
                 "--password-file", str(tmp_path / "controller-T1.password")],
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert shoe.returncode == 0, shoe.stderr
            assert wait_for(lambda: status().get("shoe") is not None, 20), status()
            run = run_of(status()["shoe"])
            dealt = [
                e for e in Dealer(decks=1, seed=5, run=run).shoe() if isinstance(e, CoupReceived)
            ]
            assert wait_for(lambda: status().get("games") == len(dealt), 20), status()
            assert status()["rejected"] == 0 and status()["missing"] == []
            assert status()["shoe"] == dealt[0].shoe
        finally:
            display.terminate()
            display.wait(20)
            watcher.stop()
