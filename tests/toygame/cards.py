"""Countdown's number cards: one per take (CD-3), printed from the demo deck. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from games.cards.anatomy import Badge, FaceContent, Frame
from games.cards.cardgame import CardGame, DeckLimits
from games.cards.fields import COMMON_FIELDS, FieldError, FieldSpec, Kind, ValidatedCard
from tests.toygame.art import ART_ICONS, ART_PATTERNS

FRAME = Frame(key="countdown", colour="#2e7d32", header="#1b5e20", pattern="countdown")
"""The one frame of the game (art: its own ``countdown`` pattern, :mod:`tests.toygame.art`)."""


@dataclass(frozen=True, kw_only=True)
class TakeCard(ValidatedCard):
    """A number card: take ``value`` counters (CD-3)."""

    KIND: ClassVar[str] = "take"
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = COMMON_FIELDS + (
        FieldSpec(name="value", kind=Kind.INT, required=True, low=1, high=3),
        FieldSpec(name="text", max_length=200),
    )

    value: int
    text: str | None = None


def legality(cards: tuple[object, ...]) -> list[FieldError]:
    """Any set of number cards plays (no deck rules)."""
    return []


def face(card: TakeCard, side: str = "front") -> FaceContent:
    """The card's face: its number in the badge, what it does in the text box."""
    return FaceContent(
        frame=FRAME,
        title=card.name,
        art_key=card.id,
        kind_label="TAKE",
        badge=Badge(value=str(card.value), icon="counter", colour=FRAME.header),
        text=(card.text or f"Take {card.value} counter(s) (CD-3).", "text"),
    )


CARDS = CardGame(
    slug="countdown",
    kinds=MappingProxyType({"take": TakeCard}),
    legality=legality,
    limits=DeckLimits(rule="CD-3"),
    face=face,
    package="tests.toygame",
    demos=("countdown",),
    icons=ART_ICONS,
    patterns=ART_PATTERNS,
)
"""Countdown's cards (its registry entry's card side)."""
