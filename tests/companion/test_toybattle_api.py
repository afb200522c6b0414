"""Toy Battle through the companion's HTTP API (Flask test client): setup with its roll, the
view with the terrain, legal and illegal placements (422 with the rule id), malformed actions
(400), the other seat's turn, effects and undo within a turn, stale revisions (409)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.companion.conftest import Seats, act, flask_post


@pytest.fixture
def tb(client: FlaskClient) -> Seats:
    post = flask_post(client)
    created = post("/api/tables", json={"game": "toy-battle"}).json()
    joined = post("/api/join/" + created["join_url"].rsplit("/", 1)[1], json={}).json()
    return Seats(
        table_id=created["table_id"],
        a=created["token"],
        b=joined["token"],
        watch_url=created["watch_url"],
        join_url=created["join_url"],
    )


def setup(client: FlaskClient, seats: Seats, terrain: str = "castle", **variant: bool) -> Any:
    response = act(client, seats, "A", {"type": "setup", "terrain": terrain, "variant": variant})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["view"]


def test_setup_rolls_the_starting_player_and_shows_the_terrain(
    client: FlaskClient, tb: Seats
) -> None:
    view = setup(client, tb, "caribbean", kwak_on_restricted=True)
    assert view["game"] == "toy-battle"
    state = view["state"]
    first = state["player"]
    assert view["to_act"] == first and first in ("A", "B")
    assert state["seats"][first]["rack"] == 3 and state["seats"][first]["reserve"] == 17
    assert state["variant"]["kwak_on_restricted"] is True
    assert view["terrain"]["slug"] == "caribbean" and view["terrain"]["objective"] == 5
    hqs = [n["id"] for n in view["terrain"]["nodes"] if n["kind"] == "hq"]
    assert hqs == [1, 2, 41]
    log = client.get(tb.api + "/log", headers=tb.headers("A")).get_json()["events"]
    assert [e["kind"] for e in log][-2:] == ["roll", "setup"]
    assert log[-2]["payload"]["purpose"] == "starting player (TB-3)"


@pytest.mark.parametrize(
    ("setup_body", "field"),
    [
        ({"type": "setup", "terrain": "moon"}, "terrain"),
        ({"type": "setup", "terrain": "castle", "variant": {"fly": True}}, "variant flag"),
        ({"type": "setup", "terrain": "castle", "variant": {"jungle_onto_hq": 1}}, "true or false"),
        ({"type": "setup", "terrain": "castle", "colour": "red"}, "fields"),
    ],
)
def test_bad_setups_are_400(client: FlaskClient, tb: Seats, setup_body: Any, field: str) -> None:
    response = act(client, tb, "A", setup_body)
    assert response.status_code == 400 and field in response.get_json()["message"]


def test_place_illegal_malformed_and_not_your_turn(client: FlaskClient, tb: Seats) -> None:
    view = setup(client, tb)
    me = view["state"]["player"]
    other = "B" if me == "A" else "A"
    far = 24 if me == "A" else 11  # next to the enemy H.Q., not to mine
    illegal = act(client, tb, me, {"type": "place", "troop": "Roxy", "node": far})
    assert illegal.status_code == 422 and illegal.get_json()["error"] == "illegal"
    assert illegal.get_json()["message"].endswith("(TB-12)")
    own_hq = 1 if me == "A" else 41
    refused = act(client, tb, me, {"type": "place", "troop": "Roxy", "node": own_hq})
    assert refused.get_json()["message"].endswith("(TB-11)")
    for bad in (
        {"type": "place", "troop": "Bob", "node": 11},
        {"type": "place", "node": 11},
        {"type": "resolve", "node": "x"},
        {"type": "fly"},
    ):
        assert act(client, tb, me, bad).status_code == 400
    near = 11 if me == "A" else 24
    wrong = act(client, tb, other, {"type": "place", "troop": "Roxy", "node": near})
    assert wrong.status_code == 422 and wrong.get_json()["error"] == "not_your_turn"
    placed = act(client, tb, me, {"type": "place", "troop": "Roxy", "node": near})
    assert placed.status_code == 200
    state = placed.get_json()["view"]["state"]
    assert state["stacks"] == [{"node": near, "troops": [{"seat": me, "troop": "Roxy"}]}]
    assert state["player"] == other and state["seats"][me]["rack"] == 2


def test_effects_are_prompted_in_order_and_undo_stays_in_the_turn(
    client: FlaskClient, tb: Seats
) -> None:
    view = setup(client, tb, "clouds")
    me = view["state"]["player"]
    first, second = (11, 13) if me == "A" else (24, 22)  # 13 and 22 are special bases
    view = act(client, tb, me, {"type": "place", "troop": "Cap'n", "node": first}).get_json()[
        "view"
    ]
    assert [p["effect"] for p in view["state"]["pending"]] == ["place"]
    assert view["undo_seat"] == me
    assert {"type": "decline"} in view["legal"]
    view = act(client, tb, me, {"type": "place", "troop": "Star", "node": second}).get_json()[
        "view"
    ]
    assert [(p["effect"], p["rule"]) for p in view["state"]["pending"]] == [
        ("draw", "TB-20"),
        ("draw", "TB-32"),
    ]
    assert view["legal"] == [{"type": "resolve"}, {"type": "decline"}]
    undone = act(client, tb, me, {"type": "undo"}).get_json()["view"]
    assert [p["effect"] for p in undone["state"]["pending"]] == ["place"]
    stale = act(client, tb, me, {"type": "decline"}, revision=undone["revision"] - 1)
    assert stale.status_code == 409
    done = act(client, tb, me, {"type": "decline"}).get_json()["view"]
    assert done["state"]["pending"] == [] and done["to_act"] != me and done["undo_seat"] is None
