"""Tables logged by earlier code still fold: their setup events start, their actions parse
to the same canonical JSON and apply with their logged dice.

A table's log holds events (companion/tables.py folds them with ``Game.start``,
``Game.parse_action`` and ``Game.apply``); tables in existing databases must keep loading. The
fixtures (games/<game>/testdata/logs.json) were written by ``tests/data/make_log_fixtures.py`` with the code
before the games moved to one home each.
"""

from __future__ import annotations

import json

import pytest

from games import registry


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_logged_tables_still_fold(name: str) -> None:
    game = registry.get(name)
    tables = json.loads(registry.entry(name).testdata("logs.json").read_text(encoding="utf-8"))
    assert len(tables) >= 3
    actions = 0
    for table in tables:
        state = game.start(table["setup_event"])
        for logged in table["actions"]:
            action = game.parse_action(logged["action"])
            assert json.loads(json.dumps(game.action_to_json(action))) == logged["action"]
            faces = tuple(tuple(f) for f in logged["faces"])
            state = game.apply(state, logged["seat"], action, faces)
            actions += 1
    assert actions >= 100
