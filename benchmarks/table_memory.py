"""Benchmark: memory per table in a companion process, with N tables open and after they went idle.

One table service over a fresh SQLite file (``--no-fsync`` durability, the numbers are of
memory, not of the disk): N Asteroids tables are made, joined and set up (random layout,
rolled dice), and the player to move plays ``--actions`` legal moves on each (seeded), all
through :class:`companion.tables.service.TableService` as the phones' requests do. Then every
table is let go by the idle eviction (:meth:`companion.tables.retention.Retention.evict`, with
``now`` after the idle period) and, last, read back (one request each: folded again from the log).

The start is measured after :data:`WARM_UP` tables were made and let go. Printed at each
point: Python's allocated memory (tracemalloc, current) and the process's resident set (RSS,
``/proc/self/statm``), the difference to the start divided by N (bytes per table), and how long
the eviction and the reloads took (with tracemalloc on, which slows Python down several times,
and once more without it).

Usage: python benchmarks/table_memory.py [--tables 2000] [--actions 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from companion.dice import DiceService
from companion.store.sqlite import EventStore
from companion.tables.seats import Seat
from companion.tables.service import TableService

WARM_UP = 5
"""Tables made and let go before the start is measured: the one-time costs of the first
tables (lazy imports, the store's reader connections and statement caches) are no table's."""


def rss_bytes() -> int:
    """The resident set of this process in bytes (Linux)."""
    pages = int(Path("/proc/self/statm").read_text(encoding="utf-8").split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def memory() -> tuple[int, int]:
    """(tracemalloc's current bytes, RSS bytes), after a full collection."""
    gc.collect()
    return tracemalloc.get_traced_memory()[0], rss_bytes()


def play(service: TableService, rng: random.Random, actions: int, number: int) -> None:
    """Make, join and set up one table and play ``actions`` legal moves on it."""
    seat_a, join, _ = service.create("asteroids")
    seat_b = service.join(join)
    seats = {"A": seat_a, "B": seat_b}

    def write(seat: Seat, revision: int, action: dict[str, Any], step: int) -> dict[str, Any]:
        body = {"expected_revision": revision, "client_action_id": f"t{number}s{step}"}
        answer = service.submit(seat, {**body, "action": action})
        view: dict[str, Any] = json.loads(answer)["view"]
        return view

    view = write(seat_a, 1, {"type": "setup", "mode": "random"}, 0)
    for step in range(1, actions + 1):
        mover = view["to_act"]
        if mover is None or not view["legal"]:
            break
        view = write(seats[mover], view["revision"], rng.choice(view["legal"]), step)


def main() -> None:
    """Open the tables, let them go, read them back; print the memory at each point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tablesmith-memory-") as folder:
        store = EventStore(Path(folder) / "companion.sqlite", "crash")
        service = TableService(store, DiceService(random.Random(args.seed)))
        tracemalloc.start()
        for n in range(WARM_UP):  # what the first tables load once: imports, connections
            play(service, rng, args.actions, -1 - n)
        service.retention.evict(now=time.time() + service.retention.idle + 1)
        start = memory()
        began = time.perf_counter()
        for n in range(args.tables):  # nothing of them kept here: the numbers are the service's
            play(service, rng, args.actions, n)
        made = time.perf_counter() - began
        loaded = memory()
        events = sum(t.revision for t in service.cache.loaded())
        began = time.perf_counter()
        evicted = service.retention.evict(now=time.time() + service.retention.idle + 1)
        evict_seconds = time.perf_counter() - began
        idle = memory()
        began = time.perf_counter()
        for table_id in store.idle_tables(float("inf"), args.tables + WARM_UP):
            service.table(table_id)
        reload_seconds = time.perf_counter() - began
        back = memory()  # the warm-up tables are read back too: N + WARM_UP
        tracemalloc.stop()  # the same once more at full speed
        service.retention.evict(now=time.time() + service.retention.idle + 1)
        began = time.perf_counter()
        for table_id in store.idle_tables(float("inf"), args.tables + WARM_UP):
            service.table(table_id)
        fast_seconds = time.perf_counter() - began
        store.close()

    def line(name: str, point: tuple[int, int]) -> str:
        python, rss = (point[0] - start[0], point[1] - start[1])
        return (
            f"{name:<24} python {point[0] / 2**20:7.1f} MiB ({python / args.tables:8,.0f} B/table)"
            f"   RSS {point[1] / 2**20:7.1f} MiB ({rss / args.tables:8,.0f} B/table)"
        )

    print(
        f"{args.tables} Asteroids tables, {args.actions} moves each after the set-up: "
        f"{events} events ({events / args.tables:.1f} per table), made in {made:.1f} s"
    )
    print(line("start", start))
    print(line(f"{args.tables} tables in memory", loaded))
    print(line("after the idle eviction", idle))
    print(line("all read back", back))
    print(
        f"evicted {len(evicted)} tables in {evict_seconds * 1000:.0f} ms; read back (folded "
        f"from the log) in {reload_seconds:.2f} s, {reload_seconds / args.tables * 1000:.2f} ms "
        f"per table; without tracemalloc {fast_seconds / args.tables * 1000:.2f} ms per table"
    )


if __name__ == "__main__":
    main()
