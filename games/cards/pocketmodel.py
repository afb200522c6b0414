"""PocketModel TCG card schemas: units, combat cards and objective cards.

Source: shared/rules/pocketmodel.md, PM-1 (units), PM-2 (icons), PM-3 (cards), PM-5 (fleet and
deck building). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.cards.fields import (
    COMMON_FIELDS,
    FieldError,
    FieldSpec,
    Kind,
    ValidatedCard,
    deck_size_problems,
    star_limit_problems,
)

GREEN_ICONS = ("Droid", "Laser", "Leader", "Torpedo", "Troops")
"""PM-2: green icons (units and cards)."""
SILVER_ICONS = ("Carrier", "Turbolaser")
"""PM-2: silver power icons (units and cards)."""
GOLD_ICONS = ("Luck", "Force")
"""PM-2: gold icons, which appear on cards only."""

FLEET_MAX_STARS = 30
"""PM-5: a fleet is worth at most 30 build stars."""
DECK_MIN_CARDS = 30
"""PM-5: a deck has at least 30 cards."""
DECK_MAX_COPIES = 3
"""PM-5: at most 3 copies of a card."""

_TEXT = FieldSpec(name="text", max_length=1000, multiline=True)


@dataclass(frozen=True, kw_only=True)
class PocketModelUnit(ValidatedCard):
    """A PocketModel unit as a reference card (PM-1). The model itself is a punch-out piece.

    Attributes:
        name: unit name (original demo content only: real names are trademarked).
        stars: build stars 1..5 (PM-1, PM-5).
        attack: Attack, printed red (0..9).
        damage: Damage, printed yellow (0..9).
        defense: Defense, printed blue (0..20).
        shields: Shields, printed green (0..20).
        icons: 1..4 green or silver icons (PM-1, PM-2).
        ground: the unit carries the ground-unit bar.
        text: optional ability text.
        id, copies, image, back_image, qr: see ``COMMON_FIELDS``.
    """

    KIND: ClassVar[str] = "unit"
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = COMMON_FIELDS + (
        FieldSpec(name="stars", kind=Kind.INT, required=True, low=1, high=5),
        FieldSpec(name="attack", kind=Kind.INT, required=True, low=0, high=9),
        FieldSpec(name="damage", kind=Kind.INT, required=True, low=0, high=9),
        FieldSpec(name="defense", kind=Kind.INT, required=True, low=0, high=20),
        FieldSpec(name="shields", kind=Kind.INT, required=True, low=0, high=20),
        FieldSpec(
            name="icons",
            kind=Kind.LIST,
            required=True,
            low=1,
            high=4,
            choices=GREEN_ICONS + SILVER_ICONS,
        ),
        FieldSpec(name="ground", kind=Kind.BOOL, default=False),
        _TEXT,
    )

    stars: int
    attack: int
    damage: int
    defense: int
    shields: int
    icons: tuple[str, ...]
    ground: bool = False
    text: str | None = None


@dataclass(frozen=True, kw_only=True)
class PocketModelCard(ValidatedCard):
    """A PocketModel combat card or objective card (PM-3); both share one anatomy.

    Attributes:
        name: card name.
        type: ``combat`` or ``objective`` (the deck file's ``kind``).
        bonus_attack: combat bonus +N on Attack, printed red (0..9, 0 = none).
        bonus_damage: combat bonus +N on Damage, printed yellow.
        bonus_defense: combat bonus +N on Defense, printed blue.
        icons: 0..3 icons of any colour (PM-2).
        text: ability text.
        stars: build stars 1..5, printed at the bottom (PM-3, PM-32).
        defense: defense value 1..20, printed bottom right, used as an objective (PM-31).
        id, copies, image, back_image, qr: see ``COMMON_FIELDS``.
    """

    KIND: ClassVar[str] = "card"
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = COMMON_FIELDS + (
        FieldSpec(name="type", kind=Kind.CHOICE, required=True, choices=("combat", "objective")),
        FieldSpec(name="bonus_attack", kind=Kind.INT, default=0, low=0, high=9),
        FieldSpec(name="bonus_damage", kind=Kind.INT, default=0, low=0, high=9),
        FieldSpec(name="bonus_defense", kind=Kind.INT, default=0, low=0, high=9),
        FieldSpec(
            name="icons",
            kind=Kind.LIST,
            default=(),
            low=0,
            high=3,
            choices=GREEN_ICONS + SILVER_ICONS + GOLD_ICONS,
        ),
        FieldSpec(name="text", required=True, max_length=1000, multiline=True),
        FieldSpec(name="stars", kind=Kind.INT, required=True, low=1, high=5),
        FieldSpec(name="defense", kind=Kind.INT, required=True, low=1, high=20),
    )

    type: str
    text: str
    stars: int
    defense: int
    bonus_attack: int = 0
    bonus_damage: int = 0
    bonus_defense: int = 0
    icons: tuple[str, ...] = ()


def legality_problems(cards: tuple[object, ...]) -> list[FieldError]:
    """PM-5: fleet <= 30 stars; deck >= 30 cards with at most 3 copies of a card.

    Args:
        cards: the deck's cards (units and combat/objective cards).

    Returns:
        One :class:`FieldError` per broken rule (empty when legal).
    """
    problems: list[FieldError] = []
    units = [c for c in cards if isinstance(c, PocketModelUnit)]
    deck = [c for c in cards if isinstance(c, PocketModelCard)]
    fleet = sum(u.stars * u.copies for u in units)
    problems.extend(star_limit_problems(fleet, limit=FLEET_MAX_STARS, what="fleet", rule="PM-5"))
    problems.extend(
        deck_size_problems(deck, min_cards=DECK_MIN_CARDS, max_copies=DECK_MAX_COPIES, rule="PM-5")
    )
    return problems
