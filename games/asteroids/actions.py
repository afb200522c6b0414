"""The Asteroids actions (a step or jump, a skipped step, a push) and their JSON.

Source: shared/rules/asteroids.md, AST-10..AST-24; :mod:`games.asteroids.rules` checks and
applies them.
"""

from __future__ import annotations

from typing import Any

from games.actionjson import GameAction
from games.asteroids.spec import ASTEROIDS
from games.asteroids.state import (
    RIFTS,
    SIDES,
    MalformedAction,
    Spot,
    _check_choice,
    _check_int,
)

# ----------------------------------------------------------------------------------- actions


class Move(GameAction):
    """A step (AST-10) or a jump (AST-15) of the top ship at ``origin`` of the player to move.

    Attributes:
        origin: where the ship stands: a place, the player's own base, or (variant
            ``scored_ships_mobile``) the opposing base.
        target: where it ends: a place, a base, or ``None`` for off the board sideways, which
            returns it home (AST-13, AST-16). See D5.
    """

    origin: Spot
    target: Spot | None

    def __post_init__(self) -> None:
        if not isinstance(self.origin, Spot):
            raise MalformedAction(f"origin must be a Spot, got {self.origin!r}")
        if self.target is not None and not isinstance(self.target, Spot):
            raise MalformedAction(f"target must be a Spot or None, got {self.target!r}")


class Skip(GameAction):
    """Skip a step because no step is possible (AST-24)."""


class Push(GameAction):
    """Push a supply fragment into a rift (AST-20).

    Attributes:
        fragment: id of a fragment in the supply.
        layout: its orientation as it enters (D6).
        side: the end it is pushed in from, ``"left"`` or ``"right"``.
        rift: 1..6; must be the rift of the 2nd step unless AST-22 / D3 lets the player choose.

    Raises:
        MalformedAction: a field out of range.
    """

    fragment: int
    layout: str
    side: str
    rift: int

    def __post_init__(self) -> None:
        _check_int("fragment", self.fragment, 0, ASTEROIDS.fragment_total - 1, MalformedAction)
        _check_choice("layout", self.layout, ("HH", "HA", "AH"), MalformedAction)
        _check_choice("side", self.side, SIDES, MalformedAction)
        _check_int("rift", self.rift, 1, RIFTS, MalformedAction)


Action = Move | Skip | Push


def action_to_json(action: Action) -> dict[str, Any]:
    """Encode an action as a JSON-ready dict (``{"type": "move"|"skip"|"push", ...}``)."""
    if isinstance(action, Move):
        target = None if action.target is None else action.target.to_json()
        return {"type": "move", "origin": action.origin.to_json(), "target": target}
    if isinstance(action, Skip):
        return {"type": "skip"}
    return {
        "type": "push",
        "fragment": action.fragment,
        "layout": action.layout,
        "side": action.side,
        "rift": action.rift,
    }


_ACTION_FIELDS = {"move": {"origin", "target"}, "skip": set(), "push": set(Push.__annotations__)}
TYPES = tuple(_ACTION_FIELDS)
"""Every action ``type``."""


def action_from_json(data: Any) -> Action:
    """Decode an action produced by :func:`action_to_json`.

    Raises:
        MalformedAction: not an object, unknown ``type``, missing or extra fields, values out of
            range.
    """
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type", "")
    _check_choice("type", kind, tuple(_ACTION_FIELDS), MalformedAction)
    fields = set(data) - {"type"}
    if fields != _ACTION_FIELDS[kind]:
        raise MalformedAction(
            f"fields of a {kind} action must be {sorted(_ACTION_FIELDS[kind])}, got {sorted(fields)}"
        )
    if kind == "move":
        target = None if data["target"] is None else Spot.from_json(data["target"], "target")
        return Move(origin=Spot.from_json(data["origin"], "origin"), target=target)
    if kind == "skip":
        return Skip()
    return Push(**{name: data[name] for name in _ACTION_FIELDS["push"]})
