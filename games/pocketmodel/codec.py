"""The PocketModel table state as JSON: what the phone view reads and what
:func:`state_from_json` reads back to an equal state (PM-5..PM-40).

The JSON is exactly what ``companion/views/pocketmodel/view.js`` reads: ``state.units[*].place``,
``state.battle.plays``, ``state.strike.result`` and so on. :func:`state_from_json` checks the
invariants of :func:`games.pocketmodel.state.check_state`.
"""

from __future__ import annotations

from typing import Any

from games.pocketmodel.state import (
    Battle,
    BattleResult,
    Bonus,
    DeckCard,
    DeckList,
    Objective,
    Play,
    Player,
    SideResult,
    State,
    Strike,
    StrikeResult,
    TurnAction,
    Unit,
    Variant,
    check_state,
)
from games.protocol import SEATS, StateError


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
        "casual": list(player.casual),
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
        casual=tuple(str(p) for p in data.get("casual", ())),
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
