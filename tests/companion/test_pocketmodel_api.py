"""PocketModel through the companion's JSON API: decks, quick entry, counters, a fight with
server-rolled 2d6, refusals (422 with the rule id, nothing applied), card QR links."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.security import SEAT_COOKIE_PREFIX
from tests.companion.conftest import Seats, act

QUICK = [
    {
        "name": "Wasp",
        "stars": 2,
        "attack": 3,
        "damage": 1,
        "defense": 7,
        "shields": 2,
        "icons": [],
        "ground": False,
        "text": None,
        "card": None,
        "deploy": True,
    },
    {
        "name": "Hornet",
        "stars": 3,
        "attack": 2,
        "damage": 2,
        "defense": 8,
        "shields": 3,
        "icons": ["Laser"],
        "ground": False,
        "text": None,
        "card": None,
        "deploy": True,
    },
]


@pytest.fixture
def pm(client: FlaskClient) -> Seats:
    created = client.post("/api/tables", json={"game": "pocketmodel"}).get_json()
    joined = client.post("/api/join/" + created["join_url"].rsplit("/", 1)[1], json={}).get_json()
    seats = Seats(
        table_id=created["table_id"],
        a=created["token"],
        b=joined["token"],
        watch_url=created["watch_url"],
        join_url=created["join_url"],
    )
    response = act(
        client,
        seats,
        "A",
        {"type": "setup", "variant": {"destroy_above_shields": False, "icon_gates_bonus": True}},
    )
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["view"]["state"]["phase"] == "fleets"
    return seats


def state(client: FlaskClient, seats: Seats, seat: str = "A") -> dict[str, Any]:
    view: dict[str, Any] = client.get(seats.api + "/state", headers=seats.headers(seat)).get_json()
    return view


def bring_demo(client: FlaskClient, seats: Seats, seat: str) -> Any:
    revision = state(client, seats, seat)["revision"]
    body = {
        "client_action_id": f"deck-{seat}-{revision}",
        "expected_revision": revision,
        "demo": "pocketmodel",
    }
    return client.post(seats.api + "/deck", json=body, headers=seats.headers(seat))


def unit_of(view: dict[str, Any], unit_id: str) -> dict[str, Any]:
    return next(u for u in view["state"]["units"] if u["id"] == unit_id)


def test_a_table_set_up_from_the_demo_deck_rolls_the_first_player(
    client: FlaskClient, pm: Seats
) -> None:
    first = bring_demo(client, pm, "A")
    assert first.status_code == 200, first.get_json()
    view = first.get_json()["view"]
    a_units = [u for u in view["state"]["units"] if u["seat"] == "A"]
    assert len(a_units) == 8 and sum(u["stars"] for u in a_units) == 29
    assert sum(u["stars"] for u in a_units if u["place"] == "home_A") == 20
    assert view["state"]["players"]["A"]["deck"]["slug"] == "demo-fleet"
    second = bring_demo(client, pm, "B")
    view = second.get_json()["view"]
    assert view["state"]["phase"] == "main" and view["to_act"] in ("A", "B")
    rolls = client.get(pm.api + "/dice", headers=pm.headers("A")).get_json()["rolls"]
    assert [r["purpose"] for r in rolls] == ["first player (PM-9)"]
    assert view["state"]["active"] == "AB"[rolls[0]["faces"][0] - 1]


def quick_table(client: FlaskClient, pm: Seats) -> dict[str, Any]:
    for seat in "AB":
        response = act(client, pm, seat, {"type": "fleet", "deck": None, "units": QUICK})
        assert response.status_code == 200, response.get_json()
    view: dict[str, Any] = response.get_json()["view"]
    return view


def test_quick_entry_counters_add_remove_and_refusals(client: FlaskClient, pm: Seats) -> None:
    view = quick_table(client, pm)
    assert [u["name"] for u in view["state"]["units"]] == ["Wasp", "Hornet", "Wasp", "Hornet"]
    response = act(client, pm, "B", {"type": "counter", "unit": "A2", "delta": 1})
    assert response.status_code == 200
    assert unit_of(response.get_json()["view"], "A2")["counters"] == 1
    assert unit_of(state(client, pm, "A"), "A2")["counters"] == 1  # the other phone sees it
    response = act(client, pm, "A", {"type": "counter", "unit": "A2", "delta": -1})
    assert unit_of(response.get_json()["view"], "A2")["counters"] == 0
    revision = state(client, pm)["revision"]
    below = act(client, pm, "A", {"type": "counter", "unit": "A2", "delta": -1})
    assert below.status_code == 422 and below.get_json()["message"].endswith("(PM-23)")
    missing = act(client, pm, "A", {"type": "counter", "unit": "A9", "delta": 1})
    assert missing.status_code == 422 and "(PM-6)" in missing.get_json()["message"]
    assert state(client, pm)["revision"] == revision  # nothing applied
    log = client.get(pm.api + "/log", headers=pm.headers("A")).get_json()["events"]
    counters = [
        e for e in log if e["kind"] == "action" and e["payload"]["action"]["type"] == "counter"
    ]
    assert [(e["seat"], e["payload"]["action"]["delta"]) for e in counters] == [("B", 1), ("A", -1)]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (
            {"type": "counter", "unit": "{me}2", "delta": -1},
            "Hornet carries no damage counter to remove (PM-23)",
        ),
        ({"type": "counter", "unit": "A9", "delta": 1}, "no unit A9 on the table (PM-6)"),
        (
            {"type": "counter", "unit": "{me}3", "delta": 1},
            "Spare ({me}3) is not in play: it is in the reserve (PM-6)",
        ),
        (
            {"type": "move", "units": ["{me}3"], "to": "contested"},
            "Spare ({me}3) is not in play: it is in the reserve (PM-6)",
        ),
        (
            {"type": "combat", "pairs": [["{me}3", "{foe}1"]]},
            "Spare ({me}3) is not in play: it is in the reserve (PM-6)",
        ),
        (
            {"type": "combat", "pairs": [["{me}1", "{foe}1"]]},
            "Wasp in home_{me} can attack only units in the same zone, Wasp is in home_{foe}"
            " (PM-12)",
        ),
        (
            {"type": "move", "units": ["{me}1"], "to": "home_{foe}"},
            "Wasp in home_{me} can move only to contested, not home_{foe} (PM-11)",
        ),
        (
            {"type": "strike", "units": ["{me}1"]},
            "Wasp is in home_{me}: strikers stand in home_{foe} (PM-13)",
        ),
    ],
)
def test_bad_input_is_422_with_the_rule_and_nothing_applied(
    client: FlaskClient, pm: Seats, action: dict[str, Any], message: str
) -> None:
    units = [*QUICK, {**QUICK[0], "name": "Spare", "deploy": False}]
    for seat in "AB":
        view = act(client, pm, seat, {"type": "fleet", "deck": None, "units": units}).get_json()
    me = view["view"]["to_act"]
    foe = "B" if me == "A" else "A"
    fill = json.loads(json.dumps(action).replace("{me}", me).replace("{foe}", foe))
    before = state(client, pm, me)
    response = act(client, pm, me, fill)
    body = response.get_json()
    assert (response.status_code, body["error"]) == (422, "illegal")
    assert body["message"] == message.replace("{me}", me).replace("{foe}", foe)
    after = state(client, pm, me)
    assert after["revision"] == before["revision"] and after["state"] == before["state"]
    assert unit_of(after, f"{me}3")["place"] == "reserve"


def test_a_counter_tap_is_undone_by_the_seat_that_tapped(client: FlaskClient, pm: Seats) -> None:
    view = quick_table(client, pm)
    actor = view["to_act"]
    tapper = "B" if actor == "A" else "A"  # counters are table actions: either seat, any turn
    tapped = act(client, pm, tapper, {"type": "counter", "unit": f"{actor}2", "delta": 1})
    view = tapped.get_json()["view"]
    assert unit_of(view, f"{actor}2")["counters"] == 1 and view["undo_seat"] == tapper
    undone = act(client, pm, tapper, {"type": "undo"}).get_json()["view"]
    assert unit_of(undone, f"{actor}2")["counters"] == 0
    assert unit_of(state(client, pm, actor), f"{actor}2")["counters"] == 0  # the other phone
    log = client.get(pm.api + "/log", headers=pm.headers("A")).get_json()["events"]
    assert log[-1]["kind"] == "undo" and log[-1]["seat"] == tapper


def test_a_fight_with_server_rolled_2d6(client: FlaskClient, pm: Seats) -> None:
    view = quick_table(client, pm)
    actor = view["to_act"]
    foe = "B" if actor == "A" else "A"
    # both Wasps meet in the contested zone (two turns of moves)
    act(client, pm, actor, {"type": "move", "units": [f"{actor}1"], "to": "contested"})
    act(client, pm, actor, {"type": "end_turn"})
    act(client, pm, foe, {"type": "move", "units": [f"{foe}1"], "to": "contested"})
    act(client, pm, foe, {"type": "end_turn"})
    wrong = act(client, pm, actor, {"type": "combat", "pairs": [[f"{actor}1", f"{foe}2"]]})
    assert wrong.status_code == 422 and wrong.get_json()["message"].endswith("(PM-12)")
    assert state(client, pm)["state"]["phase"] == "main"  # nothing applied
    ok = act(client, pm, actor, {"type": "combat", "pairs": [[f"{actor}1", f"{foe}1"]]})
    assert ok.get_json()["view"]["state"]["battle"]["step"] == "attacker_card"
    act(client, pm, actor, {"type": "play", "attack": 2})
    act(client, pm, foe, {"type": "pass"})
    rolled = act(client, pm, actor, {"type": "roll"})
    assert rolled.status_code == 200, rolled.get_json()
    battle = rolled.get_json()["view"]["state"]["battle"]
    rolls = client.get(pm.api + "/dice", headers=pm.headers("A")).get_json()["rolls"]
    assert [r["purpose"] for r in rolls[-2:]] == [
        "attacker's 2d6 (PM-21)",
        "defender's 2d6 (PM-21)",
    ]
    attacker, defender = battle["result"]["attacker"], battle["result"]["defender"]
    assert attacker["faces"] == rolls[-2]["faces"] and defender["faces"] == rolls[-1]["faces"]
    assert attacker["attack_total"] == sum(rolls[-2]["faces"]) + 3 + 2
    assert attacker["defense_total"] == 7 and attacker["hits"] == (attacker["attack_total"] >= 7)
    assert defender["attack_total"] == sum(rolls[-1]["faces"]) + 3
    undo = act(client, pm, actor, {"type": "undo"})
    assert undo.status_code == 422  # a roll is an undo barrier
    done = act(client, pm, actor, {"type": "confirm"}).get_json()["view"]
    foe_unit = unit_of(done, f"{foe}1")
    own_unit = unit_of(done, f"{actor}1")
    expected_foe = 1 if attacker["hits"] else 0
    expected_own = 1 if defender["hits"] else 0
    assert (foe_unit["counters"], own_unit["counters"]) == (
        expected_foe,
        expected_own,
    )  # shields 2: survive
    assert done["state"]["phase"] == "end"


def test_a_deck_that_breaks_pm5_is_refused_with_the_numbers(client: FlaskClient, pm: Seats) -> None:
    text = """game: pocketmodel
deck: heavy
cards:
  - {kind: unit, name: Big One, copies: 7, stars: 5, attack: 4, damage: 3, defense: 11, shields: 6, icons: Laser}
  - {kind: combat, name: Steady, copies: 3, stars: 1, defense: 6, text: "+1"}
"""
    revision = state(client, pm)["revision"]
    body = {
        "client_action_id": "heavy",
        "expected_revision": revision,
        "filename": "heavy.yaml",
        "text": text,
    }
    response = client.post(pm.api + "/deck", json=body, headers=pm.headers("A"))
    assert response.status_code == 422
    assert response.get_json()["message"] == "fleet has 35 stars, at most 30 (PM-5)"
    assert (
        state(client, pm)["revision"] == revision
        and state(client, pm)["state"]["players"]["A"] is None
    )


def test_a_scanned_card_in_play_opens_the_table_at_the_unit(client: FlaskClient, pm: Seats) -> None:
    bring_demo(client, pm, "A")
    view = bring_demo(client, pm, "B").get_json()["view"]
    card = unit_of(view, "A1")["card"]
    client.set_cookie(SEAT_COOKIE_PREFIX + pm.table_id, pm.a)
    response = client.get(f"/card/pocketmodel/demo-fleet/{card}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{pm.table_id}#piece=A1")
    client.delete_cookie(SEAT_COOKIE_PREFIX + pm.table_id)
    face = client.get(f"/card/pocketmodel/demo-fleet/{card}")
    assert face.status_code == 200 and "Halo Frigate" in face.get_data(as_text=True)


def test_a_scanned_card_without_a_table_starts_one_with_its_deck(client: FlaskClient) -> None:
    face = client.get("/card/pocketmodel/demo-fleet/sentinel-cruiser").get_data(as_text=True)
    assert "Sentinel Cruiser" in face and 'id="start-with-deck"' in face
    assert 'name="game" value="pocketmodel"' in face and 'name="demo" value="pocketmodel"' in face
    started = client.post("/tables", data={"game": "pocketmodel", "demo": "pocketmodel"})
    assert started.status_code == 303
    assert "/t/" in started.headers["Location"]
    assert started.headers["Location"].endswith("?demo=pocketmodel")
    page = client.get(started.headers["Location"]).get_data(as_text=True)
    assert 'id="pm-setup"' in page  # the PocketModel view, offering the deck first


def test_a_counter_tap_runs_the_rules_once_and_writes_its_action_once(
    client: FlaskClient, pm: Seats, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dice check of an action without dice is the apply itself, and the request's key and
    the logged payload share one parse and one JSON of the action."""
    from games import registry
    from games.pocketmodel import rules
    from games.pocketmodel.actions import Counter

    revision = quick_table(client, pm)["revision"]
    game_type = type(registry.get("pocketmodel"))
    calls: list[str] = []
    apply, to_json = rules.apply, game_type.action_to_json

    def counted_apply(state: Any, seat: str, action: Any, faces: Any = ()) -> Any:
        if isinstance(action, Counter):
            calls.append("apply")
        return apply(state, seat, action, faces)

    def counted_json(self: Any, action: Any) -> dict[str, Any]:
        if isinstance(action, Counter):
            calls.append("to_json")
        return to_json(self, action)

    monkeypatch.setattr(rules, "apply", counted_apply)
    monkeypatch.setattr(game_type, "action_to_json", counted_json)
    tap = {"type": "counter", "unit": "A2", "delta": 1}
    response = act(client, pm, "B", tap, revision=revision)
    assert response.status_code == 200, response.get_json()
    assert unit_of(response.get_json()["view"], "A2")["counters"] == 1
    assert calls.count("apply") == 1  # then the new view lists the legal counter taps
    assert calls[: calls.index("apply") + 1] == ["to_json", "apply"]
