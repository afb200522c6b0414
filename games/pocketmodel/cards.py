"""PocketModel TCG cards: the schemas of units, combat cards and objective cards, and their faces.

Source: shared/rules/pocketmodel.md, PM-1 (units), PM-2 (icons), PM-3 (cards), PM-5 (fleet and
deck building). Pure: no I/O.

Faces (:func:`face`): the badge holds the star cost of a unit (PM-1), the main bonus of a
combat card (PM-3) or the defense value of an objective (PM-3, PM-31); icons are chips in
green, silver or gold (PM-2); the stats row shows Attack red, Damage yellow, Defense blue and
Shields green (PM-1; PM-3 bonuses as +N); an objective's defense is repeated in the
bottom-right corner. Frames: units steel grey, combat cards crimson with cut corners,
objectives teal with a double rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from games.cards.anatomy import Badge, Chip, FaceContent, Frame, Stat
from games.cards.cardgame import CardGame, DeckLimits
from games.cards.fields import (
    COMMON_FIELDS,
    FieldError,
    FieldSpec,
    Kind,
    ValidatedCard,
    deck_size_problems,
    star_limit_problems,
)
from games.cards.wording import Words
from games.pocketmodel.art import ART_ICONS, ART_PATTERNS
from games.pocketmodel.state import CARD_ICONS, GOLD_ICONS, GREEN_ICONS, UNIT_ICONS

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
            choices=UNIT_ICONS,
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
            choices=CARD_ICONS,
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
    problems.extend(
        star_limit_problems(fleet, limit=FLEET_MAX_STARS, what=Words("a fleet"), rule="PM-5")
    )
    problems.extend(
        deck_size_problems(
            deck,
            min_cards=DECK_MIN_CARDS,
            max_copies=DECK_MAX_COPIES,
            rule="PM-5",
            what=Words("combat and objective cards (units are the fleet)"),
        )
    )
    return problems


STAT_COLOURS = {
    "attack": "#c62828",
    "damage": "#f9a825",
    "defense": "#1565c0",
    "shields": "#2e7d32",
}
"""Stat colours (PM-1, PM-3): Attack red, Damage yellow, Defense blue, Shields green."""
ICON_COLOURS = {"green": "#2e7d32", "silver": "#78909c", "gold": "#c9a227"}
"""Icon colours (PM-2)."""
GROUND_BAR_COLOUR = "#6d4c41"
"""The ground-unit bar of a unit (PM-1), drawn as a brown ``GROUND`` chip and art bar."""
STAR_COLOUR = "#c9a227"
"""The badge of a build-star cost."""
FRAMES = {
    "unit": Frame(key="unit", colour="#37474f", header="#1c262b", pattern="space"),
    "combat": Frame(
        key="combat", colour="#8e1b1b", header="#4a0d0d", pattern="rays", cut_corners=True
    ),
    "objective": Frame(
        key="objective", colour="#0f5c6e", header="#073642", pattern="radar", double_rule=True
    ),
}
"""Frames by card kind."""


def _icon_colour(icon: str) -> str:
    if icon in GREEN_ICONS:
        return ICON_COLOURS["green"]
    return ICON_COLOURS["gold" if icon in GOLD_ICONS else "silver"]


def _chips(icons: tuple[str, ...]) -> tuple[Chip, ...]:
    return tuple(Chip(word=i, icon=i.lower(), colour=_icon_colour(i)) for i in icons)


def _unit_face(card: PocketModelUnit) -> FaceContent:
    stats = (
        Stat(label="ATTACK", value=str(card.attack), icon="attack", colour=STAT_COLOURS["attack"]),
        Stat(label="DAMAGE", value=str(card.damage), icon="damage", colour=STAT_COLOURS["damage"]),
        Stat(
            label="DEFENSE", value=str(card.defense), icon="defense", colour=STAT_COLOURS["defense"]
        ),
        Stat(
            label="SHIELDS", value=str(card.shields), icon="shields", colour=STAT_COLOURS["shields"]
        ),
    )
    chips = _chips(card.icons) + (
        (Chip(word="GROUND", icon="troops", colour=GROUND_BAR_COLOUR),) if card.ground else ()
    )
    return FaceContent(
        frame=FRAMES["unit"],
        title=card.name,
        art_key=card.id,
        kind_label="GROUND UNIT" if card.ground else "UNIT",
        badge=Badge(value=str(card.stars), icon="star", colour=STAR_COLOUR),
        chips=chips,
        stats=stats,
        text=(card.text or "", "text"),
        stars=card.stars,
        art_bar=GROUND_BAR_COLOUR if card.ground else "",
    )


def _card_face(card: PocketModelCard) -> FaceContent:
    bonus = (
        ("ATTACK", card.bonus_attack, "attack"),
        ("DAMAGE", card.bonus_damage, "damage"),
        ("DEFENSE", card.bonus_defense, "defense"),
    )
    stats = tuple(
        Stat(label=label, value=f"+{value}", icon=key, colour=STAT_COLOURS[key])
        for label, value, key in bonus
        if value
    )
    if card.type == "objective":
        badge = Badge(value=str(card.defense), icon="defense", colour=STAT_COLOURS["defense"])
    elif stats:
        badge = Badge(value=stats[0].value, icon=stats[0].icon, colour=stats[0].colour)
    else:
        badge = Badge(value="", icon="damage", colour=FRAMES["combat"].colour)
    return FaceContent(
        frame=FRAMES[card.type],
        title=card.name,
        art_key=card.id,
        kind_label="OBJECTIVE" if card.type == "objective" else "COMBAT",
        badge=badge,
        chips=_chips(card.icons),
        stats=stats,
        text=(card.text, "text"),
        stars=card.stars,
        defense_corner=card.defense,
        corner_colour=STAT_COLOURS["defense"],
    )


def face(card: PocketModelUnit | PocketModelCard, side: str = "front") -> FaceContent:
    """The face of a PocketModel card (see the module docstring); cards have one side."""
    if isinstance(card, PocketModelUnit):
        return _unit_face(card)
    return _card_face(card)


CARDS = CardGame(
    slug="pocketmodel",
    kinds=MappingProxyType(
        {"unit": PocketModelUnit, "combat": PocketModelCard, "objective": PocketModelCard}
    ),
    legality=legality_problems,
    limits=DeckLimits(
        max_stars=FLEET_MAX_STARS,
        min_cards=DECK_MIN_CARDS,
        max_copies=DECK_MAX_COPIES,
        rule="PM-5",
    ),
    face=face,
    package="games.pocketmodel",
    demos=("pocketmodel", "pocketmodel-corsairs"),
    icons=ART_ICONS,
    patterns=ART_PATTERNS,
)
"""PocketModel's cards (its registry entry's card side). The ``kind`` value is also the card's
``type`` (``combat``/``objective``), so it is not repeated."""
