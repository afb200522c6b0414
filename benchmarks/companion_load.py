"""Load test of the phone companion: N tables x 2 phones on loopback (issue 4, point 9).

Starts the companion (waitress, as ``tablesmith serve`` does) in a child process on
127.0.0.1, opens a live stream for every phone, then plays turns on every table at once (each
action: the player to move POSTs a random legal action, then "thinks" for ``--think`` seconds
+-50 %; ``--think 0`` floods the server with ``--drivers`` back-to-back clients). Reports:

* action latency p50/p99: POST sent -> answer received (includes the durable commit);
* stream delay p50/p99: POST sent -> the OTHER phone's stream has the event;
* warm-up: before the clock starts, every phone has its page open (connection up, state
  loaded), as at a real table; the first action of a table is then its setup.
* memory per table: the server's RSS growth from start to the end, divided by the tables
  (includes the open streams' buffers, not the pre-started worker threads).

Usage: ``python benchmarks/companion_load.py [--tables 100] [--turns 4] [--think 1.0]
[--durability power|crash]``.
Goal on a 2-core machine: p99 action < 50 ms, stream delay < 200 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]


def serve_child(database: str, threads: int, durability: str) -> None:
    """Child process: run the companion on a free loopback port and print the port."""
    sys.path.insert(0, str(ROOT))
    from companion import create_app
    from companion.server import bound_port, connection_limit, create_server, max_streams

    config = {
        "DATABASE": database,
        "DURABILITY": durability,
        "JOIN_RATE_LIMIT": (100_000, 60.0),
        "LOOKUP_RATE_LIMIT": (100_000, 60.0),
        "MAX_STREAMS": max_streams(threads, connection_limit()),  # as tablesmith serve
    }
    app = create_app(config)
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)  # as tablesmith serve
    print(bound_port(server), flush=True)
    server.run()


def rss_kib(pid: int) -> int:
    """Resident set size of a process in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Phone:
    """One phone's live stream, recording when each event seq arrived."""

    def __init__(self, url: str) -> None:
        self.arrived: dict[int, float] = {}
        self.response = requests.get(url, stream=True, timeout=30)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    self.arrived[int(line[4:])] = time.perf_counter()
        except Exception:  # noqa: BLE001 - closed at the end of the run
            return


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run(
    tables: int, turns: int, think: float, drivers: int, threads: int, durability: str
) -> dict[str, Any]:
    """Drive the load and return the measurements."""
    workdir = Path(tempfile.mkdtemp(prefix="tablesmith-load-"))
    child = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve-child",
            str(workdir / "load.sqlite"),
            "--threads",
            str(threads),
            "--durability",
            durability,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    base = f"http://127.0.0.1:{child.stdout.readline().strip()}"
    try:
        time.sleep(0.5)
        rss_start = rss_kib(child.pid)
        http = requests.Session()
        seats = []
        for _ in range(tables):
            created = http.post(base + "/api/tables", json={"game": "asteroids"}).json()
            joined = http.post(base + "/api/join/" + created["join_url"].rsplit("/", 1)[1]).json()
            seats.append({"id": created["table_id"], "A": created["token"], "B": joined["token"]})
        phones = {}
        for table in seats:
            for seat in ("A", "B"):
                url = f"{base}/api/t/{table['id']}/events?since=1&token={table[seat]}"
                phones[(table["id"], seat)] = Phone(url)
        time.sleep(1.0)
        latencies: list[float] = []
        sends: list[tuple[str, str, int, float]] = []
        lock = threading.Lock()
        local = threading.local()

        def post(table: dict[str, str], seat: str, body: dict[str, Any]) -> dict[str, Any]:
            session = getattr(local, "session", None) or requests.Session()
            local.session = session
            start = time.perf_counter()
            answer = session.post(
                f"{base}/api/t/{table['id']}/actions",
                json=body,
                headers={"X-Seat-Token": table[seat]},
                timeout=30,
            )
            took = time.perf_counter() - start
            answer.raise_for_status()
            data: dict[str, Any] = answer.json()
            with lock:
                latencies.append(took)
                sends.append((table["id"], seat, data["revision"], start))
            return data

        def play(table: dict[str, str]) -> None:
            rng = random.Random(table["id"])
            # like a phone that has the table page open: connection up, state loaded
            session = getattr(local, "session", None) or requests.Session()
            local.session = session
            session.get(
                f"{base}/api/t/{table['id']}/state",
                headers={"X-Seat-Token": table["A"]},
                timeout=30,
            ).raise_for_status()
            ready.wait()
            time.sleep(think * rng.uniform(0, 1))  # tables start at different moments
            view = post(
                table,
                "A",
                {
                    "expected_revision": 1,
                    "client_action_id": "setup",
                    "action": {"type": "setup", "mode": "random"},
                },
            )["view"]
            for number in range(turns * 3):
                state = view["state"]
                if state["phase"] == "over":
                    break
                action = rng.choice(view["legal"])
                body = {
                    "expected_revision": view["revision"],
                    "client_action_id": f"a{number}",
                    "action": action,
                }
                view = post(table, state["player"], body)["view"]
                if think:
                    time.sleep(think * rng.uniform(0.5, 1.5))

        workers = drivers if think == 0 else tables
        ready = threading.Barrier(min(workers, len(seats)))
        started = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(play, seats))
        elapsed = time.perf_counter() - started
        time.sleep(1.0)
        rss_end = rss_kib(child.pid)
        delays, missing = [], 0
        for table_id, seat, seq, start in sends:
            other = phones[(table_id, "B" if seat == "A" else "A")]
            if seq in other.arrived:
                delays.append(other.arrived[seq] - start)
            else:
                missing += 1
        return {
            "tables": tables,
            "think_seconds": think,
            "durability": durability,
            "phones": 2 * tables,
            "actions": len(latencies),
            "seconds": round(elapsed, 2),
            "actions_per_second": round(len(latencies) / elapsed, 1),
            "action_ms_p50": round(1000 * statistics.median(latencies), 1),
            "action_ms_p99": round(1000 * percentile(latencies, 0.99), 1),
            "stream_delay_ms_p50": round(1000 * statistics.median(delays), 1),
            "stream_delay_ms_p99": round(1000 * percentile(delays, 0.99), 1),
            "stream_events_missing": missing,
            "server_rss_mib_start": round(rss_start / 1024, 1),
            "server_rss_mib_end": round(rss_end / 1024, 1),
            "memory_kib_per_table": round((rss_end - rss_start) / tables, 1),
        }
    finally:
        child.kill()
        child.wait()


def main() -> None:
    """Parse the options, run, print the result as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--turns", type=int, default=4, help="turns per table (3 actions each)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds between a table's actions"
    )
    parser.add_argument("--drivers", type=int, default=16, help="clients when --think is 0")
    parser.add_argument("--threads", type=int, default=256, help="server worker threads")
    parser.add_argument(
        "--durability", choices=["power", "crash"], default="power", help="see companion.store"
    )
    parser.add_argument("--serve-child", metavar="DB", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_child:
        serve_child(options.serve_child, options.threads, options.durability)
        return
    result = run(
        options.tables,
        options.turns,
        options.think,
        options.drivers,
        options.threads,
        options.durability,
    )
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
