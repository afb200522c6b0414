"""A game's registry entry: everything the platform, the card printer and the phone need.

:mod:`games.registry` lists one :class:`GameEntry` per game. The entry holds the game's card
schema (light: the deck reader and the card printer need nothing else) and loads the rules
engine, ``games/<package>/game.py``'s ``GAME``, on first use: ``tablesmith cards`` never
imports an engine. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import import_module, resources
from importlib.resources.abc import Traversable
from typing import Any

from games.cards.cardgame import CardGame
from games.protocol import Game


@dataclass(frozen=True, kw_only=True)
class GameEntry:
    """One game as the rest of the house sees it.

    Attributes:
        package: the game's Python package: a name under ``games/`` (``toybattle``), or a
            full dotted name for a game kept elsewhere (``tests.toygame``).
        slug: the game's name in URLs, table records, deck files' ``game:`` and file names
            (``toy-battle``); the engine's ``name`` is the same (checked when it loads).
        title: the game's one display name, the original's (``"PocketModel TCG"``): the
            phone's pages, the CLI's help, the card backs and the PDFs' metadata all show this
            (:attr:`games.protocol.Game.title` reads it from here).
        cards: card kinds, deck limits, face builder and demo decks, or None for a game
            without cards (Asteroids).
        view: the folder of the game's phone view (``view.html``, ``view.js``, ...; see
            :mod:`companion.views`) when it is not ``companion/views/<slug>/``, as a path
            relative to the game's package (``"view"``), or None.

    The game's package holds its test data: ``testdata/states.json`` and
    ``testdata/logs.json`` (:meth:`testdata`), which the protocol tests load.
    """

    package: str
    slug: str
    title: str
    cards: CardGame | None = None
    view: str | None = None

    @property
    def module(self) -> str:
        """The game package's dotted name (``games.toybattle``, ``tests.toygame``)."""
        return self.package if "." in self.package else f"games.{self.package}"

    def testdata(self, name: str) -> Traversable:
        """The game's test data file ``testdata/<name>`` (package data, not read here)."""
        return resources.files(self.module) / "testdata" / name

    def view_folder(self) -> Traversable | None:
        """The folder of the game's phone view when the game brings it (:attr:`view`), else
        None (the view is ``companion/views/<slug>/``)."""
        return None if self.view is None else resources.files(self.module) / self.view

    @cached_property
    def game(self) -> Game[Any, Any, Any]:
        """The rules behind the protocol (``<module>.game.GAME``), imported on first
        use; its ``example_setups()`` are the setups the phone offers and the tests play.

        Raises:
            RuntimeError: the engine's ``name`` is not ``slug`` (a registry mistake).
        """
        game: Game[Any, Any, Any] = import_module(f"{self.module}.game").GAME
        if game.name != self.slug:
            raise RuntimeError(f"{self.module}.game names itself {game.name!r}, not {self.slug!r}")
        game.title = self.title  # the one place a title is written is the entry
        return game
