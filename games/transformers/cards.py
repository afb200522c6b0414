"""Transformers TCG cards: the schemas of double-sided characters and battle cards, and their faces.

Source: shared/rules/transformers.md, TF-1 (character card), TF-2 (battle card), TF-3 (team
and deck building). Pure: no I/O.

Decision (the digest names a side's "name and subtitle" but a character keeps its name in
both modes): ``name`` is shared by both sides, each side has its own subtitle, traits,
Attack, Defense and ability text; Health is shared (TF-1); stars are printed on the alt side
only but count in both modes (TF-1).

Faces (:func:`face`): a character prints on the large size, its alt side as the front and its
bot side as the back, in the faction colour (Autobot red, Decepticon purple) with a mode tab
and a metal stripe; its badge holds the star cost (TF-1) on the alt side; the stats row shows
Attack orange, Health red and Defense blue (TF-1). Battle cards: actions orange, upgrades teal
with the slot as badge (TF-13); the battle icons are coloured squares in the top-right corner
(TF-2) explained on a legend line (TF-21, TF-22).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from games.cards.anatomy import Badge, FaceContent, Frame, Stat
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
from games.cards.wording import Words, joined
from games.transformers.art import ART_ICONS, ART_PATTERNS
from games.transformers.state import (
    DECK_MAX_COPIES,
    DECK_MIN_CARDS,
    FACTIONS,
    ICONS,
    SLOTS,
    TEAM_MAX_STARS,
)

_SIDE_FIELDS: tuple[FieldSpec, ...] = tuple(
    spec
    for side in ("alt", "bot")
    for spec in (
        FieldSpec(name=f"{side}_subtitle", max_length=40),
        FieldSpec(name=f"{side}_traits", max_length=60),
        FieldSpec(name=f"{side}_attack", kind=Kind.INT, required=True, low=0, high=20),
        FieldSpec(name=f"{side}_defense", kind=Kind.INT, required=True, low=0, high=20),
        FieldSpec(name=f"{side}_text", max_length=1000, multiline=True),
    )
)


@dataclass(frozen=True, kw_only=True)
class CharacterSide:
    """One mode of a character card, as drawn on its face (TF-1).

    Attributes:
        mode: ``alt`` or ``bot``.
        subtitle: the side's subtitle (may be empty).
        traits: trait words, e.g. ``"Car Ranged"``.
        attack: Attack, printed orange.
        defense: Defense, printed blue.
        text: ability text (may be empty).
    """

    mode: str
    subtitle: str
    traits: str
    attack: int
    defense: int
    text: str


@dataclass(frozen=True, kw_only=True)
class TransformersCharacter(ValidatedCard):
    """A double-sided character card (TF-1): the alt side is the front, the bot side its back.

    Attributes:
        name: character name, shared by both sides.
        faction: Autobot or Decepticon.
        stars: star cost 1..25, printed on the alt side (TF-1, TF-3).
        health: Health 1..30, printed red on both sides.
        alt_subtitle, alt_traits, alt_attack, alt_defense, alt_text: the alt side.
        bot_subtitle, bot_traits, bot_attack, bot_defense, bot_text: the bot side.
        id, copies, image, back_image, qr: see ``COMMON_FIELDS`` (``back_image`` is not
            allowed: the bot side is the back).

    Raises:
        FieldError: a field is out of range or ``back_image`` is set.
    """

    KIND: ClassVar[str] = "character"
    SIDES: ClassVar[tuple[str, ...]] = ("front", "bot")
    LARGE: ClassVar[bool] = True
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = (
        COMMON_FIELDS
        + (
            FieldSpec(name="faction", kind=Kind.CHOICE, required=True, choices=FACTIONS),
            FieldSpec(name="stars", kind=Kind.INT, required=True, low=1, high=25),
            FieldSpec(name="health", kind=Kind.INT, required=True, low=1, high=30),
        )
        + _SIDE_FIELDS
    )

    faction: str
    stars: int
    health: int
    alt_attack: int
    alt_defense: int
    bot_attack: int
    bot_defense: int
    alt_subtitle: str | None = None
    alt_traits: str | None = None
    alt_text: str | None = None
    bot_subtitle: str | None = None
    bot_traits: str | None = None
    bot_text: str | None = None

    def check_card(self) -> None:
        """A character's back is its bot side, so ``back_image`` must stay empty."""
        if self.back_image:
            raise FieldError(
                field="back_image",
                allowed=Words("empty (the bot side is the back, TF-1)"),
                found=self.back_image,
            )

    def side(self, mode: str) -> CharacterSide:
        """The ``alt`` or ``bot`` side as a :class:`CharacterSide`."""
        return CharacterSide(
            mode=mode,
            subtitle=getattr(self, f"{mode}_subtitle") or "",
            traits=getattr(self, f"{mode}_traits") or "",
            attack=getattr(self, f"{mode}_attack"),
            defense=getattr(self, f"{mode}_defense"),
            text=getattr(self, f"{mode}_text") or "",
        )


@dataclass(frozen=True, kw_only=True)
class TransformersBattleCard(ValidatedCard):
    """A battle card (TF-2): an Action or an Upgrade (Weapon, Armor, Utility).

    Attributes:
        name: card name.
        type: ``action`` or ``upgrade``.
        upgrade: for an upgrade: ``weapon``, ``armor`` or ``utility``; empty for actions.
        icons: 0..2 battle icons in the top right corner (repeats allowed).
        stars: optional stars 0..5 (0 = none printed).
        text: card text.
        id, copies, image, back_image, qr: see ``COMMON_FIELDS``.

    Raises:
        FieldError: out of range, or ``upgrade`` missing on an upgrade / set on an action.
    """

    KIND: ClassVar[str] = "battle"
    FIELDS: ClassVar[tuple[FieldSpec, ...]] = COMMON_FIELDS + (
        FieldSpec(name="type", kind=Kind.CHOICE, required=True, choices=("action", "upgrade")),
        FieldSpec(name="upgrade", kind=Kind.CHOICE, choices=SLOTS),
        FieldSpec(name="icons", kind=Kind.LIST, default=(), low=0, high=2, choices=ICONS),
        FieldSpec(name="stars", kind=Kind.INT, default=0, low=0, high=5),
        FieldSpec(name="text", required=True, max_length=1000, multiline=True),
    )

    type: str
    text: str
    upgrade: str | None = None
    icons: tuple[str, ...] = ()
    stars: int = 0

    def check_card(self) -> None:
        """An upgrade names its slot (TF-13); an action has none."""
        if self.type == "upgrade" and self.upgrade is None:
            raise FieldError(
                field="upgrade",
                allowed=Words("one of %(slots)s for an upgrade", slots=joined(SLOTS)),
                found="",
            )
        if self.type == "action" and self.upgrade is not None:
            raise FieldError(
                field="upgrade", allowed=Words("empty for an action"), found=self.upgrade
            )


def legality_problems(
    cards: tuple[object, ...], *, count_battle_stars: bool = False
) -> list[FieldError]:
    """TF-3: team <= 25 stars, one copy per character; >= 40 battle cards, <= 3 copies each.

    Args:
        cards: the deck's cards.
        count_battle_stars: the official reading of TF-3 (stars on battle cards count toward
            the 25); default False follows the seed.

    Returns:
        One :class:`FieldError` per broken rule (empty when legal).
    """
    problems: list[FieldError] = []
    team = [c for c in cards if isinstance(c, TransformersCharacter)]
    battle = [c for c in cards if isinstance(c, TransformersBattleCard)]
    stars = sum(c.stars * c.copies for c in team)
    if count_battle_stars:
        stars += sum(c.stars * c.copies for c in battle)
    problems.extend(
        star_limit_problems(stars, limit=TEAM_MAX_STARS, what=Words("a team"), rule="TF-3")
    )
    names = Counter(
        f"{c.name} {c.alt_subtitle or ''}".strip() for c in team for _ in range(c.copies)
    )
    problems.extend(
        FieldError(
            field="copies",
            allowed=Words("one copy of character '%(name)s' (TF-3)", name=name),
            found=n,
        )
        for name, n in names.items()
        if n > 1
    )
    problems.extend(
        deck_size_problems(
            battle,
            min_cards=DECK_MIN_CARDS,
            max_copies=DECK_MAX_COPIES,
            rule="TF-3",
            what=Words("battle cards"),
        )
    )
    return problems


STAT_COLOURS = {"attack": "#ef6c00", "health": "#c62828", "defense": "#1565c0"}
"""Stat colours (TF-1): Attack orange, Health red, Defense blue."""
ICON_COLOURS = {
    "orange": "#ef6c00",
    "blue": "#1565c0",
    "white": "#ffffff",
    "black": "#111111",
    "green": "#2e7d32",
}
"""Battle icon colours (TF-2)."""
ICON_SYMBOLS = {
    "orange": ("weapon", "attack +1"),
    "blue": ("defense", "defense +1"),
    "white": ("flip", "flip 2 more"),
    "black": ("diamond", "black"),
    "green": ("leaf", "green"),
}
"""Battle icon -> (symbol, legend words) (TF-21, TF-22)."""
STAR_COLOUR = "#c9a227"
"""The badge of a star cost."""
FRAMES = {
    "Autobot": Frame(
        key="Autobot", colour="#b71c1c", header="#3e0b0b", pattern="circuit", stripe=True
    ),
    "Decepticon": Frame(
        key="Decepticon", colour="#4a148c", header="#220a45", pattern="circuit", stripe=True
    ),
    "action": Frame(key="action", colour="#e65100", header="#5d2300", pattern="circuit"),
    "upgrade": Frame(key="upgrade", colour="#00695c", header="#00332c", pattern="circuit"),
}
"""Frames by faction (characters) and card type (battle cards)."""


def _character_face(card: TransformersCharacter, mode: str) -> FaceContent:
    side = card.side(mode)
    stats = (
        Stat(label="ATTACK", value=str(side.attack), icon="weapon", colour=STAT_COLOURS["attack"]),
        Stat(label="HEALTH", value=str(card.health), icon="health", colour=STAT_COLOURS["health"]),
        Stat(
            label="DEFENSE", value=str(side.defense), icon="defense", colour=STAT_COLOURS["defense"]
        ),
    )
    badge = (
        Badge(value=str(card.stars), icon="star", colour=STAR_COLOUR)
        if mode == "alt"
        else Badge(value="", icon="bot", colour="#455a64")
    )
    return FaceContent(
        frame=FRAMES[card.faction],
        title=card.name,
        art_key=card.id,
        kind_label=card.faction.upper(),
        subtitle=" · ".join(part for part in (side.subtitle, side.traits) if part),
        badge=badge,
        mode_tab=f"{mode.upper()} MODE",
        stats=stats,
        text=(side.text, f"{mode}_text"),
        stars=card.stars if mode == "alt" else 0,
    )


def _battle_face(card: TransformersBattleCard) -> FaceContent:
    if card.type == "action":
        kind, badge = "ACTION", Badge(value="", icon="action", colour=FRAMES["action"].colour)
    else:
        slot = card.upgrade or "utility"
        kind = f"UPGRADE · {slot.upper()}"
        badge = Badge(value="", icon=slot, colour=FRAMES["upgrade"].colour)
    if card.stars:
        badge = Badge(value=str(card.stars), icon="star", colour=STAR_COLOUR)
    seen: list[str] = []
    for icon in card.icons:
        if icon not in seen:
            seen.append(icon)
    legend = tuple((ICON_SYMBOLS[i][0], ICON_COLOURS[i], ICON_SYMBOLS[i][1]) for i in seen)
    return FaceContent(
        frame=FRAMES[card.type],
        title=card.name,
        art_key=card.id,
        kind_label=kind,
        badge=badge,
        corner_icons=tuple((ICON_SYMBOLS[i][0], ICON_COLOURS[i]) for i in card.icons),
        legend=legend,
        text=(card.text, "text"),
        stars=card.stars,
    )


def face(card: TransformersCharacter | TransformersBattleCard, side: str = "front") -> FaceContent:
    """The face of a Transformers card (see the module docstring): a character's ``front`` is
    its alt side, ``bot`` its bot side; a battle card has one side."""
    if isinstance(card, TransformersCharacter):
        return _character_face(card, "bot" if side == "bot" else "alt")
    return _battle_face(card)


CARDS = CardGame(
    slug="transformers",
    kinds=MappingProxyType(
        {
            "character": TransformersCharacter,
            "action": TransformersBattleCard,
            "upgrade": TransformersBattleCard,
        }
    ),
    legality=legality_problems,
    limits=DeckLimits(
        max_stars=TEAM_MAX_STARS,
        min_cards=DECK_MIN_CARDS,
        max_copies=DECK_MAX_COPIES,
        rule="TF-3",
    ),
    face=face,
    package="games.transformers",
    demos=("transformers", "transformers-decepticons"),
    icons=ART_ICONS,
    patterns=ART_PATTERNS,
)
"""Transformers' cards (its registry entry's card side). The ``kind`` value is also a battle
card's ``type`` (``action``/``upgrade``), so it is not repeated."""
