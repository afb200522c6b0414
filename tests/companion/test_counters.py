"""Counters of your own (companion.tables.counters): limits and errors naming the field, the
fold with undo beside a game's state, and the HTTP route: add/change/remove, undo, idempotent
retries, both seats at once without a stale refusal, a table reloaded from its log."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from companion.evented import serve_in_thread
from companion.store.base import Event
from companion.tables.counters import (
    MAX_COUNTERS,
    NAME_CHARS,
    VALUE_MAX,
    VALUE_MIN,
    CounterChange,
    CounterError,
    CounterRefused,
    Counters,
    counter_name,
    undo_index,
)
from companion.tables.fold import Fold
from games import registry
from tests.companion.conftest import Seats, act, make_app

# ------------------------------------------------------------------------------ pure counters


def change(op: str, name: str, **fields: Any) -> CounterChange:
    return CounterChange.from_json({"op": op, "name": name, **fields})


def test_names_are_trimmed_spaced_and_limited_to_1_to_40_characters() -> None:
    assert counter_name("  Victory \t  points ") == "Victory points"
    assert counter_name("x" * NAME_CHARS) == "x" * 40
    with pytest.raises(CounterError, match=r"name must be 1\.\.40 characters once trimmed, got 41"):
        counter_name("x" * 41)
    with pytest.raises(CounterError, match=r"got 0") as empty:
        counter_name("   ")
    assert empty.value.field == "name"
    with pytest.raises(CounterError, match="control characters"):
        counter_name("VP\x00")
    with pytest.raises(CounterError, match=r"name must be text of 1\.\.40 characters, got 7"):
        counter_name(7)


@pytest.mark.parametrize(
    "name",
    [
        "\u200b",  # zero-width space: a counter with no visible name
        "\ufeff",  # byte order mark
        "\u200d",  # a joiner alone
        "\u202eevil",  # right-to-left override: the log line would read backwards
        "VP\u2066",  # an unclosed bidi isolate
        "VP\ud800",  # a lone surrogate (JSON lets one through; not text)
        "\u0301",  # a combining mark alone
    ],
)
def test_names_without_visible_text_or_with_bidi_controls_are_refused(name: str) -> None:
    with pytest.raises(CounterError, match="name must") as error:
        counter_name(name)
    assert error.value.field == "name"


def test_names_keep_emoji_sequences_accents_and_joiners_inside_words() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji made with joiners
    assert counter_name(f"{family} points") == f"{family} points"
    assert counter_name("Cafe\u0301 \u2764\ufe0f") == "Cafe\u0301 \u2764\ufe0f"
    assert counter_name("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645") == (
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # Persian, with a ZWNJ
    )


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (
            {"op": "double", "name": "VP"},
            "op",
            "op must be one of add, change, remove, got 'double'",
        ),
        ({"name": "VP"}, "op", "got None"),
        ({"op": "change", "name": "VP"}, "by", "by must be a nonzero whole number"),
        ({"op": "change", "name": "VP", "by": 0}, "by", "nonzero"),
        (
            {"op": "change", "name": "VP", "by": 1.5},
            "by",
            "by must be a whole number in -19998..19998",
        ),
        ({"op": "change", "name": "VP", "by": True}, "by", "got True"),
        ({"op": "change", "name": "VP", "by": 20000}, "by", "got 20000"),
        (
            {"op": "add", "name": "VP", "value": 10000},
            "value",
            "value must be a whole number in -9999..9999, got 10000",
        ),
        ({"op": "add", "name": ""}, "name", "name must be 1..40"),
        ([1, 2], "counter", "must be a JSON object"),
    ],
)
def test_bad_counter_writes_name_the_field_and_the_allowed_values(
    data: Any, field: str, words: str
) -> None:
    with pytest.raises(CounterError) as error:
        CounterChange.from_json(data)
    assert error.value.field == field and words in str(error.value)


def test_counters_belong_to_a_seat_are_unique_ignoring_case_and_stay_in_bounds() -> None:
    counters = Counters().apply("A", change("add", "Victory points"))
    counters = counters.apply("B", change("add", "victory POINTS", value=5))  # B's own
    counters = counters.apply("A", change("change", "VICTORY points", by=3))
    assert counters.to_json() == [
        {"seat": "A", "name": "Victory points", "value": 3},
        {"seat": "B", "name": "victory POINTS", "value": 5},
    ]
    with pytest.raises(CounterRefused, match="already") as twice:
        counters.apply("A", change("add", "victory points"))
    assert twice.value.reason == "counter_exists"
    with pytest.raises(CounterRefused) as unknown:
        counters.apply("A", change("remove", "Gold"))
    assert unknown.value.reason == "counter_unknown"
    with pytest.raises(CounterRefused, match="would be 10002") as high:
        counters.apply("A", change("change", "Victory points", by=VALUE_MAX))
    assert high.value.reason == "counter_bounds"
    low = Counters().apply("A", change("add", "Debt", value=VALUE_MIN))
    with pytest.raises(CounterRefused, match="-10000"):
        low.apply("A", change("change", "Debt", by=-1))
    full = Counters()
    for n in range(MAX_COUNTERS):
        full = full.apply("A", change("add", f"c{n}"))
    with pytest.raises(CounterRefused) as limit:
        full.apply("A", change("add", "one more"))
    assert limit.value.reason == "counter_limit"
    assert full.apply("B", change("add", "one more")).value("B", "ONE MORE") == 0
    removed = counters.apply("A", change("remove", "victory points"))
    assert removed.to_json() == [{"seat": "B", "name": "victory POINTS", "value": 5}]


def test_undo_takes_the_seats_last_entry_past_the_other_seats_counters_only() -> None:
    vp = change("change", "VP", by=1)
    move = {"type": "move"}  # a game action (anything that is not a CounterChange)
    assert undo_index([(1, "A", vp), (2, "B", vp)], "A") == 0
    assert undo_index([(1, "A", move), (2, "B", vp)], "A") == 0  # B's counter: independent
    assert undo_index([(1, "A", vp), (2, "B", move)], "A") == 0  # A's counter: independent
    assert undo_index([(1, "A", move), (2, "B", move)], "A") is None  # two game actions
    assert undo_index([(1, "A", move), (2, "B", vp), (3, "B", move)], "A") is None
    assert undo_index([(1, "A", vp), (2, "A", move)], "A") == 1
    assert undo_index([(1, "A", vp)], "B") is None


# ---------------------------------------------------------------------------------- the fold


def event(seq: int, kind: str, seat: str | None, payload: dict[str, Any]) -> Event:
    return Event(
        seq=seq, kind=kind, seat=seat, client_action_id=None, payload=payload, created_at=0.0
    )


def counter_event(seq: int, seat: str, **data: Any) -> Event:
    return event(seq, "counter", seat, {"counter": data, "after": None})


def test_fold_keeps_counters_and_undo_restores_exactly_the_undone_one() -> None:
    fold = Fold(game=registry.GAMES["asteroids"])
    fold.add(counter_event(1, "A", op="add", name="VP", value=0))
    fold.add(counter_event(2, "A", op="change", name="VP", by=1))
    fold.add(counter_event(3, "A", op="change", name="VP", by=1))
    fold.add(counter_event(4, "B", op="add", name="Gold", value=7))
    assert fold.counters.value("A", "VP") == 2 and fold.counters.value("B", "Gold") == 7
    assert fold.undo_seat == "B" and fold.undo_seats(("A", "B")) == ["A", "B"]
    assert fold.undo_index("A") == 2
    fold.add(event(5, "undo", "A", {"undoes": 3}))  # A's last +1, below B's add
    assert fold.counters.to_json() == [
        {"seat": "A", "name": "VP", "value": 1},
        {"seat": "B", "name": "Gold", "value": 7},
    ]
    assert [seq for seq, _, _ in fold.undoable] == [1, 2, 4]
    fold.add(counter_event(6, "A", op="remove", name="VP"))
    assert fold.counters.value("A", "VP") is None
    fold.add(event(7, "undo", "A", {"undoes": 6}))
    assert fold.counters.to_json()[0] == {"seat": "A", "name": "VP", "value": 1}  # back, first
    fold.add(event(8, "roll", "B", {"purpose": "x", "count": 1, "sides": 6, "faces": [3]}))
    assert fold.undoable == [] and fold.counters.value("A", "VP") == 1  # a barrier keeps them
    assert fold.undo_seats(("A", "B")) == []


# ---------------------------------------------------------------------------------- HTTP API


def counter_post(
    client: Any, seats: Seats, seat: str, *, revision: int | None = None, cid: str = "", **data: Any
) -> Any:
    if revision is None:
        revision = client.get(seats.api + "/state", headers=seats.headers(seat)).get_json()[
            "revision"
        ]
    body = {
        "expected_revision": revision,
        "client_action_id": cid or f"k{time.monotonic_ns()}",
        **data,
    }
    return client.post(seats.api + "/counters", json=body, headers=seats.headers(seat))


def test_add_change_remove_and_undo_through_http_with_log_lines(
    client: FlaskClient, seats: Seats
) -> None:
    added = counter_post(client, seats, "A", op="add", name="  Victory points ")
    assert added.status_code == 200, added.get_json()
    for _ in range(2):
        answer = counter_post(client, seats, "A", op="change", name="Victory points", by=1)
    view = answer.get_json()["view"]
    assert view["counters"] == [{"seat": "A", "name": "Victory points", "value": 2}]
    assert view["undo_seats"] == ["A"] and view["state"] is None  # before the setup too
    b_view = client.get(seats.api + "/state", headers=seats.headers("B")).get_json()
    assert b_view["counters"] == view["counters"]  # the other phone sees them
    log = client.get(seats.api + "/log", headers=seats.headers("B")).get_json()["events"]
    assert [(e["kind"], e["seat"], e["payload"]) for e in log[-2:]] == [
        (
            "counter",
            "A",
            {"counter": {"op": "change", "name": "Victory points", "by": 1}, "after": 1},
        ),
        (
            "counter",
            "A",
            {"counter": {"op": "change", "name": "Victory points", "by": 1}, "after": 2},
        ),
    ]
    assert act(client, seats, "B", {"type": "undo"}).status_code == 422  # not B's
    undone = act(client, seats, "A", {"type": "undo"}).get_json()["view"]
    assert undone["counters"][0]["value"] == 1
    removed = counter_post(client, seats, "A", op="remove", name="victory points")
    assert removed.get_json()["view"]["counters"] == []
    log = client.get(seats.api + "/log", headers=seats.headers("A")).get_json()["events"]
    assert log[-1]["payload"] == {"counter": {"op": "remove", "name": "victory points"}, "after": 1}


def test_refusals_name_the_field_or_the_reason(client: FlaskClient, seats: Seats) -> None:
    bad = counter_post(client, seats, "A", op="change", name="VP", by="1")
    assert bad.status_code == 400 and bad.get_json()["error"] == "malformed"
    assert "by must be a whole number in -19998..19998, got '1'" in bad.get_json()["message"]
    long = counter_post(client, seats, "A", op="add", name="x" * 41)
    assert long.status_code == 400 and "name must be 1..40 characters" in long.get_json()["message"]
    unknown = counter_post(client, seats, "A", op="change", name="VP", by=1)
    assert unknown.status_code == 422 and unknown.get_json()["error"] == "counter_unknown"
    assert unknown.get_json()["view"]["counters"] == []
    counter_post(client, seats, "B", op="add", name="VP", value=9999)
    high = counter_post(client, seats, "B", op="change", name="VP", by=1)
    assert high.status_code == 422 and high.get_json()["error"] == "counter_bounds"
    assert "VP would be 10000" in high.get_json()["message"]
    # only the owner changes it: A's "VP" is A's own, B's stays 9999
    assert counter_post(client, seats, "A", op="remove", name="VP").status_code == 422
    watch = client.post(
        seats.api + "/counters",
        json={"expected_revision": 0, "client_action_id": "w1", "op": "add", "name": "x"},
        headers={"X-Seat-Token": "nope"},
    )
    assert watch.status_code == 403


def test_a_retry_applies_once_and_a_reused_id_is_refused(client: FlaskClient, seats: Seats) -> None:
    counter_post(client, seats, "A", op="add", name="Gold")
    revision = client.get(seats.api + "/state", headers=seats.headers("A")).get_json()["revision"]
    first = counter_post(
        client, seats, "A", revision=revision, cid="tap-1", op="change", name="Gold", by=5
    )
    again = counter_post(
        client, seats, "A", revision=revision, cid="tap-1", op="change", name="Gold", by=5
    )
    assert again.get_json()["duplicate"] is True
    assert (
        again.get_json()["view"]["counters"][0]["value"]
        == 5
        == first.get_json()["view"]["counters"][0]["value"]
    )
    other = counter_post(client, seats, "A", cid="tap-1", op="change", name="Gold", by=-5)
    assert other.status_code == 409 and other.get_json()["error"] == "client_action_id_reused"


def test_counter_writes_of_both_seats_at_one_revision_are_not_stale(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    mover = set_up["state"]["player"]
    other = "B" if mover == "A" else "A"
    counter_post(client, seats, mover, op="add", name="VP")
    counter_post(client, seats, other, op="add", name="VP")
    seen = client.get(seats.api + "/state", headers=seats.headers("A")).get_json()["revision"]
    mine = counter_post(client, seats, other, revision=seen, op="change", name="VP", by=1)
    theirs = counter_post(client, seats, mover, revision=seen, op="change", name="VP", by=2)
    assert (mine.status_code, theirs.status_code) == (200, 200), theirs.get_json()
    # the player to move acts on the revision before both counter taps: still applies
    move = next(x for x in set_up["legal"] if x["type"] == "move")
    moved = act(client, seats, mover, move, revision=seen)
    assert moved.status_code == 200, moved.get_json()
    # the other's next tap, based on its last answer (before the mover's tap and move): applies
    after = mine.get_json()["revision"]
    late = counter_post(client, seats, other, revision=after, op="change", name="VP", by=1)
    assert late.status_code == 200
    values = {c["seat"]: c["value"] for c in late.get_json()["view"]["counters"]}
    assert values == {other: 2, mover: 2}
    # the same counter changed since the phone's view: refused as stale, nothing applied
    stale = counter_post(client, seats, other, revision=seen, op="remove", name="VP")
    assert stale.status_code == 409 and stale.get_json()["error"] == "stale"
    # the mover's game step is undone past the other seat's later counter tap
    undo = act(client, seats, mover, {"type": "undo"})
    assert undo.status_code == 200 and undo.get_json()["view"]["state"] == set_up["state"]
    values = {c["seat"]: c["value"] for c in undo.get_json()["view"]["counters"]}
    assert values == {other: 2, mover: 2}


def test_the_turns_end_is_a_barrier_and_counters_survive_a_restart(
    tmp_path: Path, client: FlaskClient, seats: Seats
) -> None:
    view = act(client, seats, "A", {"type": "setup", "mode": "random"}).get_json()["view"]
    mover = view["state"]["player"]
    counter_post(client, seats, mover, op="add", name="Ships home", value=1)
    for kind in ("move", "move", "push"):
        step = next(x for x in view["legal"] if x["type"] == kind)
        view = act(client, seats, mover, step).get_json()["view"]
    assert view["state"]["player"] != mover and view["undo_seats"] == []
    assert act(client, seats, mover, {"type": "undo"}).status_code == 422
    fresh = make_app(tmp_path).test_client()  # a restart: the table is folded from its log
    again = fresh.get(seats.api + "/state", headers=seats.headers("B")).get_json()
    assert again["counters"] == [{"seat": mover, "name": "Ships home", "value": 1}]
    assert again["revision"] == view["revision"] and again["state"] == view["state"]


# ------------------------------------------------------------- both phones at once, for real


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    app = make_app(tmp_path)
    base, stop = serve_in_thread(app)
    yield base, app
    stop()


def test_two_phones_tapping_their_counters_at_once_lose_and_double_nothing(
    live: tuple[str, Flask],
) -> None:
    base, _ = live
    sessions = {"A": requests.Session(), "B": requests.Session()}
    created = sessions["A"].post(base + "/api/tables", json={"game": "toy-battle"}).json()
    join = created["join_url"].rsplit("/", 1)[1]
    joined = sessions["B"].post(base + "/api/join/" + join, json={}).json()
    api = base + "/api/t/" + created["table_id"]
    tokens = {"A": created["token"], "B": joined["token"]}
    rounds = 15
    refused: list[int] = []

    def post(seat: str, n: int, revision: int, **data: Any) -> requests.Response:
        body = {"expected_revision": revision, "client_action_id": f"{seat}{n}", **data}
        return sessions[seat].post(
            api + "/counters", json=body, headers={"X-Seat-Token": tokens[seat]}, timeout=10
        )

    start = sessions["A"].get(api + "/state", headers={"X-Seat-Token": tokens["A"]}).json()
    for offset, seat in enumerate(("A", "B")):
        added = post(seat, 0, start["revision"] + offset, op="add", name="Round wins")
        assert added.status_code == 200, added.json()
    barrier = threading.Barrier(2)

    def tap(seat: str) -> None:
        for n in range(1, rounds + 1):
            state = sessions[seat].get(api + "/state", headers={"X-Seat-Token": tokens[seat]})
            barrier.wait(timeout=10)  # both tap at the same revision
            answer = post(seat, n, state.json()["revision"], op="change", name="Round wins", by=1)
            if answer.status_code != 200:
                refused.append(answer.status_code)

    threads = [threading.Thread(target=tap, args=(seat,)) for seat in ("A", "B")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    view = sessions["A"].get(api + "/state", headers={"X-Seat-Token": tokens["A"]}).json()
    assert refused == []
    assert [c["value"] for c in view["counters"]] == [rounds, rounds]
    assert view["revision"] == start["revision"] + 2 + 2 * rounds
    for session in sessions.values():
        session.close()


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_shows_the_counters_to_both_seats_and_watchers(
    client: FlaskClient, game: str
) -> None:
    from tests.companion.conftest import flask_post, seat_both

    seats = seat_both(flask_post(client), game)
    assert (
        counter_post(client, seats, "B", op="add", name="House rule", value=-3).status_code == 200
    )
    watch = {"X-Seat-Token": seats.watch_url.rsplit("/", 1)[1]}
    for headers in (seats.headers("A"), seats.headers("B"), watch):
        view = client.get(seats.api + "/state", headers=headers).get_json()
        assert view["counters"] == [{"seat": "B", "name": "House rule", "value": -3}]
    refused = client.post(
        seats.api + "/counters",
        json={"expected_revision": 0, "client_action_id": "w", "op": "remove", "name": "x"},
        headers=watch,
    )
    assert refused.status_code == 403 and refused.get_json()["error"] == "forbidden"


def test_the_watch_page_explains_the_players_counters_not_your_own(client: FlaskClient) -> None:
    from tests.companion.conftest import flask_post, seat_both

    seats = seat_both(flask_post(client))
    client.get("/lang/de?next=/")
    watched = client.get(urlsplit(seats.watch_url).path).get_data(as_text=True)
    assert "Die eigenen Zähler der Spieler" in watched
    assert "nur du änderst deine" not in watched and 'id="counter-form"' not in watched
    client.set_cookie("ts_seat_" + seats.table_id, seats.a)
    seated = client.get(f"/t/{seats.table_id}", headers=seats.headers("A")).get_data(as_text=True)
    assert "Deine eigenen Zähler" in seated
