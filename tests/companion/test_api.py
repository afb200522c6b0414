"""API tests: seats and tokens, 400/403/409/422, idempotent retries, undo, dice, pages, i18n."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.dice import DiceService, chi_square
from companion.security import RateLimiter
from games import registry
from tests.companion.conftest import Seats, act, make_app

ROOT = Path(__file__).resolve().parents[2]


def first(view: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(a for a in view["legal"] if a["type"] == kind)


def player(view: dict[str, Any]) -> str:
    return str(view["state"]["player"])


def test_create_and_join_gives_two_seats_and_a_third_phone_is_refused(
    client: FlaskClient, seats: Seats
) -> None:
    view = client.get(seats.api + "/state", headers=seats.headers("B")).get_json()
    assert view["you"] == "B" and view["seats"] == {"A": True, "B": True}
    assert len(seats.table_id) >= 20 and seats.a != seats.b
    again = client.post("/api/join/" + seats.join_url.rsplit("/", 1)[1])
    assert again.status_code == 409 and again.get_json()["error"] == "seat_taken"
    assert client.post("/api/join/not-a-token").status_code == 404


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_every_channel_needs_a_token(client: FlaskClient, seats: Seats) -> None:
    assert client.get(seats.api + "/state").status_code == 403
    assert client.get(seats.api + "/events").status_code == 403
    assert client.get(seats.api + "/dice").status_code == 403
    body = {"expected_revision": 2, "client_action_id": "x", "action": {"type": "skip"}}
    assert client.post(seats.api + "/actions", json=body).status_code == 403
    wrong = {"X-Seat-Token": "guess"}
    assert client.post(seats.api + "/actions", json=body, headers=wrong).status_code == 403
    # A token in the query string is accepted on GET (EventSource) but never on a write.
    query = client.post(seats.api + f"/actions?token={seats.a}", json=body)
    assert query.status_code == 403
    assert client.get(seats.api + f"/state?token={seats.a}").status_code == 200
    assert client.get("/api/t/unknown/state", headers=seats.headers("A")).status_code == 404


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_watchers_read_but_cannot_write(client: FlaskClient, seats: Seats) -> None:
    watch = {"X-Seat-Token": seats.watch_url.rsplit("/", 1)[1]}
    view = client.get(seats.api + "/state", headers=watch).get_json()
    assert view["you"] == "watch"
    body = {
        "expected_revision": 2,
        "client_action_id": "w1",
        "action": {"type": "setup", "mode": "random"},
    }
    response = client.post(seats.api + "/actions", json=body, headers=watch)
    assert response.status_code == 403
    assert response.get_json()["message"] == "watchers cannot write"
    deck = {"client_action_id": "w2", "expected_revision": 2, "demo": "pocketmodel"}
    refused = client.post(seats.api + "/deck", json=deck, headers=watch)
    assert refused.status_code == 403  # the same one check refuses a deck from a watcher
    assert refused.get_json() == response.get_json()


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
@pytest.mark.parametrize(
    ("body", "message"),
    [
        (None, "body must be a JSON object"),
        ({"expected_revision": 2, "action": {"type": "skip"}}, "client_action_id"),
        ({"expected_revision": "2", "client_action_id": "m", "action": {}}, "expected_revision"),
        ({"expected_revision": 5, "client_action_id": "m", "action": {"type": "fly"}}, "type"),
        (
            {
                "expected_revision": 5,
                "client_action_id": "m",
                "action": {"type": "move", "origin": [9, 1], "target": None},
            },
            "rift",
        ),
        ({"expected_revision": 5, "client_action_id": "m", "action": [1]}, "JSON object"),
    ],
)
def test_malformed_input_is_400(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any], body: Any, message: str
) -> None:
    headers = seats.headers(player(set_up))
    response = client.post(seats.api + "/actions", json=body, headers=headers)
    assert response.status_code == 400
    assert response.get_json()["error"] == "malformed" and message in response.get_json()["message"]


def test_random_setup_logs_its_dice_and_starts_the_game(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    state = set_up["state"]
    assert state["phase"] == "step1" and state["home"] == {"A": 8, "B": 8}
    assert set_up["revision"] == 4  # join, layout roll, starting-player roll, setup
    history = client.get(seats.api + "/dice", headers=seats.headers("B")).get_json()
    purposes = [(r["purpose"], r["count"], r["sides"], r["seat"]) for r in history["rolls"]]
    assert purposes == [
        ("layout (AST-4)", 28, 2_000_000, "A"),
        ("starting player (AST-5)", 1, 2, "A"),
    ]
    again = act(client, seats, "B", {"type": "setup", "mode": "random"})
    assert again.status_code == 422


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_manual_setup_checks_AST_3(client: FlaskClient, seats: Seats) -> None:
    bad = [["HA", "HA", "AH", "HA"]] + [["HH", "HH", "HA", "AH"]] * 5
    response = act(client, seats, "B", {"type": "setup", "mode": "manual", "rifts": bad})
    assert response.status_code == 422 and "AST-3" in response.get_json()["message"]
    good = [["HH", "HA", "AH", "HH"]] * 6
    ok = act(
        client,
        seats,
        "B",
        {"type": "setup", "mode": "manual", "rifts": good, "variant": {"ships_in_play": 7}},
    )
    state = ok.get_json()["view"]["state"]
    assert ok.status_code == 200 and state["home"] == {"A": 7, "B": 7}
    assert [[t[1] for t in r] for r in state["rifts"]] == good


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_stale_revision_is_409_with_the_current_state(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    me = player(set_up)
    move = first(set_up, "move")
    response = act(client, seats, me, move, revision=set_up["revision"] - 1)
    body = response.get_json()
    assert response.status_code == 409 and body["error"] == "stale"
    assert body["view"]["revision"] == set_up["revision"]
    assert body["view"]["state"] == set_up["state"]  # nothing was applied


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_retry_with_the_same_client_action_id_applies_once(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    me = player(set_up)
    move = first(set_up, "move")
    one = act(client, seats, me, move, revision=set_up["revision"], client_id="tap-1")
    two = act(client, seats, me, move, revision=set_up["revision"], client_id="tap-1")
    assert one.status_code == two.status_code == 200
    assert one.get_json()["duplicate"] is False and two.get_json()["duplicate"] is True
    assert two.get_json()["revision"] == one.get_json()["revision"] == set_up["revision"] + 1
    assert two.get_json()["view"]["state"]["ply"] == 1


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_the_other_seat_and_illegal_moves_get_422(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    me = player(set_up)
    other = "B" if me == "A" else "A"
    move = first(set_up, "move")
    wrong_seat = act(client, seats, other, move)
    assert wrong_seat.status_code == 422 and wrong_seat.get_json()["error"] == "not_your_turn"
    push = {"type": "push", "fragment": 0, "layout": "HH", "side": "left", "rift": 1}
    illegal = act(client, seats, me, push)
    assert illegal.status_code == 422 and "AST-20" in illegal.get_json()["message"]
    assert illegal.get_json()["view"]["revision"] == set_up["revision"]


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_undo_own_steps_of_this_turn_only(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    me = player(set_up)
    other = "B" if me == "A" else "A"
    after_one = act(client, seats, me, first(set_up, "move")).get_json()["view"]
    assert after_one["undo_seat"] == me
    assert act(client, seats, other, {"type": "undo"}).status_code == 422
    undone = act(client, seats, me, {"type": "undo"}).get_json()["view"]
    assert undone["state"] == set_up["state"]
    assert undone["revision"] == set_up["revision"] + 2  # the undo is an event of its own
    assert act(client, seats, me, {"type": "undo"}).status_code == 422  # nothing left
    view = undone
    for _ in range(2):
        view = act(client, seats, me, first(view, "move")).get_json()["view"]
    view = act(client, seats, me, first(view, "push")).get_json()["view"]
    assert view["state"]["player"] == other and view["undo_seat"] is None
    assert act(client, seats, me, {"type": "undo"}).status_code == 422  # the push ended it


def test_rolls_are_logged_and_are_an_undo_barrier(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    me = player(set_up)
    act(client, seats, me, first(set_up, "move"))
    body = {"client_action_id": "roll-1", "count": 3, "sides": 6, "purpose": "damage"}
    rolled = client.post(seats.api + "/dice", json=body, headers=seats.headers("B"))
    assert rolled.status_code == 200
    repeat = client.post(seats.api + "/dice", json=body, headers=seats.headers("B"))
    assert repeat.get_json()["duplicate"] is True
    history = client.get(seats.api + "/dice", headers=seats.headers("A")).get_json()
    last = history["rolls"][-1]
    assert (last["seat"], last["purpose"], len(last["faces"])) == ("B", "damage", 3)
    assert len(history["rolls"]) == 3
    d6 = next(f for f in history["frequencies"] if f["sides"] == 6)
    assert d6["dice"] == 3 and d6["expected"] == 0.5 and sum(d6["observed"]) == 3
    assert act(client, seats, me, {"type": "undo"}).status_code == 422
    bad = client.post(
        seats.api + "/dice",
        json={**body, "client_action_id": "r2", "sides": 1},
        headers=seats.headers("A"),
    )
    assert (
        bad.status_code == 400
        and "sides must be an integer in 2..1000" in bad.get_json()["message"]
    )


def test_dice_distribution_passes_chi_square() -> None:
    sides, rolls = 6, 60_000
    faces = DiceService().roll(rolls, sides)
    counts = {face: faces.count(face) for face in range(1, sides + 1)}
    critical = 35.888  # p = 1e-6 for 5 degrees of freedom: a fair die fails once a million runs
    assert chi_square(counts, sides) < critical
    biased = DiceService(random.Random(1))
    biased.rng.randint = lambda low, high: min(high, random.randint(low, high + 1))  # type: ignore[method-assign]
    skewed = biased.roll(rolls, sides)
    assert chi_square({f: skewed.count(f) for f in range(1, 7)}, sides) > critical


def test_joining_is_rate_limited(tmp_path: Path) -> None:
    client = make_app(tmp_path, JOIN_RATE_LIMIT=(3, 60.0)).test_client()
    codes = [client.post("/api/join/nope").status_code for _ in range(4)]
    assert codes == [404, 404, 404, 429]
    now = [0.0]
    limiter = RateLimiter(2, 10.0, clock=lambda: now[0])
    assert [limiter.allow("x"), limiter.allow("x"), limiter.allow("x")] == [True, True, False]
    now[0] = 10.5
    assert limiter.allow("x")


def test_cross_site_writes_are_refused(client: FlaskClient) -> None:
    evil = client.post(
        "/tables", data={"game": "asteroids"}, headers={"Origin": "http://evil.test"}
    )
    assert evil.status_code == 403
    fetch = client.post("/api/tables", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert fetch.status_code == 403
    same = client.post("/api/tables", json={}, headers={"Origin": "http://localhost"})
    assert same.status_code == 201


def test_phone_keeps_its_seat_on_reload_and_join_page_seats_b(client: FlaskClient) -> None:
    created = client.post("/tables", data={"game": "asteroids"})
    assert created.status_code == 303
    table_url = created.headers["Location"]
    page = client.get(table_url).get_data(as_text=True)
    token = re.search(r'data-token="([^"]+)"', page)
    assert token and 'data-role="A"' in page
    assert client.get(table_url).get_data(as_text=True).count(token.group(1)) == 1  # reload
    join_path = re.search(r'id="join-link" href="http://localhost(/j/[^"]+)"', page)
    assert join_path
    phone_b = client.application.test_client()
    assert b"Take seat B" in phone_b.get(join_path.group(1)).data
    seated = phone_b.post(join_path.group(1))
    assert seated.status_code == 303 and seated.headers["Location"] == table_url
    page_b = phone_b.get(table_url).get_data(as_text=True)
    assert 'data-role="B"' in page_b and token.group(1) not in page_b
    stranger = client.application.test_client()
    assert stranger.get(table_url).status_code == 403
    assert stranger.post(join_path.group(1)).status_code == 409


def test_language_follows_the_phone_and_the_switch_overrides(client: FlaskClient) -> None:
    german = client.get("/", headers={"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"})
    assert "Neuer Asteroids-Tisch" in german.get_data(as_text=True)
    assert "New Asteroids table" in client.get("/", headers={"Accept-Language": "en"}).get_data(
        as_text=True
    )
    switch = client.get("/lang/en?next=/", headers={"Accept-Language": "de"})
    assert switch.status_code == 303
    english = client.get("/", headers={"Accept-Language": "de"})
    assert "New Asteroids table" in english.get_data(as_text=True)
    assert client.get("/lang/en?next=//evil.test").headers["Location"] == "/"


def german(folder: Path) -> set[str]:
    with (folder / "de/LC_MESSAGES/messages.po").open("rb") as handle:
        catalog = read_po(handle)
    return {m.id for m in catalog if m.id and m.string and not m.fuzzy}


def test_german_catalog_of_the_platform_is_complete() -> None:
    method_map = [("**.py", "python"), ("templates/**.html", "jinja2")]
    used = {found[2] for found in extract_from_dir(ROOT / "companion", method_map)}
    translated = german(ROOT / "companion/translations")
    assert used and used <= translated, sorted(used - translated)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_has_a_phone_view_translated_into_german(game: str) -> None:
    folder = ROOT / "companion/views" / game
    assert (folder / "view.html").is_file() and (folder / "view.js").is_file()
    used = {found[2] for found in extract_from_dir(folder, [("**.html", "jinja2")])}
    translated = german(folder / "translations")
    assert used and used <= translated, sorted(used - translated)


def test_cli_help_is_fast_and_imports_no_flask_or_cadquery() -> None:
    code = (
        "import sys\nfrom tablesmith import cli\n"
        "try:\n    cli(['serve', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('flask', 'cadquery', 'waitress') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip().endswith("[]")
    for option in ("--host", "--port", "--db", "--base-url", "--threads", "--qr / --no-qr"):
        assert option in out.stdout


def test_table_page_script_texts_are_translated(client: FlaskClient) -> None:
    table_url = client.post("/tables", data={"game": "asteroids"}).headers["Location"]
    german = client.get(table_url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Du bist am Zug" in german and "Aufbau (AST-4)" in german
    assert "Your turn" not in german
    english = client.get(table_url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Your turn" in english and "layout (AST-4)" in english


def test_live_streams_are_capped_so_actions_keep_a_thread(tmp_path: Path) -> None:
    client = make_app(tmp_path, MAX_STREAMS=1).test_client()
    created = client.post("/api/tables", json={}).get_json()
    url = f"/api/t/{created['table_id']}/events?token={created['token']}"
    first_stream = client.get(url, buffered=False)
    assert next(iter(first_stream.response)).startswith(b"retry:")
    refused = client.get(url)
    assert refused.status_code == 503 and refused.get_json()["error"] == "server_full"
    first_stream.close()  # the phone went away: its slot is free again
    second = client.get(url, buffered=False)
    assert second.status_code == 200
    second.close()
