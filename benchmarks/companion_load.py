"""Load test of the default ``tablesmith serve`` against boardgame.io's server.

N tables x 2 phones on loopback. Every phone holds an open live stream (ours, ``--transport
socket``: one WebSocket per phone, ``GET /api/t/<table>/socket``, that carries its stream and
its actions; ``--transport sse``: Server-Sent Events, ``GET /api/t/<table>/events``, and a
``POST /api/t/<table>/actions`` per action; the peer: a socket.io connection that has sent
``sync``). Each table acts about once a second: the player to move sends a legal action (ours:
a random legal Asteroids action, on its socket or POSTed; the peer: the socket.io ``update``
message with the trivial game's one move), then "thinks" ``--think`` seconds +-50 % (the first
action of each table at a random moment of its first second).

What it reports, for each server and each ``--tables`` size:

* ``streams``: phones that got their live stream (of 2 x tables) before the clock started;
* ``action p50/p99``: ours: action sent (POST or socket message) -> answer received (the
  answer comes after the durable commit); the peer has no answer, so: ``update`` sent -> the
  acting phone has the new state;
* ``stream p50/p99``: action sent -> the OTHER phone's stream has the event;
* ``missed``: events of the measured window that some phone's stream never had (counted per
  phone, after a grace of ``--grace`` seconds), and actions that failed;
* ``srv CPU%`` (% of one core over the window) and ``RSS`` (MiB, at the end), from /proc;
  ``ms/act``: the server's CPU time (all threads, user + system) per answered action, in ms;
  ``cli CPU%``: the load client processes' own CPU, summed, in % of one core, so a
  saturated client (100 % per process) is visible: raise ``--clients`` then; ``oth CPU%``:
  everything else the machine ran meanwhile (other jobs on a shared machine: the cores the
  server could not have).

The load client is asyncio on uvloop (aiohttp for ours, python-socketio's asyncio client for
the peer, one socket.io connection per phone), split over ``--clients`` processes (default 2),
each driving a slice of the tables; the server is started anew for every run:

* ours: the tables are made in a fresh SQLite database beforehand (so the join rate limit does
  not apply), then ``python tablesmith.py serve --host 127.0.0.1 --port 0 --db ... --no-qr
  --no-mdns``: the defaults (uvicorn, 16 worker threads, ``--fsync``);
* the peer: ``node benchmarks/peers/boardgameio/server.js PORT`` (boardgame.io 0.50.2, its
  own in-memory storage, NODE_ENV=production; ``npm install`` is run there when
  ``node_modules`` is missing); matches are created and joined through its lobby API. Skipped,
  saying why, where node or npm is missing (or with ``--no-peer``).

The servers run in the same invocation, one after the other at each size (ours once per
``--transport``), and the last table gives the ratio ours / peer of action p99, stream p99 and
CPU per action (below 1: we are better).

Usage (needs the bench extra: ``pip install -r requirements/all.txt``)::

    python benchmarks/companion_load.py --tables 100 500 1000 2000 [--seconds 15] \
        [--think 1.0] [--clients 2] [--transport socket sse] [--no-peer] [--json results.json] \
        [--profile server.prof]

``--profile``: our server runs under cProfile (its event loop's thread) and the top entries by
own time are printed after each of its runs (slower: for where the time goes, not for the
figures).

Goal on a 2-core machine at 1,000 tables: every phone gets its stream, action p99 <
50 ms, stream p99 < 100 ms, no event missed. The client shares the machine with the server:
the CPU columns say how much each took.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEER_DIR = ROOT / "benchmarks" / "peers" / "boardgameio"
PEER_GAME = "bench"
CONNECT_CONCURRENCY = 64
"""Phones connecting at once during the warm-up."""
TICKS = os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------------------- measurements


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values`` by nearest rank (nan when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads) in seconds (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_busy_seconds() -> float:
    """CPU time all cores of the machine spent busy since boot, in seconds (/proc/stat)."""
    fields = [
        int(x) for x in Path("/proc/stat").read_text(encoding="utf-8").split("\n", 1)[0].split()[1:]
    ]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / TICKS


def rss_mib(pid: int) -> float:
    """Resident set size of a process in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ------------------------------------------------------------------------------ client (ours)


class SSEPhone:
    """One phone of ours: its live stream, with the arrival time of every event ``id``."""

    def __init__(self, table: dict[str, Any], seat: str) -> None:
        self.table = table
        self.seat = seat
        self.arrived: dict[int, float] = {}
        self.connected = False
        self.since = 0
        self.error = ""

    async def run(self, session: Any, base: str, opened: asyncio.Event) -> None:
        """Open the stream (since the table's current revision) and record every ``id:``."""
        url = f"{base}/api/t/{self.table['id']}/events"
        params = {"since": str(self.since), "token": self.table[self.seat]}
        try:
            async with session.get(url, params=params) as response:
                if response.status != 200:
                    self.error = f"HTTP {response.status}"
                    opened.set()
                    return
                carry = b""
                async for chunk in response.content.iter_any():
                    now = time.monotonic()
                    if not self.connected:
                        self.connected = True
                        opened.set()
                    data = carry + chunk
                    start = 0
                    while True:
                        at = data.find(b"id: ", start)
                        if at < 0:
                            break
                        end = data.find(b"\n", at)
                        if end < 0:
                            break
                        if at == 0 or data[at - 1] == 10:  # an id line, not inside the JSON
                            self.arrived[int(data[at + 4 : end])] = now
                        start = end
                    tail = data[data.rfind(b"\n") + 1 :]
                    carry = tail if len(tail) < 32 else b"x"  # a long tail is a data line
        except Exception as exc:  # noqa: BLE001 - reported as a missing stream / missed events
            self.error = self.error or repr(exc)
        finally:
            opened.set()


class SocketPhone(SSEPhone):
    """One phone of ours on its table's socket (``GET /api/t/<table>/socket``,
    companion/sockets.py): the stream's event ids as :class:`SSEPhone` records them, and its
    actions sent on the same socket (:meth:`act`)."""

    def __init__(self, table: dict[str, Any], seat: str) -> None:
        super().__init__(table, seat)
        self.ws: Any = None
        self.waiting: dict[int, asyncio.Future[str]] = {}
        self.number = 0

    async def run(self, session: Any, base: str, opened: asyncio.Event) -> None:
        """Open the socket, say hello (token, since) and read it: answers to their futures,
        stream frames scanned for ``id:`` lines."""
        import aiohttp

        url = "ws" + base[4:] + f"/api/t/{self.table['id']}/socket"
        try:
            async with session.ws_connect(url, autoping=False, max_msg_size=0) as ws:
                self.ws = ws
                await ws.send_str(json.dumps({"token": self.table[self.seat], "since": self.since}))
                async for message in ws:
                    now = time.monotonic()
                    if message.type != aiohttp.WSMsgType.TEXT:
                        break
                    text: str = message.data
                    if text.startswith('{"re":'):
                        waiter = self.waiting.pop(int(text[6 : text.index(",", 6)]), None)
                        if waiter is not None and not waiter.done():
                            waiter.set_result(text)
                        continue
                    if not self.connected:
                        self.connected = True
                        opened.set()
                    for line in text.split("\n"):
                        if line.startswith("id: "):
                            self.arrived[int(line[4:])] = now
                if ws.close_code not in (None, 1000):
                    self.error = self.error or f"closed {ws.close_code}"
        except Exception as exc:  # noqa: BLE001 - reported as a missing stream / missed events
            self.error = self.error or repr(exc)
        finally:
            for waiter in self.waiting.values():
                if not waiter.done():
                    waiter.set_exception(ConnectionError("the socket closed"))
            opened.set()

    async def act(self, body: dict[str, Any]) -> tuple[int, Any]:
        """Send an action on the socket: (status, the answer's JSON body)."""
        self.number += 1
        waiter = asyncio.get_running_loop().create_future()
        self.waiting[self.number] = waiter
        await self.ws.send_str(json.dumps({"re": self.number, "post": "actions", "body": body}))
        answer = json.loads(await asyncio.wait_for(waiter, 30))
        return answer["status"], answer["body"]


async def ours_client(config: dict[str, Any]) -> dict[str, Any]:
    """Drive our server: the slice of tables in ``config``; returns the raw figures."""
    import aiohttp

    base = config["base"]
    seats: list[dict[str, Any]] = config["seats"]
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    session = aiohttp.ClientSession(connector=connector, timeout=timeout)
    phones: dict[tuple[str, str], SSEPhone] = {}
    views: dict[str, dict[str, Any]] = {}
    on_socket = config["kind"] == "socket"
    phone_class = SocketPhone if on_socket else SSEPhone
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    tasks = []

    async def open_table(table: dict[str, Any]) -> None:
        async with gate:
            async with session.get(
                f"{base}/api/t/{table['id']}/state", headers={"X-Seat-Token": table["A"]}
            ) as response:
                views[table["id"]] = await response.json()
            for seat in ("A", "B"):
                phone = phone_class(table, seat)
                phone.since = views[table["id"]]["revision"]
                phones[(table["id"], seat)] = phone
                opened = asyncio.Event()
                tasks.append(asyncio.create_task(phone.run(session, base, opened)))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(opened.wait(), 30)

    await asyncio.gather(*(open_table(table) for table in seats))
    connected = sum(phone.connected for phone in phones.values())
    go_at, end_at = await ready_and_wait(connected)
    cpu_start = time.process_time()
    latencies: list[float] = []
    sends: list[tuple[str, str, int, float]] = []
    failures: list[str] = []

    async def send(table: dict[str, Any], seat: str, body: dict[str, Any]) -> tuple[int, Any]:
        """An action of ``seat``: on its socket, or POSTed; (status, the answer's JSON)."""
        if on_socket:
            socket_phone = phones[(table["id"], seat)]
            assert isinstance(socket_phone, SocketPhone)
            return await socket_phone.act(body)
        async with session.post(
            f"{base}/api/t/{table['id']}/actions", json=body, headers={"X-Seat-Token": table[seat]}
        ) as response:
            text = await response.read()
            return response.status, json.loads(text) if response.status == 200 else text

    async def play(table: dict[str, Any]) -> None:
        rng = random.Random(table["id"])
        view = views[table["id"]]
        number = 0
        await asyncio.sleep(max(0.0, go_at - time.monotonic()) + config["think"] * rng.random())
        while time.monotonic() < end_at:
            state = view["state"]
            if state is None:
                seat, action = "A", {"type": "setup", "mode": "random"}
            elif state["phase"] == "over":
                return
            else:
                seat, action = state["player"], rng.choice(view["legal"])
            body = {
                "expected_revision": view["revision"],
                "client_action_id": f"load-{number}",
                "action": action,
            }
            number += 1
            start = time.monotonic()
            try:
                status, answer = await send(table, seat, body)
            except Exception as exc:  # noqa: BLE001 - counted and reported
                failures.append(repr(exc))
                return
            took = time.monotonic() - start
            if status != 200:
                failures.append(f"{status}: {str(answer)[:200]}")
                return
            latencies.append(took)
            sends.append((table["id"], seat, answer["revision"], start))
            view = answer["view"]
            await asyncio.sleep(config["think"] * rng.uniform(0.5, 1.5))

    await asyncio.gather(*(play(table) for table in seats))
    cpu = time.process_time() - cpu_start
    await asyncio.sleep(config["grace"])
    delays = []
    missed = 0
    for table_id, seat, seq, start in sends:
        other = phones[(table_id, "B" if seat == "A" else "A")]
        if seq in other.arrived:
            delays.append(other.arrived[seq] - start)
    last = {}
    for table_id, _seat, seq, _start in sends:
        last[table_id] = max(last.get(table_id, 0), seq)
    for (table_id, _seat), phone in phones.items():
        if table_id in last:
            wanted = range(phone.since + 1, last[table_id] + 1)
            missed += sum(1 for seq in wanted if seq not in phone.arrived)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await session.close()
    errors = sorted(
        {phone.error for phone in phones.values() if phone.error and not phone.connected}
    )
    return {
        "connected": connected,
        "latencies": latencies,
        "delays": delays,
        "missed": missed,
        "failures": failures[:5],
        "failed": len(failures),
        "stream_errors": errors[:5],
        "cpu": cpu,
    }


# ------------------------------------------------------------------------ client (the peer)


async def peer_client(config: dict[str, Any]) -> dict[str, Any]:
    """Drive boardgame.io: one socket.io connection per phone, ``sync`` then ``update``s."""
    import aiohttp
    import socketio

    base = config["base"]
    seats: list[dict[str, Any]] = config["seats"]
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    namespace = "/" + PEER_GAME
    phones: dict[tuple[str, str], dict[str, Any]] = {}
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def open_phone(table: dict[str, Any], seat: str) -> None:
        phone: dict[str, Any] = {"arrived": {}, "connected": False, "state": None, "error": ""}
        phones[(table["id"], seat)] = phone
        synced = asyncio.Event()
        client = socketio.AsyncClient(reconnection=False, http_session=session)
        phone["client"] = client

        async def on_sync(_match: str, info: dict[str, Any]) -> None:
            phone["state"] = info["state"]
            phone["connected"] = True
            phone["since"] = info["state"]["_stateID"]
            synced.set()

        async def on_update(_match: str, state: dict[str, Any], *_log: Any) -> None:
            phone["arrived"][state["_stateID"]] = time.monotonic()
            phone["state"] = state
            waiter = phone.get("waiter")
            if waiter is not None and not waiter.done():
                waiter.set_result(state)

        client.on("sync", on_sync, namespace=namespace)
        client.on("update", on_update, namespace=namespace)
        async with gate:
            try:
                await client.connect(base, namespaces=[namespace], transports=["websocket"])
                await client.emit(
                    "sync", (table["id"], seat, table["credentials"][seat], 2), namespace=namespace
                )
                await asyncio.wait_for(synced.wait(), 30)
            except Exception as exc:  # noqa: BLE001 - reported as a missing stream
                phone["error"] = repr(exc)

    await asyncio.gather(*(open_phone(t, s) for t in seats for s in ("0", "1")))
    connected = sum(phone["connected"] for phone in phones.values())
    go_at, end_at = await ready_and_wait(connected)
    cpu_start = time.process_time()
    latencies: list[float] = []
    sends: list[tuple[str, str, int, float]] = []
    failures: list[str] = []
    loop = asyncio.get_running_loop()

    async def play(table: dict[str, Any]) -> None:
        rng = random.Random(table["id"])
        state = phones[(table["id"], "0")]["state"]
        await asyncio.sleep(max(0.0, go_at - time.monotonic()) + config["think"] * rng.random())
        while time.monotonic() < end_at:
            seat = state["ctx"]["currentPlayer"]
            phone = phones[(table["id"], seat)]
            state_id = state["_stateID"]
            action = {
                "type": "MAKE_MOVE",
                "payload": {
                    "type": "act",
                    "args": [rng.randint(1, 6)],
                    "playerID": seat,
                    "credentials": table["credentials"][seat],
                },
            }
            phone["waiter"] = waiter = loop.create_future()
            start = time.monotonic()
            try:
                await phone["client"].emit(
                    "update", (action, state_id, table["id"], seat), namespace=namespace
                )
                while (state := await asyncio.wait_for(waiter, 10))["_stateID"] <= state_id:
                    phone["waiter"] = waiter = loop.create_future()
            except Exception as exc:  # noqa: BLE001 - counted and reported
                failures.append(f"{seat}@{state_id}: {exc!r}")
                return
            latencies.append(time.monotonic() - start)
            sends.append((table["id"], seat, state_id + 1, start))
            await asyncio.sleep(config["think"] * rng.uniform(0.5, 1.5))

    await asyncio.gather(*(play(table) for table in seats))
    cpu = time.process_time() - cpu_start
    await asyncio.sleep(config["grace"])
    delays = []
    last: dict[str, int] = {}
    for table_id, seat, seq, start in sends:
        other = phones[(table_id, "1" if seat == "0" else "0")]
        if seq in other["arrived"]:
            delays.append(other["arrived"][seq] - start)
        last[table_id] = max(last.get(table_id, 0), seq)
    missed = 0
    for (table_id, _seat), phone in phones.items():
        if table_id in last and phone["connected"]:
            wanted = range(phone["since"] + 1, last[table_id] + 1)
            missed += sum(1 for seq in wanted if seq not in phone["arrived"])
    await asyncio.gather(
        *(phone["client"].disconnect() for phone in phones.values()), return_exceptions=True
    )
    await session.close()
    errors = sorted({p["error"] for p in phones.values() if p["error"] and not p["connected"]})
    return {
        "connected": connected,
        "latencies": latencies,
        "delays": delays,
        "missed": missed,
        "failures": failures[:5],
        "failed": len(failures),
        "stream_errors": errors[:5],
        "cpu": cpu,
    }


async def ready_and_wait(connected: int) -> tuple[float, float]:
    """Tell the parent this client is ready; wait for ``go <start> <end>`` (monotonic s)."""
    print(json.dumps({"ready": connected}), flush=True)
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, sys.stdin.readline)
    _, go_at, end_at = line.split()
    return float(go_at), float(end_at)


def client_child(config_path: str) -> None:
    """A load client process: run the slice in the config file, write its figures (JSON) to
    the config's ``out`` file."""
    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    driver = peer_client if config["kind"] == "peer" else ours_client
    result = asyncio.run(driver(config))
    Path(config["out"]).write_text(
        json.dumps(result), encoding="utf-8"
    )  # a file: stdout may be non-blocking


# ------------------------------------------------------------------------------- the servers


def make_tables(database: Path, count: int) -> list[dict[str, Any]]:
    """Create ``count`` Asteroids tables with both seats taken in a new database (directly
    through the store, as ``POST /api/tables`` and the join would, without their rate limit)."""
    sys.path.insert(0, str(ROOT))
    from companion import create_app

    app = create_app({"DATABASE": str(database), "DURABILITY": "crash"})
    service = app.extensions["tablesmith.tables"]
    seats = []
    for _ in range(count):
        seat_a, join, _watch = service.create("asteroids")
        seat_b = service.join(join)
        seats.append({"id": seat_a.table_id, "A": seat_a.token, "B": seat_b.token})
    service.store.close()
    return seats


PROFILED = """
import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], sys.argv[2:]
profiler = cProfile.Profile(time.thread_time)
try:
    profiler.runcall(runpy.run_path, sys.argv[0], run_name="__main__")
finally:
    profiler.dump_stats(out)
"""
"""Runs a script under cProfile with the CPU time of the profiled (main) thread as its clock:
the event loop's own work, not the time it waited or other threads ran."""


def start_ours(
    workdir: Path, tables: int, extra: list[str], profile: Path | None = None
) -> tuple[subprocess.Popen[str], str, list[Any]]:
    """Start the default ``tablesmith serve`` (plus the ``extra`` options) on its own
    database with ``tables`` tables; with ``profile``, under cProfile writing there
    (:data:`PROFILED`: the event loop's thread, the transport, the decisions, the streams; not
    the committer's)."""
    database = workdir / "companion.sqlite"
    seats = make_tables(database, tables)
    python = [sys.executable] + (["-c", PROFILED, str(profile)] if profile else [])
    command = [*python, str(ROOT / "tablesmith.py"), "serve", "--host", "127.0.0.1"]
    command += ["--port", "0", "--db", str(database), "--no-qr", "--no-mdns", *extra]
    server = subprocess.Popen(
        command,
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=(workdir / "server.log").open("w"),
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    if "open http://" not in line:
        server.kill()
        raise RuntimeError(f"tablesmith serve did not start: {line!r}; see {workdir}/server.log")
    base = line.split("open ", 1)[1].split()[0].rstrip("/")
    return server, base, seats


def peer_missing() -> str | None:
    """Why the boardgame.io peer cannot run here, or None when it can."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node/npm not found on PATH"
    if not (PEER_DIR / "node_modules" / "boardgame.io").is_dir():
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund"],
            cwd=PEER_DIR,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            return f"npm install in {PEER_DIR} failed: {done.stderr.strip()[-300:]}"
    return None


async def make_matches(base: str, count: int) -> list[dict[str, Any]]:
    """Create and fill ``count`` matches through boardgame.io's lobby API."""
    import aiohttp

    gate = asyncio.Semaphore(32)
    async with aiohttp.ClientSession() as http:

        async def one() -> dict[str, Any]:
            async with gate:
                games = f"{base}/games/{PEER_GAME}"
                async with http.post(f"{games}/create", json={"numPlayers": 2}) as response:
                    match = (await response.json())["matchID"]
                credentials = {}
                for seat in ("0", "1"):
                    body = {"playerID": seat, "playerName": f"p{seat}"}
                    async with http.post(f"{games}/{match}/join", json=body) as response:
                        credentials[seat] = (await response.json())["playerCredentials"]
                return {"id": match, "credentials": credentials}

        return list(await asyncio.gather(*(one() for _ in range(count))))


def start_peer(
    workdir: Path, tables: int, extra: list[str]
) -> tuple[subprocess.Popen[str], str, list[Any]]:
    """Start boardgame.io's server and create ``tables`` matches with both seats taken."""
    port = free_port()
    server = subprocess.Popen(
        ["node", str(PEER_DIR / "server.js"), str(port)],
        cwd=PEER_DIR,
        stdout=subprocess.PIPE,
        stderr=(workdir / "peer.log").open("w"),
        text=True,
        env={**os.environ, "NODE_ENV": "production"},
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    if not line.startswith("listening"):
        server.kill()
        raise RuntimeError(f"the boardgame.io peer did not start: {line!r}; see {workdir}")
    base = f"http://127.0.0.1:{port}"
    return server, base, asyncio.run(make_matches(base, tables))


# ---------------------------------------------------------------------------------- one run

MODES = {"socket": "socket", "sse": "ours"}
"""``--transport`` -> the kind of run."""
LABELS = {"ours": "tablesmith SSE", "socket": "tablesmith socket", "peer": "boardgame.io"}
"""The server column of each kind of run."""


def run(
    kind: str,
    tables: int,
    options: argparse.Namespace,
    during: Callable[[str, float, float], Any] | None = None,
) -> dict[str, Any]:
    """One measured run of ``kind`` with ``tables`` tables: "ours" (our server, phones on
    SSE + POST), "socket" (our server, each phone on one socket) or "peer" (boardgame.io).

    ``during`` (used by ``shop_load.py``), when given, is called in a thread of its own just
    before the clients' go, with the server's base URL and the measured window's start and
    end (``time.monotonic()`` s); the run waits for it after the window, and what it returns
    is the result's ``during``.
    """
    workdir = Path(tempfile.mkdtemp(prefix=f"tablesmith-load-{kind}-"))
    profile: Path | None = getattr(options, "profile", None)
    if kind == "peer":
        server, base, seats = start_peer(workdir, tables, options.serve_option)
        profile = None
    else:
        if profile is not None:
            profile = profile.with_name(f"{profile.stem}-{kind}-{tables}{profile.suffix}")
        server, base, seats = start_ours(workdir, tables, options.serve_option, profile)
    clients: list[subprocess.Popen[str]] = []
    try:
        time.sleep(0.5)
        rss_start = rss_mib(server.pid)
        count = max(1, min(options.clients, tables))
        for index in range(count):
            config = {
                "kind": kind,
                "base": base,
                "seats": seats[index::count],
                "think": options.think,
                "grace": options.grace,
                "out": str(workdir / f"client-{index}.out.json"),
            }
            path = workdir / f"client-{index}.json"
            path.write_text(json.dumps(config))
            clients.append(
                subprocess.Popen(
                    [sys.executable, __file__, "--client-child", str(path)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        connected = 0
        for client in clients:
            assert client.stdout is not None
            line = client.stdout.readline()
            if not line:
                raise RuntimeError(f"a load client ({kind}) died during the warm-up")
            connected += json.loads(line)["ready"]
        time.sleep(1.0)  # let the connection storm settle
        go_at = time.monotonic() + 0.5
        end_at = go_at + options.seconds
        side: list[Any] = []
        if during is not None:
            thread = threading.Thread(
                target=lambda: side.append(during(base, go_at, end_at)), daemon=True
            )
            thread.start()
        for client in clients:
            assert client.stdin is not None
            client.stdin.write(f"go {go_at} {end_at}\n")
            client.stdin.flush()
        time.sleep(max(0.0, go_at - time.monotonic()))
        cpu_start, busy_start = cpu_seconds(server.pid), machine_busy_seconds()
        time.sleep(max(0.0, end_at - time.monotonic()))
        server_cpu = cpu_seconds(server.pid) - cpu_start
        busy = machine_busy_seconds() - busy_start
        load = float(Path("/proc/loadavg").read_text(encoding="utf-8").split()[0])
        rss_end = rss_mib(server.pid)
        if during is not None:
            thread.join()
        results = []
        for index, client in enumerate(clients):
            client.communicate(timeout=options.seconds + options.grace + 120)
            out = workdir / f"client-{index}.out.json"
            if not out.exists():
                raise RuntimeError(f"load client {index} ({kind}) ended without its figures")
            results.append(json.loads(out.read_text(encoding="utf-8")))
    finally:
        for client in clients:
            if client.poll() is None:
                client.kill()
        if profile is not None:  # SIGTERM: serve ends normally, cProfile writes its file
            server.terminate()
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
        server.kill()
        server.wait()
    if profile is not None and profile.exists():
        print_profile(profile)
    latencies = [x for r in results for x in r["latencies"]]
    delays = [x for r in results for x in r["delays"]]
    return {
        "server": LABELS[kind],
        "tables": tables,
        "phones": 2 * tables,
        "streams": connected,
        "actions": len(latencies),
        "actions_per_s": round(len(latencies) / options.seconds, 1),
        "action_ms_p50": round(1000 * percentile(latencies, 0.5), 1),
        "action_ms_p99": round(1000 * percentile(latencies, 0.99), 1),
        "stream_ms_p50": round(1000 * percentile(delays, 0.5), 1),
        "stream_ms_p99": round(1000 * percentile(delays, 0.99), 1),
        "missed": sum(r["missed"] for r in results),
        "failed": sum(r["failed"] for r in results),
        "server_cpu_pct": round(100 * server_cpu / options.seconds),
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(1, len(latencies)), 3),
        "client_cpu_pct": round(100 * sum(r["cpu"] for r in results) / options.seconds),
        "other_cpu_pct": round(
            100 * (busy - server_cpu - sum(r["cpu"] for r in results)) / options.seconds
        ),
        "load_1min": load,
        "clients": len(clients),
        "rss_mib_start": round(rss_start, 1),
        "rss_mib_end": round(rss_end, 1),
        "failures": [f for r in results for f in r["failures"]][:5],
        "stream_errors": sorted({e for r in results for e in r["stream_errors"]})[:5],
        **({"during": side[0] if side else None} if during is not None else {}),
    }


# ---------------------------------------------------------------------------------- report

PROFILE_ENTRIES = 25


def print_profile(path: Path) -> None:
    """The top entries of a server's profile by own time (``tottime``), to stderr."""
    import io
    import pstats

    text = io.StringIO()
    pstats.Stats(str(path), stream=text).sort_stats("tottime").print_stats(PROFILE_ENTRIES)
    print(f"profile {path}:\n{text.getvalue()}", file=sys.stderr, flush=True)


COLUMNS = [
    ("server", "server", 17),
    ("tables", "tables", 6),
    ("streams", "streams", 11),
    ("actions/s", "actions_per_s", 9),
    ("act p50", "action_ms_p50", 7),
    ("act p99", "action_ms_p99", 7),
    ("str p50", "stream_ms_p50", 7),
    ("str p99", "stream_ms_p99", 7),
    ("missed", "missed", 6),
    ("failed", "failed", 6),
    ("srv CPU%", "server_cpu_pct", 8),
    ("ms/act", "server_cpu_ms_per_action", 6),
    ("cli CPU%", "client_cpu_pct", 8),
    ("oth CPU%", "other_cpu_pct", 8),
    ("RSS MiB", "rss_mib_end", 7),
]


def row(result: dict[str, Any]) -> str:
    """One line of the figures table."""
    cells = []
    for _, key, width in COLUMNS:
        value = result[key]
        if key == "streams":
            value = f"{value}/{result['phones']}"
        cells.append(str(value).rjust(width) if key != "server" else str(value).ljust(width))
    return "  ".join(cells)


def main() -> None:
    """Parse the options, run every size against both servers, print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured window")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between actions")
    parser.add_argument("--grace", type=float, default=3.0, help="wait for late events")
    parser.add_argument("--clients", type=int, default=2, help="load client processes")
    parser.add_argument(
        "--transport",
        nargs="+",
        choices=sorted(MODES),
        default=["socket", "sse"],
        help="our phones' transport(s): one socket each, or SSE + a POST per action",
    )
    parser.add_argument("--no-peer", action="store_true", help="only our server")
    parser.add_argument("--only-peer", action="store_true", help="only boardgame.io")
    parser.add_argument(
        "--serve-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="pass this option to tablesmith serve too (repeatable), e.g. --serve-option=--no-fsync",
    )
    parser.add_argument("--json", type=Path, help="also write every result to this file")
    parser.add_argument(
        "--profile",
        type=Path,
        help="run our server under cProfile, its stats to FILE-<kind>-<tables> (top to stderr)",
    )
    parser.add_argument("--client-child", metavar="CONFIG", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.client_child:
        client_child(options.client_child)
        return
    kinds = [] if options.only_peer else [MODES[mode] for mode in options.transport]
    if not options.no_peer:
        why = peer_missing()
        if why is None:
            kinds.append("peer")
        else:
            print(f"boardgame.io peer skipped: {why}", file=sys.stderr)
    print(
        f"{os.cpu_count()} cores; {options.seconds:g} s window; think {options.think:g} s +-50 %;"
        f" {options.clients} client processes"
    )
    print(
        "  ".join(name.rjust(w) if key != "server" else name.ljust(w) for name, key, w in COLUMNS)
    )
    results = []
    for tables in options.tables:
        for kind in kinds:
            result = run(kind, tables, options)
            results.append(result)
            print(row(result), flush=True)
            for text in result["failures"] + result["stream_errors"]:
                print(f"    {text}", flush=True)
    ours_kinds = [kind for kind in kinds if kind != "peer"]
    if ours_kinds and "peer" in kinds:
        print("\nratio ours / boardgame.io (below 1: ours is faster)")
        print("tables  transport  action p99  stream p99  CPU/action")
        for tables in options.tables:
            peer = next(
                r for r in results if r["tables"] == tables and r["server"] == LABELS["peer"]
            )
            for kind in ours_kinds:
                ours = next(
                    r for r in results if r["tables"] == tables and r["server"] == LABELS[kind]
                )
                ratios = [
                    ours[key] / peer[key] if peer[key] else float("nan")
                    for key in ("action_ms_p99", "stream_ms_p99", "server_cpu_ms_per_action")
                ]
                mode = "socket" if kind == "socket" else "sse"
                print(f"{tables:6}  {mode:9}  " + "  ".join(f"{r:10.2f}" for r in ratios))
    if options.json:
        options.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
