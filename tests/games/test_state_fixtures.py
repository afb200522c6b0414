"""States logged by earlier code (tests/data/states/) still load, to equal states.

The companion keeps a table's states in its log; a change to a game's state codec must read
every state written before it. The fixtures were written by ``tests/data/make_state_fixtures.py``
with the field-by-field codecs the derived codec replaced; each must load, have the structure
of the state that wrote it (every class, field and value) and write back the same JSON.
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
