"""TLS and login failures are named: an untrusted broker is not "unreachable".

Real certificates made by ``openssl`` here (a CA, broker certificates that are
expired, for another host, or from a CA the display does not know) against a
real TLS mosquitto; the link's :class:`Unreachable` says which, and a display
process logs a refused login with the broker's reason, once.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mqtt_broker import (
    MOSQUITTO_PASSWD,
    Broker,
    needs_mosquitto,
    running_broker,
    unique_prefix,
)
from test_link import Collector

from scoreboard.link.client import Connected, Link, Unreachable
from scoreboard.settings.config import TlsConfig

pytestmark = [needs_mosquitto, pytest.mark.slow]

CA_CONFIG = """\
[ ca ]
default_ca = test_ca
[ test_ca ]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any_name
unique_subject = no
[ any_name ]
commonName = supplied
"""
EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


class Authority:
    """A throwaway CA in ``directory`` that signs certificates with chosen dates and names."""

    def __init__(self, directory: Path, name: str) -> None:
        openssl = shutil.which("openssl")
        if openssl is None:
            pytest.fail("openssl is missing: run `make test` (or apt-get install openssl)")
        self.openssl = openssl
        self.directory = directory
        directory.mkdir(parents=True)
        (directory / "ca.cnf").write_text(CA_CONFIG)
        (directory / "index.txt").write_text("")
        (directory / "serial").write_text("01\n")
        self.crt, self.key = directory / "ca.crt", directory / "ca.key"
        self._run("req", "-x509", *EC, "-keyout", self.key, "-out", self.crt, "-days", "2",
                  "-subj", f"/CN={name}")  # fmt: skip

    def _run(self, *args: object) -> None:
        subprocess.run(
            [self.openssl, *map(str, args)], check=True, capture_output=True, cwd=self.directory
        )

    def issue(self, name: str, *, san: str = "IP:127.0.0.1", dates: tuple[str, str] | None = None):
        """``(cert, key)`` for ``name``; ``dates`` (``YYYYMMDDHHMMSSZ``) else valid for 2 days."""
        key, csr, crt = (self.directory / f"{name}.{ext}" for ext in ("key", "csr", "crt"))
        extensions = self.directory / f"{name}.ext"
        extensions.write_text(f"subjectAltName={san}\n")
        self._run("req", *EC, "-keyout", key, "-out", csr, "-subj", f"/CN={name}")
        validity = ["-startdate", dates[0], "-enddate", dates[1]] if dates else ["-days", "2"]
        self._run("ca", "-batch", "-notext", "-config", "ca.cnf", "-cert", self.crt,
                  "-keyfile", self.key, "-in", csr, "-out", crt, "-extfile", extensions,
                  *validity)  # fmt: skip
        for path in self.directory.iterdir():
            path.chmod(0o644)
        return crt, key


@pytest.fixture(scope="module")
def authorities(tmp_path_factory):
    base = tmp_path_factory.mktemp("certs")
    table, stranger = Authority(base / "table", "table CA"), Authority(base / "other", "other CA")
    return {
        "table": table,
        "stranger": stranger,
        "client": table.issue("display-T1-a"),
        "good": table.issue("broker"),
        "expired": table.issue("expired", dates=("20200101000000Z", "20200102000000Z")),
        "elsewhere": table.issue("elsewhere", san="DNS:broker.elsewhere.example,IP:10.9.9.9"),
    }


def first_failure(tmp_path: Path, authorities, server: str, ca: Path) -> Collector:
    """A link trusting ``ca`` against a broker presenting the ``server`` certificate."""
    cert, key = authorities[server]
    tls_files = {"cafile": authorities["table"].crt, "certfile": cert, "keyfile": key}
    with running_broker(tmp_path / "broker", tls=tls_files) as broker:
        client_cert, client_key = authorities["client"]
        endpoint = broker.endpoint(unique_prefix(), tls=TlsConfig(ca, client_cert, client_key))
        link = Link(endpoint, client_id=f"tls-{server}")
        collector = Collector(link)
        link.start(collector.wake)
        try:
            collector.until(lambda: bool(collector.of(Unreachable) or collector.of(Connected)), 15)
        finally:
            link.stop()
    return collector


@pytest.mark.parametrize(
    "server, trusted, cause",
    [
        ("expired", "table", "certificate verify failed: expired"),
        ("good", "stranger", "certificate verify failed: unknown CA"),
        ("elsewhere", "table", "certificate verify failed: hostname mismatch"),
    ],
)
def test_an_untrusted_broker_certificate_is_named(tmp_path, authorities, server, trusted, cause):
    collector = first_failure(tmp_path, authorities, server, authorities[trusted].crt)
    assert not collector.of(Connected)
    reasons = [event.reason for event in collector.of(Unreachable)]
    assert reasons and reasons[0].startswith(cause), reasons


def test_a_trusted_broker_certificate_connects(tmp_path, authorities):
    collector = first_failure(tmp_path, authorities, "good", authorities["table"].crt)
    assert collector.of(Connected) and not collector.of(Unreachable)


def test_nobody_listening_is_named_as_such(tmp_path):
    link = Link(Broker(tmp_path).endpoint(unique_prefix()), client_id="nobody-home")
    collector = Collector(link)
    link.start(collector.wake)
    try:
        assert collector.until(lambda: bool(collector.of(Unreachable)), 10)
    finally:
        link.stop()
    assert collector.of(Unreachable)[0].reason == "connection refused"


# -- the display process's log -----------------------------------------------------------
#: A display process retries: the first attempt and this many more, seen by the broker,
#: before its log is read, so a line logged once is logged once over several attempts.
RETRIES = 2


def run_display(tmp_path: Path, broker: Broker, *flags: str, until: str, attempt: str) -> str:
    """``scoreboard run --headless`` until its log says ``until`` and the broker's log has said
    ``attempt`` (one per connection attempt) 1 + :data:`RETRIES` times; its log.

    The retries are waited for as the broker sees them, not timed: the display's
    backoff is jittered, and on a loaded box the imports alone can take longer than
    a fixed wait.  A moment after the last one, for the display to log that too.
    """
    log_path = tmp_path / "display.log"
    with open(log_path, "wb") as log:
        display = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "run", "--headless", "--mqtt", broker.address,
             "--table", "T1", "--display-id", "T1-a", "--state-dir", str(tmp_path / "state"),
             *flags],
            stderr=log,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and display.poll() is None:
            said = until in log_path.read_text(errors="replace")
            if said and broker.log_text().count(attempt) > RETRIES:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        display.terminate()
        display.wait(20)
    assert broker.log_text().count(attempt) > RETRIES, broker.log_text()
    return log_path.read_text(errors="replace")


@pytest.mark.parametrize("protocol", ["5", "3.1.1"])
def test_a_refused_login_is_logged_with_the_brokers_reason_once(tmp_path, protocol):
    passwd = tmp_path / "passwd"
    subprocess.run([MOSQUITTO_PASSWD, "-b", "-c", str(passwd), "display-T1-a", "right"], check=True)
    (tmp_path / "wrong.password").write_text("wrong\n")
    options = {"allow_anonymous": False, "password_file": passwd}
    with running_broker(tmp_path / "broker", **options) as broker:
        text = run_display(
            tmp_path, broker, "--mqtt-protocol", protocol, "--username", "display-T1-a",
            "--password-file", str(tmp_path / "wrong.password"), until="refused the connection",
            attempt="not authorised",
        )  # fmt: skip
    lines = [line for line in text.splitlines() if "refused the connection" in line]
    assert len(lines) == 1, text
    assert "bad user name or password" in lines[0].lower() or "not authori" in lines[0].lower()
    assert "unreachable" not in text and "Traceback" not in text


def test_a_display_logs_an_expired_broker_certificate_once(tmp_path, authorities):
    cert, key = authorities["expired"]
    tls_files = {"cafile": authorities["table"].crt, "certfile": cert, "keyfile": key}
    client_cert, client_key = authorities["client"]
    with running_broker(tmp_path / "broker", tls=tls_files) as broker:
        text = run_display(
            tmp_path, broker, "--tls-ca", str(authorities["table"].crt),
            "--tls-cert", str(client_cert), "--tls-key", str(client_key),
            until="certificate verify failed", attempt="alert certificate expired",
        )  # fmt: skip
    lines = [line for line in text.splitlines() if "certificate verify failed" in line]
    assert len(lines) == 1 and "expired" in lines[0], text
