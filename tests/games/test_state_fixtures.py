"""States written by earlier code (games/<game>/testdata/states.json) still load equal.

A state's JSON is what the phones read (the view's ``state``) and what
``Game.state_from_json`` reads back. The fixtures were written by
``tests/data/make_state_fixtures.py`` with the code before the games moved to one home each;
each must load, have the structure of the state that wrote it (every class, field and value)
and write back the same JSON.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import registry
from tests.data.make_state_fixtures import structure

ADDED_SINCE: dict[str, frozenset[str]] = {
    # PM: the former reading "the action may not be passed" became a flag (PM-13, "darf");
    # PM-13 one objective per strike, PM-14 "anstatt des Zuges", PM-40 both lose: flags whose
    # absence reads as the former reading (games.pocketmodel.state.FORMER_READINGS)
    "Variant": frozenset(
        {
            "action_required",
            "each_striker_picks_objective",
            "carrier_replaces_action",
            "double_loss_active_wins",
        }
    ),
    # PM-5, TF-3: the building rules a deck played anyway (a casual deck) breaks
    "Player": frozenset({"casual"}),
    "Team": frozenset({"casual"}),
    # TF-21, D23: the pending flip's cards entered one by one
    "Fighter": frozenset({"cards"}),
}
"""Fields added to a class since the fixtures were written, by class name: an old state has
none of them, loads with their defaults and writes them back; every other field must match."""


def _without_added(node: Any) -> Any:
    """``node`` (a :func:`structure` or a state's JSON) without the fields of ADDED_SINCE."""
    if isinstance(node, list):
        if len(node) == 2 and isinstance(node[0], str) and isinstance(node[1], dict):
            added = ADDED_SINCE.get(node[0], frozenset())
            return [node[0], {k: _without_added(v) for k, v in node[1].items() if k not in added}]
        return [_without_added(item) for item in node]
    if isinstance(node, dict):
        names = frozenset().union(*ADDED_SINCE.values())
        return {k: _without_added(v) for k, v in node.items() if k not in names}
    return node


def _json_as_old(node: Any, old: Any) -> Any:
    """A state's JSON ``node`` without the keys of ADDED_SINCE fields that the old JSON ``old``
    (walked in parallel) does not have; a key the old JSON has is compared as it is."""
    if isinstance(node, list) and isinstance(old, list) and len(node) == len(old):
        return [_json_as_old(n, o) for n, o in zip(node, old)]
    if isinstance(node, dict) and isinstance(old, dict):
        names = frozenset().union(*ADDED_SINCE.values())
        return {
            k: _json_as_old(v, old.get(k)) for k, v in node.items() if k in old or k not in names
        }
    return node


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_logged_states_load_to_equal_states(name: str) -> None:
    game = registry.get(name)
    items = json.loads(registry.entry(name).testdata("states.json").read_text(encoding="utf-8"))
    assert len(items) >= 15
    for item in items:
        state = game.state_from_json(item["state"])
        assert _without_added(structure(state)) == item["structure"]
        written = json.loads(json.dumps(game.state_to_json(state)))
        assert _json_as_old(written, item["state"]) == item["state"]
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
