"""Retention: a table not played for the retention period (default 30 days, ``serve
--retention``) is removed from the database (SQLite and PostgreSQL) and from memory, finished
or not, and a phone coming back is told so (410); an idle table leaves memory and comes back
from its log unchanged. Clocks are passed in (``now``), so no test waits 30 days."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from companion.dice import DiceService
from companion.durations import describe_duration, duration_parts, parse_duration
from companion.store.base import Event, Store
from companion.store.factory import open_store
from companion.tables.rejected import Rejected
from companion.tables.retention import DEFAULT_IDLE, DEFAULT_RETENTION, Retention
from companion.tables.service import EXTENSION, TableService
from tablesmith import cli
from tests.companion.conftest import Seats, act, flask_post, make_app, seat_both
from tests.companion.servers import serve_process, wait_until
from tests.companion.test_last_blow import post, started

DAY = 86400.0


@pytest.fixture
def pg_database(postgres_url: str) -> Iterator[str]:
    """A fresh database of its own on the session's PostgreSQL server (a sweep 31 days ahead
    must not remove other tests' tables): its URL; dropped afterwards."""
    import psycopg

    name = f"retention_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    yield postgres_url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The ``DATABASE`` of an app: an SQLite file, or a PostgreSQL database of its own."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_database"))
    return str(tmp_path / "companion.sqlite")


@pytest.fixture
def app(tmp_path: Path, database: str) -> Iterator[Flask]:
    made = make_app(tmp_path, DATABASE=database)
    yield made
    made.extensions[EXTENSION].store.close()


def service_of(app: Flask) -> TableService:
    service: TableService = app.extensions[EXTENSION]
    return service


def count(store: Store, table: str, table_id: str) -> int:
    """Rows of ``table`` that belong to ``table_id`` (read directly from the database)."""
    column = "id" if table in ("tables", "removed_tables") else "table_id"
    sql = store._sql(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?")  # type: ignore[attr-defined]
    return int(store._read(lambda db: db.execute(sql, (table_id,)).fetchone()[0]))  # type: ignore[attr-defined]


ROWS = ("tables", "seats", "reclaim_codes", "events")


def state(client: FlaskClient, seats: Seats, seat: str = "A") -> Any:
    return client.get(seats.api + "/state", headers=seats.headers(seat))


def without_presence(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "presence"}


# ------------------------------------------------------------------ the retention period


def test_retention_default_is_30_days_and_serve_help_names_it(app: Flask) -> None:
    assert DEFAULT_RETENTION == 30 * DAY
    assert service_of(app).retention.retention == 30 * DAY
    assert service_of(app).retention.idle == DEFAULT_IDLE == 300.0
    shown = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=200)
    assert shown.exit_code == 0
    line = next(x for x in shown.output.splitlines() if "--retention" in x)
    assert "DURATION" in line and "[default: 30d]" in shown.output
    assert "45s, 90m, 12h, 30d" in " ".join(shown.output.split())


def test_retention_keeps_a_table_29_days_idle_and_removes_it_at_31_from_db_and_memory(
    app: Flask,
) -> None:
    client = app.test_client()
    service = service_of(app)
    seats = seat_both(flask_post(client))
    assert act(client, seats, "A", {"type": "setup", "mode": "random"}).status_code == 200
    before = state(client, seats).get_json()
    store = service.store
    assert all(count(store, name, seats.table_id) > 0 for name in ROWS)
    now = time.time()

    assert service.retention.sweep(now=now + 29 * DAY) == []
    assert service.cache.get(seats.table_id, touch=False) is not None
    assert state(client, seats).get_json()["revision"] == before["revision"]

    assert service.retention.sweep(now=now + 31 * DAY) == [seats.table_id]
    assert [count(store, name, seats.table_id) for name in ROWS] == [0, 0, 0, 0]
    assert count(store, "removed_tables", seats.table_id) == 1
    assert service.cache.get(seats.table_id, touch=False) is None
    assert store.table(seats.table_id) is None and store.events(seats.table_id) == []
    assert service.retention.sweep(now=now + 31 * DAY) == []  # idempotent

    gone = state(client, seats)
    assert gone.status_code == 410
    body = gone.get_json()
    assert body["error"] == "removed" and body["retention"] == "30 days"
    assert "removed after 30 days without play" in body["message"]
    page = client.get(f"/t/{seats.table_id}")
    assert page.status_code == 410
    text = page.get_data(as_text=True)
    assert "This table was removed" in text and "for 30 days" in text
    german = client.get(f"/t/{seats.table_id}", headers={"Accept-Language": "de"})
    assert "30 Tage lang nicht gespielt" in german.get_data(as_text=True)
    write = act(client, seats, "A", {"type": "undo"}, revision=before["revision"])
    assert write.status_code == 410
    never = client.get("/api/t/never-made/state", headers=seats.headers("A"))
    assert never.status_code == 404 and never.get_json()["error"] == "unknown"


def test_retention_removes_a_finished_table_only_after_the_period(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    seats, view = started(client)
    blow = {"type": "counter", "character": "B1", "delta": 1}
    ended = post(client, seats, "A", view["revision"], action=blow).get_json()["view"]
    assert ended["outcome"]["winner"] == "A"
    retention = service_of(app).retention
    now = time.time()
    assert retention.sweep(now=now + DAY) == []
    assert retention.sweep(now=now + 29.9 * DAY) == []
    assert state(client, seats).get_json()["outcome"]["winner"] == "A"
    assert retention.sweep(now=now + 30.1 * DAY) == [seats.table_id]
    assert state(client, seats).status_code == 410


def test_retention_counts_from_the_last_event_at_the_same_now(database: str) -> None:
    """Three tables last played 31, 29 and 45 days before one ``now``, written with those
    times: the 31- and 45-day ones go, with their rows; the 29-day one stays whole."""
    store = open_store(database)
    try:
        retention = Retention(store, *_cache_and_budgets(store))
        now = 2_000_000_000.0
        for name, age in (("old", 31), ("young", 29), ("older", 45)):
            store.create_table(
                table_id=name, game="asteroids", join_token=name, watch_token="w" + name
            )
            store.add_seat(table_id=name, seat="A", token="tok" + name)
            store.add_reclaim_code(table_id=name, seat="A", code="K" + name, expires_at=now + DAY)
            store.append(name, 0, [_event(1, now - (age + 1) * DAY), _event(2, now - age * DAY)])
        assert sorted(retention.sweep(now=now)) == ["old", "older"]
        assert [count(store, n, "young") for n in ROWS] == [1, 1, 1, 2]
        assert all(count(store, n, "old") == 0 for n in ROWS)
        gone = store.removed("old")
        assert gone is not None and (gone.removed_at, gone.retention) == (now, 30 * DAY)
        assert store.removed("young") is None
        # the note that a table was removed is kept one more retention period, then forgotten
        assert retention.sweep(now=now + DAY / 2) == [] and store.removed("old") is not None
        assert retention.sweep(now=now + 31 * DAY) == ["young"]
        assert store.removed("old") is None and store.removed("young") is not None
    finally:
        store.close()


def test_retention_zero_keeps_every_table(tmp_path: Path) -> None:
    app = make_app(tmp_path, RETENTION_SECONDS=0)
    client = app.test_client()
    seats = seat_both(flask_post(client))
    assert service_of(app).retention.sweep(now=time.time() + 3650 * DAY) == []
    assert state(client, seats).status_code == 200


def test_retention_removal_is_safe_from_two_postgres_processes_at_once(pg_database: str) -> None:
    """Two stores (as two ``serve`` processes) remove the same idle table at the same moment:
    one removes it, the other finds nothing to do; no error, no row left."""
    first, second = open_store(pg_database), open_store(pg_database)
    try:
        first.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
        first.add_seat(table_id="t", seat="A", token="a")
        first.append("t", 0, [_event(1, 1000.0)])
        barrier = threading.Barrier(2)
        results: list[bool] = []

        def remove(store: Store) -> None:
            barrier.wait()
            results.append(store.remove_table("t", before=5000.0, retention=30 * DAY, now=6000.0))

        threads = [threading.Thread(target=remove, args=(s,)) for s in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(results) == [False, True]
        assert [count(first, n, "t") for n in ROWS] == [0, 0, 0, 0]
        assert count(first, "removed_tables", "t") == 1
    finally:
        first.close()
        second.close()


def test_retention_a_table_another_process_removed_leaves_this_ones_memory_too(
    tmp_path: Path, pg_database: str
) -> None:
    """Two apps on one PostgreSQL database (two ``serve`` processes): the first has the table
    in memory, the second's sweep removes it; the first's own sweep then finds it gone from
    the database and lets go of its copy, and its phones are told the table was removed."""
    here = make_app(tmp_path / "here", DATABASE=pg_database)
    there = make_app(tmp_path / "there", DATABASE=pg_database)
    try:
        client = here.test_client()
        seats = seat_both(flask_post(client))
        assert act(client, seats, "A", {"type": "setup", "mode": "random"}).status_code == 200
        later = time.time() + 31 * DAY
        assert service_of(there).retention.sweep(now=later) == [seats.table_id]
        assert service_of(here).cache.get(seats.table_id, touch=False) is not None
        assert service_of(here).retention.sweep(now=later) == []  # nothing left to remove
        assert service_of(here).cache.get(seats.table_id, touch=False) is None
        assert state(client, seats).status_code == 410
    finally:
        service_of(here).store.close()
        service_of(there).store.close()


def test_retention_removal_loses_to_an_action_that_came_first(database: str) -> None:
    store = open_store(database)
    try:
        store.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
        store.append("t", 0, [_event(1, 1000.0)])
        idle = store.idle_tables(5000.0, 10)
        store.append("t", 1, [_event(2, 9000.0)])  # played between the query and the removal
        assert idle == ["t"]
        assert store.remove_table("t", before=5000.0, retention=30 * DAY, now=6000.0) is False
        assert count(store, "events", "t") == 2 and store.removed("t") is None
    finally:
        store.close()


@pytest.mark.slow
def test_retention_short_value_serve_removes_the_table(tmp_path: Path) -> None:
    """``serve --retention 2s``: the running server's own sweep removes a table two seconds
    after it was made, and the phone's next request is told so."""
    options = ["--db", str(tmp_path / "db.sqlite"), "--host", "127.0.0.1", "--port", "0"]
    log = tmp_path / "serve.log"
    serve = serve_process([*options, "--no-mdns", "--no-qr", "--retention", "2s"], log)
    try:
        assert "tables are removed after 2 seconds without play" in log.read_text(encoding="utf-8")
        made = requests.post(serve.base + "/api/tables", json={}, timeout=10).json()
        url = f"{serve.base}/api/t/{made['table_id']}/state"
        headers = {"X-Seat-Token": made["token"]}
        first = requests.get(url, headers=headers, timeout=10)
        assert first.status_code == 200
        started_at = time.monotonic()
        wait_until(
            lambda: requests.get(url, headers=headers, timeout=10).status_code == 410,
            15,
            "the table was not removed",
        )
        assert time.monotonic() - started_at < 10
        body = requests.get(url, headers=headers, timeout=10).json()
        assert body["error"] == "removed"
        assert "removed after 2 seconds without play" in body["message"]
        assert body["retention"] == "2 seconds" and body["retention_seconds"] == 2.0
        page = requests.get(f"{serve.base}/t/{made['table_id']}", timeout=10)
        german = requests.get(page.url, headers={"Accept-Language": "de"}, timeout=10)
        assert page.status_code == german.status_code == 410
        assert "Nobody played at this table for 2 seconds," in page.text
        assert "An diesem Tisch wurde 2 Sekunden lang nicht gespielt" in german.text
    finally:
        serve.stop()


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30d", 30 * DAY), ("12h", 43200.0), ("90m", 5400.0), ("45s", 45.0), ("0", 0.0)]
    + [(" 2D ", 2 * DAY), ("1s", 1.0)],
)
def test_retention_durations_parse(text: str, seconds: float) -> None:
    assert parse_duration(text, "--retention") == seconds


@pytest.mark.parametrize("text", ["", "30", "3x", "1.5d", "-1d", "0d", "30 days", "d", "1w"])
def test_retention_bad_durations_name_the_option_and_the_forms(text: str) -> None:
    with pytest.raises(ValueError, match=r"^--retention: must be a whole number") as caught:
        parse_duration(text, "--retention")
    assert "45s, 90m, 12h, 30d" in str(caught.value) and "0 for never" in str(caught.value)
    assert repr(text) in str(caught.value)


def test_retention_bad_value_stops_serve_with_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["serve", "--db", str(tmp_path / "db.sqlite"), "--retention", "3 weeks"]
    )
    assert result.exit_code == 2
    assert "--retention: must be a whole number with a unit s, m, h or d" in result.output
    assert "got '3 weeks'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "db.sqlite").exists()


def test_retention_durations_are_described_in_their_largest_whole_unit() -> None:
    assert describe_duration(30 * DAY) == "30 days"
    assert describe_duration(DAY) == "1 day"
    assert describe_duration(7200) == "2 hours"
    assert describe_duration(90) == "90 seconds"
    assert describe_duration(2) == "2 seconds"
    assert duration_parts(45) == (45, "second") and duration_parts(1) == (1, "second")


def test_retention_refuses_negative_periods(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="retention must be 0 .never. or more seconds, got -1"):
        make_app(tmp_path, RETENTION_SECONDS=-1)


# -------------------------------------------------------------------- the idle eviction


def test_retention_idle_eviction_and_reload_keep_the_state_undo_and_revision(
    app: Flask,
) -> None:
    client = app.test_client()
    service = service_of(app)
    seats, view = started(client)
    blow = {"type": "counter", "character": "B1", "delta": 1}
    ended = post(client, seats, "A", view["revision"], action=blow).get_json()["view"]
    assert ended["undo_seat"] == "A"
    before = {seat: state(client, seats, seat).get_json() for seat in ("A", "B")}
    table = service.cache.get(seats.table_id, touch=False)
    assert table is not None
    ids_before, log_before = dict(table.client_ids), list(table.messages)
    now = time.time()

    assert service.retention.evict(now=now + DEFAULT_IDLE - 5) == []
    assert service.retention.evict(now=now + DEFAULT_IDLE + 1) == [seats.table_id]
    assert service.cache.get(seats.table_id, touch=False) is None
    assert seats.table_id not in service.budgets._streams

    after = {seat: state(client, seats, seat).get_json() for seat in ("A", "B")}
    for seat in ("A", "B"):
        assert without_presence(after[seat]) == without_presence(before[seat])
    assert after["A"]["undo_seat"] == "A" and after["A"]["revision"] == ended["revision"]
    reloaded = service.cache.get(seats.table_id, touch=False)
    assert reloaded is not None and reloaded is not table
    assert reloaded.client_ids == ids_before and reloaded.messages == log_before
    # the blow's retry is still answered as a duplicate, and it can still be undone
    again = post(client, seats, "A", view["revision"], action=blow).get_json()
    assert again["duplicate"] is True and again["revision"] == ended["revision"]
    back = post(client, seats, "A", ended["revision"], action={"type": "undo"})
    assert back.status_code == 200 and back.get_json()["view"]["outcome"] is None


def test_retention_an_open_stream_keeps_a_table_in_memory(app: Flask) -> None:
    client = app.test_client()
    service = service_of(app)
    seats = seat_both(flask_post(client))
    slot = service.open_stream(service.authorise(seats.table_id, seats.b))
    later = time.time() + 10 * DEFAULT_IDLE
    assert service.retention.evict(now=later) == []
    slot.release()
    assert service.retention.evict(now=later) == [seats.table_id]
    assert service.cache.get(seats.table_id, touch=False) is None


def test_retention_a_request_keeps_a_table_in_memory_and_a_short_idle_lets_it_go(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, IDLE_SECONDS=2)
    client = app.test_client()
    service = service_of(app)
    seats = seat_both(flask_post(client))
    now = time.time()
    assert service.retention.evict(now=now + 1) == []
    assert service.retention.evict(now=now + 3) == [seats.table_id]
    assert state(client, seats).status_code == 200  # loaded again, and used now
    assert service.retention.evict(now=time.time() + 1) == []


def test_retention_a_write_on_a_copy_let_go_meanwhile_is_refused_not_lost(app: Flask) -> None:
    """A write that got the table just before the eviction let it go is refused (503, try
    again) rather than landing on a copy nobody else sees; the retry applies on the reload."""
    client = app.test_client()
    service = service_of(app)
    seats = seat_both(flask_post(client))
    stale = service.cache.get(seats.table_id)
    assert stale is not None
    assert service.retention.evict(now=time.time() + DEFAULT_IDLE + 1) == [seats.table_id]
    with stale.lock, pytest.raises(Rejected) as caught, service.catch_up.writing(stale):
        pass
    assert (caught.value.status, caught.value.reason) == (503, "busy")
    assert act(client, seats, "A", {"type": "setup", "mode": "random"}).status_code == 200


def test_retention_keeps_a_table_while_a_players_phone_streams_it(app: Flask) -> None:
    """A seat's live stream (a phone on the table page) keeps the table however long ago
    its last action was; once the stream closes, the next sweep removes it."""
    client = app.test_client()
    service = service_of(app)
    seats = seat_both(flask_post(client))
    stream = service.stream(service.authorise(seats.table_id, seats.b), since=0, heartbeat=0.2)
    assert next(iter(stream)).startswith("retry:")
    assert service.retention.sweep(now=time.time() + 31 * DAY) == []
    assert service.store.table(seats.table_id) is not None
    stream.close()
    assert service.retention.sweep(now=time.time() + 31 * DAY) == [seats.table_id]


def test_retention_a_removed_tables_live_streams_end(app: Flask) -> None:
    """A watcher's stream does not keep a table; when the table goes, the stream ends."""
    client = app.test_client()
    service = service_of(app)
    seats = seat_both(flask_post(client))
    watch = seats.watch_url.rsplit("/", 1)[1]
    stream = service.stream(service.authorise(seats.table_id, watch), since=0, heartbeat=0.2)
    frames = iter(stream)
    assert next(frames).startswith("retry:")
    assert service.retention.sweep(now=time.time() + 31 * DAY) == [seats.table_id]
    rest = list(frames)  # the stream ends instead of waiting for more
    assert all("revoked" not in frame for frame in rest)
    stream.close()
    assert service.streams_open == 0


def _event(seq: int, created_at: float) -> Event:
    return Event(
        seq=seq,
        kind="roll",
        seat="A",
        client_action_id=f"c{seq}",
        payload={"faces": [seq]},
        created_at=created_at,
    )


def _cache_and_budgets(store: Store) -> tuple[Any, Any]:
    service = TableService(store, DiceService())
    return service.cache, service.budgets


def test_retention_module_names_every_kept_thing_in_the_guide() -> None:
    guide = Path(__file__).resolve().parents[2] / "docs" / "companion.md"
    text = guide.read_text(encoding="utf-8")
    section = text.split("\n## What is kept how long\n", 1)[1].split("\n## ", 1)[0]
    for thing in (
        "log",
        "seat",
        "reclaim code",
        "seat key",
        "idempotency",
        "memory",
        "--retention",
    ):
        assert thing in section, thing
    assert "30 days" in section and "5 minutes" in section
