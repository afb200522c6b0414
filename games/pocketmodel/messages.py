"""The PocketModel engine's refusal texts (message id -> English), which the phone shows
translated (the same ids in ``companion/views/pocketmodel/view.html``, block
``refusal-strings``). Every refusal cites one rule id (:class:`games.protocol.Messages`).
Zone ids (``home_A``, ``contested``) and unit names are values, shown as they are.
"""

from __future__ import annotations

from games.protocol import Messages

MESSAGES = Messages(
    {
        "game_over": "the game is over",
        "fleets_first": "both fleets must be on the table first",
        "not_your_turn": "it is %(player)s's turn",
        "expect_main": "not now: play an objective, take the turn's action or end the turn",
        "expect_end": "not now: the turn's one action is taken: end the turn",
        "expect_roll": "not now: roll the battle's dice",
        "expect_result": "not now: confirm the battle's result",
        "expect_card": "not now: play a combat card or pass",
        "expect_target": "not now: choose the objective to strike",
        "expect_reveal": "not now: name the objective turned face up",
        "expect_strike_roll": "not now: roll the strike's dice",
        "expect_strike_result": "not now: confirm the strike's result",
        "expect_reinforce": "not now: put reinforcements into the home zone",
        "expect_fleets": "not now: bring the fleets",
        "no_unit": "no unit %(unit)s on the table",
        "not_your_unit": "%(name)s (%(unit)s) is not your unit",
        "in_reserve": "%(name)s (%(unit)s) is not in play: it is in the reserve",
        "over_budget": "units worth %(stars)s stars, at most %(budget)s",
        "counters_after_fleets": "counters go on units once both fleets are on the table",
        "fighting": "%(name)s is fighting: apply the result first",
        "no_counter": "%(name)s carries no damage counter to remove",
        "fleets_before": "fleets are brought before the first turn",
        "fleet_brought": "seat %(seat)s has brought its fleet already",
        "objective_played": "one objective per turn has been played already",
        "no_deck_objectives": "no deck list on the table: objectives come from the deck",
        "not_objective_card": "'%(card)s' is not an objective card of your deck list",
        "slot_destroyed": "objective slot %(slot)s is destroyed",
        "slot_destroyed_already": "objective slot %(slot)s is destroyed already",
        "move_adjacent": "%(name)s in %(place)s can move only to %(allowed)s, not %(to)s",
        "attack_once": "each unit attacks one enemy unit",
        "own_target": "%(name)s is your own unit: attack an enemy unit",
        "target_not_in_play": "%(name)s (%(unit)s) is not in play",
        "same_zone": "%(attacker)s in %(place)s can attack only units in the same zone, "
        "%(defender)s is in %(other)s",
        "strikers_home": "%(name)s is in %(place)s: strikers stand in %(home)s",
        "no_carrier_icon": "%(name)s has no Carrier icon",
        "carrier_whole_turn": "the Carrier power takes the whole turn, and an objective is "
        "played this turn already",
        "not_in_reserve": "%(name)s (%(unit)s) is not in your reserve",
        "action_required": "this table plays action_required: take the turn's action first",
        "not_combat_card": "'%(card)s' is not a combat card of your deck list",
        "not_fighting": "'%(unit)s' does not fight in this battle",
        "not_striking": "'%(unit)s' does not strike now",
        "not_deck_card": "'%(card)s' is not a card of your deck list",
        "fleet_stars": "fleet has %(stars)s stars, at most %(most)s",
        "deployed_stars": "deployed units have %(stars)s stars, at most %(most)s",
        "deploy_one": "deploy at least one unit in your home zone",
        "deck_size": "deck has %(size)s cards, at least %(least)s",
        "deck_copies": "deck has %(copies)s copies of '%(card)s', at most %(most)s",
        "deck_no_units": "the deck has no units: a fleet needs at least one",
    }
)
"""Message id -> English template (``%(name)s`` fields)."""

_STEPS = {
    ("battle", "roll"): ("expect_roll", "PM-21"),
    ("battle", "result"): ("expect_result", "PM-23"),
    ("strike", "target"): ("expect_target", "PM-30"),
    ("strike", "reveal"): ("expect_reveal", "PM-30"),
    ("strike", "roll"): ("expect_strike_roll", "PM-31"),
    ("strike", "result"): ("expect_strike_result", "PM-31"),
    ("strike", "reinforce"): ("expect_reinforce", "PM-32"),
}


def expected(phase: str, fight: str, step: str | None) -> tuple[str, str]:
    """(message id, rule id) of what the rules expect in ``phase`` (``main``, ``end``,
    ``battle``, ``strike``, ``fleets``) at ``step`` of the running ``fight`` (``battle`` or
    ``strike``): the refusal of an action that does not fit (PM-8, PM-11, PM-20..PM-32)."""
    if phase in ("main", "end"):
        return f"expect_{phase}", "PM-11"
    if phase in ("battle", "strike") and step is not None:
        return _STEPS.get((fight, step), ("expect_card", "PM-20"))
    return "expect_fleets", "PM-8"
