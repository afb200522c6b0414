"""Toy Battle troop schema: print-and-play troop cards for a game the player owns.

Source: shared/rules/toy-battle.md, TB-1 (troop types and counts), TB-20 (troop effects).
Pure: no I/O.

Decision: the digest allows the publisher's troop names "only to refer to the game the player
owns"; a troop card is exactly such a reference (a proxy for the player's own set), so the
names are used, with effect texts in our own words and no art.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from games.cards.fields import COMMON_FIELDS, FieldError, FieldSpec, Kind, ValidatedCard

TROOP_STRENGTHS = MappingProxyType(
    {"Kwak": 0, "Skully": 1, "Cap'n": 2, "Jumbo": 3, "Hook": 4, "XB-42": 5, "Star": 6, "Roxy": 7}
)
"""TB-1: troop type -> strength (Kwak is the joker, shown as strength 0)."""
COLOURS = ("blue", "red")
"""TB-1: the two troop colours."""
COPIES_PER_TYPE = 3
"""TB-1: 8 types x 3 = 24 troops per colour."""


@dataclass(frozen=True, kw_only=True)
class ToyBattleTroop(ValidatedCard):
    """A Toy Battle troop (TB-1) with its effect (TB-20).

    Attributes:
        name: the card's title (by default the troop type).
        troop: the troop type, one of ``TROOP_STRENGTHS``.
        colour: ``blue`` or ``red``.
        text: the effect in the deck author's words (may be empty: Kwak and Roxy have none).
        id, copies, image, back_image, qr: see ``COMMON_FIELDS``.
    """

    KIND: ClassVar[str] = "troop"
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = COMMON_FIELDS + (
        FieldSpec(name="troop", kind=Kind.CHOICE, required=True, choices=tuple(TROOP_STRENGTHS)),
        FieldSpec(name="colour", kind=Kind.CHOICE, required=True, choices=COLOURS),
        FieldSpec(name="text", max_length=1000, multiline=True),
    )

    troop: str
    colour: str
    text: str | None = None

    @property
    def strength(self) -> int:
        """Strength 0..7 (TB-1; 0 = Kwak, the joker)."""
        return TROOP_STRENGTHS[self.troop]


def legality_problems(cards: tuple[object, ...]) -> list[FieldError]:
    """TB-1: each colour present has exactly 3 troops of each of the 8 types (24 in all).

    Returns:
        One :class:`FieldError` per colour and type whose count is not 3.
    """
    troops = [c for c in cards if isinstance(c, ToyBattleTroop)]
    counts = Counter((c.colour, c.troop) for c in troops for _ in range(c.copies))
    return [
        FieldError(
            field="copies",
            allowed=f"{COPIES_PER_TYPE} {colour} {troop} troops (TB-1)",
            found=counts[(colour, troop)],
        )
        for colour in sorted({c.colour for c in troops})
        for troop in TROOP_STRENGTHS
        if counts[(colour, troop)] != COPIES_PER_TYPE
    ]
