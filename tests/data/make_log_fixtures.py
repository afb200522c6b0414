"""Write games/<game>/testdata/logs.json: setup events and actions as the companion logs them.

A table's log holds events, not states: the setup event (:meth:`games.protocol.Game.setup_event`)
and each action's JSON with its seat and dice faces; the companion folds them with
``Game.start`` and ``Game.parse_action`` (companion/tables.py). Each file holds seeded random
playouts of every example setup (and, for the card games, of a demo deck brought by both
seats): ``[{"setup_event": ..., "actions": [{"seat", "action", "faces"}, ...]}, ...]``.
The committed files were written by the code before the games moved to one home each;
``tests/games/test_logged_events.py`` checks that they still load.

Run: ``python tests/data/make_log_fixtures.py`` (from the repository root).
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from games import registry
from games.protocol import SEATS, GameError
from tests.data.make_state_fixtures import roll, starts, write


def take(
    game: Any, state: Any, seat: str, action: Any, rng: random.Random, logged: list[Any]
) -> Any:
    """Apply ``action`` with seeded dice and log it as the companion does."""
    faces = roll(rng, game.dice_for(state, seat, action))
    after = game.apply(state, seat, action, faces)
    logged.append({"seat": seat, "action": game.action_to_json(action), "faces": faces})
    return after


def logs(name: str, plies: int = 120) -> list[dict[str, Any]]:
    """Seeded playouts of game ``name`` as logged events."""
    game = registry.get(name)
    rng = random.Random(f"logs-{name}")
    out: list[dict[str, Any]] = []
    for _data, event, deck in starts(game, rng):
        state = game.start(event)
        logged: list[dict[str, Any]] = []
        if deck is not None:
            for seat in SEATS:
                with contextlib.suppress(GameError):
                    action = game.parse_action(game.setup_from_deck(deck, seat))
                    state = take(game, state, seat, action, rng, logged)
        for _ in range(plies):
            actor = game.to_act(state)
            if actor is None:
                break
            action = rng.choice(list(game.legal_actions(state, actor)))
            state = take(game, state, actor, action, rng, logged)
        out.append({"setup_event": event, "actions": json.loads(json.dumps(logged))})
    return out


if __name__ == "__main__":
    write("logs", logs)
