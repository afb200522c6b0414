"""Battles and objective strikes: totals, hits, damage, destruction (PM-14, PM-20..25, PM-31).

Pure functions of the state and the rolled faces; the server rolls (ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import replace

from games.pocketmodel.state import (
    GOLD_ICONS,
    NO_BONUS,
    RESERVE,
    Battle,
    BattleResult,
    Bonus,
    DeckCard,
    Play,
    SideResult,
    State,
    StrikeResult,
    Unit,
    Variant,
)

TURBOLASER_MIN_STARS = 4
"""PM-14: Turbolaser gives +1 Damage against units of 4 and 5 stars."""


def destroyed_at(counters: int, shields: int, variant: Variant) -> bool:
    """PM-24: destroyed when counters >= Shields (seed), or > Shields with the flag
    ``destroy_above_shields`` (official sheet).

    Args:
        counters: damage counters the unit would carry (>= 1: a unit without counters is never
            destroyed, D6).
        shields: the unit's Shields.
        variant: the table's flags.
    """
    if counters <= 0:
        return False
    return counters > shields if variant.destroy_above_shields else counters >= shields


def card_play(card: DeckCard, unit: Unit, variant: Variant) -> Play:
    """A combat card played for ``unit`` (PM-20, PM-25): its bonus always counts, unless the
    table plays the former reading ``icon_gates_bonus`` (D3) and the unit lacks one of the
    card's green or silver icons (gold icons name no unit icon, PM-2). ``missing`` lists those
    icons either way: the card's special ability is the unit's only with them (PM-25), and the
    players apply an ability as a modifier (D10)."""
    needed = tuple(i for i in card.icons if i not in GOLD_ICONS)
    missing = tuple(i for i in needed if i not in unit.icons)
    applies = not (missing and variant.icon_gates_bonus)
    return Play(card=card.id, name=card.name, printed=card.bonus, applies=applies, missing=missing)


def typed_play(bonus: Bonus) -> Play:
    """A bonus typed by hand (the card is not in the deck list): always counts (PM-20)."""
    return Play(card=None, name=None, printed=bonus)


def _side(
    unit: Unit,
    opponent: Unit,
    faces: tuple[int, ...],
    own: Bonus,
    theirs: Bonus,
) -> SideResult:
    dice = sum(faces)
    attack_total = dice + unit.attack + own.attack  # PM-21
    defense_total = opponent.defense + theirs.defense  # PM-21
    hits = attack_total >= defense_total  # PM-22
    turbolaser = hits and "Turbolaser" in unit.icons and opponent.stars >= TURBOLASER_MIN_STARS
    damage = max(0, unit.damage + own.damage + (1 if turbolaser else 0)) if hits else 0  # PM-23
    return SideResult(
        unit=unit.id,
        faces=faces,
        dice=dice,
        attack_total=attack_total,
        defense_total=defense_total,
        hits=hits,
        damage=damage,
        turbolaser=turbolaser,
    )


def battle_result(
    state: State,
    battle: Battle,
    attacker_faces: tuple[int, ...],
    defender_faces: tuple[int, ...],
) -> BattleResult:
    """Both units attack at once (PM-21): each side's attack total against the other's defense
    total, hits (PM-22), damage (PM-23, PM-14 Turbolaser), and who the damage would destroy
    (PM-24) from the counters they carry now.

    Args:
        state: the table (units as they stand).
        battle: the battle at step ``roll``.
        attacker_faces, defender_faces: the 2d6 of each unit (1..6 each).
    """
    attacker = state.unit(battle.attacker)
    defender = state.unit(battle.defender)
    assert attacker is not None and defender is not None
    own = _counted(battle.play_attacker) + battle.mod_attacker
    theirs = _counted(battle.play_defender) + battle.mod_defender
    a = _side(attacker, defender, attacker_faces, own, theirs)
    d = _side(defender, attacker, defender_faces, theirs, own)
    destroyed = tuple(
        u.id
        for u, taken in ((attacker, d.damage), (defender, a.damage))
        if taken and destroyed_at(u.counters + taken, u.shields, state.variant)
    )
    return BattleResult(attacker=a, defender=d, destroyed=destroyed)


def _counted(play: Play | None) -> Bonus:
    return NO_BONUS if play is None else play.counted


def add_counters(state: State, unit_id: str, counters: int) -> State:
    """``counters`` damage counters on (or, negative, off) a unit in play; a unit that reaches
    the PM-24 threshold is destroyed: to the reserve, its counters removed."""
    units = list(state.units)
    for n, unit in enumerate(units):
        if unit.id == unit_id:
            total = unit.counters + counters
            if destroyed_at(total, unit.shields, state.variant) and counters > 0:
                units[n] = replace(unit, place=RESERVE, counters=0, destroyed=True)
            else:
                units[n] = replace(unit, counters=total)
            break
    return replace(state, units=tuple(units))


def strike_result(
    unit: Unit, faces: tuple[int, ...], defense: int, own: Bonus, objective: Bonus
) -> StrikeResult:
    """PM-31: strike total = 2d6 + Attack + modifiers; the objective is destroyed when it is
    at least the objective's defense value + modifiers."""
    dice = sum(faces)
    strike_total = dice + unit.attack + own.attack
    defense_total = defense + objective.defense
    return StrikeResult(
        faces=faces,
        dice=dice,
        strike_total=strike_total,
        defense_total=defense_total,
        destroyed=strike_total >= defense_total,
    )
