"""What every game's ``actions.py`` shares: the base of its action classes and the checks of
an action's JSON envelope (an object, a known ``type``, only that type's fields).

A game declares its actions as subclasses of :class:`GameAction` (each one becomes a frozen,
keyword-only dataclass, as STYLE.md's habit 2 wants the values of a state) and parses the
phone's JSON with :func:`action_kind`, which refuses what is not an action of the game with a
:class:`~games.protocol.MalformedAction` naming the field and the allowed values; the fields'
values the game checks itself (their ranges are its rules). Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any, dataclass_transform

from games.protocol import MalformedAction

BRIEF = 40
"""Longest rendering of a refused value in a message, characters (ellipsis included)."""


def brief(value: Any) -> str:
    """``repr(value)`` cut to :data:`BRIEF` characters with an ellipsis (for messages)."""
    text = repr(value)
    return text if len(text) <= BRIEF else text[: BRIEF - 1] + "\u2026"


@dataclass_transform(frozen_default=True, kw_only_default=True)
class GameAction:
    """Base of a game's action classes: every subclass is made a frozen, keyword-only
    dataclass (its annotated class attributes are its fields, in order), so an action is
    declared by its class, docstring and fields alone. Actions of different classes are never
    equal, even without fields (``Draw() != EndTurn()``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True, kw_only=True)(cls)


def field_names(cls: type[Any]) -> frozenset[str]:
    """The names of a dataclass's fields (an action's JSON keys besides ``type``)."""
    return frozenset(f.name for f in dataclasses.fields(cls))


def action_kind(data: Any, fields: Mapping[str, AbstractSet[str] | None]) -> str:
    """The ``type`` of an action's JSON, checked against the game's actions.

    Args:
        data: the JSON the phone sent.
        fields: every action ``type`` of the game -> the keys its JSON may have besides
            ``type``, or None where the type's own parser checks them.

    Raises:
        MalformedAction: not a JSON object, a ``type`` that is not one of ``fields`` (the
            message lists them), or a key the type does not take (the message lists them).
    """
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {brief(data)}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise MalformedAction(f"type must be one of {list(fields)}, got {brief(kind)}")
    allowed = fields[kind]
    unknown = [] if allowed is None else sorted(str(k) for k in data.keys() - allowed - {"type"})
    if allowed is not None and unknown:
        raise MalformedAction(
            f"{kind} takes the fields {sorted(allowed)}, got the unknown {unknown}"
        )
    return kind
