"""What the deck reader, the card printer and the phone need of one card game.

Each card game's ``games/<game>/cards.py`` builds one :class:`CardGame` (``CARDS``); the
game's registry entry (:class:`games.entry.GameEntry`) carries it, and
:mod:`games.cards.deck` and ``printables`` find a game's cards only through it. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.cards.anatomy import FaceContent
from games.cards.fields import FieldError, ValidatedCard
from games.cards.pen import IconDrawing, PatternDrawing


@dataclass(frozen=True, kw_only=True)
class DeckLimits:
    """The deck-building limits of a game (the game's rule constants, shown and checked).

    Attributes:
        max_stars: most build stars of a fleet or team, or None.
        min_cards: fewest cards of a deck (battle or combat cards), or None.
        max_copies: most copies of one card, or None.
        rule: the rule id the limits come from (``PM-5``).
    """

    max_stars: int | None = None
    min_cards: int | None = None
    max_copies: int | None = None
    rule: str = ""


@dataclass(frozen=True, kw_only=True)
class CardGame:
    """A card game's cards: kinds, deck rules, faces and demo decks.

    Attributes:
        slug: the game's slug in deck files (``game:``), card URLs and file names.
        kinds: ``kind`` value -> card class. The first one is the default when ``kind`` is
            omitted and the game has a single kind.
        legality: deck cards -> rule problems (the printer's deck warnings).
        limits: the deck-building limits ``legality`` checks.
        face: (card, side) -> the face to draw; ``side`` is ``"front"`` or one of the
            card class's ``SIDES``.
        back_colour: card -> the colour of its generated back, or None for the deck's.
        package: the package holding the demo decks (``demo/<name>.yaml``, package data).
        demos: names of the demo decks (``demo:NAME``).
        icons: the game's own icons (name -> pen drawing, ``games/<game>/art.py``), which its
            faces name beside the stat icons every game has (:mod:`games.cards.icons`). Icon
            names are one namespace over all games (the printer finds an icon by name
            alone), so a name two games or a stat icon both declare is refused when drawn.
        patterns: the game's art patterns (style name, as a :class:`~games.cards.anatomy.Frame`
            ``pattern`` names it, -> pen drawing); one namespace over all games, as ``icons``.
    """

    slug: str
    kinds: Mapping[str, type[ValidatedCard]]
    legality: Callable[[tuple[Any, ...]], list[FieldError]]
    limits: DeckLimits
    face: Callable[[Any, str], FaceContent]
    package: str
    demos: tuple[str, ...]
    back_colour: Callable[[Any], str | None] = lambda card: None
    icons: Mapping[str, IconDrawing] = field(default_factory=dict)
    patterns: Mapping[str, PatternDrawing] = field(default_factory=dict)
