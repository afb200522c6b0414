"""Scale-out (issue 9, point 3) against real servers: the PostgreSQL event store keeps the
contract of the SQLite one, and two ``tablesmith serve`` processes with ``--db postgresql://``
and ``--pubsub redis://`` serve the same tables: an action through one reaches a phone
streaming from the other, racing writes are applied once, and ``kill -9`` of one process
loses nothing acknowledged while its phone resumes on the other.

The session starts its own PostgreSQL (``initdb`` in a temporary folder, as the ``postgres``
user when run as root) and its own ``redis-server`` on free loopback ports; the tests skip,
saying which Debian package is missing, where the programs are absent.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from companion.store.base import Event, StoreError, token_hash
from companion.store.factory import open_store
from companion.store.sqlite import EventStore
from tests.companion.servers import (
    ROOT,
    Serve,
    SocketReader,
    StreamReader,
    free_port,
    roll,
    seat_both,
    start_serve,
    wait_until,
)

# ---------------------------------------------------------------------- the store contract


def event(seq: int, client_id: str | None = None, kind: str = "roll") -> Event:
    return Event(
        seq=seq,
        kind=kind,
        seat="A",
        client_action_id=client_id,
        payload={"faces": [seq], "b": 1, "a": 2},  # key order must survive the round trip
        created_at=1.25,
    )


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives: an SQLite file, or the session's PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "log.sqlite")
    return str(request.getfixturevalue("postgres_url"))


def new_table(store: Any, **extra: Any) -> str:
    table_id = f"t-{random.getrandbits(64):x}"
    store.create_table(
        table_id=table_id,
        game="asteroids",
        join_token="j" + table_id,
        watch_token="w" + table_id,
        **extra,
    )
    return table_id


def test_store_append_checks_the_expected_seq_and_repeated_ids(database: str) -> None:
    store = open_store(database)
    try:
        t = new_table(store, colours={"A": "#112233"})
        store.add_seat(table_id=t, seat="A", token="secret")
        store.append(t, 0, [event(1), event(2, "c")])
        with pytest.raises(StoreError, match=f"log of {t} is at 2, expected 1"):
            store.append(t, 1, [event(2)])
        with pytest.raises(StoreError, match="refused"):
            store.append(t, 2, [event(3), event(4, "c")])  # repeated client id: nothing lands
        logged = store.events(t)
        assert [e.seq for e in logged] == [1, 2]
        assert list(logged[1].payload) == ["faces", "b", "a"] and logged[1].payload["faces"] == [2]
        assert logged[1].client_action_id == "c" and logged[1].created_at == 1.25
        assert [e.seq for e in store.events(t, after=1)] == [2]
        row = store.table(t)
        assert row is not None and row.seat_hashes == {"A": token_hash("secret")}
        assert row.colours == {"A": "#112233"} and row.game == "asteroids"
        assert store.table("nope") is None
        assert store.table_by_token("join", "j" + t) == t
        assert store.table_by_token("watch", "j" + t) is None
        with pytest.raises(StoreError, match=f"seat A of table {t} is taken"):
            store.add_seat(table_id=t, seat="A", token="other")
        with pytest.raises(StoreError, match="exists already"):
            store.create_table(table_id=t, game="asteroids", join_token="x", watch_token="y")
        store.add_seat(table_id=t, seat="B", token="b-token", event=event(3, kind="join"))
        assert [e.kind for e in store.events(t)] == ["roll", "roll", "join"]
        assert store.connections >= 1
    finally:
        store.close()


def test_store_reclaim_codes_are_used_once_and_expire(database: str) -> None:
    store = open_store(database)
    try:
        t = new_table(store)
        store.add_seat(table_id=t, seat="A", token="old")
        future = time.time() + 600
        store.add_reclaim_code(table_id=t, seat="A", code="ABC234", expires_at=future)
        store.add_reclaim_code(table_id=t, seat="A", code="OLDXYZ", expires_at=time.time() - 1)
        assert store.take_reclaim_code(table_id=t, code="ABC234") == "A"
        assert store.take_reclaim_code(table_id=t, code="ABC234") is None  # used up
        assert store.take_reclaim_code(table_id=t, code="OLDXYZ") is None  # expired
        store.replace_seat(table_id=t, seat="A", token="new", event=event(1, kind="reclaim"))
        row = store.table(t)
        assert row is not None and row.seat_hashes == {"A": token_hash("new")}
        with pytest.raises(StoreError, match=f"seat B of table {t} is not taken"):
            store.replace_seat(table_id=t, seat="B", token="x", event=event(2, kind="reclaim"))
        with pytest.raises(StoreError, match=f"log of {t} is at 1, expected 0"):
            store.replace_seat(table_id=t, seat="A", token="x", event=event(1, kind="reclaim"))
        row = store.table(t)
        assert row is not None and row.seat_hashes == {"A": token_hash("new")}  # rolled back
    finally:
        store.close()


def test_store_reclaim_code_of_an_unknown_table_is_refused(database: str) -> None:
    store = open_store(database)
    try:
        with pytest.raises(StoreError, match="no table t-none for a reclaim code"):
            store.add_reclaim_code(table_id="t-none", seat="A", code="ABC234", expires_at=1e12)
    finally:
        store.close()


OLD_SQLITE_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, join_token TEXT NOT NULL UNIQUE,
    watch_token TEXT NOT NULL UNIQUE, created_at REAL NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE, PRIMARY KEY (table_id, seat));
CREATE TABLE reclaim_codes (table_id TEXT NOT NULL REFERENCES tables(id), code_hash TEXT NOT NULL,
    seat TEXT NOT NULL, expires_at REAL NOT NULL, PRIMARY KEY (table_id, code_hash));
CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL, seat TEXT, client_action_id TEXT, payload TEXT NOT NULL,
    created_at REAL NOT NULL, PRIMARY KEY (table_id, seq), UNIQUE (table_id, client_action_id));
INSERT INTO tables VALUES ('t-old', 'asteroids', 'j-old', 'w-old', 1.5);
INSERT INTO events VALUES ('t-old', 1, 'roll', 'A', 'c1', '{"faces":[3]}', 2.5);
"""
"""The SQLite schema of the releases before tables had colours and retention (their own DDL
with REAL and INTEGER, where :data:`companion.store.sql.SCHEMA` writes DOUBLE PRECISION and
BIGINT), with one table and one event in it."""


def test_an_sqlite_database_of_an_earlier_release_opens_and_takes_new_tables(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SQLITE_SCHEMA)
    store = EventStore(path)
    try:
        old = store.table("t-old")
        assert old is not None and old.game == "asteroids" and old.colours is None
        assert old.created_at == 1.5 and old.join_token == "j-old"
        [logged] = store.events("t-old")
        assert (logged.seq, logged.payload, logged.created_at) == (1, {"faces": [3]}, 2.5)
        store.append("t-old", 1, [event(2)])
        assert [e.seq for e in store.events("t-old")] == [1, 2]
        t = new_table(store, colours={"B": "#445566"})
        row = store.table(t)
        assert row is not None and row.colours == {"B": "#445566"}
        # last played: its last event's time (1.25), found in the old table by the new query
        assert store.idle_tables(before=1.25, limit=10) == []
        assert store.idle_tables(before=2.0, limit=10) == ["t-old"]
    finally:
        store.close()


def test_both_stores_make_the_same_columns_from_the_one_schema(
    tmp_path: Path, postgres_url: str
) -> None:
    """The one :data:`~companion.store.sql.SCHEMA` gives both databases the same tables and
    columns (SQLite's PRAGMA and PostgreSQL's information_schema agree)."""
    open_store(str(tmp_path / "new.sqlite")).close()
    with sqlite3.connect(tmp_path / "new.sqlite") as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        in_sqlite = {n: [r[1] for r in db.execute(f"PRAGMA table_info({n})")] for n in names}
    open_store(postgres_url).close()
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(postgres_url) as db:
        rows = db.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        ).fetchall()
    in_postgres: dict[str, list[str]] = {}
    for table, column in rows:
        in_postgres.setdefault(table, []).append(column)
    assert sorted(in_sqlite) == ["events", "reclaim_codes", "removed_tables", "seats", "tables"]
    assert in_sqlite == in_postgres
    assert in_sqlite["tables"][-1] == "colours"


def test_append_soon_commits_in_the_background_and_says_how_it_went(database: str) -> None:
    """The Store protocol's append_soon, in both stores: the callback comes from another
    thread once the events are in (None), or with the StoreError append would raise (and
    nothing of it is in)."""
    store = open_store(database)
    try:
        t = new_table(store)
        told: list[tuple[str, Exception | None]] = []
        done = threading.Event()

        def tell(error: Exception | None) -> None:
            told.append((threading.current_thread().name, error))
            if len(told) == 2:
                done.set()

        store.append_soon(t, 0, [event(1), event(2)], tell)
        store.append_soon(t, 0, [event(1, "late")], tell)  # based on a revision now gone
        assert done.wait(10)
        (first_thread, first), (_, second) = told
        assert first is None and first_thread != threading.current_thread().name
        assert isinstance(second, StoreError) and "is at 2, expected 0" in str(second)
        assert [(e.seq, e.client_action_id) for e in store.events(t)] == [(1, None), (2, None)]
    finally:
        store.close()


def test_two_stores_racing_on_one_table_apply_one_write(database: str) -> None:
    """Two store instances (as two processes would) append 40 writes at the same revision:
    exactly one lands, 39 are refused with the store's StoreError, and the log is intact."""
    stores = [open_store(database), open_store(database)]
    try:
        t = new_table(stores[0])
        stores[0].append(t, 0, [event(1)])
        gate = threading.Barrier(40)
        outcomes: list[str] = []

        def write(index: int) -> None:
            gate.wait()
            try:
                stores[index % 2].append(t, 1, [event(2, f"c{index}")])
                outcomes.append("applied")
            except StoreError as exc:
                outcomes.append(str(exc))

        threads = [threading.Thread(target=write, args=(i,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert outcomes.count("applied") == 1
        refused = [o for o in outcomes if o != "applied"]
        assert len(refused) == 39
        assert all(re.search(f"log of {t} is at 2, expected 1|refused", o) for o in refused)
        assert [e.seq for e in stores[1].events(t)] == [1, 2]
    finally:
        for store in stores:
            store.close()


def test_open_store_chooses_by_url_and_hides_the_password(
    postgres_url: str, tmp_path: Path
) -> None:
    from companion.store.postgres import PgEventStore

    assert isinstance(open_store(tmp_path / "a.sqlite"), EventStore)
    with_password = postgres_url.replace("postgres@", "postgres:pw-SECRET@")  # trust auth
    for url in (with_password, with_password.replace("postgresql://", "postgres://")):
        store = open_store(url, "crash")
        try:
            assert isinstance(store, PgEventStore) and store.shared
            assert "pw-SECRET" not in store.location and ":***@" in store.location
            with store._pool.connection() as db:
                assert db.execute("SHOW synchronous_commit").fetchone() == ("off",)
        finally:
            store.close()


def run_serve(*options: str, block: str = "") -> subprocess.CompletedProcess[str]:
    """``tablesmith serve`` with options, in a fresh interpreter (``block``: modules to hide)."""
    hide = "".join(f"sys.modules[{name!r}] = None; " for name in block.split())
    code = (
        f"import sys; {hide}sys.argv = ['tablesmith', 'serve', *{list(options)!r}]; "
        "import tablesmith; tablesmith.main()"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_serve_says_in_one_line_what_is_wrong_without_the_password() -> None:
    closed = free_port()
    quiet = ("--no-mdns", "--no-qr", "--port", "0", "--host", "127.0.0.1")
    down = run_serve("--db", f"postgresql://u:pw-SECRET@127.0.0.1:{closed}/x", *quiet)
    assert down.returncode == 2 and "pw-SECRET" not in down.stderr + down.stdout
    assert down.stderr.strip().count("\n") == 0
    assert f"--db: cannot open the database postgresql://u:***@127.0.0.1:{closed}/x" in down.stderr
    assert "Connection refused" in down.stderr
    hub = run_serve("--pubsub", f"redis://:pw-SECRET@127.0.0.1:{closed}", *quiet)
    assert hub.returncode == 2 and "pw-SECRET" not in hub.stderr + hub.stdout
    assert f"--pubsub: cannot use Redis at redis://:***@127.0.0.1:{closed}" in hub.stderr
    assert hub.stderr.strip().count("\n") == 0
    other = run_serve("--pubsub", "amqp://x", *quiet)
    assert other.returncode == 2
    assert "--pubsub must be 'local' or a redis://, rediss:// or unix:// URL" in other.stderr
    missing = run_serve("--db", "postgresql://u@127.0.0.1/x", *quiet, block="psycopg")
    assert missing.returncode == 2 and missing.stderr.strip().count("\n") == 0
    assert "pip install 'tablesmith[store]'" in missing.stderr
    missing = run_serve("--pubsub", "redis://127.0.0.1", *quiet, block="redis redis.asyncio")
    assert missing.returncode == 2 and "pip install 'tablesmith[store]'" in missing.stderr


# --------------------------------------------------------------- two serve processes at once


@pytest.fixture
def pair(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Serve, Serve]]:
    """Two ``tablesmith serve`` processes on one PostgreSQL and one Redis."""
    first = start_serve(postgres_url, redis_url, tmp_path / "serve1.log")
    try:
        second = start_serve(postgres_url, redis_url, tmp_path / "serve2.log")
    except BaseException:
        first.stop()
        raise
    yield first, second
    for serve in (first, second):
        serve.stop()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@pytest.mark.slow
def test_an_action_through_one_process_reaches_a_stream_on_the_other(
    pair: tuple[Serve, Serve], record_property: Callable[[str, Any], None]
) -> None:
    first, second = pair
    table = seat_both(first, second)
    stream = StreamReader(second.base, table, "B").start()
    try:
        # presence crosses too: the phone streaming from process 2 shows as connected on 1
        def b_connected() -> bool:
            view = requests.get(
                f"{first.base}/api/t/{table.id}/state", headers=table.headers("A"), timeout=5
            ).json()
            return bool(view["presence"]["B"]["connected"])

        wait_until(b_connected, 5, "seat B's stream on process 2 was not seen by process 1")
        delays, answered = [], []
        for index in range(200):
            sent = time.perf_counter()
            response = roll(first, table, "A", f"lat-{index}")
            acknowledged = time.perf_counter()
            assert response.status_code == 200, response.text
            revision = response.json()["revision"]
            wait_until(
                lambda r=revision: r in stream.arrived, 5.0, f"event {revision} on process 2"
            )
            delays.append((stream.arrived[revision] - sent) * 1000)
            answered.append((stream.arrived[revision] - acknowledged) * 1000)
        figures = {
            "send_to_other_stream_p50_ms": round(percentile(delays, 0.5), 1),
            "send_to_other_stream_p99_ms": round(percentile(delays, 0.99), 1),
            "send_to_other_stream_max_ms": round(max(delays), 1),
            "answer_to_other_stream_p50_ms": round(percentile(answered, 0.5), 1),
            "answer_to_other_stream_p99_ms": round(percentile(answered, 0.99), 1),
        }
        for name, value in figures.items():
            record_property(name, value)
        print(f"\ncross-process event delay over 200 actions: {figures}")
        assert max(delays) < 1000
        assert stream.order == sorted(set(stream.order))  # each event once, in order
    finally:
        stream.close()


@pytest.mark.slow
def test_socket_phones_on_two_processes_play_together(pair: tuple[Serve, Serve]) -> None:
    """Seat A's socket on process 1, seat B's on process 2 (companion/sockets.py): each one's
    rolls, sent on its socket, reach the other's socket stream, and presence crosses too."""
    first, second = pair
    table = seat_both(first, second)
    phone_a = SocketReader(first.base, table, "A").start()
    phone_b = SocketReader(second.base, table, "B").start()
    try:

        def connected(base: str, seat: str, other: str) -> bool:
            view = requests.get(
                f"{base}/api/t/{table.id}/state", headers=table.headers(seat), timeout=5
            ).json()
            return bool(view["presence"][other]["connected"])

        wait_until(lambda: connected(first.base, "A", "B"), 5, "B's socket not seen on 1")
        wait_until(lambda: connected(second.base, "B", "A"), 5, "A's socket not seen on 2")
        revisions = []
        for index in range(20):
            for phone, other in ((phone_a, phone_b), (phone_b, phone_a)):
                answer = phone.roll(f"{phone.seat}-{index}")
                assert answer is not None and answer[0] == 200, answer
                revision = answer[1]["revision"]
                revisions.append(revision)
                wait_until(
                    lambda o=other, r=revision: r in o.arrived, 5.0, f"event {revision} across"
                )
        assert len(set(revisions)) == 40
        for phone in (phone_a, phone_b):
            assert phone.order == sorted(set(phone.order))  # each event once, in order
            assert set(revisions) <= set(phone.order)
    finally:
        phone_a.close()
        phone_b.close()


@pytest.mark.slow
def test_racing_writes_from_both_processes_are_applied_once(pair: tuple[Serve, Serve]) -> None:
    first, second = pair
    table = seat_both(first, second)
    state = requests.get(
        f"{second.base}/api/t/{table.id}/state", headers=table.headers("A"), timeout=5
    ).json()
    revision = state["revision"]
    serves = (first, second)

    def race(send: Callable[[int], requests.Response]) -> list[requests.Response]:
        gate = threading.Barrier(40)
        answers: list[Any] = [None] * 40

        def one(index: int) -> None:
            gate.wait()
            answers[index] = send(index)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return answers

    # 40 setups based on the same revision, 20 through each process: one applied, 39 stale
    def setup(index: int) -> requests.Response:
        body = {
            "expected_revision": revision,
            "client_action_id": f"setup-{index}",
            "action": {"type": "setup", "mode": "random"},
        }
        return requests.post(
            f"{serves[index % 2].base}/api/t/{table.id}/actions",
            json=body,
            headers=table.headers("A"),
            timeout=30,
        )

    answers = race(setup)
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [409] * 39, [a.text for a in answers if a.status_code >= 500]
    assert {a.json()["error"] for a in answers if a.status_code == 409} == {"stale"}

    # 40 rolls (no revision needed) through both processes: all applied once, one seq each
    answers = race(lambda index: roll(serves[index % 2], table, "B", f"roll-{index}"))
    assert [a.status_code for a in answers] == [200] * 40, [a.text for a in answers]
    revisions = [a.json()["revision"] for a in answers]
    assert len(set(revisions)) == 40

    # the same 20 client ids sent to both processes at once: each applied exactly once
    answers = race(lambda index: roll(serves[index % 2], table, "A", f"twice-{index // 2}"))
    assert [a.status_code for a in answers] == [200] * 40, [a.text for a in answers]
    assert sum(a.json()["duplicate"] for a in answers) == 20

    print(
        "\nracing: 40 setups at one revision -> 1 applied, 39 refused 409 stale; 40 rolls -> "
        "40 applied at 40 distinct revisions; 20 ids sent to both processes -> 20 applied, "
        "20 answered as duplicates"
    )
    log = requests.get(
        f"{first.base}/api/t/{table.id}/log", headers=table.headers("A"), timeout=10
    ).json()
    seqs = [e["seq"] for e in log["events"]]
    assert seqs == list(range(1, log["total"] + 1))
    ids = [e["client_action_id"] for e in log["events"] if e["client_action_id"]]
    assert len(ids) == len(set(ids))
    assert sum(e["kind"] == "setup" for e in log["events"]) == 1
    assert {f"roll-{i}" for i in range(40)} | {f"twice-{i}" for i in range(20)} <= set(ids)
    assert sorted(revisions) == sorted(
        e["seq"] for e in log["events"] if (e["client_action_id"] or "").startswith("roll-")
    )


@pytest.mark.slow
def test_kill_9_loses_nothing_acknowledged_and_the_stream_resumes_on_the_other(
    pair: tuple[Serve, Serve],
) -> None:
    first, second = pair
    table = seat_both(first, second)
    stream = StreamReader(first.base, table, "B").start()
    acknowledged: dict[str, int | None] = {}
    """client action id -> the seq it got (None: answered as a duplicate of an earlier try)"""
    stop = threading.Event()
    killed = threading.Event()

    def writer() -> None:
        """Rolls through process 1 until it dies; a roll without an answer is sent again
        to process 2 with the same client action id (as the page does)."""
        index = 0
        while not stop.is_set():
            client_id = f"k-{index}"
            target = second if killed.is_set() else first
            try:
                response = roll(target, table, "A", client_id)
            except requests.ConnectionError:
                response = roll(second, table, "A", client_id)
            assert response.status_code == 200, response.text
            answer = response.json()
            acknowledged[client_id] = None if answer["duplicate"] else answer["revision"]
            index += 1

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        wait_until(lambda: len(acknowledged) >= 30, 30, "30 rolls through process 1")
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=10)
        killed.set()
        assert stream.ended.wait(10), "the stream on the killed process did not end"
        last_seen = max(stream.order, default=0)
        resumed = StreamReader(second.base, table, "B", since=last_seen).start()
        before = len(acknowledged)
        wait_until(lambda: len(acknowledged) >= before + 30, 30, "30 rolls through process 2")
        stop.set()
        thread.join(timeout=30)
        final = max(seq for seq in acknowledged.values() if seq is not None)
        wait_until(lambda: final in resumed.arrived, 5, "the resumed stream caught up")
        resumed.close()
    finally:
        stop.set()
        stream.close()
    log = requests.get(
        f"{second.base}/api/t/{table.id}/log", headers=table.headers("A"), timeout=10
    ).json()
    by_id = {e["client_action_id"]: e["seq"] for e in log["events"] if e["client_action_id"]}
    assert set(acknowledged) <= set(by_id)  # nothing acknowledged is lost
    assert all(by_id[cid] == seq for cid, seq in acknowledged.items() if seq is not None)
    assert [e["seq"] for e in log["events"]] == list(range(1, log["total"] + 1))
    seen = stream.order + resumed.order
    duplicates = sum(seq is None for seq in acknowledged.values())
    print(
        f"\nkill -9: {len(acknowledged)} rolls acknowledged ({before} before the kill), all in "
        f"the log; {duplicates} retried on process 2 as duplicates; the stream saw "
        f"{len(stream.order)} events on process 1 and resumed after seq {last_seen} on "
        f"process 2 with {len(resumed.order)} more, none missing or doubled"
    )
    assert seen == list(range(1, final + 1))  # every event once, across the two processes
    assert all(seq > last_seen for seq in resumed.order)


# ------------------------------------------------------------------------------- the hub


def test_make_hub_chooses_by_url() -> None:
    pytest.importorskip(
        "redis", reason="the redis package is missing: pip install 'tablesmith[store]'"
    )
    from companion.hub.factory import make_hub
    from companion.hub.local import LocalHub
    from companion.hub.redis import RedisHub

    assert type(make_hub(None)) is LocalHub and type(make_hub("local")) is LocalHub
    for url in ("redis://h:6379/0", "rediss://:pw@h", "unix:///run/redis.sock"):
        hub = make_hub(url)
        assert isinstance(hub, RedisHub) and hub.url != "local" and "pw" not in hub.url
    with pytest.raises(ValueError, match="redis://, rediss:// or unix:// URL, got 'host'"):
        make_hub("amqp://user:pw@host")


def test_redis_hub_tells_the_other_process_and_not_itself(redis_url: str) -> None:
    """Two hubs (two processes' worth) on one Redis: a write notified from a worker thread of
    one reaches the other as ``{"t", "r", "o"}`` and wakes its own streams at once; presence
    travels as ``{"t", "p", "o"}``; nobody hears its own messages."""
    import asyncio

    from companion.hub.redis import RedisHub

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool]:
        one, two = RedisHub(redis_url), RedisHub(redis_url)
        heard_one: list[dict[str, Any]] = []
        heard_two: list[dict[str, Any]] = []
        one.on_remote, two.on_remote = heard_one.append, heard_two.append
        await one.start()
        await two.start()
        try:
            wake = one.subscribe("t1")
            writer = threading.Thread(target=one.notify, args=("t1", 7))
            writer.start()
            writer.join()
            one.notify_presence("t1", {"A": 1, "B": 0}, wake=False)
            for _ in range(200):
                if len(heard_two) >= 2:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # room for a wrong echo to arrive
            return heard_one, heard_two, wake.is_set()
        finally:
            await one.stop()
            await two.stop()

    heard_one, heard_two, woke_here = asyncio.run(scenario())
    assert heard_one == []
    received = sorted(heard_two, key=lambda m: "r" not in m)  # the order does not matter
    assert [{k: v for k, v in m.items() if k != "o"} for m in received] == [
        {"t": "t1", "r": 7},
        {"t": "t1", "p": {"A": 1, "B": 0}},
    ]
    assert heard_two[0]["o"] == heard_two[1]["o"] and str(os.getpid()) in heard_two[0]["o"]
    assert woke_here


def test_redis_hub_catches_up_after_redis_restarts(redis_url: str) -> None:
    """Redis goes away and comes back on the same port: the listener subscribes again and asks
    for a catch-up of every table with streams here (messages were lost meanwhile); the
    publisher's stale connection is replaced, so the next write arrives again."""
    import asyncio

    from companion.hub.redis import RESYNC, RedisHub

    program = shutil.which("redis-server")
    assert program is not None  # the redis_url fixture skipped otherwise
    port = free_port()
    command = [program, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    servers = [subprocess.Popen(command, stdout=subprocess.DEVNULL)]
    url = f"redis://127.0.0.1:{port}"

    async def until(check: Callable[[], bool], seconds: float) -> bool:
        for _ in range(int(seconds / 0.02)):
            if check():
                return True
            await asyncio.sleep(0.02)
        return False

    async def scenario() -> list[dict[str, Any]]:
        assert await until(lambda: _pings(url), 10)
        one, two = RedisHub(url), RedisHub(url)
        heard: list[dict[str, Any]] = []
        two.on_remote = heard.append
        await one.start()
        await two.start()
        try:
            two.subscribe("t1")  # a stream of t1 is open in process two
            servers[0].kill()
            servers[0].wait()
            one.notify("t1", 5)  # lost: Redis is away
            await asyncio.sleep(0.3)
            servers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
            assert await until(lambda: any(m.get("r") == RESYNC for m in heard), 15)
            one.notify("t1", 6)
            assert await until(lambda: any(m.get("r") == 6 for m in heard), 5)
            return heard
        finally:
            await one.stop()
            await two.stop()

    try:
        heard = asyncio.run(scenario())
    finally:
        for server in servers:
            server.kill()
            server.wait()
    assert {"t": "t1", "r": RESYNC, "o": "resync"} in heard
    assert all(m.get("r") != 5 for m in heard)


def _pings(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False
