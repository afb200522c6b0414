"""The SQLite event store: WAL, atomic appends (several tables' appends share a commit when
they wait together), stale appends and repeated ids."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.store.base import Event, StoreError, token_hash
from companion.store.sqlite import EventStore


def event(seq: int, client_id: str | None = None) -> Event:
    return Event(
        seq=seq,
        kind="roll",
        seat="A",
        client_action_id=client_id,
        payload={"faces": [seq]},
        created_at=1.0,
    )


def test_append_is_atomic_ordered_and_checks_the_expected_seq(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "deep" / "log.sqlite")
    store.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
    store.add_seat(table_id="t", seat="A", token="secret")
    store.append("t", 0, [event(1), event(2, "c")])
    with pytest.raises(StoreError, match="log of t is at 2, expected 1"):
        store.append("t", 1, [event(2)])
    with pytest.raises(StoreError, match="refused"):
        store.append("t", 2, [event(3), event(4, "c")])  # repeated client id: nothing lands
    assert [e.seq for e in store.events("t")] == [1, 2]
    assert store.events("t")[1].payload == {"faces": [2]}
    row = store.table("t")
    assert row is not None and row.seat_hashes == {"A": token_hash("secret")}
    assert store.table_by_token("join", "j") == "t" and store.table_by_token("watch", "j") is None
    with pytest.raises(StoreError, match="seat A of table t is taken"):
        store.add_seat(table_id="t", seat="A", token="other")


def test_database_is_in_wal_mode_and_never_stores_seat_tokens(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    store = EventStore(path)
    store.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
    store.add_seat(table_id="t", seat="B", token="very-secret-token")
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    dump = "\n".join(db.iterdump())
    assert "very-secret-token" not in dump and token_hash("very-secret-token") in dump


def test_durability_levels_set_sqlite_synchronous(tmp_path: Path) -> None:
    power = EventStore(tmp_path / "a.sqlite")  # the default
    crash = EventStore(tmp_path / "b.sqlite", "crash")
    assert crash._writer.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert power._writer.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with pytest.raises(StoreError, match=r"durability must be one of \['crash', 'power'\]"):
        EventStore(tmp_path / "c.sqlite", "paper")


class SlowFirstCommit:
    """The writer connection, counting COMMITs; the first one takes 0.3 s (a slow disk flush),
    and with ``fail`` every COMMIT fails as on a full disk."""

    def __init__(self, db: sqlite3.Connection, *, fail: bool = False) -> None:
        self.db = db
        self.fail = fail
        self.commits = 0
        self.committing = threading.Event()

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.commits += 1
            if self.commits == 1:
                self.committing.set()
                time.sleep(0.3)
            if self.fail:
                raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> Any:
        return self.db.executemany(sql, rows)


def tables_store(tmp_path: Path, count: int) -> EventStore:
    store = EventStore(tmp_path / "log.sqlite")
    for number in range(count):
        store.create_table(
            table_id=f"t{number}",
            game="asteroids",
            join_token=f"j{number}",
            watch_token=f"w{number}",
        )
    return store


def append_while_committing(
    store: EventStore, writer: SlowFirstCommit, appends: list[tuple[str, int, list[Event]]]
) -> list[str]:
    """Run the first append, and the others (in threads) while its COMMIT is under way; the
    outcome of each: "ok" or the error's class and message."""
    outcomes = [""] * len(appends)

    def run(index: int) -> None:
        table_id, expected, events = appends[index]
        try:
            store.append(table_id, expected, events)
            outcomes[index] = "ok"
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test looks at
            outcomes[index] = f"{type(exc).__name__}: {exc}"

    first = threading.Thread(target=run, args=(0,))
    first.start()
    assert writer.committing.wait(5)
    others = [threading.Thread(target=run, args=(i,)) for i in range(1, len(appends))]
    for thread in others:
        thread.start()
    time.sleep(0.1)  # every other append is queued behind the slow commit
    for thread in [first, *others]:
        thread.join(10)
    return outcomes


def test_appends_waiting_together_share_one_commit_and_are_refused_alone(tmp_path: Path) -> None:
    store = tables_store(tmp_path, 8)
    writer = SlowFirstCommit(store._writer)
    store._writer = writer  # type: ignore[assignment]
    appends = [(f"t{n}", 0, [event(1, "c1"), event(2)]) for n in range(8)]
    appends[5] = ("t5", 3, [event(4)])  # stale: the log of t5 is at 0
    appends[6] = ("t6", 0, [event(1, "x"), event(2, "x")])  # a repeated client id
    outcomes = append_while_committing(store, writer, appends)
    assert outcomes[5] == "StoreError: log of t5 is at 0, expected 3"
    assert outcomes[6].startswith("StoreError: append to t6 refused: UNIQUE constraint failed")
    assert [o for n, o in enumerate(outcomes) if n not in (5, 6)] == ["ok"] * 6
    assert writer.commits == 2  # the first append alone, then the seven queued behind it
    store._writer = writer.db
    for number in range(8):
        expected = [] if number in (5, 6) else [1, 2]
        assert [e.seq for e in store.events(f"t{number}")] == expected


def test_a_failed_group_commit_refuses_every_append_in_it_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    store = tables_store(tmp_path, 4)
    writer = SlowFirstCommit(store._writer, fail=True)
    store._writer = writer  # type: ignore[assignment]
    appends = [(f"t{n}", 0, [event(1)]) for n in range(4)]
    outcomes = append_while_committing(store, writer, appends)
    assert writer.commits == 2
    assert (
        outcomes
        == ["StorageUnavailable: the database cannot be written: database or disk is full"] * 4
    )
    store._writer = writer.db
    assert not writer.db.in_transaction
    assert all(store.events(f"t{n}") == [] for n in range(4))
    store.append("t0", 0, [event(1)])  # the store works again afterwards
    assert [e.seq for e in store.events("t0")] == [1]


def test_append_soon_queues_behind_a_commit_shares_the_next_and_calls_back_once(
    tmp_path: Path,
) -> None:
    store = tables_store(tmp_path, 6)
    writer = SlowFirstCommit(store._writer)
    store._writer = writer  # type: ignore[assignment]
    told: dict[str, list[str]] = {}
    done = threading.Semaphore(0)

    def callback(table_id: str) -> Any:
        def tell(error: Exception | None) -> None:
            outcome = "ok" if error is None else f"{type(error).__name__}: {error}"
            told.setdefault(table_id, []).append(outcome)
            assert [e.seq for e in store.events(table_id)] == ([1, 2] if error is None else [])
            done.release()

        return tell

    store.append_soon("t0", 0, [event(1), event(2)], callback("t0"))
    assert writer.committing.wait(5)  # the committer is in the slow COMMIT of t0
    for number in range(1, 6):
        expected = 3 if number == 4 else 0  # t4 is stale
        store.append_soon(f"t{number}", expected, [event(1), event(2)], callback(f"t{number}"))
    for _ in range(6):
        assert done.acquire(timeout=10)
    assert told == {
        **{f"t{n}": ["ok"] for n in (0, 1, 2, 3, 5)},
        "t4": ["StoreError: log of t4 is at 0, expected 3"],
    }
    assert writer.commits == 2  # t0 alone, then the five queued meanwhile in one commit
    store._writer = writer.db
    store.append_soon("t4", 0, [event(1), event(2)], callback("t4"))  # the committer restarts
    assert done.acquire(timeout=10)
    assert told["t4"][-1] == "ok"
    store.close()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(
    seq=st.integers(min_value=1, max_value=10**15),
    kind=st.text(),
    seat=st.none() | st.text(),
    client_id=st.none() | st.text(),
    payload=st.dictionaries(st.text(), JSON, max_size=4),
    created_at=st.floats(allow_nan=False) | st.integers(),
)
def test_an_events_text_is_the_standard_librarys_json_of_it(
    seq: int,
    kind: str,
    seat: str | None,
    client_id: str | None,
    payload: dict[str, Any],
    created_at: float,
) -> None:
    """The log line is written around the payload's text (made once), byte for byte what
    ``json.dumps`` makes of the whole event, whatever the strings and numbers hold."""
    logged = Event(
        seq=seq,
        kind=kind,
        seat=seat,
        client_action_id=client_id,
        payload=payload,
        created_at=created_at,
    )
    compact = (",", ":")
    assert logged.payload_text == json.dumps(payload, separators=compact)
    assert logged.to_text() == json.dumps(logged.to_json(), separators=compact)
