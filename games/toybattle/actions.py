"""The Toy Battle actions (draw, place, resolve an effect, decline it, declare being stuck)
and their JSON (the phone's requests, checked here).

Source: shared/rules/toy-battle.md, TB-10..TB-41; :mod:`games.toybattle.effects` applies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.protocol import MalformedAction
from games.toybattle.rules import TROOP_INDEX, TROOPS

# ---------------------------------------------------------------------------------- actions


@dataclass(frozen=True, kw_only=True)
class Draw:
    """TB-10: draw 2 (or 1) troops from the reserve."""


@dataclass(frozen=True, kw_only=True)
class Place:
    """TB-11: place ``troop`` (a name of :data:`TROOPS`) on ``node``; also a Cap'n's extra."""

    troop: str
    node: int


@dataclass(frozen=True, kw_only=True)
class Resolve:
    """Apply the first pending effect with its choice: ``node`` (Jumbo, Castle Field, the
    Jungle's troop), ``to`` (the Jungle's destination), ``troop`` (XB-42, Cursed Cemetery);
    none for a draw or a Battlefield block."""

    node: int | None = None
    to: int | None = None
    troop: str | None = None


@dataclass(frozen=True, kw_only=True)
class Decline:
    """Skip the first pending effect (all effects are optional, TB-20)."""


@dataclass(frozen=True, kw_only=True)
class Stuck:
    """TB-41: the player to move declares they can neither draw nor place (D11)."""


Action = Draw | Place | Resolve | Decline | Stuck


def _node(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
        raise MalformedAction(f"{key} must be a node id 1..99, got {value!r:.40}")
    return value


def _troop(data: Mapping[str, Any], key: str = "troop") -> str:
    value = data.get(key)
    if not isinstance(value, str) or value not in TROOP_INDEX:
        raise MalformedAction(f"{key} must be one of {list(TROOPS)}, got {value!r:.40}")
    return str(value)


_FIELDS = {
    "draw": {"type"},
    "place": {"type", "troop", "node"},
    "resolve": {"type", "node", "to", "troop"},
    "decline": {"type"},
    "stuck": {"type"},
}


def action_from_json(data: Any) -> Action:
    """Parse ``{"type": "draw"|"place"|"resolve"|"decline"|"stuck", ...}``.

    Raises:
        MalformedAction: not an object, unknown type or field, a bad node id or troop name.
    """
    if not isinstance(data, dict):
        raise MalformedAction("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise MalformedAction(f"type must be one of {list(_FIELDS)}, got {kind!r:.40}")
    extra = set(data) - _FIELDS[kind]
    if extra:
        raise MalformedAction(
            f"{kind} takes the fields {sorted(_FIELDS[kind])}, got {sorted(extra)}"
        )
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
