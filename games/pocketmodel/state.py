"""The PocketModel table state: fleets, zones, counters, objectives, the turn's action, the
fight in progress; value types (PM-5..PM-40); their JSON is :mod:`games.pocketmodel.codec`.

Everything here is a frozen, keyword-only dataclass of tuples, so equal states compare equal
and the JSON round trip (:mod:`games.pocketmodel.codec`) gives back an equal
state. The JSON is exactly what the phone view reads
(``companion/views/pocketmodel/view.js``): ``state.units[*].place``, ``state.battle.plays``,
``state.strike.result`` and so on.

Places (PM-6): ``home_A``, ``contested``, ``home_B`` (adjacent in this order) and ``reserve``.
A destroyed unit lies in the reserve with ``destroyed`` set (PM-24), so every unit is in
exactly one place: in play (a zone), in the reserve, or destroyed (reserve + ``destroyed``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.protocol import SEATS, Reason, StateError

ZONES: tuple[str, str, str] = ("home_A", "contested", "home_B")
"""PM-6: the zones in play, in board order (adjacent neighbours)."""
RESERVE = "reserve"
"""PM-6: units not in play."""
PLACES: tuple[str, ...] = (*ZONES, RESERVE)
ADJACENT: dict[str, tuple[str, ...]] = {
    "home_A": ("contested",),
    "contested": ("home_A", "home_B"),
    "home_B": ("contested",),
}
"""PM-6: zone -> the zones adjacent to it."""
GREEN_ICONS = ("Droid", "Laser", "Leader", "Torpedo", "Troops")
"""PM-2: green icons."""
SILVER_ICONS = ("Carrier", "Turbolaser")
"""PM-2: silver power icons."""
GOLD_ICONS = ("Luck", "Force")
"""PM-2: gold icons (cards only)."""
UNIT_ICONS = GREEN_ICONS + SILVER_ICONS
CARD_ICONS = GREEN_ICONS + SILVER_ICONS + GOLD_ICONS
PHASES = ("fleets", "main", "battle", "strike", "end", "over")
"""``fleets``: bringing fleets (PM-5, PM-8); ``main``: objective and action still open (PM-10..14);
``battle`` / ``strike``: the combat or strike action is being fought; ``end``: the action is
done, the active player ends the turn; ``over``: PM-40."""
BATTLE_STEPS = ("attacker_card", "defender_card", "attacker_again", "roll", "result")
"""PM-20 (cards), PM-21 (roll), PM-22..24 (result, applied on confirm)."""
STRIKE_STEPS = ("target", "reveal", "roll", "result", "reinforce")
"""PM-30 (target, reveal), PM-31 (roll, result), PM-32 (reinforce)."""
OBJECTIVE_STATUS = ("face_down", "face_up", "destroyed")


def home(seat: str) -> str:
    """The home zone of ``seat`` (``"home_A"``/``"home_B"``, PM-6)."""
    return "home_" + seat


def other(seat: str) -> str:
    """The other seat."""
    return "B" if seat == "A" else "A"


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Variant flags (decisions D2, D3, D7, D14, D15, D16 in :mod:`games.pocketmodel`): each
    default is the reading closest to the seed's words, each flag another reading.

    Attributes:
        destroy_above_shields: PM-24 official sheet: destroyed only when counters > Shields
            (default False: the seed's counters >= Shields).
        icon_gates_bonus: PM-25 former reading: a combat card's bonus counts only when the
            unit carries the card's green and silver icons (default False: the bonus always
            counts, only the icon ability is gated, D3).
        action_required: the turn must take one of the actions PM-11..PM-14 before it ends
            (default False: the seed's "darf", a player may pass the action, D14).
        each_striker_picks_objective: PM-13 former reading: every striker picks its own
            objective, so one strike may destroy several (default False: the seed's "Greife
            eines der Ziele des Gegners an", one objective per strike, D15).
        carrier_replaces_action: PM-14 former reading: the Carrier power replaces the turn's
            action only, an objective may be played before it (default False: the seed's
            "anstatt des Zuges", it replaces the whole turn, D16).
        double_loss_active_wins: PM-40: when both players lose at once, the active player wins
            (default False: both have lost, "so hat er verloren" for each: a draw, D7).
    """

    destroy_above_shields: bool = False
    icon_gates_bonus: bool = False
    action_required: bool = False
    each_striker_picks_objective: bool = False
    carrier_replaces_action: bool = False
    double_loss_active_wins: bool = False


FORMER_READINGS: dict[str, bool] = {
    "each_striker_picks_objective": True,
    "carrier_replaces_action": True,
}
"""How a stored table reads a flag its variant lacks (a logged setup event or a stored state,
written before the flag existed): the reading the code that wrote it played. A new table
writes every flag (``variant_to_json``), so only stored tables lack one. ``action_required``
is not here: it was read as missing = False when it came (the permissive reading, under which
every older log still replays)."""


def stored_variant(data: object) -> object:
    """A stored variant's JSON with :data:`FORMER_READINGS` for the flags it lacks (anything
    that is not a JSON object is returned as it is, for the decoder to refuse)."""
    return {**FORMER_READINGS, **data} if isinstance(data, dict) else data


@dataclass(frozen=True, kw_only=True)
class Bonus:
    """A combat bonus or modifier (PM-3, PM-21): added to Attack, Damage and Defense."""

    attack: int = 0
    damage: int = 0
    defense: int = 0

    def __add__(self, other: Bonus) -> Bonus:
        return Bonus(
            attack=self.attack + other.attack,
            damage=self.damage + other.damage,
            defense=self.defense + other.defense,
        )


NO_BONUS = Bonus()


@dataclass(frozen=True, kw_only=True)
class DeckCard:
    """A combat or objective card of a player's deck list (PM-3).

    Attributes:
        id: the card's id in its deck file (the QR code's last path part).
        type: ``combat`` or ``objective``.
        name, text: as printed.
        bonus_attack, bonus_damage, bonus_defense: the combat bonus (0..9).
        icons: the card's icons (PM-2).
        stars: build stars 1..5 (PM-32 reinforcements).
        defense: defense value 1..20 as an objective (PM-31).
        copies: copies in the deck (PM-5: at most 3).
    """

    id: str
    type: str
    name: str
    bonus_attack: int = 0
    bonus_damage: int = 0
    bonus_defense: int = 0
    icons: tuple[str, ...] = ()
    text: str | None = None
    stars: int = 1
    defense: int = 1
    copies: int = 1

    @property
    def bonus(self) -> Bonus:
        """The printed combat bonus."""
        return Bonus(attack=self.bonus_attack, damage=self.bonus_damage, defense=self.bonus_defense)


@dataclass(frozen=True, kw_only=True)
class DeckList:
    """The cards a player brought (the deck file's combat and objective cards).

    The companion holds no hands (ARCHITECTURE.md): this list is what a card played in a
    battle or as an objective is picked from.
    """

    slug: str | None
    title: str | None
    cards: tuple[DeckCard, ...]

    def card(self, card_id: str) -> DeckCard | None:
        """The card with this id, or None."""
        return next((c for c in self.cards if c.id == card_id), None)


@dataclass(frozen=True, kw_only=True)
class Unit:
    """A unit (PM-1) on the table.

    Attributes:
        id: ``"A1"``, ``"B4"``: seat and fleet position.
        seat: the owner.
        name, stars (1..5), attack, damage, defense, shields, icons, ground, text: PM-1.
        card: the deck card id it was built from (QR code), or None (quick entry).
        place: a zone of :data:`ZONES` or :data:`RESERVE`.
        counters: damage counters (>= 0; 0 in the reserve, PM-24).
        destroyed: in the reserve because it was destroyed (PM-24).
    """

    id: str
    seat: str
    name: str
    stars: int
    attack: int
    damage: int
    defense: int
    shields: int
    icons: tuple[str, ...] = ()
    ground: bool = False
    text: str | None = None
    card: str | None = None
    place: str = RESERVE
    counters: int = 0
    destroyed: bool = False

    @property
    def in_play(self) -> bool:
        """True in a zone, False in the reserve (PM-6)."""
        return self.place != RESERVE


@dataclass(frozen=True, kw_only=True)
class Objective:
    """One objective slot (PM-7, PM-10, PM-30..32).

    Attributes:
        slot: 1, 2, 3.
        status: ``face_down``, ``face_up`` or ``destroyed``.
        name, defense, stars, card: known once face up (None while face down).
    """

    slot: int
    status: str = "face_down"
    name: str | None = None
    defense: int | None = None
    stars: int | None = None
    card: str | None = None


@dataclass(frozen=True, kw_only=True)
class Player:
    """A seat's side of the table once its fleet is in (PM-5, PM-7); ``casual``: the building
    rules a fleet played anyway breaks, with the numbers (empty for a legal fleet)."""

    deck: DeckList | None
    objectives: tuple[Objective, ...]
    casual: tuple[Reason, ...] = ()

    @property
    def objectives_left(self) -> int:
        """Objectives not destroyed (PM-40)."""
        return sum(o.status != "destroyed" for o in self.objectives)


@dataclass(frozen=True, kw_only=True)
class Play:
    """A combat card (or a typed bonus) played in a battle (PM-20, PM-25).

    Attributes:
        card: the deck card id, or None for a bonus typed by hand.
        name: the card's name (None for a typed bonus).
        printed: the bonus as printed (or typed).
        applies: False when the unit lacks an icon the card needs and the table plays the
            flag ``icon_gates_bonus`` (PM-25 former reading): the bonus then does not count.
        missing: the card's green and silver icons the unit lacks (its special ability is
            not the unit's, PM-25).
    """

    card: str | None
    name: str | None
    printed: Bonus
    applies: bool = True
    missing: tuple[str, ...] = ()

    @property
    def counted(self) -> Bonus:
        """The bonus that counts (PM-25)."""
        return self.printed if self.applies else NO_BONUS


@dataclass(frozen=True, kw_only=True)
class SideResult:
    """One unit's attack in a battle (PM-21..23).

    Attributes:
        unit: the attacking unit's id.
        faces: its 2d6.
        dice: their sum.
        attack_total: dice + Attack + counted bonuses.
        defense_total: the opposing unit's defense total.
        hits: ``attack_total >= defense_total`` (PM-22).
        damage: counters the opposing unit gets (0 without a hit, PM-23).
        turbolaser: the Turbolaser +1 Damage counted (PM-14).
    """

    unit: str
    faces: tuple[int, ...]
    dice: int
    attack_total: int
    defense_total: int
    hits: bool
    damage: int
    turbolaser: bool


@dataclass(frozen=True, kw_only=True)
class BattleResult:
    """Both sides' attacks (simultaneous, PM-21) and the units they destroy (PM-24)."""

    attacker: SideResult
    defender: SideResult
    destroyed: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Battle:
    """The combat action in progress (PM-12, PM-20..26): one battle per pair, in sequence.

    Attributes:
        pairs: ``(attacker id, defender id)`` in the order fought.
        index: the pair being fought.
        step: one of :data:`BATTLE_STEPS`.
        play_attacker, play_defender: the cards played (PM-20).
        passed_attacker, passed_defender: who passed.
        mod_attacker, mod_defender: further modifiers typed before the roll (D10).
        result: the rolled result awaiting confirmation.
    """

    pairs: tuple[tuple[str, str], ...]
    index: int = 0
    step: str = "attacker_card"
    play_attacker: Play | None = None
    play_defender: Play | None = None
    passed_attacker: bool = False
    passed_defender: bool = False
    mod_attacker: Bonus = NO_BONUS
    mod_defender: Bonus = NO_BONUS
    result: BattleResult | None = None

    @property
    def attacker(self) -> str:
        """The attacking unit of the current battle."""
        return self.pairs[self.index][0]

    @property
    def defender(self) -> str:
        """The defending unit of the current battle."""
        return self.pairs[self.index][1]


@dataclass(frozen=True, kw_only=True)
class StrikeResult:
    """A strike's roll (PM-31): ``strike_total >= defense_total`` destroys the objective."""

    faces: tuple[int, ...]
    dice: int
    strike_total: int
    defense_total: int
    destroyed: bool


@dataclass(frozen=True, kw_only=True)
class Strike:
    """The objective strike action in progress (PM-13, PM-30..32): one roll per striker,
    all against the one objective picked (D15; flag ``each_striker_picks_objective``: each
    striker picks its own).

    Attributes:
        units: the striking units in order.
        index: the unit striking now.
        step: one of :data:`STRIKE_STEPS`.
        slot: the targeted objective slot (from step ``reveal`` on; kept for the next
            striker, D15).
        mod_unit, mod_objective: modifiers typed before the roll (D10).
        result: the rolled result awaiting confirmation.
        reinforce_stars: PM-32: the destroyed objective's build stars (step ``reinforce``).
    """

    units: tuple[str, ...]
    index: int = 0
    step: str = "target"
    slot: int | None = None
    mod_unit: Bonus = NO_BONUS
    mod_objective: Bonus = NO_BONUS
    result: StrikeResult | None = None
    reinforce_stars: int | None = None

    @property
    def unit(self) -> str:
        """The striking unit now."""
        return self.units[self.index]


@dataclass(frozen=True, kw_only=True)
class TurnAction:
    """The turn's one action and its star budget (PM-11..14)."""

    kind: str
    stars: int
    budget: int


@dataclass(frozen=True, kw_only=True)
class State:
    """The whole table (PM-5..PM-40).

    Attributes:
        variant: the variant flags.
        phase: one of :data:`PHASES`.
        turn: 1, 2, ... (a turn ends with ``end_turn``).
        active: the seat whose turn it is (None while fleets are brought).
        first: the first player (PM-9), None until rolled.
        players: ``(A, B)``; None until the seat's fleet is in.
        units: every unit of both fleets, in fleet order (A's first).
        objective_played: PM-10 used this turn.
        action: the turn's action once chosen.
        battle, strike: the fight in progress.
        end: ``no_units`` / ``no_objectives`` once over (PM-40).
        winner: the winning seat; None with ``end`` set means a draw (D7).
    """

    variant: Variant = field(default_factory=Variant)
    phase: str = "fleets"
    turn: int = 1
    active: str | None = None
    first: str | None = None
    players: tuple[Player | None, Player | None] = (None, None)
    units: tuple[Unit, ...] = ()
    objective_played: bool = False
    action: TurnAction | None = None
    battle: Battle | None = None
    strike: Strike | None = None
    end: str | None = None
    winner: str | None = None

    def player(self, seat: str) -> Player | None:
        """The seat's side of the table, None before its fleet is in."""
        return self.players[SEATS.index(seat)]

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with this id, or None."""
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        return None


def check_state(state: State) -> None:
    """The invariants of every reachable state.

    Raises:
        StateError: an unknown phase or place, negative counters, counters on a unit not in
            play, a destroyed unit in play, duplicate unit ids, a star budget overspent.
    """
    if state.phase not in PHASES:
        raise StateError(f"phase must be one of {PHASES}, got {state.phase!r}")
    seen: set[str] = set()
    for unit in state.units:
        if unit.id in seen:
            raise StateError(f"unit id {unit.id} appears twice")
        seen.add(unit.id)
        if unit.place not in PLACES:
            raise StateError(f"unit {unit.id}: place must be one of {PLACES}, got {unit.place!r}")
        if unit.counters < 0 or (unit.counters and not unit.in_play):
            raise StateError(f"unit {unit.id}: {unit.counters} counters in {unit.place}")
        if unit.destroyed and unit.in_play:
            raise StateError(f"unit {unit.id} is destroyed but in play")
    if state.action is not None and not 0 <= state.action.stars <= state.action.budget:
        raise StateError(f"action uses {state.action.stars} of {state.action.budget} stars")
