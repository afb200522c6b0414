"""The registry of games: one entry per game (:class:`games.entry.GameEntry`).

The companion looks games up here by name (the slug used in URLs, table records and deck
files) and never imports a game module itself; the card printer and the companion hand
:data:`CARD_GAMES` to the deck reader (:func:`games.cards.deck.parse_deck_text`, which knows no
game of its own) and read the demo decks through :mod:`games.demos`. Only the card schemas are
imported with the registry; an engine is imported when its game is first looked up in
:data:`GAMES`.

Adding a game (docs/contributing.md, "Adding a game", lists every place): the games of this
repository are the :data:`ENTRIES` below; a game kept elsewhere (a test's toy game, a
game of one's own beside an installed Tablesmith) is added with :func:`register`, before the
companion or the printer starts (``tests/test_fifth_game.py`` does). Decision: no entry-point
discovery (``importlib.metadata``) for now: it would cost every command's start-up a scan of
the installed distributions for a use nobody has yet; :func:`register` is the one supported
way, and an entry-point group can call it later without changing anything else.

:data:`GAMES`, :data:`CARD_GAMES` and :data:`DEMO_DECKS` are live views of the registered
entries: a module that imported them sees a game registered later.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from games.cards.cardgame import CardGame
from games.entry import GameEntry
from games.pocketmodel.cards import CARDS as POCKETMODEL
from games.protocol import Game
from games.toybattle.cards import CARDS as TOYBATTLE
from games.transformers.cards import CARDS as TRANSFORMERS

V = TypeVar("V")

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

_BY_SLUG: dict[str, GameEntry] = {e.slug: e for e in ENTRIES}
"""Every registered game by slug, in menu order (built-in first, then as registered)."""


class _Games(Mapping[str, Game[Any, Any, Any]]):
    """Game name -> the game, in menu order; a game's engine is imported on first look-up
    (:attr:`games.entry.GameEntry.game`)."""

    def __getitem__(self, name: str) -> Game[Any, Any, Any]:
        return _BY_SLUG[name].game

    def __iter__(self) -> Iterator[str]:
        return iter(_BY_SLUG)

    def __len__(self) -> int:
        return len(_BY_SLUG)


class _Live(Mapping[str, V]):
    """A read-only mapping computed from the registered entries at each look-up, so that a
    game registered later is in it (the registry holds a handful of games: cheap)."""

    def __init__(self, build: Callable[[], dict[str, V]]) -> None:
        self._build = build

    def __getitem__(self, name: str) -> V:
        return self._build()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())


def _demo_decks() -> dict[str, tuple[str, str]]:
    """Demo deck name -> (package, resource path), sorted by game slug then name."""
    return {
        name: (cards.package, f"demo/{name}.yaml")
        for cards in sorted(CARD_GAMES.values(), key=lambda c: c.slug)
        for name in sorted(cards.demos)
    }


GAMES: Mapping[str, Game[Any, Any, Any]] = _Games()
"""Game name -> the game, in menu order."""


TITLES: Mapping[str, str] = _Live(lambda: {e.slug: e.title for e in _BY_SLUG.values()})
"""Game name -> its title (the one place each is written is its entry: :data:`ENTRIES`, or
the entry given to :func:`register`)."""

CARD_GAMES: Mapping[str, CardGame] = _Live(
    lambda: {e.cards.slug: e.cards for e in _BY_SLUG.values() if e.cards is not None}
)
"""Deck-file ``game:`` value -> the game's cards, in menu order."""

DEMO_DECKS: Mapping[str, tuple[str, str]] = _Live(_demo_decks)
"""Demo deck name (``demo:NAME``) -> (package, resource path): the shipped demo decks, package
data of their game (read with :func:`importlib.resources.files`)."""


def entries() -> tuple[GameEntry, ...]:
    """Every registered game's entry, in menu order."""
    return tuple(_BY_SLUG.values())


def entry(name: str) -> GameEntry:
    """The entry of the game registered as ``name``.

    Raises:
        UnknownGame: no such game (the message lists the known names).
    """
    found = _BY_SLUG.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownGame(f"game must be one of {list(_BY_SLUG)}, got {repr(name)[:40]}")
    return found


def register(new: GameEntry) -> None:
    """Add a game kept outside ``games/`` (see the module docstring); it comes last in the
    menu. Call it before the companion app or a command reads the registry.

    Raises:
        ValueError: its slug, or a demo deck's name, is taken by a registered game.
    """
    if new.slug in _BY_SLUG:
        raise ValueError(f"a game named {new.slug!r} is registered already")
    demos = set(new.cards.demos) if new.cards is not None else set()
    taken = sorted(demos & set(DEMO_DECKS))
    if taken:
        raise ValueError(f"demo deck names taken by a registered game: {', '.join(taken)}")
    _BY_SLUG[new.slug] = new


def unregister(slug: str) -> None:
    """Remove a game added by :func:`register` (a built-in game stays).

    Raises:
        ValueError: ``slug`` is a built-in game or not registered.
    """
    if slug not in _BY_SLUG or any(e.slug == slug for e in ENTRIES):
        raise ValueError(f"{slug!r} is not a game added by register()")
    del _BY_SLUG[slug]


@contextlib.contextmanager
def registered(new: GameEntry) -> Iterator[GameEntry]:
    """:func:`register` ``new`` for the block, :func:`unregister` it after (for tests)."""
    register(new)
    try:
        yield new
    finally:
        unregister(new.slug)


def load_engines() -> None:
    """Import every game's engine now (the companion does at start-up, so that no player's
    request waits for an import).

    Raises:
        RuntimeError: an engine's ``name`` is not its entry's slug.
    """
    for each in entries():
        each.game  # noqa: B018 - the property imports the engine


class UnknownGame(KeyError):
    """No registered game has this name; the message lists the known ones."""


def get(name: str) -> Game[Any, Any, Any]:
    """The game registered as ``name``.

    Raises:
        UnknownGame: no such game (the message lists the known names).
    """
    return entry(name).game
