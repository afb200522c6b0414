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

The table is open (the companion holds no hands), so every seat sees the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.transformers import attack as fight
from games.transformers import rules
from games.transformers.codec import state_to_json
from games.transformers.state import FIGHTER_SIDES, State


def view_state(state: State) -> dict[str, Any]:
    """The state JSON for the phones with the derived values (module docstring)."""
    data = state_to_json(state)
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
