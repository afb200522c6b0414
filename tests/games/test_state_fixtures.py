"""States written by earlier code (tests/data/states/) still load, to equal states.

A state's JSON is what the phones read (the view's ``state``) and what
``Game.state_from_json`` reads back. The fixtures were written by
``tests/data/make_state_fixtures.py`` with the code before the games moved to one home each;
each must load, have the structure of the state that wrote it (every class, field and value)
and write back the same JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import registry
from tests.data.make_state_fixtures import structure

STATES = Path(__file__).resolve().parents[1] / "data" / "states"


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_logged_states_load_to_equal_states(name: str) -> None:
    game = registry.get(name)
    items = json.loads((STATES / f"{name}.json").read_text(encoding="utf-8"))
    assert len(items) >= 15
    for item in items:
        state = game.state_from_json(item["state"])
        assert structure(state) == item["structure"]
        assert json.loads(json.dumps(game.state_to_json(state))) == item["state"]
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
