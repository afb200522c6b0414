"""A whole Asteroids game through the API: the winner, the end, and the log replayed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from games.asteroids import actions, rules
from games.asteroids import state as table
from tests.companion.conftest import Seats, act, make_app


def advance(state: table.State, colour: str) -> int:
    """How far ``colour``'s fleet has come: 10 per scored ship plus rifts crossed on board."""
    total = 10 * state.scored[colour]
    for spot, stack in state.stacks.items():
        crossed = spot.rift if colour == "A" else 7 - spot.rift
        total += crossed * stack.count(colour)
    return total


def greedy(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The legal action that brings the player's fleet furthest (random among equals)."""
    state = table.state_from_json(view["state"])
    me = state.player

    def score(action: dict[str, Any]) -> tuple[int, float]:
        after = rules.apply(state, actions.action_from_json(action))
        return advance(after, me), rng.random()

    return max(view["legal"], key=score)


def test_a_game_played_to_the_end_has_a_winner_and_replays_from_the_log(
    tmp_path: Path, client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    rng = random.Random(7)
    view = set_up
    for _ in range(600):
        if view["state"]["phase"] == "over":
            break
        mover = view["state"]["player"]
        view = act(client, seats, mover, greedy(view, rng), revision=view["revision"]).get_json()[
            "view"
        ]
    state = view["state"]
    assert state["phase"] == "over" and state["winner"] in ("A", "B")
    assert state["scored"][state["winner"]] == 5  # AST-30: at once, with the 5th ship
    # the last blow stays undoable by the player who struck it (no dice decided it)
    assert view["legal"] == [] and view["undo_seat"] == state["winner"]
    late = act(client, seats, state["winner"], {"type": "skip"}, revision=view["revision"])
    assert late.status_code == 422 and "AST-30" in late.get_json()["message"]
    # A fresh server on the same database folds the log to the very same state.
    fresh = make_app(tmp_path).test_client()
    replayed = fresh.get(seats.api + "/state", headers=seats.headers("A")).get_json()
    assert replayed["revision"] == view["revision"] and replayed["state"] == state
