"""Toy Battle troop cards: the schema of print-and-play troops for a game the player owns, and their faces.

Source: shared/rules/toy-battle.md, TB-1 (troop types and counts), TB-20 (troop effects).
Pure: no I/O.

Decision: the digest allows the publisher's troop names "only to refer to the game the player
owns"; a troop card is exactly such a reference (a proxy for the player's own set), so the
names are used, with effect texts in our own words and no art.

Faces (:func:`face`): the badge holds the troop's mark (its strength, TB-1; ``J`` for Kwak,
the joker, :data:`~games.toybattle.rules.JOKER_MARK`), repeated upside down in the bottom-right
corner like playing cards; the frame and the generated back are in the troop colour.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from games.cards.anatomy import Badge, FaceContent, Frame
from games.cards.cardgame import CardGame, DeckLimits
from games.cards.fields import COMMON_FIELDS, FieldError, FieldSpec, Kind, ValidatedCard
from games.cards.wording import Words, joined
from games.toybattle.art import ART_ICONS, ART_PATTERNS
from games.toybattle.rules import COPIES, SEAT_COLOUR, TROOP_INDEX, TROOPS, troop_mark

JOKER_TEXT = "Joker: may cover any enemy troop; any enemy troop may cover it."
"""What a Kwak card without a text of its own says: the joker's placement rule (TB-11; it has
no effect, TB-20), so the badge's JOKER is explained on the card."""
_COLOURS = tuple(SEAT_COLOUR.values())
"""TB-1: the two troop colours (one per seat)."""


@dataclass(frozen=True, kw_only=True)
class ToyBattleTroop(ValidatedCard):
    """A Toy Battle troop (TB-1) with its effect (TB-20).

    Attributes:
        name: the card's title (by default the troop type).
        troop: the troop type, one of :data:`~games.toybattle.rules.TROOPS`.
        colour: ``blue`` or ``red``.
        text: the effect in the deck author's words (may be empty: Kwak and Roxy have none).
        id, copies, image, back_image, qr: see ``COMMON_FIELDS``.
    """

    KIND: ClassVar[str] = "troop"
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = COMMON_FIELDS + (
        FieldSpec(name="troop", kind=Kind.CHOICE, required=True, choices=TROOPS),
        FieldSpec(name="colour", kind=Kind.CHOICE, required=True, choices=_COLOURS),
        FieldSpec(name="text", max_length=1000, multiline=True),
    )

    troop: str
    colour: str
    text: str | None = None

    @property
    def strength(self) -> int:
        """Strength 0..7 (TB-1; 0 = Kwak, the joker)."""
        return TROOP_INDEX[self.troop]

    @property
    def mark(self) -> str:
        """The troop's one-character mark (:func:`~games.toybattle.rules.troop_mark`: ``J`` for
        Kwak, else 1..7)."""
        return troop_mark(self.troop)


def legality_problems(cards: tuple[object, ...]) -> list[FieldError]:
    """TB-1: each colour present has exactly 3 troops of each of the 8 types (24 in all).

    Returns:
        At most one :class:`FieldError` for the whole deck, in the rule's words: what each
        colour lacks and has too many of, e.g. ``a Toy Battle set has 24 troops per colour,
        3 of each of the 8 types (TB-1): blue lacks 3 Kwak, 2 Cap'n (19 of 24 troops)``.
    """
    troops = [c for c in cards if isinstance(c, ToyBattleTroop)]
    counts = Counter((c.colour, c.troop) for c in troops for _ in range(c.copies))
    found: list[Words] = []
    for colour in sorted({c.colour for c in troops}):
        have = [counts[(colour, troop)] for troop in TROOPS]
        lacks = [f"{COPIES - n} {t}" for t, n in zip(TROOPS, have, strict=True) if n < COPIES]
        extra = [f"{n - COPIES} {t}" for t, n in zip(TROOPS, have, strict=True) if n > COPIES]
        counted = {
            "colour": colour,
            "lacks": joined(lacks),
            "extra": joined(extra),
            "have": sum(have),
            "total": COPIES * len(TROOPS),
        }
        if lacks and extra:
            found.append(
                Words(
                    "%(colour)s lacks %(lacks)s and has %(extra)s too many "
                    "(%(have)s of %(total)s troops)",
                    **counted,
                )
            )
        elif lacks:
            found.append(
                Words("%(colour)s lacks %(lacks)s (%(have)s of %(total)s troops)", **counted)
            )
        elif extra:
            found.append(
                Words("%(colour)s has %(extra)s too many (%(have)s of %(total)s troops)", **counted)
            )
    if not found:
        return []
    rule = Words(
        "%(troops)s troops per colour, %(copies)s of each of the %(types)s types",
        troops=COPIES * len(TROOPS),
        copies=COPIES,
        types=len(TROOPS),
    )
    return [
        FieldError(
            field="copies",
            allowed=Words("%(rule)s (TB-1)", rule=rule),
            found="; ".join(found),
            message=Words(
                "a Toy Battle set has %(rule)s (TB-1): %(found)s",
                rule=rule,
                found=Words.series(found, "; "),
            ),
        )
    ]


FRAMES = {
    "blue": Frame(key="blue", colour="#1e6fd9", header="#0d3c7a", pattern="toy", panel_radius=3.0),
    "red": Frame(key="red", colour="#d32f2f", header="#7a1414", pattern="toy", panel_radius=3.0),
}
"""Frames by troop colour."""


def face(card: ToyBattleTroop, side: str = "front") -> FaceContent:
    """The face of a troop card (see the module docstring); troops have one side. A troop
    without text says ``No effect.`` (TB-20), but Kwak says :data:`JOKER_TEXT` (TB-11)."""
    joker = card.troop == "Kwak"
    frame = FRAMES[card.colour]
    badge = Badge(
        value=card.mark,
        icon=None,
        colour=frame.header,
        label="JOKER" if joker else "",
    )
    return FaceContent(
        frame=frame,
        title=card.name,
        art_key=card.id,
        kind_label=f"{card.colour.upper()} TROOP",
        subtitle=card.troop if card.troop != card.name else "",
        badge=badge,
        mirror_index=True,
        text=(card.text or (JOKER_TEXT if joker else ""), "text"),
        empty_text="No effect.",
    )


def back_colour(card: ToyBattleTroop) -> str:
    """A troop's generated back is in its colour (the two colours' troops are shuffled apart)."""
    return FRAMES[card.colour].colour


CARDS = CardGame(
    slug="toy-battle",
    kinds=MappingProxyType({"troop": ToyBattleTroop}),
    legality=legality_problems,
    limits=DeckLimits(max_copies=COPIES, rule="TB-1"),
    face=face,
    back_colour=back_colour,
    package="games.toybattle",
    demos=("toy-battle",),
    icons=ART_ICONS,
    patterns=ART_PATTERNS,
)
"""Toy Battle's cards (its registry entry's card side)."""
