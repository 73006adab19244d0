"""A real RabbitMQ cluster (the MQTT plugin) on loopback ports, for the cluster tests.

Each node is ``rabbitmq-server`` started directly (no service manager: systemd is
not PID 1 in CI), with its own node name, AMQP, distribution and MQTT ports, and
its data, logs, config and enabled-plugins file under the test's directory.  The
cluster forms as its nodes boot, from their config (peer discovery
``classic_config``): the first node starts alone, the others name it and join it
on their first boot, as a deployment's nodes do, rather than being joined after
the fact by ``rabbitmqctl stop_app; join_cluster; start_app`` (every rabbitmqctl
call is an Erlang VM of its own, about a CPU-second; an app restart is most of a
boot).  A node is up when its log says so and its MQTT listener accepts a CONNECT;
one ``rabbitmqctl eval`` then checks that every node runs in the one cluster and
in the MQTT plugin's client-id tracking.  The nodes share one Erlang cookie
(``HOME`` holds ``.erlang.cookie``) and one epmd of their own on a free port
(``ERL_EPMD_PORT``), so nothing of the machine's own RabbitMQ (if any) is touched,
and :meth:`Cluster.stop` kills every process it started: each node's Erlang VM and
the epmd.

Why three nodes when the issue says two: since 3.8 the MQTT plugin tracks client
ids in a Raft cluster, which needs a majority of the nodes.  Two nodes serve MQTT
as long as both run; with one of them stopped the other accepts no MQTT
connection at all.  The failover test stops a node, so its cluster has three.

Tests using it are marked ``cluster`` (``cluster`` below).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from mqtt_broker import free_port

from scoreboard.protocol import Topics
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint

RABBITMQ_BIN = Path("/usr/lib/rabbitmq/bin")
SERVER = shutil.which("rabbitmq-server", path=str(RABBITMQ_BIN)) or "rabbitmq-server"
CTL = shutil.which("rabbitmqctl", path=str(RABBITMQ_BIN)) or "rabbitmqctl"
#: A node on a shared 2-core CI machine takes 5-20 s to boot; give it plenty.
START_TIMEOUT = 120.0

cluster = pytest.mark.cluster

#: The node's running cluster nodes and the members of the MQTT plugin's Raft cluster
#: (its client-id tracking), each sorted, space-separated: "NODES|MEMBERS".
RUNNING_AND_TRACKING = (
    "{ok, Members, _} = ra:members({mqtt_node, node()}), "
    'Names = fun(Nodes) -> string:join([atom_to_list(N) || N <- lists:sort(Nodes)], " ") end, '
    'Names(rabbit_nodes:all_running()) ++ "|" ++ Names([N || {_, N} <- Members]).'
)

#: A CONNACK (MQTT 3.1.1) whose return code accepts the connection.
MQTT_ACCEPTED = b"\x20\x02\x00\x00"


def mqtt_connect_packet(client_id: str) -> bytes:
    """An MQTT 3.1.1 CONNECT: clean session, keepalive 10 s, no credentials."""
    name = client_id.encode()
    body = b"\x00\x04MQTT\x04\x02\x00\x0a" + len(name).to_bytes(2, "big") + name
    return bytes([0x10, len(body)]) + body


def mqtt_connack(port: int) -> bytes:
    """What the MQTT listener on ``port`` answers a CONNECT with (b"" if nothing)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(mqtt_connect_packet(f"ready-{secrets.token_hex(4)}"))
            answer = b""
            while len(answer) < len(MQTT_ACCEPTED):
                chunk = sock.recv(len(MQTT_ACCEPTED) - len(answer))
                if not chunk:
                    break
                answer += chunk
            if answer == MQTT_ACCEPTED:
                sock.sendall(b"\xe0\x00")  # DISCONNECT: a clean goodbye
            return answer
    except OSError:
        return b""


def _check_installed() -> None:
    if not Path(SERVER).exists():
        pytest.fail("rabbitmq-server is missing: apt-get install rabbitmq-server")


@dataclass
class Node:
    """One RabbitMQ node of the cluster; ``stop()`` and ``start()`` keep its ports and data."""

    name: str
    directory: Path
    env: dict[str, str]
    mqtt_port: int = field(default_factory=free_port)
    amqp_port: int = field(default_factory=free_port)
    dist_port: int = field(default_factory=free_port)
    peers: tuple[str, ...] = ()  # the nodes it joins on its first boot (none: it starts alone)
    process: subprocess.Popen | None = None

    @property
    def node(self) -> str:
        return f"{self.name}@localhost"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.mqtt_port}"

    def settings(self, **changes: object) -> MqttConfig:
        """MQTT 3.1.1: what RabbitMQ 3.10's plugin speaks (no MQTT 5, no session expiry)."""
        options: dict = {"protocol": "3.1.1", "keepalive": 1, **changes}
        return MqttConfig(host="127.0.0.1", port=self.mqtt_port, **options)

    def endpoint(self, prefix: str, **changes: object) -> Endpoint:
        return Endpoint(self.settings(**changes), Topics(prefix))

    def config_lines(self) -> list[str]:
        lines = [
            f"listeners.tcp.1 = 127.0.0.1:{self.amqp_port}",
            f"mqtt.listeners.tcp.1 = 127.0.0.1:{self.mqtt_port}",
            "mqtt.allow_anonymous = true",
            "loopback_users = none",
            "log.console = false",
            "log.file.level = info",
        ]
        if self.peers:
            # A blank node joins the first of its peers that answers; it asks every half
            # second for as long as a node may take to boot (RabbitMQ's default gives up
            # after 5 s and starts alone: a cluster of one, split from the others).
            lines += [
                "cluster_formation.peer_discovery_backend = classic_config",
                *(
                    f"cluster_formation.classic_config.nodes.{number} = {peer}"
                    for number, peer in enumerate((*self.peers, self.node), start=1)
                ),
                "cluster_formation.discovery_retry_interval = 500",
                f"cluster_formation.discovery_retry_limit = {int(START_TIMEOUT * 2)}",
            ]
        return lines

    def node_env(self) -> dict[str, str]:
        (self.directory / "rabbitmq.conf").write_text("\n".join(self.config_lines()) + "\n")
        (self.directory / "enabled_plugins").write_text("[rabbitmq_mqtt].\n")
        return {
            **self.env,
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
            "RABBITMQ_NODE_PORT": str(self.amqp_port),
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "RABBITMQ_MNESIA_BASE": str(self.directory / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.directory / "log"),
            "RABBITMQ_CONFIG_FILE": str(self.directory / "rabbitmq.conf"),
            "RABBITMQ_ADVANCED_CONFIG_FILE": str(self.directory / "advanced.config"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.directory / "enabled_plugins"),
            "RABBITMQ_PID_FILE": str(self.directory / "node.pid"),
            "RABBITMQ_CONF_ENV_FILE": str(self.directory / "rabbitmq-env.conf"),
        }

    def start(self) -> None:
        """Boot the VM and wait until the node is up and serves MQTT (``await_running``
        then says whether it is back in its cluster)."""
        self.boot()
        self.await_serving()

    def boot(self) -> None:
        """Start the VM without waiting (``start`` then waits for it)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self._log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        env = self.node_env()
        (self.directory / "rabbitmq-env.conf").write_text("")
        self._log = open(self.directory / "server.out", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [SERVER],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=self.directory,  # a node that dies writes its MnesiaCore dump here, not in the repo
        )

    @property
    def log_path(self) -> Path:
        return self.directory / "log" / f"{self.node}.log"

    def await_serving(self, timeout: float = START_TIMEOUT) -> None:
        """Until the node is up (``await_booted``) and serves MQTT (``await_mqtt``)."""
        deadline = time.monotonic() + timeout
        self.await_booted(timeout)
        self.await_mqtt(max(0.0, deadline - time.monotonic()))

    def await_booted(self, timeout: float = START_TIMEOUT) -> None:
        """Until this boot's log says ``Server startup complete``: what ``rabbitmqctl
        await_startup`` waits for, read without an Erlang VM of its own."""
        deadline = time.monotonic() + timeout
        while not self._booted():
            self._check_alive()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.node} not up within {timeout} s: {self.log_tail()}")
            time.sleep(0.1)

    def await_mqtt(self, timeout: float = START_TIMEOUT) -> None:
        """Until the MQTT listener answers a CONNECT with a CONNACK accepting it (the
        plugin registered the client id in its Raft cluster: this node is a member)."""
        deadline = time.monotonic() + timeout
        while (answer := mqtt_connack(self.mqtt_port)) != MQTT_ACCEPTED:
            self._check_alive()
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{self.node}: MQTT on {self.mqtt_port} answered {answer!r}, "
                    f"not a CONNACK accepting the client: {self.log_tail()}"
                )
            time.sleep(0.1)

    def _booted(self) -> bool:
        if not self.log_path.exists():
            return False
        with open(self.log_path, "rb") as log:
            log.seek(self._log_start)
            return b"Server startup complete" in log.read()

    def _check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"{self.node} exited: {self.log_tail()}")

    def log_tail(self) -> str:
        return self.log_text()[-3000:]

    def ctl(self, *args: str, timeout: float = 60.0) -> str:
        """``rabbitmqctl -n NODE ARGS``; a failure raises with its output."""
        result = subprocess.run(
            [CTL, "-n", self.node, *args],
            env={**self.env, "RABBITMQ_CONF_ENV_FILE": str(self.directory / "rabbitmq-env.conf")},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"rabbitmqctl -n {self.node} {' '.join(args)}: {result.stdout}{result.stderr}"
            )
        return result.stdout

    def stop(self) -> None:
        """Stop the node's VM (SIGTERM, then SIGKILL): the node going away mid-shoe."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        self._log.close()

    def kill(self) -> None:
        """The node's machine losing power: SIGKILL to its whole process group."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            self._log.close()

    def log_text(self) -> str:
        texts = [(self.directory / "server.out")]
        texts += sorted((self.directory / "log").glob("*.log"))
        return "".join(path.read_text(errors="replace") for path in texts if path.exists())


@dataclass
class Cluster:
    """``size`` nodes ``sb1@localhost``... joining the first as they boot; every process its own."""

    directory: Path
    size: int = 2
    nodes: list[Node] = field(default_factory=list)
    epmd_port: int = field(default_factory=free_port)

    def start(self) -> Cluster:
        _check_installed()
        home = self.directory / "home"
        home.mkdir(parents=True, exist_ok=True)
        cookie = home / ".erlang.cookie"
        cookie.write_text(secrets.token_hex(16))
        cookie.chmod(0o400)
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("RABBITMQ_", "ERL_", "NOTIFY_SOCKET"))
        }
        env |= {"HOME": str(home), "ERL_EPMD_PORT": str(self.epmd_port), "LC_ALL": "C.UTF-8"}
        self.env = env
        first = Node("sb1", self.directory / "sb1", env)
        self.nodes = [first] + [
            Node(f"sb{index}", self.directory / f"sb{index}", env, peers=(first.node,))
            for index in range(2, self.size + 1)
        ]
        # One node at a time, each once the ones before serve MQTT.  RabbitMQ 3.10's MQTT
        # plugin adds its node to its Raft cluster (the client ids) once, as the node
        # boots: a node adding itself while the others still settle their membership is
        # refused, never retried, and then accepts no MQTT connection ("client ID
        # registration timed out" in its log); a node whose MQTT plugin is not started yet
        # is still counted as a member by the others, which then wait for its vote.  Two
        # nodes starting it at once name each other as the initial members, and on a busy
        # box they were seen to wait 100 s for a leader (the Raft call's timeout) before
        # either stood for election.
        for node in self.nodes:
            node.start()
        self.await_running()
        return self

    def await_running(self) -> None:
        """One question to the first node up: every node runs in its cluster and is a
        member of the MQTT plugin's Raft cluster (a node that started alone instead of
        joining, or was left out of the client-id tracking, is missing from a list)."""
        asked = next(node for node in self.nodes if node.process is not None)
        answer = asked.ctl("eval", RUNNING_AND_TRACKING).strip().strip('"')
        wanted = " ".join(sorted(node.node for node in self.nodes))
        if answer != f"{wanted}|{wanted}":
            raise RuntimeError(
                f"{asked.node}: running nodes | MQTT client-id tracking members are "
                f"{answer!r}, not every node {wanted!r} in both"
            )

    def stop(self) -> None:
        """Every node's VM (side by side: each waits on its own), then the epmd this cluster
        started (found by its port)."""

        def stop(node: Node) -> None:
            try:
                node.stop()
            except Exception:  # a finaliser must reach every node
                node.kill()

        _each(self.nodes, stop)
        self._stop_epmd()

    def _stop_epmd(self) -> None:
        epmd = shutil.which("epmd") or "/usr/lib/erlang/bin/epmd"
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [epmd, "-port", str(self.epmd_port), "-kill"],
                env=self.env,
                capture_output=True,
                timeout=10,
                check=False,
            )


def _each(nodes: list[Node], action: Callable[[Node], object]) -> None:
    """``action`` on every node at once (each waits on its own VM); the first error raises."""
    with ThreadPoolExecutor(max_workers=len(nodes) or 1) as pool:
        for future in [pool.submit(action, node) for node in nodes]:
            future.result()


@contextlib.contextmanager
def running_cluster(directory: Path, size: int = 2) -> Iterator[Cluster]:
    """A started cluster, stopped (every VM and the epmd) whatever happens."""
    started = Cluster(directory, size)
    try:
        yield started.start()
    finally:
        started.stop()
