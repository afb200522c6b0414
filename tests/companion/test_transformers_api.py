"""Transformers through the companion's API (Flask test client, real SQLite): a table set up
from the demo deck and by quick entry, counters as events (add, remove, undo), an attack with
flipped icons from both phones, bad input refused with 422 and the rule id with nothing
applied, a deck breaking TF-3 refused with the numbers, and a scanned card opening the table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.security import SEAT_COOKIE_PREFIX
from tests.companion.conftest import Seats, act
from tests.games.transformers_helpers import DEMO_YAML, TEAM_B, team


def seat_transformers(client: FlaskClient) -> Seats:
    """A Transformers table with both seats taken."""
    created = client.post("/api/tables", json={"game": "transformers"}).get_json()
    joined = client.post("/api/join/" + created["join_url"].rsplit("/", 1)[1], json={}).get_json()
    return Seats(
        table_id=created["table_id"],
        a=created["token"],
        b=joined["token"],
        watch_url=created["watch_url"],
        join_url=created["join_url"],
    )


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_json()
    view: dict[str, Any] = response.get_json()["view"]
    return view


def state_of(client: FlaskClient, seats: Seats, seat: str = "A") -> dict[str, Any]:
    view: dict[str, Any] = client.get(seats.api + "/state", headers=seats.headers(seat)).get_json()
    return view


def bring_demo(client: FlaskClient, seats: Seats, seat: str, **extra: Any) -> Any:
    revision = state_of(client, seats, seat)["revision"]
    body = {"client_action_id": f"deck-{random.getrandbits(40):x}", "expected_revision": revision}
    body |= extra or {"demo": "transformers"}
    return client.post(seats.api + "/deck", json=body, headers=seats.headers(seat))


def char(view: dict[str, Any], character_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in view["state"]["characters"] if c["id"] == character_id)
    return found


@pytest.fixture
def tf_seats(client: FlaskClient) -> Seats:
    return seat_transformers(client)


@pytest.fixture
def playing(client: FlaskClient, tf_seats: Seats) -> dict[str, Any]:
    """A from the demo deck, B by quick entry; returns the view once both teams are in."""
    ok(act(client, tf_seats, "A", {"type": "setup"}))
    ok(bring_demo(client, tf_seats, "A"))
    return ok(act(client, tf_seats, "B", team("B", TEAM_B)))


def test_a_table_from_the_demo_deck_and_quick_entry(
    client: FlaskClient, tf_seats: Seats, playing: dict[str, Any]
) -> None:
    state = playing["state"]
    assert state["phase"] == "main" and state["turn"] == 1
    assert playing["to_act"] == state["player"] == state["first_player"]
    assert state["teams"]["A"]["deck"] == "demo-team"
    assert state["teams"]["A"]["title"] == "Harbour Watch"
    # B's phone (this answer) never gets A's deck list, only its size; A's own phone does
    assert state["teams"]["A"]["battle_cards"] == [] and state["teams"]["A"]["hidden"] == 42
    assert state["teams"]["B"]["battle_cards"] == []
    own = client.get(tf_seats.api + "/state", headers=tf_seats.headers("A")).get_json()
    assert len(own["state"]["teams"]["A"]["battle_cards"]) == 14
    assert [
        (c["id"], c["name"], c["mode"], c["attack"], c["damage"]) for c in state["characters"]
    ] == [
        ("A1", "Bulwark", "alt", 2, 0),
        ("A2", "Quickstep", "alt", 2, 0),
        ("A3", "Lanternfish", "alt", 1, 0),
        ("B1", "Gamma", "alt", 3, 0),
        ("B2", "Delta", "alt", 1, 0),
    ]
    assert state["allowed"]["draw"] is True
    rolls = client.get(tf_seats.api + "/dice", headers=tf_seats.headers("B")).get_json()["rolls"]
    assert [(r["purpose"], r["count"], r["sides"]) for r in rolls] == [
        ("starting player (TF-5)", 1, 2)
    ]
    assert state["first_player"] == "AB"[rolls[0]["faces"][0] - 1]


def test_counters_are_events_added_removed_and_undone_on_both_phones(
    client: FlaskClient, tf_seats: Seats, playing: dict[str, Any]
) -> None:
    view = ok(act(client, tf_seats, "B", {"type": "counter", "character": "A1", "delta": 1}))
    view = ok(act(client, tf_seats, "B", {"type": "counter", "character": "A1", "delta": 1}))
    assert char(view, "A1")["damage"] == 2
    assert char(state_of(client, tf_seats, "A"), "A1")["damage"] == 2  # the other phone
    view = ok(act(client, tf_seats, "A", {"type": "counter", "character": "A1", "delta": -1}))
    assert char(view, "A1")["damage"] == 1 and view["undo_seat"] == "A"
    view = ok(act(client, tf_seats, "A", {"type": "undo"}))
    assert char(view, "A1")["damage"] == 2
    log = client.get(tf_seats.api + "/log", headers=tf_seats.headers("A")).get_json()["events"]
    counters = [
        e for e in log if e["kind"] == "action" and e["payload"]["action"]["type"] == "counter"
    ]
    assert [(e["seat"], e["payload"]["action"]["delta"]) for e in counters] == [
        ("B", 1),
        ("B", 1),
        ("A", -1),
    ]
    assert log[-1]["kind"] == "undo"


def test_an_attack_with_flipped_icons_from_both_phones(
    client: FlaskClient, tf_seats: Seats, playing: dict[str, Any]
) -> None:
    me = playing["state"]["player"]
    them = "B" if me == "A" else "A"
    attacker, defender = ("A1", "B2") if me == "A" else ("B1", "A3")
    ok(act(client, tf_seats, me, {"type": "draw"}))
    view = ok(
        act(client, tf_seats, me, {"type": "attack", "attacker": attacker, "defender": defender})
    )
    assert view["state"]["phase"] == "attack" and char(view, attacker)["tapped"]
    flip = {"type": "icons", "side": "attacker", "orange": 1, "white": 1}
    view = ok(act(client, tf_seats, me, flip))
    assert view["state"]["attack"]["attacker"]["pending"] == "extra"
    ok(act(client, tf_seats, me, {**flip, "white": 0, "orange": 2}))
    defence = {"type": "icons", "side": "defender", "blue": 1}
    view = ok(act(client, tf_seats, them, defence))  # the defending phone enters its side
    shown = view["state"]["attack"]
    base = 2 if me == "A" else 3  # Bulwark alt attack 2, Gamma alt attack 3
    assert shown["attacker"]["total"] == base + 3 and shown["ready"] is True
    assert shown["defender"]["total"] == char(view, defender)["defense"] + 1
    expected = shown["attacker"]["total"] - shown["defender"]["total"]
    assert shown["damage"] == expected > 0
    refused = act(client, tf_seats, them, {"type": "resolve"})
    assert refused.status_code == 422 and refused.get_json()["error"] == "not_your_turn"
    view = ok(act(client, tf_seats, me, {"type": "resolve"}))
    assert char(view, defender)["damage"] == expected
    assert view["state"]["last_attack"]["damage"] == expected
    assert char(state_of(client, tf_seats, them), defender)["damage"] == expected


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        ({"type": "counter", "character": "A2", "delta": -1}, "TF-30", "has 0 damage counters"),
        ({"type": "counter", "character": "B9", "delta": 1}, "TF-30", "is not in play"),
        ({"type": "flip", "character": "A1"}, "TF-10", "draw"),
    ],
)
def test_bad_input_is_422_with_the_rule_and_nothing_applied(
    client: FlaskClient,
    tf_seats: Seats,
    playing: dict[str, Any],
    action: dict[str, Any],
    rule: str,
    words: str,
) -> None:
    seat = playing["state"]["player"]
    before = state_of(client, tf_seats)
    response = act(client, tf_seats, seat, action)
    body = response.get_json()
    assert response.status_code == 422 and body["error"] == "illegal"
    assert body["message"].endswith(f"({rule})") and words in body["message"]
    after = state_of(client, tf_seats)
    assert after["revision"] == before["revision"] and after["state"] == before["state"]


def test_a_character_kod_is_not_in_play_for_counters(
    client: FlaskClient, tf_seats: Seats, playing: dict[str, Any]
) -> None:
    view = ok(act(client, tf_seats, "A", {"type": "counter", "character": "B2", "delta": 4}))
    assert char(view, "B2")["zone"] == "ko" and char(view, "B2")["damage"] == 0
    response = act(client, tf_seats, "A", {"type": "counter", "character": "B2", "delta": 1})
    assert response.status_code == 422
    assert response.get_json()["message"] == "Delta (B2) is KO'd, not in play (TF-30)"
    view = ok(act(client, tf_seats, "A", {"type": "counter", "character": "B1", "delta": 6}))
    assert view["outcome"] == {
        "winner": "A",
        "reason": "all_ko",
        "rule": "TF-40",
        "score": {"A": 2, "B": 0},
    }
    assert view["to_act"] is None and view["state"]["phase"] == "over"


@pytest.mark.parametrize(
    ("attacker", "defender", "message"),
    [
        ("{foe}1", "{me}1", "{foe1} ({foe}1) is not yours: attack with your own (TF-20)"),
        ("{me}1", "{me}2", "{me2} ({me}2) is yours: defend with an enemy (TF-20)"),
        ("{me}1", "{foe}9", "character '{foe}9' is not in play; in play: {in_play} (TF-20)"),
        ("{me}1", "{foe}2", "{foe2} ({foe}2) is KO'd, not in play (TF-30)"),
    ],
)
def test_an_attack_with_a_character_out_of_place_is_422_and_nothing_applied(
    client: FlaskClient,
    tf_seats: Seats,
    playing: dict[str, Any],
    attacker: str,
    defender: str,
    message: str,
) -> None:
    me = playing["state"]["player"]
    foe = "B" if me == "A" else "A"
    knocked = char(playing, f"{foe}2")
    ko = {"type": "counter", "character": knocked["id"], "delta": knocked["health"]}
    view = ok(act(client, tf_seats, me, ko))  # TF-30: counters up to Health knock it out
    assert char(view, knocked["id"])["zone"] == "ko"
    ok(act(client, tf_seats, me, {"type": "draw"}))
    names = {c["id"]: c["name"] for c in playing["state"]["characters"]}
    in_play = ", ".join(c["id"] for c in view["state"]["characters"] if c["zone"] == "play")
    words = {
        "{foe1}": names[f"{foe}1"],
        "{foe2}": names[f"{foe}2"],
        "{me2}": names[f"{me}2"],
        "{in_play}": in_play,
        "{me}": me,
        "{foe}": foe,
    }

    def fill(text: str) -> str:
        for key, value in words.items():
            text = text.replace(key, value)
        return text

    before = state_of(client, tf_seats)
    action = {"type": "attack", "attacker": fill(attacker), "defender": fill(defender)}
    response = act(client, tf_seats, me, action)
    assert (response.status_code, response.get_json()["error"]) == (422, "illegal")
    assert response.get_json()["message"] == fill(message)
    after = state_of(client, tf_seats)
    assert after["revision"] == before["revision"] and after["state"] == before["state"]


def test_a_malformed_action_is_400(
    client: FlaskClient, tf_seats: Seats, playing: dict[str, Any]
) -> None:
    response = act(client, tf_seats, "A", {"type": "counter", "character": "A1", "delta": "+1"})
    assert response.status_code == 400 and "delta" in response.get_json()["message"]


def test_a_deck_breaking_tf3_is_refused_at_setup_with_the_numbers(
    client: FlaskClient, tf_seats: Seats
) -> None:
    ok(act(client, tf_seats, "A", {"type": "setup"}))
    text = DEMO_YAML.read_text(encoding="utf-8").replace("stars: 7\n", "stars: 10\n", 1)
    response = bring_demo(client, tf_seats, "A", filename="big.yaml", text=text)
    assert response.status_code == 422
    assert response.get_json()["message"] == "team has 27 stars, at most 25 (TF-3)"
    assert state_of(client, tf_seats)["state"]["teams"] == {"A": None, "B": None}


def test_the_official_star_count_refuses_the_demo_deck_at_its_table(
    client: FlaskClient, tf_seats: Seats
) -> None:
    ok(act(client, tf_seats, "A", {"type": "setup", "variant": {"count_battle_stars": True}}))
    response = bring_demo(client, tf_seats, "B")
    assert response.status_code == 422
    assert response.get_json()["message"] == (
        "team has 30 stars (24 on characters, 6 on battle cards), at most 25 (TF-3)"
    )


def test_a_scanned_card_in_play_opens_the_table_at_the_character(
    client: FlaskClient, tf_seats: Seats, playing: dict[str, Any]
) -> None:
    path = "/card/transformers/demo-team/quickstep"
    face = client.get(path, headers={"Accept-Language": "en"})
    assert face.status_code == 200 and "Quickstep" in face.get_data(as_text=True)  # no seat
    client.set_cookie(SEAT_COOKIE_PREFIX + tf_seats.table_id, tf_seats.a)
    found = client.get(path)
    assert found.status_code == 303
    assert found.headers["Location"].endswith(f"/t/{tf_seats.table_id}#piece=A2")
    ok(act(client, tf_seats, "B", {"type": "counter", "character": "A2", "delta": 9}))  # KO'd
    assert client.get(path).status_code == 200  # no longer in play: the card's face
