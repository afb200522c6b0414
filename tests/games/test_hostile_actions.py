"""Hostile action bodies: a list or an object where a string or a number belongs (and the
reverse), in every field of every action kind of every game (setups included), through the
protocol only.

Each action kind is taken from a legal action the game lists in a short seeded playout (plus
the kinds the engines accept but do not list, :data:`UNLISTED`); every field of it, nested
fields included (the first element of a list stands for all), is replaced by each hostile
value. :meth:`~games.protocol.Game.parse_action` must answer :class:`MalformedAction` naming
the field (HTTP 400), never another exception (HTTP 500).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import registry
from games.protocol import SEATS, Game, MalformedAction, SetupError
from tests.games.test_protocol import roll, start

UNLISTED: dict[str, list[dict[str, Any]]] = {
    "pocketmodel": [
        {"type": "play", "attack": 1, "damage": 0, "defense": 2},
        {"type": "modify", "unit": "A1", "attack": 1, "damage": 0, "defense": 0},
        {"type": "modify", "unit": None, "attack": 0, "damage": 0, "defense": 1},
        {"type": "reveal", "defense": 6, "stars": 2},
    ],
    "transformers": [
        {"type": "play_upgrade", "character": "A1", "card": None, "slot": "weapon", "name": "X"},
        {"type": "play_action", "card": None, "name": "Quickstep"},
        {"type": "counter", "character": "A1", "delta": -1},
    ],
}
"""Action kinds (or field combinations) the engines accept but ``legal_actions`` never lists."""

HOSTILE: dict[type, tuple[Any, ...]] = {
    str: ([], {}, ["x"]),
    int: ([], {}, [1], "1"),
    bool: ([], {}, "true"),
    type(None): ([], {}),
    list: ({}, "x", 1),
    dict: ([], "x", 1),
}
"""The wrong values tried for a field, by the type of its right value."""


def samples(game: Game[Any, Any, Any]) -> list[dict[str, Any]]:
    """One JSON action per kind and field set the game lists in seeded playouts."""
    seen: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    for data in game.example_setups():
        rng = random.Random(5)
        state = start(game, data, rng)
        for _ in range(400):
            actor = game.to_act(state)
            if actor is None:
                break
            for seat in SEATS:
                for action in game.legal_actions(state, seat):
                    encoded = json.loads(json.dumps(game.action_to_json(action)))
                    seen.setdefault((encoded["type"], tuple(sorted(encoded))), encoded)
            action = rng.choice(list(game.legal_actions(state, actor)))
            state = game.apply(state, actor, action, roll(rng, game.dice_for(state, actor, action)))
    found = [*seen.values(), *UNLISTED.get(game.name, [])]
    for data in found:
        game.parse_action(data)  # every sample is a well-formed action
    return found


def paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every field below ``value`` as (path, value); the first element stands for a list."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key), inner
            yield from paths(inner, (*path, key))
    elif isinstance(value, list) and value:
        yield (*path, 0), value[0]
        yield from paths(value[0], (*path, 0))


def replaced(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    inner: Any = out
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = value
    return out


def cases() -> Iterator[Any]:
    for name in sorted(registry.GAMES):
        game = registry.GAMES[name]
        for data in [*samples(game), *game.example_setups()]:
            for path, value in paths(data):
                if data["type"] == "setup" and path == ("type",):
                    continue  # the platform dispatches on it: a hostile type is an action's
                for hostile in HOSTILE[type(value)]:
                    label = ".".join(map(str, path))
                    yield pytest.param(
                        name, data, path, hostile, id=f"{name}-{data['type']}-{label}-{hostile!r}"
                    )


@pytest.mark.parametrize(("name", "data", "path", "hostile"), list(cases()))
def test_a_hostile_field_is_malformed_and_named(
    name: str, data: dict[str, Any], path: tuple[Any, ...], hostile: Any
) -> None:
    game = registry.GAMES[name]
    body = replaced(data, path, hostile)
    parse = game.parse_setup if data["type"] == "setup" else game.parse_action
    # a setup may also be refused as a SetupError (HTTP 422): a layout that breaks AST-2
    expected = (MalformedAction, SetupError) if data["type"] == "setup" else MalformedAction
    with pytest.raises(expected) as error:
        parse(body)
    field = next(str(p) for p in reversed(path) if isinstance(p, str))
    assert field in str(error.value), (body, str(error.value))


@pytest.mark.parametrize("name", sorted(registry.GAMES))
@pytest.mark.parametrize("body", [[], "x", 1, None, {}, {"type": None}, {"type": 1}])
def test_a_body_that_is_no_action_is_malformed(name: str, body: Any) -> None:
    with pytest.raises(MalformedAction):
        registry.GAMES[name].parse_action(body)


def test_every_game_and_kind_is_covered() -> None:
    """The harness reaches every action kind each game parses."""
    kinds = {name: {d["type"] for d in samples(g)} for name, g in registry.GAMES.items()}
    assert kinds["asteroids"] >= {"move", "push"}
    assert kinds["pocketmodel"] >= {
        "fleet", "counter", "objective", "move", "combat", "strike", "carrier", "play",
        "pass", "modify", "roll", "confirm", "target", "reveal", "reinforce", "end_turn",
    }  # fmt: skip
    assert kinds["transformers"] >= {
        "team", "draw", "tap", "counter", "flip", "attack", "end_turn", "icons", "bonus",
        "resolve", "play_action", "play_upgrade",
    }  # fmt: skip
    assert kinds["toy-battle"] >= {"draw", "place", "resolve", "decline", "stuck"}
