"""The registry of games: one entry per game (:class:`games.entry.GameEntry`).

The companion looks games up here by name (the slug used in URLs, table records and deck
files) and never imports a game module itself; the card printer and the companion hand
:data:`CARD_GAMES` to the deck reader (:func:`games.cards.deck.parse_deck_text`, which knows no
game of its own) and read the demo decks through :mod:`games.demos`. Only the card schemas are imported with the
registry; an engine is imported when its game is first looked up in :data:`GAMES`. Adding a
game: implement :class:`games.protocol.Game` as ``GAME`` in ``games/<game>/game.py`` and add
its :class:`~games.entry.GameEntry` to :data:`ENTRIES` below.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from games.cards.cardgame import CardGame
from games.entry import GameEntry
from games.pocketmodel.cards import CARDS as POCKETMODEL
from games.protocol import Game
from games.toybattle.cards import CARDS as TOYBATTLE
from games.transformers.cards import CARDS as TRANSFORMERS

ENTRIES: tuple[GameEntry, ...] = (
    GameEntry(package="asteroids", slug="asteroids", title="Asteroids"),
    GameEntry(
        package="pocketmodel", slug=POCKETMODEL.slug, title="PocketModel TCG", cards=POCKETMODEL
    ),
    GameEntry(
        package="transformers",
        slug=TRANSFORMERS.slug,
        title="Transformers TCG",
        cards=TRANSFORMERS,
    ),
    GameEntry(package="toybattle", slug=TOYBATTLE.slug, title="Toy Battle", cards=TOYBATTLE),
)
"""Every game, in menu order, each with its one title: the original's name (the seeds'
``Pocketmodel TCG`` and ``Transformers TCG``, written as their makers do)."""

_BY_SLUG: Mapping[str, GameEntry] = MappingProxyType({e.slug: e for e in ENTRIES})


class _Games(Mapping[str, Game[Any, Any, Any]]):
    """Game name -> the game, in menu order; a game's engine is imported on first look-up
    (:attr:`games.entry.GameEntry.game`)."""

    def __getitem__(self, name: str) -> Game[Any, Any, Any]:
        return _BY_SLUG[name].game

    def __iter__(self) -> Iterator[str]:
        return iter(_BY_SLUG)

    def __len__(self) -> int:
        return len(_BY_SLUG)


GAMES: Mapping[str, Game[Any, Any, Any]] = _Games()
"""Game name -> the game, in menu order."""

TITLES: Mapping[str, str] = MappingProxyType({e.slug: e.title for e in ENTRIES})
"""Game name -> its title (the one place each is written is its entry in :data:`ENTRIES`)."""

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


def load_engines() -> None:
    """Import every game's engine now (the companion does at start-up, so that no player's
    request waits for an import).

    Raises:
        RuntimeError: an engine's ``name`` is not its entry's slug.
    """
    for entry in ENTRIES:
        entry.game  # noqa: B018 - the property imports the engine


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
