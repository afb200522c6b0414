"""Hostile action bodies through the HTTP API (Flask and the default server, uvicorn): 400
naming the field, never 500; and an unexpected error under uvicorn is logged with its
traceback (the direct action route calls the error handler outside its ``except`` block)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from games import registry
from tests.companion.conftest import Seats, act, flask_post, seat_both

SETUPS: dict[str, dict[str, Any]] = {
    "asteroids": {"type": "setup", "mode": "random"},
    "pocketmodel": {"type": "setup"},
    "transformers": {"type": "setup"},
    "toy-battle": {"type": "setup", "terrain": "castle"},
}


def seated(client: Any, game: str) -> Seats:
    """Both seats of a new ``game`` table, set up."""
    seats = seat_both(flask_post(client), game)
    response = act(client, seats, "A", SETUPS[game])
    assert response.status_code == 200, response.get_json()
    return seats


@pytest.mark.parametrize("client", ["flask", "uvicorn"], indirect=True)
@pytest.mark.parametrize(
    ("game", "action", "field"),
    [
        ("pocketmodel", {"type": []}, "type"),
        ("pocketmodel", {"type": {}}, "type"),
        ("toy-battle", {"type": []}, "type"),
        ("toy-battle", {"type": {}}, "type"),
        ("toy-battle", {"type": "place", "troop": ["Roxy"], "node": 11}, "troop"),
        ("toy-battle", {"type": "place", "troop": "Roxy", "node": {}}, "node"),
        ("asteroids", {"type": "move", "origin": {}, "target": [1, 1]}, "origin"),
        ("transformers", {"type": "tap", "character": [], "tapped": True}, "character"),
        ("pocketmodel", {"type": "counter", "unit": {}, "delta": 1}, "unit"),
    ],
)
def test_a_hostile_body_is_400_naming_the_field(
    client: Any, game: str, action: dict[str, Any], field: str
) -> None:
    seats = seated(client, game)
    response = act(client, seats, "A", action)
    body = response.get_json()
    assert response.status_code == 400, body
    assert body["error"] == "malformed" and field in body["message"], body


@pytest.mark.parametrize("client", ["uvicorn"], indirect=True)
def test_an_unexpected_error_under_uvicorn_is_logged_with_its_traceback(
    client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    seats = seated(client, "toy-battle")
    game = registry.GAMES["toy-battle"]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("forced for the log test")

    monkeypatch.setattr(type(game), "apply", broken)
    with caplog.at_level(logging.ERROR):
        response = act(client, seats, "A", {"type": "draw"})
    assert response.status_code == 500
    assert client.direct_actions > 0  # the event loop's route, where the bug was
    records = [r for r in caplog.records if "unexpected error" in r.getMessage()]
    assert records, [r.getMessage() for r in caplog.records]
    text = logging.Formatter().format(records[-1])
    assert "Traceback (most recent call last)" in text, text
    assert "RuntimeError: forced for the log test" in text and "in broken" in text, text
    assert "NoneType: None" not in text
