"""The registry of games: one entry per game (:class:`games.entry.GameEntry`).

The companion looks games up here by name (the slug used in URLs, table records and deck
files) and never imports a game module itself; the deck reader and the card printer find a
game's cards here (:data:`CARD_GAMES`). Adding a game: implement :class:`games.protocol.Game`
in ``games/<game>/game.py``, export its ``ENTRY`` there, and add it to :data:`ENTRIES` below.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.asteroids.game import ENTRY as ASTEROIDS
from games.cards.cardgame import CardGame
from games.entry import GameEntry
from games.pocketmodel.game import ENTRY as POCKETMODEL
from games.protocol import Game
from games.toybattle.game import ENTRY as TOYBATTLE
from games.transformers.game import ENTRY as TRANSFORMERS

ENTRIES: tuple[GameEntry, ...] = (ASTEROIDS, POCKETMODEL, TRANSFORMERS, TOYBATTLE)
"""Every game, in menu order."""

GAMES: Mapping[str, Game[Any, Any, Any]] = MappingProxyType({e.slug: e.game for e in ENTRIES})
"""Game name -> the game, in menu order."""

CARD_GAMES: Mapping[str, CardGame] = MappingProxyType(
    {e.cards.slug: e.cards for e in ENTRIES if e.cards is not None}
)
"""Deck-file ``game:`` value -> the game's cards, in menu order."""

DEMO_DECKS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        name: (cards.package, f"demo/{name}.yaml")
        for cards in sorted(CARD_GAMES.values(), key=lambda c: c.slug)
        for name in sorted(cards.demos)
    }
)
"""Demo deck name (``demo:NAME``) -> (package, resource path): the shipped demo decks, package
data of their game (read with :func:`importlib.resources.files`)."""


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
