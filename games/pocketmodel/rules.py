"""The PocketModel rules engine: turn structure, actions, battles, strikes, the outcome
(PM-5..PM-40). Pure: dice come in as faces; see :mod:`games.pocketmodel` for the decisions.

Entry points: :func:`new_game`, :func:`to_act`, :func:`dice_requests`, :func:`check`,
:func:`apply`, :func:`outcome`; the legal actions are :mod:`games.pocketmodel.legal`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from games.pocketmodel import combat
from games.pocketmodel.actions import (
    Action,
    Carrier,
    Combat,
    Confirm,
    Counter,
    EndTurn,
    Fleet,
    Modify,
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
from games.pocketmodel.fleet import check_fleet, place_fleet
from games.pocketmodel.messages import MESSAGES, expected
from games.pocketmodel.state import (
    ADJACENT,
    Battle,
    Bonus,
    Objective,
    Player,
    State,
    TurnAction,
    Unit,
    Variant,
    home,
    other,
)
from games.pocketmodel.state import Strike as StrikeState
from games.protocol import (
    SEATS,
    DiceRequest,
    Faces,
    MalformedAction,
    NotYourTurn,
    Outcome,
    check_faces,
)

ACTION_STARS = 5
"""PM-11..13: an action uses units worth up to 5 stars."""
CARRIER_STARS = 2
"""PM-14: the carrier power brings reserve units worth up to 2 stars."""
LIST_CAP = 64
"""Most moves, combats, strikes, carrier uses or reinforcements ``legal_actions`` lists per
kind (D8: the number of unit subsets can explode; :func:`apply` accepts every legal one)."""
PURPOSE_FIRST = "first player (PM-9)"
PURPOSE_ATTACKER = "attacker's 2d6 (PM-21)"
PURPOSE_DEFENDER = "defender's 2d6 (PM-21)"
PURPOSE_STRIKE = "strike 2d6 (PM-31)"
"""Purposes of the server's rolls (the phone view translates them)."""


def new_game(variant: Variant, fleets: Sequence[Fleet | None], first: str | None) -> State:
    """The table after a setup: fleets brought so far (A, B) and, once both are in, the first
    player (PM-9).

    Raises:
        SetupError: a fleet breaks PM-5 or PM-8.
    """
    state = State(variant=variant)
    for seat, fleet in zip(SEATS, fleets):
        if fleet is not None:
            check_fleet(fleet)
            state = place_fleet(state, seat, fleet)
    if all(state.player(s) is not None for s in SEATS):
        assert first in SEATS
        state = replace(state, phase="main", active=first, first=first)
    return state


# ------------------------------------------------------------------------------- who acts


def to_act(state: State) -> str | None:
    """The seat to act: in the fleets phase the first seat still without a fleet (either seat
    may bring theirs, D8); in a battle the defender chooses its card (PM-20); in a strike the
    defender names the revealed objective (PM-30) and its reinforcements (PM-32); otherwise
    the active player. None once over (PM-40)."""
    if state.phase == "over":
        return None
    if state.phase == "fleets":
        return "A" if state.player("A") is None else "B"
    active = state.active
    assert active is not None
    if (
        state.phase == "battle"
        and state.battle is not None
        and state.battle.step == "defender_card"
    ):
        return other(active)
    if (
        state.phase == "strike"
        and state.strike is not None
        and state.strike.step in ("reveal", "reinforce")
    ):
        return other(active)
    return active


def _expected(state: State) -> tuple[str, str]:
    """What the rules expect now: (message id, the step's rule id). The refusal of an action
    that does not fit says what comes next and cites the rule it breaks (:func:`_broken_rule`);
    the step's rule is cited when the action fits but the seat is not the one to act (the
    step's rule says whose step it is)."""
    step = _step(state)
    return expected(state.phase, "strike" if state.strike is not None else "battle", step)


_OUT_OF_STEP: dict[type, str] = {
    PlayObjective: "PM-10",
    Move: "PM-11",
    Combat: "PM-11",
    Strike: "PM-11",
    Carrier: "PM-11",
    PlayCard: "PM-20",
    Pass: "PM-20",
    Target: "PM-30",
    Reveal: "PM-30",
    Reinforce: "PM-32",
}
"""The rule an action breaks when it comes out of its step: an objective is played before the
action (PM-10); a second action breaks the turn's one action (PM-11); combat cards are played
or passed in a battle's card steps only, one each (PM-20); the target is picked and revealed
once per strike (PM-30); reinforcements follow a destroyed objective (PM-32)."""


def _broken_rule(state: State, action: Action) -> str:
    """The rule ``action`` breaks when it does not fit the step (the refusal cites it, not
    the rule of the step that comes next): :data:`_OUT_OF_STEP`, and for the fight's own
    actions the fight's rule: ending the turn leaves the battle (PM-12) or the strike (PM-13)
    unfinished; a roll before the cards are played or passed breaks PM-20, before the target
    is revealed PM-30, a second one PM-21 (battle) or PM-31 (strike); modifiers and the
    result's confirmation belong to the roll (PM-21, PM-31).
    """
    rule = _OUT_OF_STEP.get(type(action))
    if rule is not None:
        return rule
    strike = state.strike is not None
    if isinstance(action, EndTurn):
        return "PM-13" if strike else "PM-12"
    step = _step(state)
    if isinstance(action, Roll) and step in ("attacker_card", "defender_card", "attacker_again"):
        return "PM-20"
    if isinstance(action, Roll) and step in ("target", "reveal"):
        return "PM-30"
    return "PM-31" if strike else "PM-21"


# ------------------------------------------------------------------------------------ dice


def dice_requests(state: State, action: Action) -> tuple[DiceRequest, ...]:
    """The dice an action needs (before its legality is checked): the second fleet rolls the
    first player (1d2, PM-9); a battle's roll 2d6 per unit (PM-21); a strike's roll 2d6
    (PM-31)."""
    if isinstance(action, Fleet):
        if state.phase == "fleets" and sum(state.player(s) is not None for s in SEATS) == 1:
            return (DiceRequest(count=1, sides=2, purpose=PURPOSE_FIRST),)
        return ()
    if isinstance(action, Roll):
        if state.battle is not None and state.battle.step == "roll":
            return (
                DiceRequest(count=2, sides=6, purpose=PURPOSE_ATTACKER),
                DiceRequest(count=2, sides=6, purpose=PURPOSE_DEFENDER),
            )
        if state.strike is not None and state.strike.step == "roll":
            return (DiceRequest(count=2, sides=6, purpose=PURPOSE_STRIKE),)
    return ()


def check(state: State, seat: str, action: Action) -> tuple[DiceRequest, ...]:
    """The dice ``action`` needs, after checking it is legal now (nothing rolled yet).

    The checks are :func:`apply`'s own, up to the point where the dice would be used: the
    action is not applied here (a roll's dice decide only its result, a second fleet's die
    only the first player, PM-9), so the server applies it once, with its dice.

    Raises:
        MalformedAction: a seat not A/B.
        NotYourTurn, IllegalAction: as :func:`apply`.
    """
    requests = dice_requests(state, action)
    if requests:  # without dice nothing is rolled: apply itself checks it, once
        _check_seat(seat)
        _handler(state, seat, action)
    return requests


# ----------------------------------------------------------------------------------- apply


def apply(state: State, seat: str, action: Action, faces: Faces = ()) -> State:
    """The state after ``seat`` takes ``action`` with the rolled ``faces``.

    Raises:
        MalformedAction: faces that do not answer :func:`dice_requests`, a seat not A/B.
        NotYourTurn: another seat is to act (counters and fleets excepted).
        IllegalAction: the rules forbid it now; the message ends with the rule id.
    """
    _check_seat(seat)
    check_faces(dice_requests(state, action), faces)
    after = _handler(state, seat, action)(state, seat, action, faces)
    return after if isinstance(action, Fleet) else _finish(after)


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise MalformedAction(f"seat must be A or B, got {seat!r}")


def _handler(state: State, seat: str, action: Action) -> _Handler:
    """The function that applies ``action`` now, after the checks that need no dice (the
    game is on, the fleets are in, the seat is to act, the action fits the step; a fleet's
    own checks, PM-5, PM-8).

    Raises:
        NotYourTurn, IllegalAction: as :func:`apply`.
    """
    if state.phase == "over":
        raise MESSAGES.error("game_over", "PM-40")
    if isinstance(action, Counter):
        return _counter
    if isinstance(action, Fleet):
        _check_fleet_now(state, seat, action)
        return _fleet
    if state.phase == "fleets":
        raise MESSAGES.error("fleets_first", "PM-8")
    actor = to_act(state)
    handler = _HANDLERS.get((state.phase, _step(state), type(action)))
    message, step_rule = _expected(state)
    if seat != actor:
        rule = step_rule if handler is not None else _broken_rule(state, action)
        raise MESSAGES.error("not_your_turn", rule, NotYourTurn, player=actor)
    if handler is None:
        raise MESSAGES.error(message, _broken_rule(state, action))
    return handler


def _step(state: State) -> str | None:
    if state.battle is not None:
        return state.battle.step
    if state.strike is not None:
        return state.strike.step
    return None


def _finish(state: State) -> State:
    """PM-40: a player with no units in play or no objectives left loses (both at once: a
    draw, D7; the active player wins with the flag ``double_loss_active_wins``)."""
    losers = {}
    for seat in SEATS:
        player = state.player(seat)
        if player is None:
            continue
        if player.objectives_left == 0:
            losers[seat] = "no_objectives"
        elif not any(u.in_play for u in state.units if u.seat == seat):
            losers[seat] = "no_units"
    if not losers:
        return state
    if len(losers) == 1:
        winner: str | None = other(next(iter(losers)))
    else:
        winner = state.active if state.variant.double_loss_active_wins else None
    reason = losers[other(winner)] if winner is not None else next(iter(losers.values()))
    return replace(state, phase="over", battle=None, strike=None, end=reason, winner=winner)


def _unit(state: State, unit_id: str) -> Unit:
    unit = state.unit(unit_id)
    if unit is None:
        raise MESSAGES.error("no_unit", "PM-6", unit=unit_id)
    return unit


def _own_in_play(state: State, seat: str, unit_id: str, rule: str) -> Unit:
    unit = _unit(state, unit_id)
    if unit.seat != seat:
        raise MESSAGES.error("not_your_unit", rule, name=unit.name, unit=unit.id)
    if not unit.in_play:
        raise MESSAGES.error("in_reserve", "PM-6", name=unit.name, unit=unit.id)
    return unit


def _reserve(state: State, seat: str, unit_ids: Sequence[str], rule: str) -> list[Unit]:
    """The units ``unit_ids``, each one of ``seat``'s reserve (PM-14, PM-32)."""
    units = [_unit(state, uid) for uid in unit_ids]
    for unit in units:
        if unit.seat != seat or unit.in_play:
            raise MESSAGES.error("not_in_reserve", rule, name=unit.name, unit=unit.id)
    return units


def _budget(units: Sequence[Unit], budget: int, rule: str) -> int:
    stars = sum(u.stars for u in units)
    if stars > budget:
        raise MESSAGES.error("over_budget", rule, stars=stars, budget=budget)
    return stars


def _with_units(state: State, changed: dict[str, Unit]) -> State:
    return replace(state, units=tuple(changed.get(u.id, u) for u in state.units))


def _fighting(state: State) -> tuple[str, ...]:
    """Units of the battle or strike being fought now (their counters wait, D5)."""
    if state.battle is not None:
        return (state.battle.attacker, state.battle.defender)
    if state.strike is not None:
        return (state.strike.unit,)
    return ()


def _counter(state: State, seat: str, action: Counter, faces: Faces) -> State:
    if state.phase == "fleets":
        raise MESSAGES.error("counters_after_fleets", "PM-8")
    unit = _unit(state, action.unit)
    if not unit.in_play:
        raise MESSAGES.error("in_reserve", "PM-6", name=unit.name, unit=unit.id)
    if unit.id in _fighting(state):
        raise MESSAGES.error("fighting", "PM-23", name=unit.name)
    if action.delta < 0 and unit.counters == 0:
        raise MESSAGES.error("no_counter", "PM-23", name=unit.name)
    return combat.add_counters(state, unit.id, action.delta)


def _check_fleet_now(state: State, seat: str, action: Fleet) -> None:
    if state.phase != "fleets":
        raise MESSAGES.error("fleets_before", "PM-8")
    if state.player(seat) is not None:
        raise MESSAGES.error("fleet_brought", "PM-5", seat=seat)
    check_fleet(action)


def _fleet(state: State, seat: str, action: Fleet, faces: Faces) -> State:
    state = place_fleet(state, seat, action)
    if faces:
        first = SEATS[faces[0][0] - 1]  # PM-9
        state = replace(state, phase="main", active=first, first=first)
    return state


# ------------------------------------------------------------------------- turn actions


def _objective(state: State, seat: str, action: PlayObjective, faces: Faces) -> State:
    if state.objective_played:
        raise MESSAGES.error("objective_played", "PM-10")
    player = state.player(seat)
    assert player is not None
    if player.deck is None:
        raise MESSAGES.error("no_deck_objectives", "PM-10")
    card = player.deck.card(action.card)
    if card is None or card.type != "objective":
        raise MESSAGES.error("not_objective_card", "PM-10", card=action.card)
    old = player.objectives[action.slot - 1]
    if old.status == "destroyed":
        raise MESSAGES.error("slot_destroyed", "PM-10", slot=action.slot)
    new = Objective(
        slot=action.slot,
        status="face_up",
        name=card.name,
        defense=card.defense,
        stars=card.stars,
        card=card.id,
    )
    return replace(_with_objective(state, seat, new), objective_played=True)


def _with_objective(state: State, seat: str, objective: Objective) -> State:
    player = state.player(seat)
    assert player is not None
    objectives = tuple(objective if o.slot == objective.slot else o for o in player.objectives)
    updated = replace(player, objectives=objectives)
    a, b = (updated if s == seat else state.player(s) for s in SEATS)
    return replace(state, players=(a, b))


def _move(state: State, seat: str, action: Move, faces: Faces) -> State:
    units = [_own_in_play(state, seat, uid, "PM-11") for uid in action.units]
    stars = _budget(units, ACTION_STARS, "PM-11")
    for unit in units:
        if action.to not in ADJACENT[unit.place]:
            raise MESSAGES.error(
                "move_adjacent",
                "PM-11",
                name=unit.name,
                place=unit.place,
                allowed=" / ".join(ADJACENT[unit.place]),
                to=action.to,
            )
    state = _with_units(state, {u.id: replace(u, place=action.to) for u in units})
    return replace(
        state, phase="end", action=TurnAction(kind="move", stars=stars, budget=ACTION_STARS)
    )


def _combat(state: State, seat: str, action: Combat, faces: Faces) -> State:
    attackers = [a for a, _ in action.pairs]
    if len(set(attackers)) != len(attackers):
        raise MESSAGES.error("attack_once", "PM-12")
    units = []
    for attacker_id, defender_id in action.pairs:
        attacker = _own_in_play(state, seat, attacker_id, "PM-12")
        defender = _unit(state, defender_id)
        if defender.seat == seat:
            raise MESSAGES.error("own_target", "PM-12", name=defender.name)
        if not defender.in_play:
            raise MESSAGES.error("target_not_in_play", "PM-6", name=defender.name, unit=defender.id)
        if defender.place != attacker.place:
            raise MESSAGES.error(
                "same_zone",
                "PM-12",
                attacker=attacker.name,
                place=attacker.place,
                defender=defender.name,
                other=defender.place,
            )
        units.append(attacker)
    stars = _budget(units, ACTION_STARS, "PM-12")
    return replace(
        state,
        phase="battle",
        battle=Battle(pairs=action.pairs),
        action=TurnAction(kind="combat", stars=stars, budget=ACTION_STARS),
    )


def _strike(state: State, seat: str, action: Strike, faces: Faces) -> State:
    units = [_own_in_play(state, seat, uid, "PM-13") for uid in action.units]
    enemy_home = home(other(seat))
    for unit in units:
        if unit.place != enemy_home:
            raise MESSAGES.error(
                "strikers_home", "PM-13", name=unit.name, place=unit.place, home=enemy_home
            )
    stars = _budget(units, ACTION_STARS, "PM-13")
    return replace(
        state,
        phase="strike",
        strike=StrikeState(units=action.units),
        action=TurnAction(kind="strike", stars=stars, budget=ACTION_STARS),
    )


def _carrier(state: State, seat: str, action: Carrier, faces: Faces) -> State:
    """PM-14: instead of the turn ("anstatt des Zuges", D16): not after an objective was
    played this turn, unless the table plays ``carrier_replaces_action``."""
    if state.objective_played and not state.variant.carrier_replaces_action:
        raise MESSAGES.error("carrier_whole_turn", "PM-14")
    carrier = _own_in_play(state, seat, action.carrier, "PM-14")
    if "Carrier" not in carrier.icons:
        raise MESSAGES.error("no_carrier_icon", "PM-14", name=carrier.name)
    units = _reserve(state, seat, action.units, "PM-14")
    stars = _budget(units, CARRIER_STARS, "PM-14")
    placed = {u.id: replace(u, place=carrier.place, destroyed=False) for u in units}
    return replace(
        _with_units(state, placed),
        phase="end",
        action=TurnAction(kind="carrier", stars=stars, budget=CARRIER_STARS),
    )


def _end_turn(state: State, seat: str, action: EndTurn, faces: Faces) -> State:
    """End the turn: after its action, or without one (the action is optional, PM turn, D14)
    unless the table plays ``action_required``."""
    if state.phase == "main" and state.variant.action_required:
        raise MESSAGES.error("action_required", "PM-11")
    return replace(
        state,
        phase="main",
        active=other(seat),
        turn=state.turn + 1,
        action=None,
        objective_played=False,
    )


# -------------------------------------------------------------------------------- battles


def _play(state: State, seat: str, action: PlayCard, faces: Faces) -> State:
    battle = state.battle
    assert battle is not None
    attacking = battle.step != "defender_card"
    unit = _unit(state, battle.attacker if attacking else battle.defender)
    if action.card is not None:
        player = state.player(seat)
        assert player is not None
        card = None if player.deck is None else player.deck.card(action.card)
        if card is None or card.type != "combat":
            raise MESSAGES.error("not_combat_card", "PM-20", card=action.card)
        play = combat.card_play(card, unit, state.variant)
    else:
        play = combat.typed_play(
            Bonus(attack=action.attack, damage=action.damage, defense=action.defense)
        )
    if attacking:
        battle = replace(
            battle,
            play_attacker=play,
            step="defender_card" if battle.step == "attacker_card" else "roll",
        )
    else:
        again = battle.passed_attacker  # PM-20: the defender played, the attacker had passed
        battle = replace(battle, play_defender=play, step="attacker_again" if again else "roll")
    return replace(state, battle=battle)


def _pass(state: State, seat: str, action: Pass, faces: Faces) -> State:
    battle = state.battle
    assert battle is not None
    if battle.step == "attacker_card":
        battle = replace(battle, passed_attacker=True, step="defender_card")
    elif battle.step == "defender_card":
        battle = replace(battle, passed_defender=True, step="roll")
    else:
        battle = replace(battle, step="roll")
    return replace(state, battle=battle)


def _modify(state: State, seat: str, action: Modify, faces: Faces) -> State:
    bonus = Bonus(attack=action.attack, damage=action.damage, defense=action.defense)
    if state.battle is not None:
        battle = state.battle
        if action.unit == battle.attacker:
            battle = replace(battle, mod_attacker=battle.mod_attacker + bonus)
        elif action.unit == battle.defender:
            battle = replace(battle, mod_defender=battle.mod_defender + bonus)
        else:
            raise MESSAGES.error("not_fighting", "PM-21", unit=action.unit)
        return replace(state, battle=battle)
    strike = state.strike
    assert strike is not None
    if action.unit is None:
        strike = replace(strike, mod_objective=strike.mod_objective + bonus)
    elif action.unit == strike.unit:
        strike = replace(strike, mod_unit=strike.mod_unit + bonus)
    else:
        raise MESSAGES.error("not_striking", "PM-31", unit=action.unit)
    return replace(state, strike=strike)


def _battle_roll(state: State, seat: str, action: Roll, faces: Faces) -> State:
    battle = state.battle
    assert battle is not None
    result = combat.battle_result(state, battle, faces[0], faces[1])
    return replace(state, battle=replace(battle, step="result", result=result))


def _battle_confirm(state: State, seat: str, action: Confirm, faces: Faces) -> State:
    battle = state.battle
    assert battle is not None and battle.result is not None
    result = battle.result
    # PM-21: both hits land at once; counters and destruction per PM-23, PM-24.
    for unit_id, damage in (
        (battle.defender, result.attacker.damage),
        (battle.attacker, result.defender.damage),
    ):
        if damage:
            state = combat.add_counters(state, unit_id, damage)
    return _next_battle(state, battle.pairs, battle.index + 1)


def _next_battle(state: State, pairs: tuple[tuple[str, str], ...], index: int) -> State:
    """The next pair whose units are both still in play and in one zone (D4), or the end of
    the action (PM-26: hands are the players' own business, D11)."""
    while index < len(pairs):
        attacker, defender = (state.unit(i) for i in pairs[index])
        if attacker and defender and attacker.in_play and attacker.place == defender.place:
            return replace(state, battle=Battle(pairs=pairs, index=index))
        index += 1
    return replace(state, battle=None, phase="end")


# -------------------------------------------------------------------------------- strikes


def _defender(state: State, seat: str) -> Player:
    player = state.player(other(seat))
    assert player is not None
    return player


def _target(state: State, seat: str, action: Target, faces: Faces) -> State:
    strike = state.strike
    assert strike is not None
    objective = _defender(state, seat).objectives[action.slot - 1]
    if objective.status == "destroyed":
        raise MESSAGES.error("slot_destroyed_already", "PM-30", slot=action.slot)
    step = "reveal" if objective.status == "face_down" else "roll"
    return replace(state, strike=replace(strike, slot=action.slot, step=step))


def _reveal(state: State, seat: str, action: Reveal, faces: Faces) -> State:
    strike = state.strike
    assert strike is not None and strike.slot is not None
    player = state.player(seat)
    assert player is not None
    if action.card is not None:
        card = None if player.deck is None else player.deck.card(action.card)
        if card is None:
            raise MESSAGES.error("not_deck_card", "PM-30", card=action.card)
        objective = Objective(
            slot=strike.slot,
            status="face_up",
            name=card.name,
            defense=card.defense,
            stars=card.stars,
            card=card.id,
        )
    else:
        objective = Objective(
            slot=strike.slot, status="face_up", defense=action.defense, stars=action.stars
        )
    state = _with_objective(state, seat, objective)
    return replace(state, strike=replace(strike, step="roll"))


def _strike_roll(state: State, seat: str, action: Roll, faces: Faces) -> State:
    strike = state.strike
    assert strike is not None and strike.slot is not None
    objective = _defender(state, seat).objectives[strike.slot - 1]
    assert objective.defense is not None
    unit = _unit(state, strike.unit)
    result = combat.strike_result(
        unit, faces[0], objective.defense, strike.mod_unit, strike.mod_objective
    )
    return replace(state, strike=replace(strike, step="result", result=result))


def _strike_confirm(state: State, seat: str, action: Confirm, faces: Faces) -> State:
    strike = state.strike
    assert strike is not None and strike.result is not None and strike.slot is not None
    if not strike.result.destroyed:
        return _next_strike(state, strike, destroyed=False)
    defender = other(seat)
    objective = replace(_defender(state, seat).objectives[strike.slot - 1], status="destroyed")
    state = _with_objective(state, defender, objective)
    if state.player(defender).objectives_left == 0:  # type: ignore[union-attr]
        return state  # PM-40 (and PM-32: no reinforcements after the last objective)
    stars = objective.stars or 0
    fits = any(u.seat == defender and not u.in_play and u.stars <= stars for u in state.units)
    if not fits:
        return _next_strike(state, strike, destroyed=True)
    return replace(state, strike=replace(strike, step="reinforce", reinforce_stars=stars))


def _reinforce(state: State, seat: str, action: Reinforce, faces: Faces) -> State:
    strike = state.strike
    assert strike is not None and strike.reinforce_stars is not None
    units = _reserve(state, seat, action.units, "PM-32")
    _budget(units, strike.reinforce_stars, "PM-32")
    placed = {u.id: replace(u, place=home(seat), destroyed=False) for u in units}
    return _next_strike(_with_units(state, placed), strike, destroyed=True)


def _next_strike(state: State, strike: StrikeState, *, destroyed: bool) -> State:
    """The next striker still in the enemy home zone (D4), or the end of the action.

    PM-13 (D15): the strike attacks one objective ("Greife eines der Ziele des Gegners an"):
    the next striker attacks the same slot (face up now, so straight to the roll), and once it
    is ``destroyed`` the strike is over. With ``each_striker_picks_objective`` (the former
    reading) every striker picks its own target.
    """
    active = state.active
    assert active is not None
    picks = state.variant.each_striker_picks_objective
    if destroyed and not picks:
        return replace(state, strike=None, phase="end")
    index = strike.index + 1
    while index < len(strike.units):
        unit = state.unit(strike.units[index])
        if unit is not None and unit.place == home(other(active)):
            if picks:
                return replace(state, strike=StrikeState(units=strike.units, index=index))
            after = StrikeState(units=strike.units, index=index, slot=strike.slot, step="roll")
            return replace(state, strike=after)
        index += 1
    return replace(state, strike=None, phase="end")


_Handler = Callable[[State, str, Any, Faces], State]
_HANDLERS: dict[tuple[str, str | None, type], _Handler] = {
    ("main", None, PlayObjective): _objective,
    ("main", None, Move): _move,
    ("main", None, Combat): _combat,
    ("main", None, Strike): _strike,
    ("main", None, Carrier): _carrier,
    ("main", None, EndTurn): _end_turn,
    ("end", None, EndTurn): _end_turn,
    **{
        ("battle", step, PlayCard): _play
        for step in ("attacker_card", "defender_card", "attacker_again")
    },
    **{
        ("battle", step, Pass): _pass
        for step in ("attacker_card", "defender_card", "attacker_again")
    },
    ("battle", "roll", Modify): _modify,
    ("battle", "roll", Roll): _battle_roll,
    ("battle", "result", Confirm): _battle_confirm,
    ("strike", "target", Target): _target,
    ("strike", "reveal", Reveal): _reveal,
    ("strike", "roll", Modify): _modify,
    ("strike", "roll", Roll): _strike_roll,
    ("strike", "result", Confirm): _strike_confirm,
    ("strike", "reinforce", Reinforce): _reinforce,
}


# -------------------------------------------------------------------------------- outcome


def outcome(state: State) -> Outcome | None:
    """PM-40: the player with no units in play or no objectives left loses."""
    if state.phase != "over" or state.end is None:
        return None
    return Outcome(winner=state.winner, reason=state.end, rule="PM-40")
