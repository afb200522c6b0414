"""Tables under load while the print shop builds kits: action p99 with and without a build.

``tablesmith serve`` runs the phone companion and the print shop in one server; a kit build
runs in a worker process of the shop (``shop/jobs.py``) beside the server on the same
machine. This measures what a build costs the tables that keep playing meanwhile.

How: the load of ``companion_load.py`` (its functions, imported: a fresh ``tablesmith serve``
on a fresh SQLite database with ``--tables`` tables made beforehand, 2 phones per table on
Server-Sent Events, each table acting about once a second from ``--clients`` client
processes), in two phases that alternate ``--rounds`` times in one invocation:

* A: the tables only, for ``--seconds``;
* B: the same, while the shop builds kits back to back during the whole window: from just
  before the window starts, a kit is posted to ``POST /pieces`` (the form's defaults and a
  ``plate_spacing`` no build of this invocation used before: 6.00, 6.01, 6.02 ..., so every
  kit is a real build and never a copy from the cache) as soon as the previous one ended; its
  job's state (``GET /pieces/jobs/<id>.json``) is polled every 0.7 s as the job page does;
  the kit still building when the window closes is cancelled.

The server runs with ``TABLESMITH_CACHE`` and its temporary folder (the shop's job folders)
in a fresh folder of this invocation, removed at the end.

What it reports, per phase and round: the columns of ``companion_load.py`` (action p50/p99:
POST sent -> answer; stream p99: action sent -> the other phone's event; missed events and
failed actions; ``srv CPU%``: the server process alone, the build's worker processes are NOT
in it; ``oth CPU%``: everything else the machine ran, i.e. in B mostly the build, plus other
jobs of a shared machine), and for B the kits: finished (done) in the window, and the
seconds of each. Then the median action p99 of the B phases over the median of the A phases,
and whether it is within ``--limit`` (1.5); and the rounds whose phase A saw other work on
the machine (``oth CPU%`` over 20): on a shared machine, other jobs' CPU and disk flushes
(the server commits with fsync) move the p99 far more than a build does.

Usage (needs the bench and kit extras: ``pip install -r requirements/all.txt``)::

    python benchmarks/shop_load.py [--tables 100] [--seconds 20] [--rounds 3] \
        [--think 1.0] [--clients 2] [--limit 1.5] [--json results.json]

Goal on a 2-core machine: while a kit builds, 100 tables keep playing with an action p99
within 1.5 x that of the same load without a build, no event missed, no action failed.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from companion_load import COLUMNS, run  # noqa: E402 - after the path of its folder

POLL = 0.7
"""Seconds between looks at a kit job's state (the job page's own polling interval)."""

ACTIVE = ("queued", "running")

BUSY = 20
"""Phase A's ``oth CPU%`` above which the machine is said to have run other work (without a
build it is ~1 % on an idle machine; in B the build itself takes ~120 %)."""


# ----------------------------------------------------------------------------- the kit builds


def request(base: str, method: str, path: str, form: dict[str, str] | None = None) -> Any:
    """One HTTP request to the server; returns (status, Location header, body bytes)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    try:
        body = urlencode(form) if form is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
        headers["Accept"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Location") or "", response.read()
    finally:
        connection.close()


def build_kits(base: str, go_at: float, end_at: float, spacings: Iterator[float]) -> dict:
    """Build kits back to back until ``end_at`` (monotonic s): post one, follow its state,
    post the next as soon as it ended; cancel the one still building at ``end_at``.

    Returns ``kits``: one entry per kit posted (``plate_spacing``, ``state``, ``seconds``
    from the post to its end seen, ``in_window``: it ended inside the window), and
    ``errors`` (posts refused, failed kits), so that a broken shop shows in the report."""
    kits: list[dict[str, Any]] = []
    errors: list[str] = []
    while time.monotonic() < end_at:
        spacing = next(spacings)
        posted = time.monotonic()
        status, location, body = request(
            base, "POST", "/pieces", {"plate_spacing": f"{spacing:.2f}"}
        )
        if status != 303:
            errors.append(f"POST /pieces: HTTP {status} {body[:200]!r}")
            break
        job = urlsplit(location).path
        state: dict[str, Any] = {"state": "queued"}
        while state["state"] in ACTIVE:
            if time.monotonic() >= end_at:
                request(base, "POST", f"{job}/cancel")
                state = {"state": "cancelled at the window's end"}
                break
            time.sleep(POLL)
            status, _, body = request(base, "GET", f"{job}.json")
            state = json.loads(body) if status == 200 else {"state": f"HTTP {status}"}
        ended = time.monotonic()
        kits.append(
            {
                "plate_spacing": round(spacing, 2),
                "state": state["state"],
                "seconds": round(ended - posted, 1),
                "in_window": go_at <= ended <= end_at,
            }
        )
        if state["state"] not in ("done", "cancelled at the window's end"):
            errors.append(f"kit plate_spacing={spacing:.2f}: {state['state']} {state.get('error')}")
            break
    return {"kits": kits, "errors": errors}


# ---------------------------------------------------------------------------------- report

SHOWN = [c for c in COLUMNS if c[1] not in ("server", "tables", "actions_per_s", "rss_mib_end")]
HEAD = [
    ("round", "round", 5),
    ("phase", "phase", 8),
    *SHOWN,
    ("load", "load_1min", 5),
    ("kits", "kits", 4),
]
"""The table's columns: companion_load's (less server, tables, actions/s, RSS), the machine's
1-minute load at the window's end and the kits done inside the window."""


def kit_summary(result: dict[str, Any]) -> str:
    """The kits of a B phase done inside its window ("-" for an A phase)."""
    if "during" not in result:
        return "-"
    kits = (result["during"] or {}).get("kits", [])
    return str(sum(1 for k in kits if k["state"] == "done" and k["in_window"]))


def line(result: dict[str, Any]) -> str:
    """One line of the figures table."""
    cells = []
    for _, key, width in HEAD:
        value = kit_summary(result) if key == "kits" else result[key]
        if key == "streams":
            value = f"{value}/{result['phones']}"
        cells.append(str(value).ljust(width) if key == "phase" else str(value).rjust(width))
    return "  ".join(cells)


def main() -> None:
    """Parse the options, alternate phases A and B, print the table and the ratio."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--rounds", type=int, default=3, help="A, B pairs")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between actions")
    parser.add_argument("--grace", type=float, default=3.0, help="wait for late events")
    parser.add_argument("--clients", type=int, default=2, help="load client processes")
    parser.add_argument("--limit", type=float, default=1.5, help="goal: B / A action p99")
    parser.add_argument(
        "--serve-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="pass this option to tablesmith serve too (repeatable)",
    )
    parser.add_argument("--json", type=Path, help="also write every result to this file")
    options = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="tablesmith-shop-load-"))
    (scratch / "cache").mkdir()
    (scratch / "tmp").mkdir()
    os.environ["TABLESMITH_CACHE"] = str(scratch / "cache")  # the servers inherit both
    os.environ["TMPDIR"] = str(scratch / "tmp")  # the shop's job folders (a killed server)
    spacings = (6.0 + n / 100 for n in itertools.count())
    print(
        f"{os.cpu_count()} cores; load {Path('/proc/loadavg').read_text().split()[:3]};"
        f" {options.tables} tables; {options.seconds:g} s window; {options.rounds} rounds;"
        f" think {options.think:g} s +-50 %; {options.clients} client processes"
    )
    print("  ".join(n.ljust(w) if k == "phase" else n.rjust(w) for n, k, w in HEAD), flush=True)
    results: list[dict[str, Any]] = []
    try:
        for number in range(1, options.rounds + 1):
            for phase in ("A", "B"):
                during = None
                if phase == "B":

                    def during(base: str, go_at: float, end_at: float) -> dict:
                        return build_kits(base, go_at, end_at, spacings)

                result = run("ours", options.tables, options, during)
                result["round"], result["phase"] = number, "A" if phase == "A" else "B build"
                results.append(result)
                print(line(result), flush=True)
                for text in result["failures"] + result["stream_errors"]:
                    print(f"    {text}", flush=True)
                if phase == "B":
                    kits = (result["during"] or {}).get("kits", [])
                    print(
                        "    kits: "
                        + ", ".join(f"{k['plate_spacing']:.2f} {k['state']} {k['seconds']} s"
                                    for k in kits),
                        flush=True,
                    )  # fmt: skip
                    for text in (result["during"] or {}).get("errors", ["no figures"]):
                        print(f"    {text}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    p99 = {
        phase: statistics.median(r["action_ms_p99"] for r in results if r["phase"][0] == phase)
        for phase in ("A", "B")
    }
    ratio = p99["B"] / p99["A"]
    verdict = "within" if ratio <= options.limit else "OVER"
    print(
        f"\nmedian action p99: A (no build) {p99['A']:.1f} ms, B (kits building) {p99['B']:.1f}"
        f" ms; B / A = {ratio:.2f}, {verdict} {options.limit:g}"
    )
    print(f"load after: {Path('/proc/loadavg').read_text().split()[:3]}")
    busy = [r["round"] for r in results if r["phase"] == "A" and r["other_cpu_pct"] > BUSY]
    if busy:
        print(
            f"the machine ran other work (oth CPU% > {BUSY}) during phase A of round(s)"
            f" {', '.join(map(str, busy))}: those figures are not the build's alone; run again"
            " when it is idle"
        )
    if options.json:
        options.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
