"""Every registered game keeps the game protocol (games/protocol.py), checked by playing it.

The same harness plays every game in :data:`games.registry.GAMES` through the protocol only,
as the companion does: a setup (from the game's own example setups), dice rolled with a seeded
generator wherever the game asks for them, random legal actions of the seat to act, and at
every step the JSON round trips, the view and the distinct errors.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import registry
from games.protocol import (
    SEATS,
    DiceRequest,
    Faces,
    Game,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    check_faces,
)

GAMES = sorted(registry.GAMES)


def roll(rng: random.Random, requests: tuple[DiceRequest, ...]) -> Faces:
    return tuple(tuple(rng.randint(1, r.sides) for _ in range(r.count)) for r in requests)


def example_setups(game: Game[Any, Any, Any]) -> list[dict[str, Any]]:
    """The setups a game gives as examples of its options."""
    examples = game.example_setups()
    assert examples, f"{game.name} gives no example setup"
    return examples


def start(game: Game[Any, Any, Any], data: dict[str, Any], rng: random.Random) -> Any:
    setup = game.parse_setup(data)
    assert game.setup_to_json(game.parse_setup(game.setup_to_json(setup) | {"type": "setup"})) == (
        game.setup_to_json(setup)
    )
    event = game.setup_event(setup, roll(rng, game.setup_dice(setup)))
    event = json.loads(json.dumps(event))  # as logged
    return game.start(event)


def play(game: Game[Any, Any, Any], state: Any, rng: random.Random, plies: int) -> Any:
    """Random legal actions of whoever may act; checks the protocol at every step."""
    for _ in range(plies):
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
        for seat in (*SEATS, None):
            json.dumps(game.view(state, seat))
        actor = game.to_act(state)
        if actor is None:
            assert isinstance(game.outcome(state), Outcome)
            assert all(not game.legal_actions(state, s) for s in SEATS)
            return state
        assert game.outcome(state) is None
        legal = list(game.legal_actions(state, actor))
        assert legal, f"{game.name}: the seat to act has no legal action"
        action = rng.choice(legal)
        encoded = json.loads(json.dumps(game.action_to_json(action)))
        assert game.parse_action(encoded) == action
        assert encoded["type"] in game.action_types, (game.name, encoded["type"])
        requests = game.dice_for(state, actor, action)
        faces = roll(rng, requests)
        check_faces(requests, faces)
        before = game.turn(state)
        state = game.apply(state, actor, action, faces)
        assert game.turn(state) >= before
    return state


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_keep_the_protocol(name: str) -> None:
    game = registry.get(name)
    rng = random.Random(f"protocol-{name}")
    for data in example_setups(game):
        for _ in range(3):
            play(game, start(game, data, rng), rng, plies=400)


@pytest.mark.parametrize("name", GAMES)
def test_errors_are_distinct(name: str) -> None:
    game = registry.get(name)
    rng = random.Random(f"errors-{name}")
    state = start(game, example_setups(game)[0], rng)
    for bad in (None, 7, [], {}, {"type": "no-such-action"}):
        with pytest.raises(MalformedAction):
            game.parse_action(bad)
    with pytest.raises(MalformedAction):
        game.parse_setup("not an object")
    # walk until a seat is to act, then the other seat's turn action is not theirs
    state = play(game, state, rng, plies=0)
    actor = game.to_act(state)
    assert actor in SEATS
    other = SEATS[1 - SEATS.index(actor)]
    turn_actions = [
        a for a in game.legal_actions(state, actor) if a not in game.legal_actions(state, other)
    ]
    assert turn_actions, f"{name}: nothing belongs to the seat to act alone"
    action = turn_actions[0]
    with pytest.raises(NotYourTurn) as refused:
        game.apply(state, other, action, roll(rng, game.dice_for(state, actor, action)))
    assert isinstance(refused.value, IllegalAction)


@pytest.mark.parametrize("name", GAMES)
def test_action_types_are_the_types_parse_action_takes(name: str) -> None:
    """``action_types`` lists the game's action types, each once: a declared type is refused
    (if at all) for its fields, not as an unknown type, as an undeclared one is; the playouts
    above check that every action a game offers has a declared type."""
    game = registry.get(name)
    types = game.action_types
    assert types and len(set(types)) == len(types), types

    def refusal(kind: str) -> str | None:
        try:
            game.parse_action({"type": kind})
        except MalformedAction as error:
            return str(error).replace(repr(kind), "<type>")
        return None

    unknown = refusal("no-such-action")
    assert unknown is not None and refusal("not-this-either") == unknown
    assert [kind for kind in types if refusal(kind) == unknown] == []


def test_registry_refuses_unknown_games_with_the_known_names() -> None:
    with pytest.raises(registry.UnknownGame, match="asteroids"):
        registry.get("chess")


def test_the_companion_never_names_a_game() -> None:
    """ARCHITECTURE.md: the platform reaches games through the registry only."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    named = []
    for path in (root / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            named += [
                f"{path.relative_to(root)}: {n}"
                for n in names
                if n.startswith("games.") and n.split(".")[1] in {g.replace("-", "") for g in GAMES}
            ]
    assert named == []
