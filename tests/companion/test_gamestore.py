"""The game-store guide (docs/gamestore.md), run as written: Debian's nginx with the guide's
config in front of two ``tablesmith serve`` processes started with the guide's command line on
one PostgreSQL and one Redis; two phones stream and act through nginx, one process is killed
with SIGKILL, and nothing is lost.

The nginx config and the serve command are read from the guide's page *Running it for a game
store* (so the guide and this test cannot drift) and changed only where a test on one machine
must differ from a store:

* the upstream ``server`` lines become the two serve processes on loopback ports;
* TLS: the ``listen 443 ssl`` line becomes ``listen 127.0.0.1:<free port>`` and the
  ``ssl_certificate`` and ``ssl_certificate_key`` lines are left out: a store keeps them
  there, in the ``server`` block, where the guide has them (a second test checks that
  ``nginx -t`` accepts the block with them, on a self-signed certificate);
* the test adds ``add_header X-Tablesmith-Upstream $upstream_addr`` so that it can tell which
  process serves a stream, and wraps the guide's ``http``-level block in a main config of its
  own (``events``, pid file, error and access logs, temp paths, all under ``tmp_path``), run
  as ``nginx -p <tmp_path> -c ... -e ... -g 'daemon off;'``;
* the serve processes get ``--port`` (free loopback ports), ``--base-url`` (nginx's address),
  ``--db`` (a role and database made as the guide's step 1 says, on the session's own
  PostgreSQL) and ``--pubsub`` (the session's own Redis) in place of the guide's examples,
  plus ``--no-qr`` (quiet); the guide's ``--host 127.0.0.1 --trusted-proxy 127.0.0.1`` stay.

A third test checks the guide's word on the join limits behind the proxy: counted per
phone address (``X-Forwarded-For`` as nginx sets it, believed from the trusted proxy only, a
phone's own header changing nothing), by each process on its own (more in test_proxy.py).

Skips, saying which Debian package is missing, where nginx, PostgreSQL or Redis are absent.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from companion import DEFAULTS
from tests.companion.servers import (
    ROOT,
    START_SECONDS,
    Serve,
    SocketReader,
    StreamReader,
    Table,
    free_port,
    postgres_bin,
    roll,
    seat_both,
    serve_process,
    wait_until,
)

GUIDE = ROOT / "docs" / "gamestore.md"
"""The page *Running it for a game store*: its code blocks are what this test runs."""
UPSTREAM_HEADER = "X-Tablesmith-Upstream"


def nginx_program() -> str | None:
    """Debian's nginx (``/usr/sbin`` is not on every user's PATH)."""
    return shutil.which("nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"]))


def guide_blocks() -> list[str]:
    """The fenced code blocks of the page *Running it for a game store* (any language tag)."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"^( *)```[\w-]*\n(.*?)^\1```$", text, re.M | re.S)
    return [textwrap.dedent(body) for _indent, body in blocks]


def guide_block(starting: str) -> str:
    """The section's one code block that starts with ``starting``."""
    found = [block for block in guide_blocks() if block.startswith(starting)]
    assert len(found) == 1, f"{GUIDE.name} has no one block starting {starting!r}"
    return found[0]


def serve_options(port: int, base_url: str, db: str, pubsub: str) -> list[str]:
    """The guide's ``tablesmith serve`` command line with this machine's values."""
    words = shlex.split(guide_block("tablesmith serve").replace("\\\n", " "))
    assert words[:2] == ["tablesmith", "serve"]
    values = {"--port": str(port), "--base-url": base_url, "--db": db, "--pubsub": pubsub}
    options: list[str] = []
    replaced: set[str] = set()
    for word in words[2:]:
        if options and options[-1] in values and options[-1] not in replaced:
            replaced.add(options[-1])
            word = values[options[-1]]
        options.append(word)
    assert replaced == set(values), f"the guide's serve command lacks {set(values) - replaced}"
    joined = " ".join(options)  # behind nginx only, believing nginx alone
    assert "--host 127.0.0.1" in joined and "--trusted-proxy 127.0.0.1" in joined, joined
    return [*options, "--no-qr"]


def proxy_config(upstreams: list[str], port: int, tls: tuple[Path, Path] | None = None) -> str:
    """The guide's nginx block (``upstream`` and ``server``) for loopback: without TLS, or
    with ``tls`` (certificate, key) in place of the guide's certificate and key paths.

    Raises AssertionError when the block lacks the ``upstream`` servers, the ``listen`` line,
    the ``proxy_pass`` line or (with ``tls``) the two ``ssl_`` lines this test replaces."""
    out: list[str] = []
    context: list[str] = []
    seen = set()
    for line in guide_block("upstream ").splitlines():
        code = line.split("#", 1)[0].strip()
        words = code.rstrip(";{").split()
        directive = words[0] if words else ""
        indent = line[: len(line) - len(line.lstrip())]
        if code.endswith("{"):
            context.append(directive)
        elif code == "}":
            context.pop()
        elif context == ["upstream"] and directive == "server":
            if "upstream" not in seen:
                out += [f"{indent}server {address};" for address in upstreams]
            seen.add("upstream")
            continue
        elif context == ["server"] and directive == "listen":
            assert "ssl" in words, f"the guide's listen line is not TLS: {line.strip()}"
            listen = f"127.0.0.1:{port} ssl" if tls else f"127.0.0.1:{port}"
            out.append(f"{indent}listen {listen};  # the guide's: {line.strip()}")
            seen.add("listen")
            continue
        elif directive in ("ssl_certificate", "ssl_certificate_key"):
            seen.add(directive)
            if tls:  # else the TLS lines are left out
                path = tls[0] if directive == "ssl_certificate" else tls[1]
                out.append(f"{indent}{directive} {path};")
            continue
        elif directive == "proxy_pass":
            out += [
                line,
                f"{indent}add_header {UPSTREAM_HEADER} $upstream_addr always;  # test only",
            ]
            seen.add("proxy_pass")
            continue
        out.append(line)
    needed = {"upstream", "listen", "proxy_pass", "ssl_certificate", "ssl_certificate_key"}
    assert seen == needed, f"the guide's nginx block lacks {needed - seen}"
    assert not context, "the guide's nginx block has unbalanced braces"
    return "\n".join(out)


def main_config(prefix: Path, block: str) -> str:
    """nginx's main config around the guide's block: everything nginx writes under
    ``prefix``; as root the workers stay root (``tmp_path`` is private to its owner)."""
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} info;\n"
        "events {\n    worker_connections 1024;\n}\n"
        f"http {{\n    access_log {prefix / 'access.log'};\n{temp}\n"
        + textwrap.indent(block, "    ")
        + "\n}\n"
    )


def nginx_command(prefix: Path, block: str) -> list[str]:
    """Debian's nginx with the guide's ``block`` and its own prefix under ``prefix``, once
    ``nginx -t`` accepts the config (AssertionError with nginx's message otherwise)."""
    program = nginx_program()
    assert program is not None
    prefix.mkdir()
    config = prefix / "nginx.conf"
    config.write_text(main_config(prefix, block))
    command = [program, "-p", f"{prefix}/", "-c", str(config), "-e", str(prefix / "error.log")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, (
        f"nginx -t: {checked.stderr}\n{config.read_text(encoding='utf-8')}"
    )
    return command


def start_nginx(prefix: Path, block: str, port: int, certificate: Path | None = None) -> Serve:
    """nginx in the foreground (``-g 'daemon off;'``) on ``port``, once it answers (by https,
    checked against ``certificate``, where one is given)."""
    process = subprocess.Popen(
        [*nginx_command(prefix, block), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    scheme = "https" if certificate else "http"
    proxy = Serve(process, f"{scheme}://127.0.0.1:{port}")
    verify: bool | str = str(certificate) if certificate else True

    def answers() -> bool:
        if process.poll() is not None:
            raise AssertionError(
                f"nginx ended: {(prefix / 'error.log').read_text(encoding='utf-8')}"
            )
        try:
            return requests.get(proxy.base + "/", timeout=5, verify=verify).ok
        except requests.ConnectionError:
            return False

    wait_until(answers, START_SECONDS, "nginx did not answer")
    return proxy


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for games.example.org and 127.0.0.1 (so a client can check
    it when it connects to the loopback address) and its key, under ``folder``; skips where
    openssl is missing."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl not found: Debian package openssl")
    certificate, key = folder / "games.pem", folder / "games.key"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-subj", "/CN=games.example.org", "-keyout", str(key), "-out", str(certificate)]
        + ["-addext", "subjectAltName=DNS:games.example.org,IP:127.0.0.1"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return certificate, key


def test_the_guide_nginx_config_with_its_tls_lines_is_accepted(tmp_path: Path) -> None:
    """The guide's block as a store runs it, TLS included (a self-signed certificate of
    this test's own in place of the store's): ``nginx -t`` accepts it."""
    if nginx_program() is None:
        pytest.skip("nginx not found: Debian package nginx")
    certificate, key = self_signed(tmp_path)
    block = proxy_config(["127.0.0.1:8801", "127.0.0.1:8802"], free_port(), (certificate, key))
    assert f"ssl_certificate {certificate};" in block and " ssl;" in block
    nginx_command(tmp_path / "nginx", block)


def guide_database(postgres_url: str) -> str:
    """A role and its database made as the guide's step 1 makes them (``createuser``, then
    ``createdb --owner``: a login role that is no superuser, owning the database) on the
    session's PostgreSQL: the ``--db`` URL for them (trust authentication: the guide's
    password prompt is left out, the URL still carries one)."""
    binaries = postgres_bin()
    assert binaries is not None  # the postgres_url fixture skipped otherwise
    address = urlsplit(postgres_url)
    name = f"tablesmith_{random.getrandbits(40):x}"
    common = ["-h", str(address.hostname), "-p", str(address.port), "-U", "postgres"]
    for command in (
        [str(binaries / "createuser"), *common, name],
        [str(binaries / "createdb"), *common, "--owner", name, name],
    ):
        subprocess.run(command, check=True, capture_output=True, timeout=30)
    return f"postgresql://{name}:PASSWORD@{address.hostname}:{address.port}/{name}"


@pytest.fixture
def game_store(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[tuple[Serve, dict[str, Serve]]]:
    """nginx with the guide's config in front of two serve processes with the guide's
    command line: the proxy and the processes by upstream address."""
    if nginx_program() is None:
        pytest.skip("nginx not found: Debian package nginx")
    database = guide_database(postgres_url)
    ports = [free_port() for _ in range(3)]
    base = f"http://127.0.0.1:{ports[0]}"
    upstreams: dict[str, Serve] = {}
    try:
        for number, port in enumerate(ports[1:], 1):
            options = serve_options(port, base, database, redis_url)
            direct = f"http://127.0.0.1:{port}"
            upstreams[direct.split("//")[1]] = serve_process(
                options, tmp_path / f"serve{number}.log", base=direct
            )
        proxy = start_nginx(tmp_path / "nginx", proxy_config(list(upstreams), ports[0]), ports[0])
    except BaseException:
        for serve in upstreams.values():
            serve.stop()
        raise
    yield proxy, upstreams
    for serve in (proxy, *upstreams.values()):
        serve.stop()


class Phone:
    """A phone at the table through the proxy: its live stream, opened again from the last
    event it has whenever it ends (as the page does), and its rolls, each sent again with the
    same client action id until it is answered (as the page does). ``transport`` "sse": a
    Server-Sent Events stream and a POST per roll; "socket": one WebSocket for both
    (companion/sockets.py), a new one after the old one ended."""

    def __init__(self, proxy: Serve, table: Table, seat: str, transport: str = "sse") -> None:
        self.proxy, self.table, self.seat = proxy, table, seat
        self.transport = transport
        self.streams: list[StreamReader] = []
        self.acknowledged: dict[str, int | None] = {}
        """client action id -> the seq it got (None: answered as a duplicate of a retry)"""
        self.refused: list[str] = []
        """answers other than 200 (the proxy's 502 while a process dies), each retried"""
        self.errors: list[str] = []
        self.stop = threading.Event()

    def connect(self) -> StreamReader:
        """Open the stream from the last event seen; wait for its answer's head."""
        kind = SocketReader if self.transport == "socket" else StreamReader
        stream = kind(self.proxy.base, self.table, self.seat, since=self.last).start()
        assert stream.headed.wait(10), f"no answer to seat {self.seat}'s stream"
        assert stream.head[0].split()[1] == ("101" if kind is SocketReader else "200"), stream.head
        self.streams.append(stream)
        return stream

    @property
    def last(self) -> int:
        return max((seq for stream in self.streams for seq in stream.order), default=0)

    @property
    def seen(self) -> list[int]:
        """Every event id the phone's streams had, in order of arrival."""
        return [seq for stream in self.streams for seq in stream.order]

    def run(self) -> None:
        """Act every 20 ms until stopped; open the stream again whenever it ends."""
        index = 0
        try:
            while not self.stop.is_set():
                if self.streams[-1].ended.is_set():
                    self.connect()
                client_id = f"{self.seat}-{index}"
                answer = self.send(client_id)
                self.acknowledged[client_id] = None if answer["duplicate"] else answer["revision"]
                index += 1
                time.sleep(0.02)
        except Exception as exc:  # reported by the test's thread
            self.errors.append(repr(exc))

    def send(self, client_id: str) -> dict[str, Any]:
        if self.transport == "socket":
            return self.send_on_socket(client_id)
        for _ in range(100):
            try:
                response = roll(self.proxy, self.table, self.seat, client_id)
            except requests.ConnectionError as exc:
                self.refused.append(repr(exc))
            else:
                if response.status_code == 200:
                    answer: dict[str, Any] = response.json()
                    return answer
                self.refused.append(f"{response.status_code} {response.text[:200]}")
            time.sleep(0.05)
        raise AssertionError(f"roll {client_id} was never answered: {self.refused[-3:]}")

    def send_on_socket(self, client_id: str) -> dict[str, Any]:
        """The roll on the phone's socket; a socket that ended (its process killed) is
        replaced by a new one through the proxy, from the last event seen."""
        for _ in range(100):
            socket = self.streams[-1]
            assert isinstance(socket, SocketReader)
            answer = socket.roll(client_id) if not socket.ended.is_set() else None
            if answer is not None and answer[0] == 200:
                found: dict[str, Any] = answer[1]
                return found
            self.refused.append("socket ended" if answer is None else str(answer)[:200])
            time.sleep(0.05)
            if socket.ended.is_set():
                try:
                    self.connect()
                except AssertionError as exc:  # the proxy's 502 while a process dies
                    self.refused.append(repr(exc))
        raise AssertionError(f"roll {client_id} was never answered: {self.refused[-3:]}")

    def close(self) -> None:
        self.stop.set()
        for stream in self.streams:
            stream.close()


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["socket", "sse"])
def test_the_guide_store_setup_loses_nothing_when_a_process_is_killed(
    game_store: tuple[Serve, dict[str, Serve]], transport: str
) -> None:
    proxy, upstreams = game_store
    table = seat_both(proxy, proxy)
    phones = [Phone(proxy, table, "A", transport), Phone(proxy, table, "B", transport)]
    try:
        # both streams on one process (the proxy takes turns), so that both must move
        first = phones[0].connect().header(UPSTREAM_HEADER)
        assert first in upstreams, phones[0].streams[0].head
        for _ in range(4):
            if phones[1].connect().header(UPSTREAM_HEADER) == first:
                break
            phones[1].streams.pop().close()
        assert phones[1].streams[0].header(UPSTREAM_HEADER) == first
        killed = upstreams[first]
        (survivor,) = (address for address in upstreams if address != first)
        threads = [threading.Thread(target=phone.run, daemon=True) for phone in phones]
        for thread in threads:
            thread.start()

        def acted(count: int) -> bool:
            return all(len(phone.acknowledged) >= count for phone in phones)

        wait_until(lambda: acted(25), 30, "25 rolls of each phone through nginx")
        os.kill(killed.process.pid, signal.SIGKILL)
        killed.process.wait(timeout=10)
        before = {phone.seat: len(phone.acknowledged) for phone in phones}
        for phone in phones:
            assert phone.streams[0].ended.wait(10), "a stream on the killed process stayed open"
        wait_until(lambda: acted(max(before.values()) + 25), 30, "25 more rolls of each phone")
        for phone in phones:
            phone.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        assert [phone.errors for phone in phones] == [[], []]
        log = requests.get(
            f"{proxy.base}/api/t/{table.id}/log", headers=table.headers("A"), timeout=10
        ).json()
        final = log["total"]
        wait_until(
            lambda: all(final in phone.streams[-1].arrived for phone in phones),
            10,
            "both streams had the last event",
        )
    finally:
        for phone in phones:
            phone.close()

    assert [e["seq"] for e in log["events"]] == list(range(1, final + 1))
    by_id = {e["client_action_id"]: e["seq"] for e in log["events"] if e["client_action_id"]}
    for phone in phones:
        assert set(phone.acknowledged) <= set(by_id)  # every acknowledged roll is in the log
        assert all(by_id[cid] == seq for cid, seq in phone.acknowledged.items() if seq)
        # every event once, in order, across the streams before and after the kill
        assert phone.seen == list(range(1, final + 1)), phone.seat
        assert len(phone.streams) >= 2
        # $upstream_addr lists every process nginx tried, the one that answered last
        # ("dead:port, survivor:port" when nginx tried the killed one first)
        served = [(s.header(UPSTREAM_HEADER) or "").split(", ")[-1] for s in phone.streams[1:]]
        assert served == [survivor] * (len(phone.streams) - 1), (
            "a stream after the kill was not served by the other process"
        )
    print(
        f"\nthe guide's store setup, {first} killed: "
        + "; ".join(
            f"seat {p.seat}: {len(p.acknowledged)} rolls acknowledged ({before[p.seat]} "
            f"before the kill, {sum(s is None for s in p.acknowledged.values())} as "
            f"duplicates of a retry, {len(p.refused)} answers retried), {len(p.seen)} events "
            f"over {len(p.streams)} streams"
            for p in phones
        )
    )


def post_from(address: str, base: str, path: str, headers: dict[str, str]) -> int:
    """The status of ``POST base+path`` (body ``[]``) sent from the loopback ``address``."""
    host, port = base.split("//")[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), 10, source_address=(address, 0))
    try:
        connection.request("POST", path, body=b"[]", headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.slow
def test_behind_nginx_the_join_limit_counts_each_phone_address(
    game_store: tuple[Serve, dict[str, Serve]],
) -> None:
    """Through the proxy each phone address has its own join limit (X-Forwarded-For), counted
    by each process on its own; a phone cannot pick its address, neither reaching a process
    directly nor through nginx with an X-Forwarded-For of its own (issue 31.4)."""
    proxy, upstreams = game_store
    limit = DEFAULTS["JOIN_RATE_LIMIT"][0]
    json = {"Content-Type": "application/json"}
    # a create with a body that is not an object: counted by the limit, then refused (400)
    statuses = [post_from("127.0.0.2", proxy.base, "/api/tables", json) for _ in range(25)]
    assert statuses == [400] * (2 * limit) + [429] * (25 - 2 * limit)  # the proxy takes turns
    assert post_from("127.0.0.3", proxy.base, "/api/tables", json) == 400
    direct = next(iter(upstreams.values())).base
    forged = {**json, "X-Forwarded-For": "127.0.0.4"}
    assert post_from("127.0.0.2", direct, "/api/tables", forged) == 429
    for number in range(5, 9):  # through nginx too: it appends the address it saw
        forged = {**json, "X-Forwarded-For": f"127.0.0.{number}"}
        assert post_from("127.0.0.2", proxy.base, "/api/tables", forged) == 429
    assert post_from("127.0.0.4", proxy.base, "/api/tables", json) == 400
