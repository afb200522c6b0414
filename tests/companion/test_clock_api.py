"""The game clock through the API (Flask's test client, real seconds): chosen when the table
is made, kept by the server across a restart mid-turn, paused by each seat, the chess
clock's increment, the per-turn timer, and zero logged once without ending the game. Every
remaining time is asserted within 1 s of what the test measured."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.decks import default_demo
from games import registry
from tests.companion.conftest import Seats, act, flask_post, make_app, seat_both

WITHIN = 1.0
"""Seconds a remaining time may differ from the test's own measure."""


def table_with_clock(client: FlaskClient, clock: dict[str, Any] | None) -> Seats:
    """A set-up Asteroids table (seat A to act) with ``clock``, both seats taken."""
    seats = seat_both(flask_post(client), "asteroids", clock=clock)
    answer = act(client, seats, "A", {"type": "setup", "mode": "random"})
    assert answer.status_code == 200 and answer.get_json()["view"]["to_act"] == "A"
    return seats


def state(client: FlaskClient, seats: Seats, seat: str = "A") -> dict[str, Any]:
    view: dict[str, Any] = client.get(seats.api + "/state", headers=seats.headers(seat)).get_json()
    return view


def left(view: dict[str, Any]) -> dict[str, float]:
    """Seat -> seconds left as of the view's ``now`` (what a phone starts counting from)."""
    clock = view["clock"]
    shown = dict(clock["remaining"])
    if clock["running"] and not clock["paused"]:
        shown[clock["running"]] -= view["now"] - clock["at"]
    return shown


def clock_post(client: FlaskClient, seats: Seats, seat: str, op: str, **more: Any) -> Any:
    body = {"client_action_id": f"clock-{op}-{time.monotonic_ns()}", "op": op, **more}
    return client.post(seats.api + "/clock", json=body, headers=seats.headers(seat))


def end_turn(client: FlaskClient, seats: Seats) -> dict[str, Any]:
    """The seat to act plays the first legal action until the turn passes; the new view."""
    view = state(client, seats)
    mover, turn = view["to_act"], view["state"]["turn"]
    for _ in range(20):
        view = act(client, seats, mover, view["legal"][0]).get_json()["view"]
        if view["state"]["turn"] != turn:
            return view
    raise AssertionError("the turn did not pass in 20 actions")


def close(app: Flask) -> None:
    service = app.extensions["tablesmith.tables"]
    service.close()
    service.store.close()


def test_clock_survives_a_restart_mid_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    client = app.test_client()
    seats = table_with_clock(client, {"mode": "chess", "seconds": 30})
    started = time.time()
    time.sleep(1.5)
    close(app)  # the server stops mid-turn ...
    time.sleep(1.0)
    again = make_app(tmp_path)  # ... and a new one starts on the same database file
    try:
        view = state(again.test_client(), seats, "B")
        used = time.time() - started
        assert view["clock"]["running"] == "A" and view["clock"]["mode"] == "chess"
        assert abs(left(view)["A"] - (30 - used)) < WITHIN, (left(view), used)
        assert left(view)["B"] == 30.0 and used > 2.4
    finally:
        close(again)


def test_clock_pause_by_each_seat_stops_both_phones_clocks(client: FlaskClient) -> None:
    seats = table_with_clock(client, {"mode": "chess", "seconds": 60})
    paused = clock_post(client, seats, "B", "pause")  # B pauses during A's turn
    assert paused.status_code == 200
    frozen = left(paused.get_json()["view"])
    time.sleep(1.2)
    for seat in ("A", "B"):
        view = state(client, seats, seat)
        assert view["clock"]["paused"] and view["clock"]["paused_by"] == "B"
        assert abs(left(view)["A"] - frozen["A"]) < 0.05 and 58.5 < frozen["A"] <= 60
    again = clock_post(client, seats, "A", "pause")
    assert again.status_code == 409 and again.get_json()["error"] == "clock_state"
    assert clock_post(client, seats, "A", "resume").status_code == 200
    time.sleep(1.0)
    assert abs(left(state(client, seats))["A"] - (frozen["A"] - 1.0)) < WITHIN

    end_turn(client, seats)  # B's turn: now A pauses
    assert clock_post(client, seats, "A", "pause").status_code == 200
    frozen = left(state(client, seats, "B"))
    time.sleep(1.2)
    view = state(client, seats, "B")
    assert view["clock"]["running"] == "B" and view["clock"]["paused_by"] == "A"
    assert abs(left(view)["B"] - frozen["B"]) < 0.05 and abs(frozen["B"] - 60) < WITHIN
    assert clock_post(client, seats, "B", "resume").status_code == 200
    log = client.get(seats.api + "/log", headers=seats.headers("A")).get_json()["events"]
    ops = [(e["seat"], e["payload"]["op"]) for e in log if e["kind"] == "clock"]
    assert ops == [("A", "set"), ("B", "pause"), ("A", "resume"), ("A", "pause"), ("B", "resume")]


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_clock_increment_goes_to_the_player_who_ended_the_turn(client: FlaskClient) -> None:
    """Also through the default server, whose event loop answers actions without Flask: its
    answers carry the server's ``now`` too."""
    seats = table_with_clock(client, {"mode": "chess", "seconds": 20, "increment": 5})
    started = time.time()
    time.sleep(1.0)
    view = end_turn(client, seats)
    used = time.time() - started
    assert view["clock"]["running"] == "B" and view["to_act"] == "B"
    assert abs(left(view)["A"] - (20 - used + 5)) < WITHIN, (left(view), used)
    assert abs(left(view)["B"] - 20) < WITHIN
    assert 23 < left(view)["A"] < 24.5  # the 5 s came in, the second used went out


def test_clock_turn_timer_starts_again_for_each_turn(client: FlaskClient) -> None:
    seats = table_with_clock(client, {"mode": "turn", "seconds": 10})
    time.sleep(1.0)
    assert abs(left(state(client, seats))["A"] - 9) < WITHIN
    view = end_turn(client, seats)
    assert view["clock"]["running"] == "B" and abs(left(view)["B"] - 10) < WITHIN
    assert view["clock"]["increment"] == 0.0


def test_clock_zero_is_logged_once_and_the_game_goes_on(client: FlaskClient) -> None:
    seats = table_with_clock(client, {"mode": "chess", "seconds": 2})
    early = clock_post(client, seats, "B", "expired")
    assert early.status_code == 409 and early.get_json()["error"] == "clock_running"
    time.sleep(2.2)
    logged = clock_post(client, seats, "B", "expired")
    assert logged.status_code == 200, logged.get_json()
    view = logged.get_json()["view"]
    assert view["clock"]["expired"] == ["A"] and left(view)["A"] <= 0
    assert view["outcome"] is None and view["to_act"] == "A"  # no automatic loss
    twice = clock_post(client, seats, "A", "expired")
    assert twice.status_code == 409 and twice.get_json()["error"] == "clock_state"
    log = client.get(seats.api + "/log", headers=seats.headers("A")).get_json()["events"]
    expired = [e for e in log if e["kind"] == "clock" and e["payload"]["op"] == "expired"]
    assert len(expired) == 1 and expired[0]["payload"]["side"] == "A"
    assert -1.0 < expired[0]["payload"]["left"] <= 0
    assert end_turn(client, seats)["clock"]["running"] == "B"  # the players play on


def test_clock_is_chosen_before_setup_and_refused_with_reasons(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={"game": "asteroids"}).get_json()
    seats = Seats(created["table_id"], created["token"], "", created["watch_url"], "")
    assert "clock" not in state(client, seats)  # no clock unless one is chosen
    none = clock_post(client, seats, "A", "pause")
    assert none.status_code == 422 and none.get_json()["error"] == "no_clock"
    chosen = clock_post(client, seats, "A", "set", clock={"mode": "turn", "seconds": 45})
    assert chosen.status_code == 200
    assert chosen.get_json()["view"]["clock"]["remaining"] == {"A": 45.0, "B": 45.0}
    act(client, seats, "A", {"type": "setup", "mode": "random"})
    late = clock_post(client, seats, "A", "set", clock={"mode": "none"})
    assert late.status_code == 422 and "before the game is set up" in late.get_json()["message"]
    bad = client.post("/api/tables", json={"game": "asteroids", "clock": {"mode": "sand"}})
    assert bad.status_code == 400 and "clock.mode must be one of" in bad.get_json()["message"]
    wrong = clock_post(client, seats, "A", "stop")
    assert wrong.status_code == 400 and "op must be one of" in wrong.get_json()["message"]
    watcher = {"X-Seat-Token": created["watch_url"].rsplit("/", 1)[1]}
    body = {"client_action_id": "watcher-pause", "op": "pause"}
    watched = client.post(seats.api + "/clock", json=body, headers=watcher)
    assert watched.status_code == 403 and watched.get_json()["error"] == "forbidden"


@pytest.mark.parametrize("seat", ["A", "B"])
def test_clock_retry_with_the_same_id_pauses_once(client: FlaskClient, seat: str) -> None:
    seats = table_with_clock(client, {"mode": "chess", "seconds": 60})
    body = {"client_action_id": "pause-1", "op": "pause"}
    first = client.post(seats.api + "/clock", json=body, headers=seats.headers(seat))
    second = client.post(seats.api + "/clock", json=body, headers=seats.headers(seat))
    assert first.status_code == second.status_code == 200
    assert second.get_json()["duplicate"] is True
    assert second.get_json()["revision"] == first.get_json()["revision"]


SETUPS = {
    "asteroids": {"type": "setup", "mode": "random"},
    "pocketmodel": {"type": "setup"},
    "toy-battle": {"type": "setup", "terrain": "castle"},
    "transformers": {"type": "setup", "variant": {"must_attack": False}},
}
"""The simplest setup request of each game (the clock itself names no game)."""


def test_clock_setups_cover_every_game() -> None:
    assert set(SETUPS) == set(registry.GAMES)


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_clock_follows_every_game_through_the_protocol(client: FlaskClient, game: str) -> None:
    clock = {"mode": "chess", "seconds": 60, "increment": 3}
    created = client.post("/api/tables", json={"game": game, "clock": clock}).get_json()
    joined = client.post("/api/join/" + created["join_url"].rsplit("/", 1)[1]).get_json()
    seats = Seats(created["table_id"], created["token"], joined["token"], "", "")
    view = act(client, seats, "A", SETUPS[game]).get_json()["view"]
    deck_game = registry.get(game).deck_game
    for _ in range(2):  # the players bring their decks (the demo ones): no clock yet
        if view["clock"]["running"] is not None:
            break
        assert left(view) == {"A": 60.0, "B": 60.0} and deck_game is not None
        seat = view["to_act"]
        body = {"client_action_id": "deck" + seat, "expected_revision": view["revision"]}
        body["demo"] = default_demo(deck_game, seat)
        brought = client.post(seats.api + "/deck", json=body, headers=seats.headers(seat))
        view = state(client, seats, brought.get_json()["view"]["to_act"] or "A")
    started, first, turn = time.time(), view["to_act"], view["clock"]["turn"]
    assert view["clock"]["running"] == first and first in ("A", "B") and turn is not None
    time.sleep(0.6)
    for _ in range(30):  # the seat to act plays until another seat's time runs
        ends = [a for a in view["legal"] if a["type"] == "end_turn"]  # else the first one
        view = act(client, seats, first, (ends or view["legal"])[0]).get_json()["view"]
        if view["clock"]["running"] != first:
            break
    used = time.time() - started
    other = "B" if first == "A" else "A"
    assert view["clock"]["running"] == other
    increment = 3 if view["clock"]["turn"] != turn else 0  # only a new turn brings it
    assert abs(left(view)[first] - (60 - used + increment)) < WITHIN, (left(view), used)
    assert abs(left(view)[other] - 60) < WITHIN and used > 0.6


def test_clock_chosen_on_the_start_page_form(app: Flask, client: FlaskClient) -> None:
    form = {"game": "toy-battle", "clock_mode": "turn", "clock_turn_seconds": "30"}
    made = client.post("/tables", data=form)
    assert made.status_code == 303
    table = app.extensions["tablesmith.tables"].table(made.headers["Location"].rsplit("/", 1)[1])
    assert table.view()["clock"]["mode"] == "turn" and table.clock.left(0) == {"A": 30, "B": 30}
    bad = client.post("/tables", data={**form, "clock_turn_seconds": "soon"})
    assert bad.status_code == 400 and "Start page" in bad.get_data(as_text=True)  # a page
    plain = client.post("/tables", data={"game": "toy-battle"})  # no clock unless chosen
    table = app.extensions["tablesmith.tables"].table(plain.headers["Location"].rsplit("/", 1)[1])
    assert "clock" not in table.view() and table.revision == 0


def test_clock_starts_when_both_decks_are_in_and_its_controls_leave_with_the_game(
    client: FlaskClient,
) -> None:
    """Issue 31.4: seat A ran out of time while still choosing a deck, and after the end a
    resume answered "the clock is running already" while the view said it was not."""
    from tests.companion.test_last_blow import ONE_EACH, post
    from tests.companion.test_transformers_api import ok
    from tests.games.transformers_helpers import team

    clock = {"mode": "turn", "seconds": 30}
    seats = seat_both(flask_post(client), "transformers", clock=clock)
    ok(act(client, seats, "A", {"type": "setup"}))
    time.sleep(0.8)  # seat A chooses its team ...
    view = ok(act(client, seats, "A", team("A", ONE_EACH["A"])))
    time.sleep(0.8)  # ... and seat B its own: no time runs meanwhile
    assert view["clock"]["running"] is None and left(view) == {"A": 30.0, "B": 30.0}
    for op in ("pause", "expired"):  # no time runs yet: nothing to pause, nothing runs out
        stands = clock_post(client, seats, "A", op)
        assert stands.status_code == 409 and stands.get_json()["error"] == "clock_stopped"
        assert "first move" in stands.get_json()["message"]
    view = ok(act(client, seats, "B", team("B", ONE_EACH["B"])))
    first = view["to_act"]
    assert view["clock"]["running"] == first and first in ("A", "B")
    assert abs(left(view)[first] - 30) < 0.3, left(view)  # the 1.6 s of choosing not charged

    assert clock_post(client, seats, "B", "pause").status_code == 200
    other = "B" if first == "A" else "A"
    blow = {"type": "counter", "character": other + "1", "delta": 1}
    ended = ok(post(client, seats, first, view["revision"] + 1, action=blow))
    assert ended["outcome"]["winner"] == first
    assert ended["clock"]["running"] is None and ended["clock"]["paused"] is False
    for seat, op in (("A", "resume"), ("B", "pause"), ("A", "expired")):
        refused = clock_post(client, seats, seat, op)
        body = refused.get_json()
        assert refused.status_code == 409 and body["error"] == "clock_stopped", body
        assert body["message"] == "the game has ended: the clock has stopped"
        assert body["view"]["clock"]["running"] is None  # the answer and the view agree
    back = ok(post(client, seats, first, ended["revision"], action={"type": "undo"}))
    assert back["clock"]["running"] == first and not back["clock"]["paused"]  # runs on
