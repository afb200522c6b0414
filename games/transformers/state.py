"""What lies on a Transformers table: characters, teams, the turn's plays, the running attack.

Source: shared/rules/transformers.md (TF-1..TF-40); decisions D1.. in
:mod:`games.transformers`. Pure and immutable: every value here is a frozen, keyword-only
dataclass; the rules (:mod:`games.transformers.rules`) build new states with
:func:`dataclasses.replace`.

The state holds the table, never the hands (ARCHITECTURE.md): each character's mode, tapped,
damage counters, zone and upgrades per slot; per team its deck list (the battle cards a player
may name when playing one); the turn's once-only plays; the attack being calculated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from games.protocol import SEATS, Reason
from games.transformers.messages import MESSAGES

FACTIONS: tuple[str, str] = ("Autobot", "Decepticon")
"""TF-1: the two factions."""
MODES: tuple[str, str] = ("alt", "bot")
"""TF-1: a character's two modes; TF-5: it starts in alt mode."""
SLOTS: tuple[str, str, str] = ("weapon", "armor", "utility")
"""TF-13: one upgrade per slot and character."""
ICONS: tuple[str, ...] = ("orange", "blue", "white", "black", "green")
"""TF-2: battle icon colours (black and green from later sets: recorded, no effect, D11)."""
FIGHTER_SIDES: tuple[str, str] = ("attacker", "defender")
"""The two sides of an attack (TF-20)."""
ZONES: tuple[str, str] = ("play", "ko")
"""Where a character is: in play or in the KO area (TF-30)."""
PHASES: tuple[str, ...] = ("team", "main", "attack", "end", "over")
"""``team``: the seats bring their teams (D1); ``main``: the turn's draw, plays and attacks;
``attack``: an attack is being calculated (TF-21..TF-23); ``end``: TF-24 ended the attacks,
only the end of the turn is left; ``over``: TF-40."""
TEAM_MAX_STARS = 25
"""TF-3: a team has at most 25 stars."""
DECK_MIN_CARDS = 40
"""TF-3: a deck has at least 40 battle cards."""
DECK_MAX_COPIES = 3
"""TF-3: at most 3 copies of a battle card."""
MAX_ICONS_PER_FLIP = 4
"""TF-21 with TF-2: a flip shows 2 cards of 0..2 icons each (D11)."""
MAX_ICONS_PER_CARD = 2
"""TF-2: a battle card shows 0..2 battle icons."""
CARDS_PER_FLIP = 2
"""TF-21: a flip turns up the top 2 cards."""
MAX_BONUSES = 20
"""Bonuses one side of an attack may collect (D12)."""


def other(seat: str) -> str:
    """The opposing seat (``"A"`` <-> ``"B"``)."""
    return "B" if seat == "A" else "A"


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Variant flags: the official reading of a rule the seed leaves open, or (``untap_all``
    off) the seed's silence.

    Attributes:
        count_battle_stars: TF-3 official: stars on battle cards count toward the 25 (D2).
        must_attack: TF-20: a player must attack if they can (D9; default True: the seed's
            "Im Zug folgt jetzt der Angriff" and "Greif solange an", and the official rules).
            Off: the former default, attacking is optional.
        untap_all: TF-25 official: once every character in play is tapped, all untap (D8;
            default True: without it a game can never end). Off: nothing untaps but by hand.
    """

    count_battle_stars: bool = False
    must_attack: bool = True
    untap_all: bool = True


@dataclass(frozen=True, kw_only=True)
class Mode:
    """One side of a character card (TF-1): the values that change when it flips.

    Attributes:
        attack: Attack (orange), 0..20.
        defense: Defense (blue), 0..20.
        subtitle, traits, text: as printed (may be empty).
    """

    attack: int
    defense: int
    subtitle: str = ""
    traits: str = ""
    text: str = ""


@dataclass(frozen=True, kw_only=True)
class Upgrade:
    """An upgrade lying on a character (TF-13).

    Attributes:
        slot: ``weapon``, ``armor`` or ``utility``.
        card: the deck list's card id, or None (quick entry, D17).
        name: the card's name, or None when only the slot was named.
    """

    slot: str
    card: str | None = None
    name: str | None = None


@dataclass(frozen=True, kw_only=True)
class Recruit:
    """A character as a team brings it (TF-1, TF-3), before it has a place at the table.

    Attributes:
        card: the card id in the team's deck file, or None (quick entry).
        name: the character's name, 1..40 characters.
        faction: ``Autobot``, ``Decepticon`` or None (quick entry).
        stars: 1..25, printed on the alt side, counted in both modes (TF-1).
        health: Health 1..30, the same in both modes (TF-1).
        alt, bot: the two modes.
    """

    card: str | None
    name: str
    faction: str | None
    stars: int
    health: int
    alt: Mode
    bot: Mode

    @property
    def full_name(self) -> str:
        """Name and alt subtitle: TF-3 allows one copy per full name (D2)."""
        return f"{self.name} {self.alt.subtitle}".strip()


@dataclass(frozen=True, kw_only=True)
class Character:
    """A character at the table.

    Attributes:
        id: ``A1``, ``A2``, ... ``B1``, ... (letters and digits: the ``#piece=`` of a card
            link, D20).
        seat: the owning seat.
        recruit: what the card says (name, stars, health, both modes).
        mode: ``alt`` or ``bot`` (TF-5: alt at the start).
        tapped: turned sideways (TF-20).
        damage: damage counters, 0..health-1 while in play, 0 in the KO area (TF-30, D15).
        zone: ``play`` or ``ko``.
        upgrades: at most one per slot, in :data:`SLOTS` order (TF-13).
    """

    id: str
    seat: str
    recruit: Recruit
    mode: str = "alt"
    tapped: bool = False
    damage: int = 0
    zone: str = "play"
    upgrades: tuple[Upgrade, ...] = ()

    @property
    def name(self) -> str:
        """The character's name."""
        return self.recruit.name

    @property
    def health(self) -> int:
        """Health (TF-1)."""
        return self.recruit.health

    @property
    def current(self) -> Mode:
        """The mode face up."""
        return self.recruit.alt if self.mode == "alt" else self.recruit.bot

    @property
    def in_play(self) -> bool:
        """True unless KO'd."""
        return self.zone == "play"

    def upgrade(self, slot: str) -> Upgrade | None:
        """The upgrade in ``slot``, or None."""
        return next((u for u in self.upgrades if u.slot == slot), None)

    def label(self) -> str:
        """``Name (A1)`` for messages."""
        return f"{self.recruit.name} ({self.id})"


@dataclass(frozen=True, kw_only=True)
class BattleCard:
    """One entry of a team's deck list (TF-2): a card the player may name when playing it.

    Attributes:
        card: the card id (a slug) in the deck file.
        name: the card's name.
        type: ``action`` or ``upgrade``.
        upgrade: the slot of an upgrade, None for an action.
        icons: 0..2 battle icons.
        stars: printed stars, 0..5 (TF-3 official, D2).
        copies: copies in the deck, 1..99.
    """

    card: str
    name: str
    type: str
    upgrade: str | None = None
    icons: tuple[str, ...] = ()
    stars: int = 0
    copies: int = 1


@dataclass(frozen=True, kw_only=True)
class Team:
    """What a seat brought besides its characters.

    Attributes:
        deck: the deck file's slug (card links ``/card/transformers/<deck>/<card>``), or None.
        title: the deck's title, or None.
        battle_cards: the deck list (empty for a quick-entry team).
        casual: the building rules the team breaks, with the numbers, when the players
            brought it anyway (``"team has 27 stars, at most 25 (TF-3)"`` with its message id
            and values); empty when legal.
    """

    deck: str | None = None
    title: str | None = None
    battle_cards: tuple[BattleCard, ...] = ()
    casual: tuple[Reason, ...] = ()

    def battle_card(self, card: str) -> BattleCard | None:
        """The deck list entry ``card``, or None."""
        return next((b for b in self.battle_cards if b.card == card), None)


@dataclass(frozen=True, kw_only=True)
class Played:
    """An Action or Upgrade played this turn (TF-11, TF-14).

    Attributes:
        card: the deck list's card id, or None.
        name: its name (or a name typed in), or None.
        character: the upgraded character (upgrades only).
        slot: the upgrade's slot (upgrades only).
    """

    card: str | None = None
    name: str | None = None
    character: str | None = None
    slot: str | None = None


@dataclass(frozen=True, kw_only=True)
class Icons:
    """The battle icons shown by one flip of 2 cards (TF-21), counted per colour."""

    orange: int = 0
    blue: int = 0
    white: int = 0
    black: int = 0
    green: int = 0

    @property
    def total(self) -> int:
        """All icons of the flip."""
        return self.orange + self.blue + self.white + self.black + self.green


@dataclass(frozen=True, kw_only=True)
class Bonus:
    """A card effect on one side's total (D12): ``value`` -20..20 (not 0), ``source`` text."""

    value: int
    source: str | None = None


@dataclass(frozen=True, kw_only=True)
class Fighter:
    """One side of the running attack.

    Attributes:
        character: the character's id.
        flips: the icons of each flip entered so far (1 or 2 flips, TF-21).
        cards: the cards of the pending flip entered one by one so far (0 or 1: the second
            card completes the flip, which then joins ``flips``; D23).
        bonuses: card effects entered (D12).
    """

    character: str
    flips: tuple[Icons, ...] = ()
    cards: tuple[Icons, ...] = ()
    bonuses: tuple[Bonus, ...] = ()

    @property
    def pending(self) -> str | None:
        """``"first"`` (the 2 cards of TF-21), ``"extra"`` (2 more after a white icon, once
        per attack) or None when every flip is entered."""
        if not self.flips:
            return "first"
        if len(self.flips) == 1 and self.flips[0].white > 0:
            return "extra"
        return None

    @property
    def bonus(self) -> int:
        """Sum of the bonuses."""
        return sum(b.value for b in self.bonuses)


@dataclass(frozen=True, kw_only=True)
class Attack:
    """The attack being calculated (TF-20..TF-23).

    Attributes:
        attacker, defender: the two sides.
        any_defender: a card let the attacker choose an untapped defender (D10).
    """

    attacker: Fighter
    defender: Fighter
    any_defender: bool = False

    def side(self, name: str) -> Fighter:
        """``attacker`` or ``defender``."""
        return self.attacker if name == "attacker" else self.defender


@dataclass(frozen=True, kw_only=True)
class AttackResult:
    """How the last resolved attack ended (shown until the next one).

    Attributes:
        attacker, defender: character ids.
        attack_total, defense_total: the totals of TF-22.
        damage: counters placed (TF-23).
        ko: the defender was KO'd (TF-30).
    """

    attacker: str
    defender: str
    attack_total: int
    defense_total: int
    damage: int
    ko: bool


@dataclass(frozen=True, kw_only=True)
class ThisTurn:
    """The turn's bookkeeping (TF-10..TF-12, TF-24).

    Attributes:
        drawn: the card of TF-10 is drawn.
        flipped: the character flipped this turn (TF-11), or None.
        action: the Action played (TF-11), or None.
        upgrade: the Upgrade played (TF-11), or None.
        attacks: attacks started this turn (TF-24).
    """

    drawn: bool = False
    flipped: str | None = None
    action: Played | None = None
    upgrade: Played | None = None
    attacks: int = 0


@dataclass(frozen=True, kw_only=True)
class State:
    """A Transformers table.

    Attributes:
        variant: the variant flags.
        phase: one of :data:`PHASES`.
        player: the seat to act (in the team phase: the first seat without a team).
        first_player: the starting player (TF-5), None until both teams are in.
        turn: 1 is the starting player's first turn, 2 the other's first (TF-12, D6).
        teams: (A's, B's) deck lists, None until the seat brought its team.
        characters: every character, A's first, in the order brought.
        this_turn: the turn's bookkeeping.
        attack: the attack being calculated, or None.
        last_attack: the last resolved attack, or None.
        winner: the winning seat once the game is over (TF-40).
    """

    variant: Variant
    phase: str = "team"
    player: str = "A"
    first_player: str | None = None
    turn: int = 1
    teams: tuple[Team | None, Team | None] = (None, None)
    characters: tuple[Character, ...] = ()
    this_turn: ThisTurn = ThisTurn()
    attack: Attack | None = None
    last_attack: AttackResult | None = None
    winner: str | None = None

    def team(self, seat: str) -> Team | None:
        """The team ``seat`` brought, or None."""
        return self.teams[SEATS.index(seat)]

    def character(self, character_id: str) -> Character | None:
        """The character ``character_id``, or None."""
        return next((c for c in self.characters if c.id == character_id), None)

    def of(self, seat: str) -> Iterator[Character]:
        """``seat``'s characters in play."""
        return (c for c in self.characters if c.seat == seat and c.zone == "play")

    def with_character(self, changed: Character) -> State:
        """The state with ``changed`` in place of the character of the same id."""
        return replace(
            self,
            characters=tuple(changed if c.id == changed.id else c for c in self.characters),
        )


def in_play(state: State, character_id: str, rule: str) -> Character:
    """The character ``character_id`` if it is in play.

    Raises:
        IllegalAction: no such character, or it is KO'd (TF-30); ``rule`` is cited for an
            unknown id.
    """
    found = state.character(character_id)
    if found is None:
        known = ", ".join(c.id for c in state.characters if c.zone == "play") or "none"
        raise MESSAGES.error("not_in_play", rule, character=character_id[:20], known=known)
    if found.zone != "play":
        raise MESSAGES.error("knocked_out", "TF-30", character=found.label())
    return found
