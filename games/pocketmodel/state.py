"""The PocketModel table state: fleets, zones, counters, objectives, the turn's action, the
fight in progress; value types and their JSON (PM-5..PM-40).

Everything here is a frozen, keyword-only dataclass of tuples, so equal states compare equal
and the JSON round trip (:func:`state_to_json`, :func:`state_from_json`) gives back an equal
state. The JSON is exactly what the phone view reads
(``companion/views/pocketmodel/view.js``): ``state.units[*].place``, ``state.battle.plays``,
``state.strike.result`` and so on.

Places (PM-6): ``home_A``, ``contested``, ``home_B`` (adjacent in this order) and ``reserve``.
A destroyed unit lies in the reserve with ``destroyed`` set (PM-24), so every unit is in
exactly one place: in play (a zone), in the reserve, or destroyed (reserve + ``destroyed``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.protocol import SEATS, StateError

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
    """Variant flags (decisions D2, D3 in :mod:`games.pocketmodel`).

    Attributes:
        destroy_above_shields: PM-24 official sheet: destroyed only when counters > Shields
            (default False: the seed's counters >= Shields).
        icon_gates_bonus: PM-25 former reading: a combat card's bonus counts only when the
            unit carries the card's green and silver icons (default False: the bonus always
            counts, only the icon ability is gated, D3).
        action_required: the turn must take one of the actions PM-11..PM-14 before it ends
            (default False: the seed's "darf", a player may pass the action, D14).
    """

    destroy_above_shields: bool = False
    icon_gates_bonus: bool = False
    action_required: bool = False


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
    """A seat's side of the table once its fleet is in (PM-5, PM-7)."""

    deck: DeckList | None
    objectives: tuple[Objective, ...]

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
    """The objective strike action in progress (PM-13, PM-30..32): one strike per unit.

    Attributes:
        units: the striking units in order.
        index: the unit striking now.
        step: one of :data:`STRIKE_STEPS`.
        slot: the targeted objective slot (from step ``reveal`` on).
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


# ------------------------------------------------------------------------------------- JSON


def bonus_to_json(bonus: Bonus) -> dict[str, int]:
    """``{"attack", "damage", "defense"}``."""
    return {"attack": bonus.attack, "damage": bonus.damage, "defense": bonus.defense}


def deck_to_json(deck: DeckList | None) -> dict[str, Any] | None:
    """``{"slug", "title", "cards": [...]}`` with every card field, or None."""
    if deck is None:
        return None
    return {
        "slug": deck.slug,
        "title": deck.title,
        "cards": [
            {
                "id": c.id,
                "type": c.type,
                "name": c.name,
                "bonus_attack": c.bonus_attack,
                "bonus_damage": c.bonus_damage,
                "bonus_defense": c.bonus_defense,
                "icons": list(c.icons),
                "text": c.text,
                "stars": c.stars,
                "defense": c.defense,
                "copies": c.copies,
            }
            for c in deck.cards
        ],
    }


def unit_to_json(unit: Unit) -> dict[str, Any]:
    """Every field of a unit (the view's unit tile)."""
    return {
        "id": unit.id,
        "seat": unit.seat,
        "name": unit.name,
        "stars": unit.stars,
        "attack": unit.attack,
        "damage": unit.damage,
        "defense": unit.defense,
        "shields": unit.shields,
        "icons": list(unit.icons),
        "ground": unit.ground,
        "text": unit.text,
        "card": unit.card,
        "place": unit.place,
        "counters": unit.counters,
        "destroyed": unit.destroyed,
    }


def _play_to_json(play: Play | None) -> dict[str, Any] | None:
    if play is None:
        return None
    return {
        "card": play.card,
        "name": play.name,
        "printed": bonus_to_json(play.printed),
        "applies": play.applies,
        "missing": list(play.missing),
    }


def _side_to_json(side: SideResult) -> dict[str, Any]:
    return {
        "unit": side.unit,
        "faces": list(side.faces),
        "dice": side.dice,
        "attack_total": side.attack_total,
        "defense_total": side.defense_total,
        "hits": side.hits,
        "damage": side.damage,
        "turbolaser": side.turbolaser,
    }


def _battle_to_json(battle: Battle | None) -> dict[str, Any] | None:
    if battle is None:
        return None
    result = battle.result
    return {
        "pairs": [list(p) for p in battle.pairs],
        "index": battle.index,
        "attacker": battle.attacker,
        "defender": battle.defender,
        "step": battle.step,
        "plays": {
            "attacker": _play_to_json(battle.play_attacker),
            "defender": _play_to_json(battle.play_defender),
        },
        "passed": {"attacker": battle.passed_attacker, "defender": battle.passed_defender},
        "modifiers": {
            "attacker": bonus_to_json(battle.mod_attacker),
            "defender": bonus_to_json(battle.mod_defender),
        },
        "result": None
        if result is None
        else {
            "attacker": _side_to_json(result.attacker),
            "defender": _side_to_json(result.defender),
            "destroyed": list(result.destroyed),
        },
    }


def _strike_to_json(strike: Strike | None) -> dict[str, Any] | None:
    if strike is None:
        return None
    result = strike.result
    return {
        "units": list(strike.units),
        "index": strike.index,
        "unit": strike.unit,
        "step": strike.step,
        "slot": strike.slot,
        "modifiers": {
            "unit": bonus_to_json(strike.mod_unit),
            "objective": bonus_to_json(strike.mod_objective),
        },
        "result": None
        if result is None
        else {
            "faces": list(result.faces),
            "dice": result.dice,
            "strike_total": result.strike_total,
            "defense_total": result.defense_total,
            "destroyed": result.destroyed,
        },
        "reinforce_stars": strike.reinforce_stars,
    }


def _player_to_json(player: Player | None, seat: str, units: tuple[Unit, ...]) -> Any:
    if player is None:
        return None
    own = [u for u in units if u.seat == seat]
    return {
        "deck": deck_to_json(player.deck),
        "objectives": [
            {
                "slot": o.slot,
                "status": o.status,
                "name": o.name,
                "defense": o.defense,
                "stars": o.stars,
                "card": o.card,
            }
            for o in player.objectives
        ],
        "objectives_left": player.objectives_left,
        "fleet_stars": sum(u.stars for u in own),
        "stars_in_play": sum(u.stars for u in own if u.in_play),
    }


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state as the JSON the phone view reads (round trip with
    :func:`state_from_json`; ``objectives_left``, ``fleet_stars``, ``stars_in_play``,
    ``battle.attacker``/``defender`` and ``strike.unit`` are derived and ignored on input)."""
    return {
        "variant": {
            "destroy_above_shields": state.variant.destroy_above_shields,
            "icon_gates_bonus": state.variant.icon_gates_bonus,
            "action_required": state.variant.action_required,
        },
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "players": {seat: _player_to_json(state.player(seat), seat, state.units) for seat in SEATS},
        "units": [unit_to_json(u) for u in state.units],
        "objective_played": state.objective_played,
        "action": None
        if state.action is None
        else {
            "kind": state.action.kind,
            "stars": state.action.stars,
            "budget": state.action.budget,
        },
        "battle": _battle_to_json(state.battle),
        "strike": _strike_to_json(state.strike),
        "end": state.end,
        "winner": state.winner,
    }


def bonus_from_json(data: Any) -> Bonus:
    """Inverse of :func:`bonus_to_json` (KeyError/TypeError on a bad shape)."""
    return Bonus(
        attack=int(data["attack"]), damage=int(data["damage"]), defense=int(data["defense"])
    )


def deck_from_json(data: Any) -> DeckList | None:
    """Inverse of :func:`deck_to_json` (KeyError/TypeError on a bad shape)."""
    if data is None:
        return None
    return DeckList(
        slug=data["slug"],
        title=data["title"],
        cards=tuple(
            DeckCard(
                id=c["id"],
                type=c["type"],
                name=c["name"],
                bonus_attack=c["bonus_attack"],
                bonus_damage=c["bonus_damage"],
                bonus_defense=c["bonus_defense"],
                icons=tuple(c["icons"]),
                text=c["text"],
                stars=c["stars"],
                defense=c["defense"],
                copies=c["copies"],
            )
            for c in data["cards"]
        ),
    )


def _play_from_json(data: Any) -> Play | None:
    if data is None:
        return None
    return Play(
        card=data["card"],
        name=data["name"],
        printed=bonus_from_json(data["printed"]),
        applies=bool(data["applies"]),
        missing=tuple(data["missing"]),
    )


def _side_from_json(data: Any) -> SideResult:
    return SideResult(
        unit=data["unit"],
        faces=tuple(data["faces"]),
        dice=data["dice"],
        attack_total=data["attack_total"],
        defense_total=data["defense_total"],
        hits=bool(data["hits"]),
        damage=data["damage"],
        turbolaser=bool(data["turbolaser"]),
    )


def _battle_from_json(data: Any) -> Battle | None:
    if data is None:
        return None
    result = data["result"]
    return Battle(
        pairs=tuple((p[0], p[1]) for p in data["pairs"]),
        index=data["index"],
        step=data["step"],
        play_attacker=_play_from_json(data["plays"]["attacker"]),
        play_defender=_play_from_json(data["plays"]["defender"]),
        passed_attacker=bool(data["passed"]["attacker"]),
        passed_defender=bool(data["passed"]["defender"]),
        mod_attacker=bonus_from_json(data["modifiers"]["attacker"]),
        mod_defender=bonus_from_json(data["modifiers"]["defender"]),
        result=None
        if result is None
        else BattleResult(
            attacker=_side_from_json(result["attacker"]),
            defender=_side_from_json(result["defender"]),
            destroyed=tuple(result["destroyed"]),
        ),
    )


def _strike_from_json(data: Any) -> Strike | None:
    if data is None:
        return None
    result = data["result"]
    return Strike(
        units=tuple(data["units"]),
        index=data["index"],
        step=data["step"],
        slot=data["slot"],
        mod_unit=bonus_from_json(data["modifiers"]["unit"]),
        mod_objective=bonus_from_json(data["modifiers"]["objective"]),
        result=None
        if result is None
        else StrikeResult(
            faces=tuple(result["faces"]),
            dice=result["dice"],
            strike_total=result["strike_total"],
            defense_total=result["defense_total"],
            destroyed=bool(result["destroyed"]),
        ),
        reinforce_stars=data["reinforce_stars"],
    )


def _player_from_json(data: Any) -> Player | None:
    if data is None:
        return None
    return Player(
        deck=deck_from_json(data["deck"]),
        objectives=tuple(
            Objective(
                slot=o["slot"],
                status=o["status"],
                name=o["name"],
                defense=o["defense"],
                stars=o["stars"],
                card=o["card"],
            )
            for o in data["objectives"]
        ),
    )


def unit_from_json(data: Any) -> Unit:
    """Inverse of :func:`unit_to_json` (KeyError/TypeError on a bad shape)."""
    return Unit(
        id=data["id"],
        seat=data["seat"],
        name=data["name"],
        stars=data["stars"],
        attack=data["attack"],
        damage=data["damage"],
        defense=data["defense"],
        shields=data["shields"],
        icons=tuple(data["icons"]),
        ground=bool(data["ground"]),
        text=data["text"],
        card=data["card"],
        place=data["place"],
        counters=data["counters"],
        destroyed=bool(data["destroyed"]),
    )


def state_from_json(data: Any) -> State:
    """Parse :func:`state_to_json` output and check its consistency.

    Raises:
        StateError: a missing field, a wrong shape, or an inconsistent state (unknown phase
            or place, negative counters, counters on a unit in the reserve).
    """
    try:
        action = data["action"]
        state = State(
            variant=Variant(
                destroy_above_shields=bool(data["variant"]["destroy_above_shields"]),
                icon_gates_bonus=bool(data["variant"]["icon_gates_bonus"]),
                action_required=bool(data["variant"].get("action_required", False)),
            ),
            phase=data["phase"],
            turn=data["turn"],
            active=data["active"],
            first=data["first"],
            players=(
                _player_from_json(data["players"]["A"]),
                _player_from_json(data["players"]["B"]),
            ),
            units=tuple(unit_from_json(u) for u in data["units"]),
            objective_played=bool(data["objective_played"]),
            action=None
            if action is None
            else TurnAction(kind=action["kind"], stars=action["stars"], budget=action["budget"]),
            battle=_battle_from_json(data["battle"]),
            strike=_strike_from_json(data["strike"]),
            end=data["end"],
            winner=data["winner"],
        )
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise StateError(f"not a PocketModel state: {exc!r}") from exc
    check_state(state)
    return state


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
