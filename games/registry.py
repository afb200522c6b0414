"""The registry of games behind the protocol (:mod:`games.protocol`).

The companion looks games up here by name (the slug used in URLs, table records and deck
files) and never imports a game module itself. Adding a game: implement
:class:`games.protocol.Game` in ``games/<game>/game.py`` and add its instance to
:data:`_GAMES` below.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.asteroids.game import GAME as ASTEROIDS
from games.pocketmodel.game import GAME as POCKETMODEL
from games.protocol import Game
from games.toybattle.game import GAME as TOY_BATTLE
from games.transformers.game import GAME as TRANSFORMERS

_GAMES: tuple[Game[Any, Any, Any], ...] = (
    ASTEROIDS,
    POCKETMODEL,
    TRANSFORMERS,
    TOY_BATTLE,
)

GAMES: Mapping[str, Game[Any, Any, Any]] = MappingProxyType({g.name: g for g in _GAMES})
"""Game name -> the game, in menu order."""


class UnknownGame(KeyError):
    """No registered game has this name; the message lists the known ones."""


def get(name: str) -> Game[Any, Any, Any]:
    """The game registered as ``name``.

    Raises:
        UnknownGame: no such game (the message lists the known names).
    """
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        shown = repr(name)[:40]
        raise UnknownGame(f"game must be one of {list(GAMES)}, got {shown}")
    return game


def for_deck(deck_game: str) -> Game[Any, Any, Any] | None:
    """The game played with decks of ``deck_game`` (the ``game:`` of a deck file), or None."""
    return next((g for g in GAMES.values() if g.deck_game == deck_game), None)
