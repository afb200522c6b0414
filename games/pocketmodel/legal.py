"""What a PocketModel seat may do now: every legal action, in a stable order (PM-13..PM-36).

The list serves random playouts, the phone's hints and the protocol's ``legal_actions``;
long lists are capped at :data:`~games.pocketmodel.rules.LIST_CAP` per kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.pocketmodel.actions import (
    Action,
    Carrier,
    Combat,
    Confirm,
    Counter,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    PlayObjective,
    Reinforce,
    Reveal,
    Roll,
    Strike,
    Target,
)
from games.pocketmodel.fleet import STANDARD_FLEET
from games.pocketmodel.rules import (
    ACTION_STARS,
    CARRIER_STARS,
    LIST_CAP,
    _defender,
    _fighting,
    to_act,
)
from games.pocketmodel.state import (
    ADJACENT,
    State,
    Unit,
    home,
    other,
)


def _subsets(
    units: Sequence[Unit], budget: int, cap: int, empty: bool = False
) -> list[tuple[Unit, ...]]:
    """Subsets of ``units`` worth up to ``budget`` stars, in a stable order, at most ``cap``."""
    found: list[tuple[Unit, ...]] = [()] if empty else []
    chosen: list[Unit] = []

    def walk(start: int, used: int) -> None:
        for n in range(start, len(units)):
            if len(found) >= cap:
                return
            if used + units[n].stars <= budget:
                chosen.append(units[n])
                found.append(tuple(chosen))
                walk(n + 1, used + units[n].stars)
                chosen.pop()

    walk(0, 0)
    return found


def _pairings(
    attackers: Sequence[Unit], enemies: dict[str, list[Unit]]
) -> list[tuple[tuple[str, str], ...]]:
    found: list[tuple[tuple[str, str], ...]] = []
    chosen: list[tuple[str, str]] = []

    def walk(start: int, used: int) -> None:
        for n in range(start, len(attackers)):
            attacker = attackers[n]
            if used + attacker.stars > ACTION_STARS:
                continue
            for enemy in enemies[attacker.place]:
                if len(found) >= LIST_CAP:
                    return
                chosen.append((attacker.id, enemy.id))
                found.append(tuple(chosen))
                walk(n + 1, used + attacker.stars)
                chosen.pop()

    walk(0, 0)
    return found


def legal_actions(state: State, seat: str) -> list[Action]:
    """The actions ``seat`` may take now, in a stable order: the turn's actions of the seat to
    act first, then damage counters (either seat, D5). Bonuses typed by hand, modifiers and
    fleets other than :data:`~games.pocketmodel.fleet.STANDARD_FLEET` are legal but not listed
    (D8); subsets of units are listed up to :data:`LIST_CAP` per kind."""
    if state.phase == "over":
        return []
    if state.phase == "fleets":
        return [STANDARD_FLEET] if state.player(seat) is None else []
    found: list[Action] = []
    if seat == to_act(state):
        found.extend(_turn_actions(state, seat))
    fighting = _fighting(state)
    for unit in state.units:
        if unit.in_play and unit.id not in fighting:
            found.append(Counter(unit=unit.id, delta=1))
            if unit.counters:
                found.append(Counter(unit=unit.id, delta=-1))
    return found


def _turn_actions(state: State, seat: str) -> list[Action]:
    found: list[Action] = []
    player = state.player(seat)
    assert player is not None
    deck = player.deck
    if state.phase == "end":
        return [EndTurn()]
    if state.phase == "main":
        if not state.objective_played and deck is not None:
            for objective in player.objectives:
                if objective.status != "destroyed":
                    found.extend(
                        PlayObjective(slot=objective.slot, card=c.id)
                        for c in deck.cards
                        if c.type == "objective"
                    )
        own = [u for u in state.units if u.seat == seat and u.in_play]
        for chosen in _subsets(own, ACTION_STARS, LIST_CAP):
            targets = set(ADJACENT[chosen[0].place])
            for unit in chosen[1:]:
                targets &= set(ADJACENT[unit.place])
            found.extend(Move(units=tuple(u.id for u in chosen), to=z) for z in sorted(targets))
        enemies: dict[str, list[Unit]] = {}
        for unit in state.units:
            if unit.seat != seat and unit.in_play:
                enemies.setdefault(unit.place, []).append(unit)
        attackers = [u for u in own if u.place in enemies]
        found.extend(Combat(pairs=p) for p in _pairings(attackers, enemies))
        strikers = [u for u in own if u.place == home(other(seat))]
        found.extend(
            Strike(units=tuple(u.id for u in c)) for c in _subsets(strikers, ACTION_STARS, LIST_CAP)
        )
        reserve = [u for u in state.units if u.seat == seat and not u.in_play]
        whole_turn = state.objective_played and not state.variant.carrier_replaces_action
        for carrier in [] if whole_turn else own:  # PM-14 "anstatt des Zuges" (D16)
            if "Carrier" in carrier.icons:
                found.extend(
                    Carrier(carrier=carrier.id, units=tuple(u.id for u in c))
                    for c in _subsets(reserve, CARRIER_STARS, LIST_CAP)
                )
        if not state.variant.action_required:
            found.append(EndTurn())  # pass the action (D14)
        return found
    if state.battle is not None:
        step = state.battle.step
        if step == "roll":
            return [Roll()]
        if step == "result":
            return [Confirm()]
        if deck is not None:
            found.extend(PlayCard(card=c.id) for c in deck.cards if c.type == "combat")
        return [*found, Pass()]
    strike = state.strike
    assert strike is not None
    if strike.step == "target":
        return [
            Target(slot=o.slot)
            for o in _defender(state, seat).objectives
            if o.status != "destroyed"
        ]
    if strike.step == "reveal":
        if deck is not None:
            return [Reveal(card=c.id) for c in deck.cards]
        return [Reveal(defense=d, stars=s) for d in range(1, 21) for s in range(1, 6)]
    if strike.step == "roll":
        return [Roll()]
    if strike.step == "result":
        return [Confirm()]
    reserve = [u for u in state.units if u.seat == seat and not u.in_play]
    stars = strike.reinforce_stars or 0
    return [
        Reinforce(units=tuple(u.id for u in c))
        for c in _subsets(reserve, stars, LIST_CAP, empty=True)
    ]
