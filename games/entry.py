"""A game's registry entry: everything the platform, the card printer and the phone need.

Each ``games/<game>/game.py`` exports one :class:`GameEntry` (``ENTRY``);
:mod:`games.registry` lists them. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.cards.cardgame import CardGame
from games.protocol import Game


@dataclass(frozen=True, kw_only=True)
class GameEntry:
    """One game as the rest of the house sees it.

    Attributes:
        package: the game's Python package under ``games/`` (``toybattle``).
        game: the rules behind the protocol; its ``name`` is the slug of URLs, table records
            and deck files (``toy-battle``), its ``example_setups()`` the setups the phone
            offers and the tests play.
        cards: card kinds, deck limits, face builder and demo decks, or None for a game
            without cards (Asteroids).
    """

    package: str
    game: Game[Any, Any, Any]
    cards: CardGame | None = None

    @property
    def slug(self) -> str:
        """The game's slug (URLs, table records, deck files' ``game:``, file names)."""
        return self.game.name
