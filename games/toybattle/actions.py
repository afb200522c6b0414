"""The Toy Battle actions (draw, place, resolve an effect, decline it, declare being stuck)
and their JSON (the phone's requests, checked here).

Source: shared/rules/toy-battle.md, TB-10..TB-41; :mod:`games.toybattle.effects` applies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.actionjson import GameAction, action_kind, brief
from games.protocol import MalformedAction
from games.toybattle.rules import TROOP_INDEX, TROOPS

# ---------------------------------------------------------------------------------- actions


class Draw(GameAction):
    """TB-10: draw 2 (or 1) troops from the reserve."""


class Place(GameAction):
    """TB-11: place ``troop`` (a name of :data:`TROOPS`) on ``node``; also a Cap'n's extra."""

    troop: str
    node: int


class Resolve(GameAction):
    """Apply the first pending effect with its choice: ``node`` (Jumbo, Castle Field, the
    Jungle's troop), ``to`` (the Jungle's destination), ``troop`` (XB-42, Cursed Cemetery);
    none for a draw or a Battlefield block."""

    node: int | None = None
    to: int | None = None
    troop: str | None = None


class Decline(GameAction):
    """Skip the first pending effect (all effects are optional, TB-20)."""


class Stuck(GameAction):
    """TB-41: the player to move declares they can neither draw nor place (D11)."""


Action = Draw | Place | Resolve | Decline | Stuck


def _node(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
        raise MalformedAction(f"{key} must be a node id 1..99, got {brief(value)}")
    return value


def _troop(data: Mapping[str, Any], key: str = "troop") -> str:
    value = data.get(key)
    if not isinstance(value, str) or value not in TROOP_INDEX:
        raise MalformedAction(f"{key} must be one of {list(TROOPS)}, got {brief(value)}")
    return str(value)


_FIELDS = {
    "draw": frozenset[str](),
    "place": frozenset({"troop", "node"}),
    "resolve": frozenset({"node", "to", "troop"}),
    "decline": frozenset[str](),
    "stuck": frozenset[str](),
}
"""Action ``type`` -> the keys its JSON takes besides ``type``."""
TYPES = tuple(_FIELDS)
"""Every action ``type``."""


def action_from_json(data: Any) -> Action:
    """Parse ``{"type": "draw"|"place"|"resolve"|"decline"|"stuck", ...}``.

    Raises:
        MalformedAction: not an object, unknown type or field, a bad node id or troop name.
    """
    kind = action_kind(data, _FIELDS)
    if kind == "draw":
        return Draw()
    if kind == "decline":
        return Decline()
    if kind == "stuck":
        return Stuck()
    if kind == "place":
        return Place(troop=_troop(data), node=_node(data, "node"))
    return Resolve(
        node=_node(data, "node") if "node" in data else None,
        to=_node(data, "to") if "to" in data else None,
        troop=_troop(data) if "troop" in data else None,
    )


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as JSON; a resolve leaves out its empty fields (the phone tests for them)."""
    if isinstance(action, Draw):
        return {"type": "draw"}
    if isinstance(action, Decline):
        return {"type": "decline"}
    if isinstance(action, Stuck):
        return {"type": "stuck"}
    if isinstance(action, Place):
        return {"type": "place", "troop": action.troop, "node": action.node}
    out: dict[str, Any] = {"type": "resolve"}
    if action.node is not None:
        out["node"] = action.node
    if action.to is not None:
        out["to"] = action.to
    if action.troop is not None:
        out["troop"] = action.troop
    return out
