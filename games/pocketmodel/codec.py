"""The PocketModel table state as JSON: what the phone view reads and what
:func:`state_from_json` reads back to an equal state (PM-5..PM-40).

The JSON is exactly what ``companion/views/pocketmodel/view.js`` reads: ``state.units[*].place``,
``state.battle.plays``, ``state.strike.result`` and so on. Units, deck lists, objectives, plays,
results, bonuses, the variant and the turn's action are their fields one to one (derived,
:mod:`games.codec`); written here is only what the view reads in another form: a player with
its fleet's stars, a battle's and a strike's sides grouped (``plays``, ``passed``,
``modifiers``) with the fighting units named. :func:`state_from_json` checks the invariants of
:func:`games.pocketmodel.state.check_state`.
"""

from __future__ import annotations

from typing import Any

from games.codec import decoder, encoder, or_none
from games.pocketmodel.state import (
    Battle,
    BattleResult,
    Bonus,
    DeckList,
    Objective,
    Play,
    Player,
    State,
    Strike,
    StrikeResult,
    TurnAction,
    Unit,
    Variant,
    check_state,
    stored_variant,
)
from games.protocol import SEATS, Reason, StateError

_bonus_to_json = encoder(Bonus)
_bonus_from_json = decoder(Bonus)
_unit_to_json = encoder(Unit)
_unit_from_json = decoder(Unit)
_deck_to_json = encoder(DeckList)
_deck_from_json = decoder(DeckList)
_objective_to_json = encoder(Objective)
_objective_from_json = decoder(Objective)
_play_to_json = encoder(Play)
_play_from_json = decoder(Play)
_battle_result_to_json = encoder(BattleResult)
_battle_result_from_json = decoder(BattleResult)
_strike_result_to_json = encoder(StrikeResult)
_strike_result_from_json = decoder(StrikeResult)
variant_to_json = encoder(Variant)
"""Every variant flag (the fields of :class:`~games.pocketmodel.state.Variant`)."""
_variant_from_json = decoder(Variant)
_action_to_json = encoder(TurnAction)
_action_from_json = decoder(TurnAction)


def _battle_to_json(battle: Battle | None) -> dict[str, Any] | None:
    if battle is None:
        return None
    return {
        "pairs": [list(p) for p in battle.pairs],
        "index": battle.index,
        "attacker": battle.attacker,
        "defender": battle.defender,
        "step": battle.step,
        "plays": {
            "attacker": or_none(_play_to_json, battle.play_attacker),
            "defender": or_none(_play_to_json, battle.play_defender),
        },
        "passed": {"attacker": battle.passed_attacker, "defender": battle.passed_defender},
        "modifiers": {
            "attacker": _bonus_to_json(battle.mod_attacker),
            "defender": _bonus_to_json(battle.mod_defender),
        },
        "result": or_none(_battle_result_to_json, battle.result),
    }


def _strike_to_json(strike: Strike | None) -> dict[str, Any] | None:
    if strike is None:
        return None
    return {
        "units": list(strike.units),
        "index": strike.index,
        "unit": strike.unit,
        "step": strike.step,
        "slot": strike.slot,
        "modifiers": {
            "unit": _bonus_to_json(strike.mod_unit),
            "objective": _bonus_to_json(strike.mod_objective),
        },
        "result": or_none(_strike_result_to_json, strike.result),
        "reinforce_stars": strike.reinforce_stars,
    }


def _player_to_json(player: Player | None, seat: str, units: tuple[Unit, ...]) -> Any:
    if player is None:
        return None
    own = [u for u in units if u.seat == seat]
    return {
        "deck": or_none(_deck_to_json, player.deck),
        "casual": [reason.to_json() for reason in player.casual],
        "objectives": [_objective_to_json(o) for o in player.objectives],
        "objectives_left": player.objectives_left,
        "fleet_stars": sum(u.stars for u in own),
        "stars_in_play": sum(u.stars for u in own if u.in_play),
    }


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state as the JSON the phone view reads (round trip with
    :func:`state_from_json`; ``objectives_left``, ``fleet_stars``, ``stars_in_play``,
    ``battle.attacker``/``defender`` and ``strike.unit`` are derived and ignored on input)."""
    return {
        "variant": variant_to_json(state.variant),
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "players": {seat: _player_to_json(state.player(seat), seat, state.units) for seat in SEATS},
        "units": [_unit_to_json(u) for u in state.units],
        "objective_played": state.objective_played,
        "action": or_none(_action_to_json, state.action),
        "battle": _battle_to_json(state.battle),
        "strike": _strike_to_json(state.strike),
        "end": state.end,
        "winner": state.winner,
    }


def _battle_from_json(data: Any) -> Battle | None:
    if data is None:
        return None
    return Battle(
        pairs=tuple((p[0], p[1]) for p in data["pairs"]),
        index=data["index"],
        step=data["step"],
        play_attacker=or_none(_play_from_json, data["plays"]["attacker"]),
        play_defender=or_none(_play_from_json, data["plays"]["defender"]),
        passed_attacker=bool(data["passed"]["attacker"]),
        passed_defender=bool(data["passed"]["defender"]),
        mod_attacker=_bonus_from_json(data["modifiers"]["attacker"]),
        mod_defender=_bonus_from_json(data["modifiers"]["defender"]),
        result=or_none(_battle_result_from_json, data["result"]),
    )


def _strike_from_json(data: Any) -> Strike | None:
    if data is None:
        return None
    return Strike(
        units=tuple(data["units"]),
        index=data["index"],
        step=data["step"],
        slot=data["slot"],
        mod_unit=_bonus_from_json(data["modifiers"]["unit"]),
        mod_objective=_bonus_from_json(data["modifiers"]["objective"]),
        result=or_none(_strike_result_from_json, data["result"]),
        reinforce_stars=data["reinforce_stars"],
    )


def _player_from_json(data: Any) -> Player | None:
    if data is None:
        return None
    return Player(
        casual=tuple(Reason.from_json(p) for p in data.get("casual", ())),
        deck=or_none(_deck_from_json, data["deck"]),
        objectives=tuple(_objective_from_json(o) for o in data["objectives"]),
    )


def state_from_json(data: Any) -> State:
    """Parse :func:`state_to_json` output and check its consistency.

    Raises:
        StateError: a missing field, a wrong shape, or an inconsistent state (unknown phase
            or place, negative counters, counters on a unit in the reserve).
    """
    try:
        state = State(
            variant=_variant_from_json(stored_variant(data["variant"])),  # FORMER_READINGS
            phase=data["phase"],
            turn=data["turn"],
            active=data["active"],
            first=data["first"],
            players=(
                _player_from_json(data["players"]["A"]),
                _player_from_json(data["players"]["B"]),
            ),
            units=tuple(_unit_from_json(u) for u in data["units"]),
            objective_played=bool(data["objective_played"]),
            action=or_none(_action_from_json, data["action"]),
            battle=_battle_from_json(data["battle"]),
            strike=_strike_from_json(data["strike"]),
            end=data["end"],
            winner=data["winner"],
        )
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise StateError(f"not a PocketModel state: {exc!r}") from exc
    check_state(state)
    return state
