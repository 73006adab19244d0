"""How to reach one table's feed: the broker settings, the topics and the secrets, as one value.

The config (:mod:`scoreboard.settings.config`) says where the broker is and where the
secrets lie; :func:`load_endpoint` reads the secret files once, checks the TLS
files exist, and hands the link, the display and the controller one
:class:`Endpoint`.

>>> from scoreboard.settings.config import config_from_mapping
>>> load_endpoint(config_from_mapping({"table": {"id": "T3"}})).topics.prefix
'baccarat/v2/T3'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scoreboard.protocol.topics import Topics
from scoreboard.regular_file import check_regular, read_regular
from scoreboard.settings.config import Config, MqttConfig, TlsConfig
from scoreboard.settings.reader import ConfigError

#: The longest secret file read (a password or a key is a line).
MAX_SECRET_BYTES = 64 * 1024


def read_secret(path: Path | str, what: str) -> bytes:
    """A password or HMAC key from its file, without the trailing newline.

    Only a regular file is read: a FIFO would hang the start, ``/dev/zero`` never end.
    """
    try:
        secret = read_regular(path, MAX_SECRET_BYTES)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the {what} ({error.strerror or error})") from None
    if len(secret) > MAX_SECRET_BYTES:
        raise ConfigError(f"{path}: the {what} file is over {MAX_SECRET_BYTES} bytes")
    secret = secret.strip()
    if not secret:
        raise ConfigError(f"{path}: the {what} file is empty")
    return secret


@dataclass(frozen=True, slots=True)
class Endpoint:
    """How to reach one table's feed: broker settings, topics and secrets, as one value.

    Built once by :func:`load_endpoint` and handed whole to the link, the
    display and the controller, so no secret travels beside the settings and
    nothing reads the prefix or a secret file a second time.  The secrets
    never show in a ``repr`` (a log line or a traceback).

    >>> endpoint = Endpoint(MqttConfig(), Topics("baccarat/v1/T1"), password="s3cret")
    >>> endpoint.topics.prefix, "s3cret" in repr(endpoint)
    ('baccarat/v1/T1', False)
    """

    mqtt: MqttConfig
    topics: Topics
    password: str | None = field(default=None, repr=False)
    hmac_key: bytes | None = field(default=None, repr=False)


def load_endpoint(config: Config) -> Endpoint:
    """The config's :class:`Endpoint`: read the secret files, check the TLS files exist.

    A :class:`ConfigError` names every file that cannot be used, one line each.

    >>> from scoreboard.settings.config import config_from_mapping
    >>> load_endpoint(config_from_mapping({"table": {"id": "T3"}})).topics.coup
    'baccarat/v2/T3/coup'
    """
    settings = config.mqtt
    problems: list[str] = []
    topics = None
    try:
        topics = Topics(config.prefix)
    except ValueError as error:
        problems.append(str(error))
    password = None
    if settings.password_file is not None:
        try:
            password = read_secret(settings.password_file, "MQTT password").decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"{settings.password_file}: the MQTT password is not UTF-8 text")
        except ConfigError as error:
            problems.extend(error.errors)
    key = None
    if settings.hmac_key_file is not None:
        try:
            key = read_secret(settings.hmac_key_file, "HMAC key")
        except ConfigError as error:
            problems.extend(error.errors)
    problems.extend(_tls_file_problems(settings.tls))
    if problems or topics is None:
        raise ConfigError(problems)
    return Endpoint(settings, topics, password=password, hmac_key=key)


def _tls_file_problems(tls: TlsConfig | None) -> list[str]:
    """Each TLS file that is missing or no regular file, in words."""
    if tls is None:
        return []
    problems: list[str] = []
    for flag, path in (("--tls-ca", tls.ca), ("--tls-cert", tls.cert), ("--tls-key", tls.key)):
        if path is None:
            continue
        try:
            check_regular(path)
        except FileNotFoundError:
            problems.append(f"{flag}: {path}: no such file")
        except OSError as error:
            problems.append(f"{flag}: {path}: {error.strerror or error}")
    return problems
