"""What the phones see: the table's JSON plus the values the phone must not compute itself.

The phone view (``companion/views/transformers/view.js``) reads :func:`view_state`: the
state of :func:`games.transformers.codec.state_to_json` with

* ``allowed``: what the player to act may do now (:func:`rules.allowed`);
* ``still``: which of the turn's once-only plays (``flip``, ``action``, ``upgrade``) are
  still open this turn, counting the draw as done (the check marks: TF-11, TF-12, D5);
* per character ``attack`` and ``defense`` in its current mode;
* in ``attack``, per side ``base``, ``icons`` (orange for the attacker, blue for the
  defender), ``bonus``, ``total`` (TF-22) and ``pending`` (``"first"``, ``"extra"`` or
  None, TF-21); and ``damage`` (TF-23) and ``ready`` (every flip entered).

Hidden information (ARCHITECTURE.md: a player's deck list and hand stay on that player's
phone): the characters, their modes, counters and upgrades lie on the table for everybody;
a team's deck list (``teams.<seat>.battle_cards``) reaches only its owner's phone. The other
seat and watchers get the deck's slug and title, no cards, and ``hidden``: how many (copies
counted). In the log (:func:`event_view`) the ``team`` action's deck list is hidden the same
way, and an Action or Upgrade played from it carries its ``name`` for the others (a played
card lies on the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.transformers import attack as fight
from games.transformers import rules
from games.transformers.codec import state_to_json
from games.transformers.state import FIGHTER_SIDES, State

_PLAYED = ("play_action", "play_upgrade")
"""Actions that put a battle card of the deck list on the table (TF-12, TF-13)."""


def hidden_team(team: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A team's JSON (``{"deck", "title", "battle_cards"}``) as the other seat sees it: no
    battle cards, ``hidden`` their number (copies counted)."""
    if team is None:
        return None
    count = sum(int(c.get("copies", 1)) for c in team.get("battle_cards", ()))
    return {**team, "battle_cards": [], "hidden": count}


def event_view(
    kind: str,
    payload: Mapping[str, Any],
    actor: str | None,
    seat: str | None,
    before: State | None,
) -> dict[str, Any] | None:
    """A logged payload as ``seat`` (None: a watcher) may see it, or None when unchanged
    (module docstring).

    Args:
        kind: the event kind; only ``action`` events carry deck lists.
        payload: the logged payload.
        actor: the seat that wrote the event.
        seat: the viewer.
        before: the state before the event (names a played card for the other seats).
    """
    if kind != "action" or actor == seat:
        return None
    action = payload.get("action") or {}
    if action.get("type") == "team":
        shown = hidden_team(action)
        assert shown is not None
        return {**payload, "action": shown}
    if action.get("type") in _PLAYED and action.get("card") and before is not None and actor:
        team = before.team(actor)
        card = None if team is None else team.battle_card(action["card"])
        if card is not None:
            return {**payload, "action": {**action, "name": card.name}}
    return None


def view_state(state: State, seat: str | None = None) -> dict[str, Any]:
    """The state JSON for the phones with the derived values (module docstring), the deck
    lists of every seat but ``seat`` hidden (:func:`hidden_team`; a watcher, None, sees
    none)."""
    data = state_to_json(state)
    for owner, team in data["teams"].items():
        if owner != seat:
            data["teams"][owner] = hidden_team(team)
    data["allowed"] = rules.allowed(state)
    drawn = replace(state, this_turn=replace(state.this_turn, drawn=True))
    once = rules.allowed(drawn) if state.phase == "main" else {}
    data["still"] = {kind: bool(once.get(kind)) for kind in ("flip", "action", "upgrade")}
    for shown, character in zip(data["characters"], state.characters):
        shown["attack"] = character.current.attack
        shown["defense"] = character.current.defense
    if state.attack is not None:
        for side in FIGHTER_SIDES:
            numbers = fight.totals(state, side)
            data["attack"][side].update(
                base=numbers.base,
                icons=numbers.icons,
                bonus=numbers.bonus,
                total=numbers.total,
                pending=state.attack.side(side).pending,
            )
        data["attack"]["damage"] = fight.damage(state)
        data["attack"]["ready"] = fight.ready(state)
    return data
