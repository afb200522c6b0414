"""Write games/<game>/testdata/states.json: game states as the companion logs them.

Each file holds ``[{"setup": ..., "state": <state_to_json>, "structure": structure(state)}, ...]`` from
seeded random playouts of every example setup (and, for the card games, of the demo decks
brought by both seats), sampled every few plies. The committed files were written by the
code before the games moved to one home each; ``tests/games/test_state_fixtures.py`` checks
that those states still load to equal states.

Run: ``python tests/data/make_state_fixtures.py`` (from the repository root).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import json
import random
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from games import registry
from games.protocol import SEATS, DiceRequest, Faces, GameError


def structure(value: Any) -> Any:
    """``value`` as plain JSON that names every class and field (mappings and sets sorted).

    Two states with equal structures are equal field by field, whatever module their classes
    live in; mapping order does not count (the state codecs sort keys).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: structure(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return [type(value).__name__, fields]
    if isinstance(value, enum.Enum):
        return [type(value).__name__, value.value]
    if isinstance(value, Mapping):
        items = [[structure(k), structure(v)] for k, v in value.items()]
        return ["mapping", sorted(items, key=json.dumps)]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted((structure(v) for v in value), key=json.dumps)]
    if isinstance(value, (tuple, list)):
        return [structure(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no structure for {type(value).__name__}")


def roll(rng: random.Random, requests: tuple[DiceRequest, ...]) -> Faces:
    """Seeded faces for the requests."""
    return tuple(tuple(rng.randint(1, r.sides) for _ in range(r.count)) for r in requests)


def demo_decks(deck_game: str) -> list[Any]:
    """The shipped demo decks of the deck-file game ``deck_game``."""
    from printables.deckfile import demo_names, read_deck

    decks = [read_deck(f"demo:{n}").deck for n in demo_names()]
    return [d for d in decks if d.game == deck_game]


def starts(game: Any, rng: random.Random) -> Iterator[tuple[Any, Any, Any]]:
    """Each example setup of ``game``, and for a card game each again with its first demo
    deck: (setup request, the setup event as logged, the deck both seats bring or None)."""
    for data in game.example_setups():
        decks = demo_decks(game.deck_game) if game.deck_game else []
        for deck in (None, decks[0]) if decks else (None,):
            setup = game.parse_setup(data)
            faces = roll(rng, game.setup_dice(setup))
            yield data, json.loads(json.dumps(game.setup_event(setup, faces))), deck


def samples(name: str, every: int = 40, plies: int = 240) -> list[dict[str, Any]]:
    """States of seeded playouts of game ``name``, one every ``every`` plies."""
    game = registry.get(name)
    rng = random.Random(f"fixtures-{name}")
    out: list[dict[str, Any]] = []
    for data, event, deck in starts(game, rng):
        state = game.start(event)
        if deck is not None:
            for seat in SEATS:
                with contextlib.suppress(GameError):
                    action = game.parse_action(game.setup_from_deck(deck, seat))
                    faces = roll(rng, game.dice_for(state, seat, action))
                    state = game.apply(state, seat, action, faces)
        for ply in range(plies):
            if ply % every == 0:
                out.append(
                    {
                        "setup": data,
                        "state": game.state_to_json(state),
                        "structure": structure(state),
                    }
                )
            actor = game.to_act(state)
            if actor is None:
                out.append(
                    {
                        "setup": data,
                        "state": game.state_to_json(state),
                        "structure": structure(state),
                    }
                )
                break
            action = rng.choice(list(game.legal_actions(state, actor)))
            state = game.apply(state, actor, action, roll(rng, game.dice_for(state, actor, action)))
    return out


def write(kind: str, make: Callable[[str], list[dict[str, Any]]]) -> None:
    """Write ``make(name)`` to the game's ``testdata/<kind>.json`` for every registered game
    (``GameEntry.testdata``: the game's own folder)."""
    for name in registry.GAMES:
        items = make(name)
        path = Path(str(registry.entry(name).testdata(f"{kind}.json")))
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(items, sort_keys=True) + "\n", encoding="utf-8")
        print(path, len(items), path.stat().st_size)


if __name__ == "__main__":
    write("states", samples)
