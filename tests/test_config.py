"""The kiosk configuration: the sample loads, mistakes name file and key, flags override."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoreboard.cli import UsageError, build_parser
from scoreboard.cli.commands.run import settings_from_args
from scoreboard.settings.config import MqttConfig, TlsConfig, config_from_mapping, load_config
from scoreboard.settings.endpoint import load_endpoint
from scoreboard.settings.reader import ConfigError, parse_hostport, parse_size

SAMPLE = Path(__file__).resolve().parent.parent / "kiosk" / "scoreboard.yaml"


def test_the_sample_config_loads():
    config = load_config(SAMPLE)
    assert config.table_id == "T1" and config.display_id == "T1-a"
    assert config.prefix == "baccarat/v2/T1"
    # No account by default: a fresh install on a broker without accounts (or none yet)
    # starts and shows its roads with OFFLINE, instead of refusing a missing password file.
    assert config.mqtt.username is None and config.mqtt.password_file is None
    assert load_endpoint(config).password is None
    assert config.mqtt.protocol == "5"
    assert config.mqtt.session_expiry == 86_400 and config.mqtt.client_id is None


def test_defaults_match_the_issue():
    config = config_from_mapping({})
    assert (config.mqtt.host, config.mqtt.port) == ("127.0.0.1", 1883)
    assert config.prefix == "baccarat/v2/T1"


@pytest.mark.parametrize(
    "data, where",
    [
        ({"mqtt": {"port": "1883"}}, "mqtt.port: expected an integer 1-65535"),
        ({"mqtt": {"port": 70000}}, "mqtt.port"),
        ({"mqtt": {"broker": "host:port"}}, "mqtt.broker: expected HOST:PORT"),
        ({"mqtt": {"protocol": 4}}, "mqtt.protocol: expected 5 or 3.1.1"),
        ({"mqtt": {"tls": {"ca": "ca.crt", "cert": "c.crt"}}}, "mqtt.tls: expected both cert"),
        ({"mqtt": {"tls": {"cert": "c.crt"}}}, "mqtt.tls.ca"),
        ({"mqtt": {"tls": {"ca": None}}}, "mqtt.tls.ca: expected the CA certificate file"),
        ({"mqtt": {"tls": {}}}, "mqtt.tls.ca: expected the CA certificate file"),
        ({"mqtt": {"tls": {"ca": ""}}}, "mqtt.tls.ca: expected a file path"),
        ({"mqtt": {"tls": "yes"}}, "mqtt.tls: expected a mapping"),
        ({"mqtt": {"prefix": "a/#"}}, "mqtt.prefix"),
        ({"mqtt": {"colour": 1}}, "mqtt.colour: expected one of the keys"),
        ({"mqtt": {"client_id": "a b"}}, "mqtt.client_id: expected 1-128 letters"),
        ({"mqtt": {"client_id": "x" * 129}}, "mqtt.client_id: expected 1-128 letters"),
        ({"mqtt": {"session_expiry": 59}}, "mqtt.session_expiry: expected an integer 60-604800"),
        ({"mqtt": {"session_expiry": 10**9}}, "mqtt.session_expiry: expected an integer"),
        ({"mqtt": {"session_expiry": "1d"}}, "mqtt.session_expiry: expected an integer"),
        ({"mqtt": {"connect_timeout": 0.1}}, "mqtt.connect_timeout: expected seconds, 0.5 to 300"),
        ({"mqtt": {"subscribe_timeout": "5s"}}, "mqtt.subscribe_timeout: expected seconds"),
        ({"table": {"id": "T 1"}}, "table.id"),
        ({"table": {"variant": "pai gow"}}, "table.variant: expected one of commission"),
        ({"display": {"windowed": "yes"}}, "display.windowed: expected true or false"),
        ({"display": {"size": "big"}}, "display.size: expected WIDTHxHEIGHT"),
        ({"tables": {}}, "tables: expected one of the keys"),
        (["not", "a", "mapping"], "(top level): expected a mapping"),
    ],
)
def test_a_mistake_names_the_file_and_the_key_path(data, where):
    with pytest.raises(ConfigError) as caught:
        config_from_mapping(data, source="scoreboard.yaml")
    assert str(caught.value).startswith("scoreboard.yaml: ")
    assert where in str(caught.value)


def test_the_session_settings_default_to_a_stable_id_and_a_day():
    assert config_from_mapping({}).mqtt.client_id is None  # the program's stable default
    assert config_from_mapping({}).mqtt.session_expiry == 86_400
    chosen = config_from_mapping({"mqtt": {"client_id": "T1-a.kiosk", "session_expiry": 3600}})
    assert (chosen.mqtt.client_id, chosen.mqtt.session_expiry) == ("T1-a.kiosk", 3600)


def test_a_hanging_broker_is_left_after_5_s_unless_the_config_says_otherwise():
    """The link's answer watch waits this long for a CONNACK and for a SUBACK (docs/protocol.md)."""
    from scoreboard.link._ping import CONNECT, SUBSCRIBE, verdict

    default = config_from_mapping({}).mqtt
    assert (default.connect_timeout, default.subscribe_timeout) == (5.0, 5.0)
    assert (CONNECT.timeout, SUBSCRIBE.timeout) == (5.0, 5.0)
    assert verdict(CONNECT) == "the broker did not answer the CONNECT within 5 s"
    chosen = config_from_mapping({"mqtt": {"connect_timeout": 12, "subscribe_timeout": 0.5}})
    assert (chosen.mqtt.connect_timeout, chosen.mqtt.subscribe_timeout) == (12.0, 0.5)


def test_bad_yaml_and_missing_files_name_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("mqtt: [unclosed\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: line \d+, column \d+: YAML syntax error"):
        load_config(bad)
    with pytest.raises(ConfigError, match=r"nope\.yaml: cannot read"):
        load_config(tmp_path / "nope.yaml")


def test_host_port_and_size_parsing():
    assert parse_hostport("broker") == ("broker", 1883)
    assert parse_hostport("10.1.2.3:8883") == ("10.1.2.3", 8883)
    assert parse_hostport("[::1]:1884") == ("::1", 1884)
    with pytest.raises(ValueError):
        parse_hostport("a:b:c")
    assert parse_size("1280x720") == (1280, 720)
    with pytest.raises(ValueError):
        parse_size("1280")


def run_args(*argv):
    return build_parser().parse_args(["run", *argv])


def test_flags_override_the_config_file(tmp_path):
    config = settings_from_args(
        run_args(
            "--config", str(SAMPLE), "--mqtt", "10.0.0.9:8883", "--table", "T9",
            "--display-id", "T9-x", "--state-dir", str(tmp_path), "--size", "800x600",
            "--windowed", "--tls-ca", "ca.crt", "--hmac-key-file", "k",
        )
    )  # fmt: skip
    assert (config.mqtt.host, config.mqtt.port) == ("10.0.0.9", 8883)
    assert config.table_id == "T9" and config.prefix == "baccarat/v2/T9"
    assert config.display_id == "T9-x" and config.state_dir == tmp_path
    assert config.size == (800, 600) and config.windowed
    assert config.mqtt.tls == TlsConfig(Path("ca.crt"))
    assert config.mqtt.username is None  # the sample's account is commented out
    assert config.mqtt.hmac_key_file == Path("k")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--mqtt", "a:b:c"], "--mqtt"),
        (["--tls-cert", "c.crt"], "--tls-cert and --tls-key go together"),
        (["--tls-cert", "c", "--tls-key", "k"], "--tls-cert needs --tls-ca"),
        (["--password-file", "p"], "--password-file needs --username"),
        (["--size", "huge"], "--size"),
    ],
)
def test_bad_flags_are_usage_errors(argv, message):
    with pytest.raises(UsageError, match=message):
        settings_from_args(run_args(*argv))


def test_a_tls_block_without_a_ca_never_reaches_the_link(tmp_path):
    path = tmp_path / "scoreboard.yaml"
    path.write_text("mqtt:\n  tls:\n    ca:\n")
    with pytest.raises(ConfigError, match=r"scoreboard\.yaml: mqtt\.tls\.ca: expected the CA"):
        load_config(path)
    assert config_from_mapping({"mqtt": {"tls": None}}).mqtt.tls is None  # no block: no TLS


def test_the_endpoint_carries_the_topics_and_the_secrets_read_once(tmp_path):
    (tmp_path / "password").write_text("s3cret\n")
    (tmp_path / "key").write_bytes(b"0123456789abcdef\n")
    config = config_from_mapping(
        {
            "table": {"id": "T4"},
            "mqtt": {
                "username": "display-T4-a",
                "password_file": str(tmp_path / "password"),
                "hmac_key_file": str(tmp_path / "key"),
            },
        }
    )
    endpoint = load_endpoint(config)
    assert endpoint.mqtt == config.mqtt
    assert endpoint.topics.prefix == "baccarat/v2/T4"
    assert endpoint.password == "s3cret" and endpoint.hmac_key == b"0123456789abcdef"
    assert "s3cret" not in repr(endpoint) and "0123456789abcdef" not in repr(endpoint)
    assert "s3cret" not in str(endpoint)


def test_an_endpoint_without_secrets_is_fine():
    endpoint = load_endpoint(config_from_mapping({}))
    assert endpoint.mqtt == MqttConfig() and endpoint.topics.prefix == "baccarat/v2/T1"
    assert endpoint.password is None and endpoint.hmac_key is None


@pytest.mark.parametrize(
    "mqtt, message",
    [
        ({"password_file": "nope"}, r"nope: cannot read the MQTT password"),
        ({"hmac_key_file": "nope"}, r"nope: cannot read the HMAC key"),
        ({"tls": {"ca": "no-ca.crt"}}, r"--tls-ca: no-ca.crt: no such file"),
    ],
)
def test_an_unusable_secret_or_certificate_is_a_config_error(tmp_path, monkeypatch, mqtt, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=message):
        load_endpoint(config_from_mapping({"mqtt": mqtt}))


def test_an_empty_or_binary_password_file_is_refused(tmp_path):
    empty, binary = tmp_path / "empty", tmp_path / "binary"
    empty.write_text("\n")
    binary.write_bytes(b"\xff\xfe")
    for path, message in ((empty, "file is empty"), (binary, "not UTF-8")):
        config = config_from_mapping({"mqtt": {"password_file": str(path)}})
        with pytest.raises(ConfigError, match=message):
            load_endpoint(config)
