"""The last blow can be taken back: a phone's action that would end the game is refused with
409 ``confirm_end`` until it is sent again (nothing logged meanwhile), and once the game is
over the seat that ended it may still undo that action (a roll for fun does not stop it)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.companion.conftest import act
from tests.companion.test_transformers_api import ok, seat_transformers
from tests.games.transformers_helpers import character, team

ONE_EACH = {
    "A": [character("Alpha", health=1)],
    "B": [character("Gamma", health=1)],
}
"""One character with Health 1 per team: one damage counter KOs a team (TF-30, TF-40)."""


def started(client: FlaskClient) -> tuple[Any, dict[str, Any]]:
    seats = seat_transformers(client)
    ok(act(client, seats, "A", {"type": "setup"}))
    ok(act(client, seats, "A", team("A", ONE_EACH["A"])))
    return seats, ok(act(client, seats, "B", team("B", ONE_EACH["B"])))


def post(client: FlaskClient, seats: Any, seat: str, revision: int, **body: Any) -> Any:
    body |= {"client_action_id": f"x{revision}{seat}{len(body)}", "expected_revision": revision}
    return client.post(seats.api + "/actions", json=body, headers=seats.headers(seat))


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
def test_the_ending_tap_asks_first_then_ends_and_stays_undoable(client: FlaskClient) -> None:
    seats, view = started(client)
    blow = {"type": "counter", "character": "B1", "delta": 1}
    asked = post(client, seats, "A", view["revision"], action=blow, ask_before_end=True)
    assert asked.status_code == 409 and asked.get_json()["error"] == "confirm_end"
    ending = asked.get_json()["view"]["ending"]
    assert (ending["winner"], ending["reason"], ending["rule"]) == ("A", "all_ko", "TF-40")
    after_ask = client.get(seats.api + "/state", headers=seats.headers("A")).get_json()
    assert after_ask["revision"] == view["revision"] and after_ask["outcome"] is None

    ended = post(client, seats, "A", view["revision"], action=blow).get_json()["view"]
    assert ended["outcome"]["winner"] == "A" and ended["undo_seat"] == "A"
    # a roll for fun after the end keeps the last blow undoable
    roll = {"client_action_id": "fun", "count": 1, "sides": 6, "purpose": "for fun"}
    assert (
        client.post(seats.api + "/dice", json=roll, headers=seats.headers("B")).status_code == 200
    )
    now = client.get(seats.api + "/state", headers=seats.headers("B")).get_json()
    assert now["undo_seat"] == "A" and now["outcome"] is not None
    refused = post(client, seats, "B", now["revision"], action={"type": "undo"})
    assert refused.status_code == 422  # only the seat that struck it
    back = post(client, seats, "A", now["revision"], action={"type": "undo"}).get_json()["view"]
    assert back["outcome"] is None and back["to_act"] is not None
    gamma = next(c for c in back["state"]["characters"] if c["id"] == "B1")
    assert (gamma["zone"], gamma["damage"]) == ("play", 0)
    assert back["undo_seat"] is None


def test_either_seat_is_asked_and_an_action_that_does_not_end_the_game_is_not(
    client: FlaskClient,
) -> None:
    seats, view = started(client)
    counter = {"type": "counter", "character": "A1", "delta": 1}
    # the other side's counter ends the game too: B is asked as well
    asked = post(client, seats, "B", view["revision"], action=counter, ask_before_end=True)
    assert asked.status_code == 409 and asked.get_json()["view"]["ending"]["winner"] == "B"
    # an action that does not end the game is applied at once with the flag
    first = view["to_act"]
    drawn = post(
        client, seats, first, view["revision"], action={"type": "draw"}, ask_before_end=True
    )
    assert drawn.status_code == 200, drawn.get_json()
